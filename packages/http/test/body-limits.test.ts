/**
 * Issue 10, item 1: a body over the limit answers 413 in the route's envelope and is not kept in
 * memory, however it is framed (Content-Length, chunked, or a compressed encoding).
 * The harness's limit is 256 KiB.
 */
import type { Families } from "@decorum/http"
import { Agent } from "node:http"
import { connect } from "node:net"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
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

type Family = Families.Family

// Every JSON route, and a Google batch (multipart) whose body is limited the same way.
const ROUTES: ReadonlyArray<readonly [string, Family]> = [...JSON_ROUTES, ["/batch", "google"]]

const headersFor = (path: string): Record<string, string> => ({
  "content-type": path === "/batch" ? "multipart/mixed; boundary=b" : "application/json",
  "x-user-email": email,
  "x-api-key": key,
  "x-goog-api-key": key
})

const expectEnvelope = (answer: WireAnswer, family: Family, status: number) => {
  assert.strictEqual(answer.status, status)
  if (family === "native") {
    expect(answer.json).toEqual({ error: expect.any(String), message: expect.any(String), code: status })
  } else {
    assert.strictEqual(answer.json?.error?.code, status)
    assert.strictEqual(typeof answer.json?.error?.message, "string")
    assert.strictEqual(typeof answer.json?.error?.status, "string")
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
    assert.strictEqual(answer.status, 200)
    expect(answer.json.attributeScores.TOXICITY.summaryScore.value).toEqual(expect.any(Number))
  })

  it("a keep-alive connection still serves the next request after a refused chunked body", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const path = "/v0.2/antispam"
      const refused = await send(host.url, { path, headers: headersFor(path), chunks: bigBody(LIMIT + 1024), framing: "chunked", agent })
      expectEnvelope(refused, "native", 413)
      const next = await send(host.url, { path, headers: headersFor(path), chunks: [JSON.stringify({ comment: "hello there" })], agent })
      assert.strictEqual(next.status, 200)
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
      for (const a of answers) assert.strictEqual(a.status, 413)
    }
    const grown = heapAfterGc() - before
    // 200 kept bodies would be over 50 MB; allow a few MB of noise.
    assert.isBelow(grown, 8 * 1024 * 1024)
  })
})

/**
 * Sends `head` (a request's line and headers) on a new connection, and nothing more: resolves with
 * what the server sent until it half-closed the connection (`end`), and whether it did.
 */
const headOnly = (url: string, head: string): Promise<{ readonly text: string; readonly ended: boolean }> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = connect({ host: hostname, port: Number(port) })
    const out: Array<Buffer> = []
    let ended = false
    socket.on("data", (c: Buffer) => out.push(c))
    socket.on("end", () => {
      ended = true
      socket.destroy()
    })
    socket.on("error", () => {})
    socket.on("close", () => resolve({ text: Buffer.concat(out).toString("latin1"), ended }))
    socket.on("connect", () => socket.write(head))
  })

/**
 * Sends `head` and then chunks of a chunked body, up to `total` bytes, as fast as the server takes
 * them: resolves with what the server sent and how many bytes were written when the connection closed.
 */
const endlessChunked = (url: string, head: string, total: number): Promise<{ readonly text: string; readonly written: number }> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = connect({ host: hostname, port: Number(port) })
    const out: Array<Buffer> = []
    const piece = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, "a"), Buffer.from("\r\n")])
    let written = 0
    socket.on("data", (c: Buffer) => out.push(c))
    socket.on("error", () => {})
    socket.on("close", () => resolve({ text: Buffer.concat(out).toString("latin1"), written }))
    const next = () => {
      while (!socket.destroyed && written < total) {
        written += 0x10000
        if (!socket.write(piece)) return void socket.once("drain", next)
      }
      // All of it taken: the server read on (resolved without waiting for a close that would not come).
      if (written >= total) socket.end("0\r\n\r\n", () => resolve({ text: Buffer.concat(out).toString("latin1"), written }))
    }
    socket.on("connect", () => {
      socket.write(head)
      next()
    })
  })

describe("a large body left unread is not read (issue 25, item 4)", () => {
  const head = (path: string, headers: Record<string, string>) =>
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
    Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("") + "\r\n"

  // The body is never sent: the answer, and the end of the connection, come before it. Before,
  // the answer kept the connection alive and the server waited to read (and discard) the body.
  for (const [path, family] of [["/v1alpha1/comments:analyze", "google"], ["/v0.2/megacall", "native"]] as const) {
    it(`${path}: a declared length over the limit is answered 413 and the connection closed, before any of the body arrives`, async () => {
      const { text, ended } = await headOnly(host.url, head(path, { ...headersFor(path), "Content-Length": String(10 * 1024 * 1024) }))
      assert.match(text, /^HTTP\/1\.1 413 /)
      assert.match(text, /\r\nConnection: close\r\n/i)
      assert.isTrue(ended)
      const json = JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))
      assert.strictEqual(family === "native" ? json.code : json.error.code, 413)
    })

    it(`${path}: a keyless request with a large declared body is refused without reading it`, async () => {
      const { text, ended } = await headOnly(host.url, head(path, { "Content-Length": String(10 * 1024 * 1024) }))
      assert.match(text, /^HTTP\/1\.1 40[13] /)
      assert.match(text, /\r\nConnection: close\r\n/i)
      assert.isTrue(ended)
    })

    it(`${path}: a keyless chunked body without end is not read on after its refusal: the connection is cut`, async () => {
      // Before, Node read and threw away the body after the answer for as long as it came.
      const total = 64 * 1024 * 1024
      const { text, written } = await endlessChunked(host.url, head(path, { "Transfer-Encoding": "chunked" }), total)
      assert.match(text, /^HTTP\/1\.1 40[13] /)
      assert.isBelow(written, total)
    })
  }

  it("a small body left unread by a refusal keeps the connection for the next request", async () => {
    const path = "/v0.2/antispam"
    const body = JSON.stringify({ comment: "hello there" })
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const refused = await send(host.url, { path, headers: { "content-type": "application/json" }, chunks: [body], agent })
      assert.strictEqual(refused.status, 401)
      assert.strictEqual(refused.headers["connection"], "keep-alive")
      const next = await send(host.url, { path, headers: headersFor(path), chunks: [body], agent })
      assert.strictEqual(next.status, 200)
    } finally {
      agent.destroy()
    }
  })
})
