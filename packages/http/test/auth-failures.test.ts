/**
 * Issue 10 item 8: failed authentication is limited per client address, so keys cannot be guessed
 * at line rate. After `burst` failures from one address, further attempts from it answer 429 with
 * Retry-After in the family's envelope, before any key is looked up (a valid key is refused too);
 * successful requests take nothing; other addresses are not affected. Batch parts count against
 * the batch's client; X-Forwarded-For is believed only from a trusted proxy.
 */
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHttpHost, type TestHost } from "./harness.js"

const BURST = 3

let proxied: TestHost
let direct: TestHost
let key: string
let directKey: string
beforeAll(async () => {
  // Behind a trusted proxy (the loopback peer): each test names its own client in X-Forwarded-For.
  proxied = await startHttpHost({ trustProxy: ["127.0.0.1"], authFailureLimit: { perMinute: 1, burst: BURST } })
  // No trusted proxy: the socket's peer is the client, whatever X-Forwarded-For says.
  direct = await startHttpHost({ authFailureLimit: { perMinute: 1, burst: BURST } })
  key = await proxied.createKey("owner@example.com")
  directKey = await direct.createKey("owner@example.com")
})
afterAll(async () => {
  await proxied?.close()
  await direct?.close()
})

const WRONG = "dk_aaaaaaaaaa_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

const analyze = (host: TestHost, apiKey: string, forwardedFor?: string) =>
  fetch(`${host.url}/v1alpha1/comments:analyze?key=${apiKey}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) },
    body: JSON.stringify({ comment: { text: "hello" }, requestedAttributes: { TOXICITY: {} } })
  })

const nativeCall = (host: TestHost, path: string, apiKey: string, forwardedFor: string) =>
  fetch(`${host.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-user-email": "owner@example.com", "x-api-key": apiKey, "x-forwarded-for": forwardedFor },
    body: JSON.stringify({ comment: "hello" })
  })

describe("failed authentication limited per client address", () => {
  it("Google family: 429 RESOURCE_EXHAUSTED with Retry-After after the burst, even for a valid key; other addresses unaffected", async () => {
    for (let i = 0; i < BURST; i++) assert.strictEqual((await analyze(proxied, WRONG, "203.0.113.1")).status, 400)
    const refused = await analyze(proxied, WRONG, "203.0.113.1")
    assert.strictEqual(refused.status, 429)
    assert.isAtLeast(Number(refused.headers.get("retry-after")), 1)
    assert.deepInclude((await refused.json()).error, { code: 429, status: "RESOURCE_EXHAUSTED" })
    // Refused before the key is looked up: the valid key is refused from this address too.
    assert.strictEqual((await analyze(proxied, key, "203.0.113.1")).status, 429)
    // Another address (and the proxy's own) is not affected.
    assert.strictEqual((await analyze(proxied, key, "203.0.113.2")).status, 200)
    assert.strictEqual((await analyze(proxied, WRONG, "203.0.113.2")).status, 400)
    assert.strictEqual((await analyze(proxied, key)).status, 200)
  })

  it("native and compat families answer 429 in their own envelopes", async () => {
    const client = "198.51.100.7"
    for (let i = 0; i < BURST; i++) assert.strictEqual((await nativeCall(proxied, "/v0.2/antispam", WRONG, client)).status, 401)
    const native = await nativeCall(proxied, "/v0.2/antispam", WRONG, client)
    assert.strictEqual(native.status, 429)
    assert.isAtLeast(Number(native.headers.get("retry-after")), 1)
    expect(await native.json()).toEqual({ error: "Too Many Requests", message: expect.stringMatching(/failed authentications/), code: 429 })
    const compat = await nativeCall(proxied, "/v0.2/external-compat/analyse", key, client)
    assert.strictEqual(compat.status, 429)
    assert.isNotNull(compat.headers.get("retry-after"))
    assert.deepInclude((await compat.json()).error, { code: 429, status: "RESOURCE_EXHAUSTED" })
  })

  it("successful requests take nothing, and a missing key is not a guess", async () => {
    const client = "192.0.2.44"
    for (let i = 0; i < 4 * BURST; i++) assert.strictEqual((await analyze(proxied, key, client)).status, 200)
    for (let i = 0; i < 4 * BURST; i++) assert.strictEqual((await analyze(proxied, "", client)).status, 403)
    for (let i = 0; i < BURST; i++) assert.strictEqual((await analyze(proxied, WRONG, client)).status, 400)
    assert.strictEqual((await analyze(proxied, key, client)).status, 429)
  })

  it("believes X-Forwarded-For only from a trusted proxy, and only its right-most untrusted entry", async () => {
    // A client prepending addresses of its own choosing stays itself: the proxy appended the real one.
    for (let i = 0; i < BURST; i++) assert.strictEqual((await analyze(proxied, WRONG, `10.${i}.0.1, 203.0.113.90`)).status, 400)
    assert.strictEqual((await analyze(proxied, WRONG, "10.99.0.1, 203.0.113.90")).status, 429)
    // A trusted hop on the right is skipped.
    assert.strictEqual((await analyze(proxied, key, "203.0.113.90, 127.0.0.1")).status, 429)
    // Without a trusted proxy, X-Forwarded-For changes nothing: the socket's peer is the client.
    for (let i = 0; i < BURST; i++) assert.strictEqual((await analyze(direct, WRONG, `203.0.113.${100 + i}`)).status, 400)
    assert.strictEqual((await analyze(direct, directKey, "203.0.113.200")).status, 429)
  })

  it("batch parts count against the batch's client, whatever their own headers say", async () => {
    const parts = 10
    const boundary = "b0undary"
    const body = Array.from({ length: parts }, (_, i) =>
      `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <p${i}>\r\n\r\n` +
      `POST /v1alpha1/comments:analyze?key=${WRONG} HTTP/1.1\r\nContent-Type: application/json\r\nX-Forwarded-For: 10.0.${i}.1\r\n\r\n` +
      `{"comment":{"text":"hi"},"requestedAttributes":{"TOXICITY":{}}}\r\n`).join("") + `--${boundary}--\r\n`
    const res = await fetch(`${proxied.url}/batch`, {
      method: "POST",
      headers: { "content-type": `multipart/mixed; boundary=${boundary}`, "x-forwarded-for": "198.51.100.200" },
      body
    })
    assert.strictEqual(res.status, 200)
    const statuses = [...(await res.text()).matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]))
    assert.lengthOf(statuses, parts)
    // Up to 4 parts run at once, so a few may be admitted before the failures of their siblings land.
    assert.isAtLeast(statuses.filter((s) => s === 429).length, parts - BURST - 3)
    assert.isTrue(statuses.every((s) => s === 400 || s === 429))
    // The batch's client is now refused on a direct request too; the batch's proxy is not.
    assert.strictEqual((await analyze(proxied, key, "198.51.100.200")).status, 429)
    assert.strictEqual((await analyze(proxied, key, "10.0.9.1")).status, 200)
  })
})
