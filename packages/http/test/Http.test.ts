import { describeContract } from "./contract.js"
import { startHttpHost } from "./harness.js"

describeContract("Node HTTP host", async () => {
  const host = await startHttpHost()
  return {
    request: (path, init) => fetch(host.url + path, init),
    createKey: host.createKey,
    revokeKey: host.revokeKey,
    close: host.close
  }
})
