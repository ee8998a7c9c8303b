/**
 * `/readyz` and the judge (issue 27): a judge that did not start never makes the server unready
 * (it serves the linear models); the body says so, beside the fields it always had.
 */
import { afterEach, assert, describe, it } from "@effect/vitest"
import { ENGINE_INFO, startHttpHost, type TestHost } from "./harness.js"

let host: TestHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

describe("/readyz", () => {
  it("answers ready, with the judge unavailable and why, when the judge did not start", async () => {
    const judge = { mode: "cascade", state: "unavailable" as const, reason: "onnxruntime-node is not installed" }
    host = await startHttpHost({ engineInfo: { ...ENGINE_INFO, judge } })
    const response = await fetch(`${host.url}/readyz`)
    assert.strictEqual(response.status, 200)
    assert.deepStrictEqual(await response.json(), { status: "ready", model: ENGINE_INFO.modelVersion, judge })
  })

  it("names the judge's model when it is ready, and leaves the body as it was without a judge", async () => {
    const judge = { mode: "neural", state: "ready" as const, model: "judge-2026.11.28" }
    host = await startHttpHost({ engineInfo: { ...ENGINE_INFO, judge } })
    assert.deepStrictEqual(await (await fetch(`${host.url}/readyz`)).json(), { status: "ready", model: ENGINE_INFO.modelVersion, judge })
    await host.close()
    host = await startHttpHost()
    assert.deepStrictEqual(await (await fetch(`${host.url}/readyz`)).json(), { status: "ready", model: ENGINE_INFO.modelVersion })
  })
})
