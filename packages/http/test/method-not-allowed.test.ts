/** Issue 10 item 8: a wrong method on a known path answers 405 with `Allow`, in the family's envelope. */
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHttpHost, type TestHost } from "./harness.js"

let host: TestHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(async () => {
  await host?.close()
})

describe("a wrong method on a known path", () => {
  it("answers 405 with Allow in the native envelope", async () => {
    const res = await fetch(`${host.url}/v0.2/commentscore`, { method: "GET" })
    assert.strictEqual(res.status, 405)
    assert.strictEqual(res.headers.get("allow"), "POST")
    assert.deepInclude(await res.json(), { error: "Method Not Allowed", code: 405 })
  })

  it("lists every method of a path with a parameter", async () => {
    const res = await fetch(`${host.url}/v0.2/article-contexts/abc`, { method: "PUT" })
    assert.strictEqual(res.status, 405)
    assert.deepStrictEqual(res.headers.get("allow")?.split(", ").sort(), ["DELETE", "GET"])
  })

  it("answers 405 in the Google envelope on Perspective paths", async () => {
    const res = await fetch(`${host.url}/v1alpha1/comments:analyze`, { method: "GET" })
    assert.strictEqual(res.status, 405)
    assert.strictEqual(res.headers.get("allow"), "POST")
    expect(await res.json()).toMatchObject({ error: { code: 405 } })
  })

  it("still answers 404 for an unknown path", async () => {
    assert.strictEqual((await fetch(`${host.url}/v0.2/nothing-here`, { method: "GET" })).status, 404)
  })
})
