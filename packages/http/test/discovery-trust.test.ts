/**
 * Issue 10 item 5: the discovery document's `rootUrl` (where a discovery-built client sends its
 * key) follows `X-Forwarded-Host`/`-Proto` only when the connection comes from a configured trusted
 * proxy; anyone else's forwarded headers are ignored. Requests go through a real socket with
 * `node:http` so that `Host` is sent as written.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { request } from "node:http"
import { startHttpHost, type TestHost } from "./harness.js"

const rootUrl = (base: string, headers: Record<string, string>): Promise<string> =>
  new Promise((resolve, reject) => {
    const req = request(`${base}/$discovery/rest?version=v1alpha1`, { headers }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => {
        try {
          assert.strictEqual(res.statusCode, 200)
          resolve((JSON.parse(text) as { rootUrl: string }).rootUrl)
        } catch (error) {
          reject(error)
        }
      })
    })
    req.on("error", reject)
    req.end()
  })

const forged = { host: "decorum.internal:8080", "x-forwarded-host": "attacker.example", "x-forwarded-proto": "https" }

describe("discovery rootUrl without a trusted proxy", () => {
  let host: TestHost
  beforeAll(async () => {
    host = await startHttpHost()
  })
  afterAll(async () => {
    await host?.close()
  })

  it("ignores X-Forwarded-Host and X-Forwarded-Proto and uses the Host the client connected with", async () => {
    assert.strictEqual(await rootUrl(host.url, forged), "http://decorum.internal:8080/")
  })

  it("never builds a URL from a Host that is not a plain host[:port]", async () => {
    assert.strictEqual(await rootUrl(host.url, { host: "attacker.example/@x" }), "http://localhost/")
  })
})

describe("discovery rootUrl behind a trusted proxy", () => {
  let trusted: TestHost
  let other: TestHost
  beforeAll(async () => {
    // The harness listens on 127.0.0.1: the test is the proxy, connecting from loopback.
    trusted = await startHttpHost({ trustProxy: ["127.0.0.1"] })
    other = await startHttpHost({ trustProxy: ["10.9.8.7"] })
  })
  afterAll(async () => {
    await trusted?.close()
    await other?.close()
  })

  it("honours the first X-Forwarded-Host and X-Forwarded-Proto from the trusted peer", async () => {
    assert.strictEqual(await rootUrl(trusted.url, { ...forged, "x-forwarded-host": "moderation.example:8443, hop.example" }), "https://moderation.example:8443/")
  })

  it("ignores them from a peer that is not in the list", async () => {
    assert.strictEqual(await rootUrl(other.url, forged), "http://decorum.internal:8080/")
  })

  it("ignores a forwarded protocol other than http or https", async () => {
    assert.strictEqual(await rootUrl(trusted.url, { ...forged, "x-forwarded-proto": "javascript" }), "http://attacker.example/")
  })
})
