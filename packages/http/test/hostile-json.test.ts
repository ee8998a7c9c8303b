/**
 * Issue 10, items 3 and 6: deeply nested JSON answers 400 in the family's envelope (never a stack
 * overflow and a 500), and an error quotes at most a short excerpt of what was sent.
 */
import { Requests } from "@decorum/core"
import { Limits } from "@decorum/domain"
import type { Families } from "@decorum/http"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { JSON_ROUTES, startHttpHost, type TestHost } from "./harness.js"

let host: TestHost
let key: string
const email = "hostile@example.com"

beforeAll(async () => {
  host = await startHttpHost()
  key = await host.createKey(email)
})
afterAll(async () => {
  await host?.close()
})

type Family = Families.Family

const post = (path: string, body: string) =>
  fetch(host.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-user-email": email, "x-api-key": key, "x-goog-api-key": key },
    body
  })

const expectEnvelope = async (res: Response, family: Family, status: number) => {
  assert.strictEqual(res.status, status)
  const text = await res.text()
  const body = JSON.parse(text)
  if (family === "native") expect(body).toEqual({ error: expect.any(String), message: expect.any(String), code: status })
  else {
    assert.strictEqual(body.error.code, status)
    assert.strictEqual(typeof body.error.message, "string")
  }
  return { body, text }
}

const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth)
const deepObject = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)

describe("deeply nested JSON (issue 10, item 3)", () => {
  for (const [path, family] of JSON_ROUTES) {
    it(`${path}: 400 in the ${family} envelope at 2,000 and 10,000 levels, in a known field and an unknown one`, async () => {
      for (const depth of [2_000, 10_000]) {
        for (const field of ["comment", "requested_attributes", "requestedAttributes", "no_such_field"]) {
          for (const nested of [deepArray(depth), deepObject(depth)]) {
            const { body } = await expectEnvelope(await post(path, `{"${field}":${nested}}`), family, 400)
            const message = family === "native" ? body.message : body.error.message
            assert.include(message, `deeper than ${Limits.maxNestingDepth}`)
          }
        }
      }
    })
  }

  it("a batch part with deep JSON answers its own 400", async () => {
    const inner = `POST /v1alpha1/comments:analyze?key=${key} HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{"comment":${deepArray(5000)}}`
    const res = await fetch(`${host.url}/batch`, {
      method: "POST",
      headers: { "content-type": "multipart/mixed; boundary=d" },
      body: `--d\r\nContent-Type: application/http\r\n\r\n${inner}\r\n--d--\r\n`
    })
    assert.strictEqual(res.status, 200)
    assert.match(await res.text(), /HTTP\/1\.1 400 Bad Request[\s\S]*deeper than/)
  })

  it("bodies as deep as real requests are still accepted", async () => {
    const res = await post(
      "/v1alpha1/comments:analyze",
      JSON.stringify({ comment: { text: "hi" }, context: { entries: [{ text: "a", type: "PLAIN_TEXT" }] }, requestedAttributes: { TOXICITY: { scoreType: "PROBABILITY" } } })
    )
    assert.strictEqual(res.status, 200)
  })

  it("finds nesting in text without counting brackets inside strings, and in values without recursion", () => {
    assert.isFalse(Requests.textNestsDeeperThan('{"a":"[[[[[[[[[["}', 2))
    assert.isFalse(Requests.textNestsDeeperThan('{"a":"\\"[[[","b":[[1]]}', 3))
    assert.isTrue(Requests.textNestsDeeperThan('{"b":[[[1]]]}', 3))
    let deep: unknown = 1
    for (let i = 0; i < 100_000; i++) deep = [deep]
    assert.isTrue(Requests.valueNestsDeeperThan(deep, 32))
    const cyclic: Record<string, unknown> = {}
    cyclic["self"] = cyclic
    assert.isTrue(Requests.valueNestsDeeperThan(cyclic, 32))
    assert.isFalse(Requests.valueNestsDeeperThan({ a: [{ b: 1 }] }, 3))
  })
})

describe("error messages quote an excerpt (issue 10, item 6)", () => {
  it("a 200 KB invalid value answers a short error, on every family", async () => {
    const value = JSON.stringify(Array.from({ length: 25_000 }, (_, i) => `v${i}`))
    assert.isAbove(value.length, 200_000)
    for (const [path, family] of JSON_ROUTES) {
      const { text } = await expectEnvelope(await post(path, `{"comment":${value}}`), family, 400)
      assert.isBelow(text.length, 1_000, path)
    }
    const attributes = Object.fromEntries([["X".repeat(200_000), {}]])
    const { text } = await expectEnvelope(
      await post("/v1alpha1/comments:analyze", JSON.stringify({ comment: { text: "hi" }, requestedAttributes: attributes })),
      "google",
      400
    )
    assert.isBelow(text.length, 1_000)
  })
})
