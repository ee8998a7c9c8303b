/**
 * Issue 10 item 8: requests Node's own HTTP parser refuses (a malformed request line, headers over
 * its limit, an unsupported Expect) get a complete response with the error envelope, of the family
 * the request line names, instead of a status line with an empty body; the server keeps serving.
 * Sent on raw `net` sockets, since no HTTP client writes such requests.
 */
import { ENGINE_VERSION } from "@decorum/core"
import { Body, NodeServer } from "@decorum/http"
import { Either } from "effect"
import type { AddressInfo } from "node:net"
import { Socket } from "node:net"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHttpHost, type TestHost } from "./harness.js"
import { raw } from "./wire.js"

let host: TestHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(async () => {
  await host?.close()
})

interface Parsed {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: any
}

/** Reads one HTTP/1.1 response written on a raw socket, checking its framing. */
const parse = (text: string): Parsed => {
  const end = text.indexOf("\r\n\r\n")
  assert.isAbove(end, 0, `a complete head in ${JSON.stringify(text.slice(0, 200))}`)
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n")
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine!)?.[1])
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]))
  const body = text.slice(end + 4)
  assert.strictEqual(headers["content-type"], "application/json")
  assert.strictEqual(Number(headers["content-length"]), Buffer.byteLength(body, "latin1"))
  assert.strictEqual(headers["connection"], "close")
  assert.strictEqual(headers["x-engine-version"], ENGINE_VERSION)
  return { status, headers, body: JSON.parse(body) }
}

const serverStillServes = async () => expect((await fetch(`${host.url}/healthz`)).status).toBe(200)

describe("Node's parser rejections in the error envelope", () => {
  it("a malformed request line: 400 in the native envelope", async () => {
    const answer = parse(await raw(host.url, "THIS IS NOT HTTP\r\n\r\n"))
    assert.strictEqual(answer.status, 400)
    expect(answer.body).toEqual({ error: "Bad Request", message: expect.any(String), code: 400 })
    await serverStillServes()
  })

  it("a malformed header on a Perspective path: 400 in the Google envelope", async () => {
    const answer = parse(await raw(host.url, "POST /v1alpha1/comments:analyze HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"))
    assert.strictEqual(answer.status, 400)
    assert.deepInclude(answer.body.error, { code: 400, status: "INVALID_ARGUMENT" })
    await serverStillServes()
  })

  it("an HTTP/1.1 request without Host: 400 in the family's envelope (issue 25), and HTTP/1.0 needs none", async () => {
    const native = parse(await raw(host.url, "POST /v0.2/antispam HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"))
    assert.strictEqual(native.status, 400)
    expect(native.body).toEqual({ error: "Bad Request", message: expect.stringContaining("Host"), code: 400 })
    const google = parse(await raw(host.url, "POST /v1alpha1/comments:analyze?key=k HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"))
    assert.strictEqual(google.status, 400)
    expect(google.body.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT", message: expect.stringContaining("Host") })
    const ops = parse(await raw(host.url, "GET /healthz HTTP/1.1\r\n\r\n"))
    assert.strictEqual(ops.status, 400)
    // HTTP/1.0 has no Host requirement: served as usual.
    assert.match(await raw(host.url, "GET /healthz HTTP/1.0\r\n\r\n"), /^HTTP\/1\.1 200 /)
    await serverStillServes()
  })

  it("headers over the parser's limit: 431 in the family's envelope", async () => {
    const big = `X-Filler: ${"a".repeat(20_000)}\r\n`
    const native = parse(await raw(host.url, `POST /v0.2/antispam HTTP/1.1\r\nHost: x\r\n${big}\r\n`))
    assert.strictEqual(native.status, 431)
    expect(native.body).toEqual({ error: "Request Header Fields Too Large", message: expect.any(String), code: 431 })
    const google = parse(await raw(host.url, `POST /v1alpha1/comments:analyze?key=k HTTP/1.1\r\nHost: x\r\n${big}\r\n`))
    assert.strictEqual(google.status, 431)
    assert.deepInclude(google.body.error, { code: 431 })
    await serverStillServes()
  })

  it("an Expect other than 100-continue: 417 in the family's envelope", async () => {
    const native = parse(await raw(host.url, "POST /v0.2/antispam HTTP/1.1\r\nHost: x\r\nExpect: 100-foo\r\nContent-Length: 2\r\n\r\n{}"))
    assert.strictEqual(native.status, 417)
    expect(native.body).toEqual({ error: "Expectation Failed", message: expect.any(String), code: 417 })
    const google = parse(await raw(host.url, "POST /v1alpha1/comments:analyze HTTP/1.1\r\nHost: x\r\nExpect: 100-foo\r\nContent-Length: 2\r\n\r\n{}"))
    assert.strictEqual(google.status, 417)
    assert.deepInclude(google.body.error, { code: 417, status: "FAILED_PRECONDITION" })
    await serverStillServes()
  })

  it("a bad request after an answered one on a keep-alive connection: the envelope after the first answer", async () => {
    const text = await raw(host.url, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nNOT HTTP AT ALL\r\n\r\n")
    const second = text.indexOf("HTTP/1.1 400")
    assert.isTrue(text.startsWith("HTTP/1.1 200"))
    assert.isAbove(second, 0)
    assert.deepInclude(parse(text.slice(second)).body, { code: 400 })
    // The first request still being answered (its body read, the key looked up, the model run) when
    // the second fails to parse: its answer comes first, whole, then the envelope.
    const key = await host.createKey("pipelined@example.com")
    const body = JSON.stringify({ comment: { text: "hello there" }, requestedAttributes: { TOXICITY: {} } })
    const slow = await raw(
      host.url,
      `POST /v1alpha1/comments:analyze?key=${key} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
        "BROKEN\r\n\r\n"
    )
    assert.isTrue(slow.startsWith("HTTP/1.1 200"))
    assert.include(slow, "attributeScores")
    // (Node hands over the whole packet, so the family is guessed from the first request's line.)
    expect(parse(slow.slice(slow.indexOf("HTTP/1.1 400"))).body).toMatchObject({ error: { code: 400 } })
  })

  it("a broken chunk in the body of a request being answered: the envelope at once, not a connection held open", async () => {
    // Authenticated, so the route waits for the body (a refusal would answer before reading it).
    // The request line is whole; what breaks is the chunked framing after the headers. Before the
    // fix this waited for an answer the route could never give, until the client hung up.
    const key = await host.createKey("broken-chunk@example.com")
    const started = Date.now()
    const google = parse(await raw(
      host.url,
      `POST /v1alpha1/comments:analyze?key=${key} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
        "5\r\n{\"com\r\nzz\r\nabc\r\n0\r\n\r\n"
    ))
    assert.strictEqual(google.status, 400)
    expect(google.body.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT", message: expect.stringContaining("body") })
    const native = parse(await raw(
      host.url,
      "POST /v0.2/antispam HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-User-Email: broken-chunk@example.com\r\n" +
        `X-API-Key: ${key}\r\nTransfer-Encoding: chunked\r\n\r\nnot-hex\r\n{}\r\n0\r\n\r\n`
    ))
    assert.strictEqual(native.status, 400)
    expect(native.body).toEqual({ error: "Bad Request", message: expect.stringContaining("body"), code: 400 })
    // raw() gives up after 5 s; both answers came well before that.
    assert.isBelow(Date.now() - started, 4_000)
    await serverStillServes()
  })

  it("a body that stops arriving (Node's request timeout): 408 at once, and the handler reading it is settled", async () => {
    // Node reports its request timeout through clientError on the connection's socket, with the
    // request already handed to the handler. Raised here by hand: Node's own check runs every 30 s.
    const node = NodeServer.createServer()
    let settled: Either.Either<Buffer, Body.NotCollected> | undefined
    node.on("request", (request) => {
      Body.collectNodeBytes(request, 1024, (result) => {
        settled = result
      })
    })
    const sockets: Array<Socket> = []
    node.on("connection", (socket: Socket) => sockets.push(socket))
    await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve))
    try {
      const url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`
      const answer = raw(url, "POST /v1alpha1/comments:analyze HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"comment\":")
      while (sockets.length === 0 || (sockets[0] as { _httpMessage?: unknown })._httpMessage === undefined) {
        await new Promise((resolve) => setImmediate(resolve))
      }
      node.emit("clientError", Object.assign(new Error("Request timeout"), { code: "ERR_HTTP_REQUEST_TIMEOUT" }), sockets[0])
      const parsed = parse(await answer)
      assert.strictEqual(parsed.status, 408)
      assert.deepInclude(parsed.body.error, { code: 408, status: "DEADLINE_EXCEEDED" })
      await expect.poll(() => settled).toEqual(Either.left("unreadable"))
    } finally {
      await new Promise((resolve) => node.close(resolve))
    }
  })

  it("never throws for a socket that is already gone", () => {
    const socket = new Socket()
    socket.destroy()
    assert.doesNotThrow(() => NodeServer.onClientError(Object.assign(new Error("Parse Error"), { code: "HPE_INVALID_METHOD" }), socket))
  })

  it("guesses the family from the request line, else the native one", () => {
    assert.strictEqual(NodeServer.familyOfRequest(Buffer.from("POST /v1alpha1/comments:analyze?key=1 HTTP/1.1\r\n")), "google")
    assert.strictEqual(NodeServer.familyOfRequest(Buffer.from("POST http://h.example/v0.2/external-compat/analyse HTTP/1.1\r\n")), "compat")
    assert.strictEqual(NodeServer.familyOfRequest(Buffer.from("GET /v0.2/usercheck HTTP/1.1\r\n")), "native")
    assert.strictEqual(NodeServer.familyOfRequest(Buffer.from("\u0000\u0001garbage")), "native")
    assert.strictEqual(NodeServer.familyOfRequest(undefined), "native")
  })
})
