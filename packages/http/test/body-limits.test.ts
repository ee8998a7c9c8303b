/**
 * Issue 10, item 1: a body over the limit answers 413 in the route's envelope and is not kept in
 * memory, however it is framed (Content-Length, chunked, or a compressed encoding).
 * The harness's limit is 256 KiB.
 */
import type { ErrorMapping } from "@decorum/http"
import { Agent } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { JSON_ROUTES, startHttpHost, type TestHost } from "./harness.js"
import { bigBody, heapAfterGc, send, type WireAnswer } from "./wire.js"

const LIMIT = 256 * 1024

let host: TestHost
let key: string
const email = "limits@example.com"

beforeAll(async () => {
  host = await startHttpHost()
  key = await host.createKey(email)
})
afterAll(async () => {
  await host?.close()
})

type Family = ErrorMapping.Family

// Every JSON route, and a Google batch (multipart) whose body is limited the same way.
const ROUTES: ReadonlyArray<readonly [string, Family]> = [...JSON_ROUTES, ["/batch", "google"]]

const headersFor = (path: string): Record<string, string> => ({
  "content-type": path === "/batch" ? "multipart/mixed; boundary=b" : "application/json",
  "x-user-email": email,
  "x-api-key": key,
  "x-goog-api-key": key
})

const expectEnvelope = (answer: WireAnswer, family: Family, status: number) => {
  expect(answer.status).toBe(status)
  if (family === "native") {
    expect(answer.json).toEqual({ error: expect.any(String), message: expect.any(String), code: status })
  } else {
    expect(answer.json?.error?.code).toBe(status)
    expect(typeof answer.json?.error?.message).toBe("string")
    expect(typeof answer.json?.error?.status).toBe("string")
  }
}

describe("oversize bodies (issue 10, item 1)", () => {
  for (const [path, family] of ROUTES) {
    it(`${path}: 413 in the ${family} envelope for a chunked body just over the limit and for a 10 MB one`, async () => {
      const over = await send(host.url, { path, headers: headersFor(path), chunks: bigBody(LIMIT + 1024), framing: "chunked" })
      expectEnvelope(over, family, 413)
      const huge = await send(host.url, { path, headers: headersFor(path), chunks: bigBody(10 * 1024 * 1024), framing: "chunked" })
      expectEnvelope(huge, family, 413)
      const declared = await send(host.url, { path, headers: headersFor(path), chunks: bigBody(LIMIT + 1024), framing: "length" })
      expectEnvelope(declared, family, 413)
    })
  }

  it("a chunked body within the limit is read whole, multi-byte characters split across chunks included", async () => {
    const text = "é€😀 you are lovely ".repeat(500)
    const json = Buffer.from(JSON.stringify({ comment: { text }, requestedAttributes: { TOXICITY: {} } }))
    const pieces: Array<Buffer> = []
    for (let i = 0; i < json.length; i += 7777) pieces.push(json.subarray(i, i + 7777))
    const answer = await send(host.url, {
      path: "/v1alpha1/comments:analyze",
      headers: headersFor("/v1alpha1/comments:analyze"),
      chunks: pieces,
      framing: "chunked"
    })
    expect(answer.status).toBe(200)
    expect(answer.json.attributeScores.TOXICITY.summaryScore.value).toEqual(expect.any(Number))
  })

  it("a keep-alive connection still serves the next request after a refused chunked body", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const path = "/v0.2/antispam"
      const refused = await send(host.url, { path, headers: headersFor(path), chunks: bigBody(LIMIT + 1024), framing: "chunked", agent })
      expectEnvelope(refused, "native", 413)
      const next = await send(host.url, { path, headers: headersFor(path), chunks: [JSON.stringify({ comment: "hello there" })], agent })
      expect(next.status).toBe(200)
      expect(next.json.is_spam).toEqual(expect.any(Boolean))
    } finally {
      agent.destroy()
    }
  })

  it("a compressed body is refused with 415 in the family's envelope, not inflated", async () => {
    for (const encoding of ["gzip", "deflate", "br"]) {
      const native = await send(host.url, {
        path: "/v0.2/antispam",
        headers: { ...headersFor("/v0.2/antispam"), "content-encoding": encoding },
        chunks: [Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0])]
      })
      expectEnvelope(native, "native", 415)
      const google = await send(host.url, {
        path: "/v1alpha1/comments:analyze",
        headers: { ...headersFor("/v1alpha1/comments:analyze"), "content-encoding": encoding },
        chunks: [Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0])],
        framing: "chunked"
      })
      expectEnvelope(google, "google", 415)
    }
  })

  it("the memory of refused chunked bodies is returned", async () => {
    const path = "/batch"
    // Warm up, so that code and caches loaded by the first requests do not count.
    for (let i = 0; i < 10; i++) await send(host.url, { path, headers: headersFor(path), chunks: bigBody(LIMIT + 4096), framing: "chunked" })
    const before = heapAfterGc()
    const n = 200
    for (let i = 0; i < n; i += 10) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => send(host.url, { path, headers: headersFor(path), chunks: bigBody(LIMIT + 4096), framing: "chunked" }))
      )
      for (const a of answers) expect(a.status).toBe(413)
    }
    const grown = heapAfterGc() - before
    // 200 kept bodies would be over 50 MB; allow a few MB of noise.
    expect(grown).toBeLessThan(8 * 1024 * 1024)
  })
})
