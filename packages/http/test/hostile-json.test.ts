/**
 * Issue 10, items 3 and 6: deeply nested JSON answers 400 in the family's envelope (never a stack
 * overflow and a 500), and an error quotes at most a short excerpt of what was sent.
 */
import { Requests } from "@decorum/core"
import { Limits } from "@decorum/domain"
import type { ErrorMapping } from "@decorum/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
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

type Family = ErrorMapping.Family

const post = (path: string, body: string) =>
  fetch(host.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-user-email": email, "x-api-key": key, "x-goog-api-key": key },
    body
  })

const expectEnvelope = async (res: Response, family: Family, status: number) => {
  expect(res.status).toBe(status)
  const text = await res.text()
  const body = JSON.parse(text)
  if (family === "native") expect(body).toEqual({ error: expect.any(String), message: expect.any(String), code: status })
  else {
    expect(body.error.code).toBe(status)
    expect(typeof body.error.message).toBe("string")
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
            expect(message).toContain(`deeper than ${Limits.maxNestingDepth}`)
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
    expect(res.status).toBe(200)
    expect(await res.text()).toMatch(/HTTP\/1\.1 400 Bad Request[\s\S]*deeper than/)
  })

  it("bodies as deep as real requests are still accepted", async () => {
    const res = await post(
      "/v1alpha1/comments:analyze",
      JSON.stringify({ comment: { text: "hi" }, context: { entries: [{ text: "a", type: "PLAIN_TEXT" }] }, requestedAttributes: { TOXICITY: { scoreType: "PROBABILITY" } } })
    )
    expect(res.status).toBe(200)
  })

  it("finds nesting in text without counting brackets inside strings, and in values without recursion", () => {
    expect(Requests.textNestsDeeperThan('{"a":"[[[[[[[[[["}', 2)).toBe(false)
    expect(Requests.textNestsDeeperThan('{"a":"\\"[[[","b":[[1]]}', 3)).toBe(false)
    expect(Requests.textNestsDeeperThan('{"b":[[[1]]]}', 3)).toBe(true)
    let deep: unknown = 1
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(Requests.valueNestsDeeperThan(deep, 32)).toBe(true)
    const cyclic: Record<string, unknown> = {}
    cyclic["self"] = cyclic
    expect(Requests.valueNestsDeeperThan(cyclic, 32)).toBe(true)
    expect(Requests.valueNestsDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false)
  })
})

describe("error messages quote an excerpt (issue 10, item 6)", () => {
  it("a 200 KB invalid value answers a short error, on every family", async () => {
    const value = JSON.stringify(Array.from({ length: 25_000 }, (_, i) => `v${i}`))
    expect(value.length).toBeGreaterThan(200_000)
    for (const [path, family] of JSON_ROUTES) {
      const { text } = await expectEnvelope(await post(path, `{"comment":${value}}`), family, 400)
      expect(text.length, path).toBeLessThan(1_000)
    }
    const attributes = Object.fromEntries([["X".repeat(200_000), {}]])
    const { text } = await expectEnvelope(
      await post("/v1alpha1/comments:analyze", JSON.stringify({ comment: { text: "hi" }, requestedAttributes: attributes })),
      "google",
      400
    )
    expect(text.length).toBeLessThan(1_000)
  })
})
