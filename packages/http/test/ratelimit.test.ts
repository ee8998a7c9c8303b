import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHttpHost, type TestHost } from "./harness.js"

describe("per-account rate limit", () => {
  let host: TestHost
  let key: string
  let other: string
  beforeAll(async () => {
    // 2 at once, then 1 per minute: the third request within a test run is refused.
    host = await startHttpHost({ rateLimit: { perMinute: 1, burst: 2 } })
    key = await host.createKey("limited@example.com")
    other = await host.createKey("other@example.com")
  })
  afterAll(() => host.close())

  const analyze = (k: string) =>
    fetch(`${host.url}/v1alpha1/comments:analyze?key=${k}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ comment: { text: "hello" }, requestedAttributes: { TOXICITY: {} } })
    })
  const native = (k: string, email: string) =>
    fetch(`${host.url}/v0.2/antispam`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-user-email": email, "x-api-key": k },
      body: JSON.stringify({ comment: "hello" })
    })

  it("answers 429 RESOURCE_EXHAUSTED with Retry-After once the burst is spent, per account", async () => {
    assert.strictEqual((await analyze(key)).status, 200)
    assert.strictEqual((await native(key, "limited@example.com")).status, 200)
    const refused = await analyze(key)
    assert.strictEqual(refused.status, 429)
    assert.isAtLeast(Number(refused.headers.get("retry-after")), 1)
    const body = await refused.json()
    assert.deepInclude(body.error, { code: 429, status: "RESOURCE_EXHAUSTED" })
    const nativeRefused = await native(key, "limited@example.com")
    assert.strictEqual(nativeRefused.status, 429)
    expect(await nativeRefused.json()).toEqual({ error: "Too Many Requests", message: expect.any(String), code: 429 })
    // Another account has its own bucket.
    assert.strictEqual((await analyze(other)).status, 200)
  })
})
