/**
 * The `node:http` server every Node host serves the contract on (`decorum serve`, the test hosts):
 * Node's own server with the answers Node writes by itself given the family's error envelope.
 *
 * Node's HTTP parser refuses some requests before any route sees them: a malformed request line
 * or header (400), a broken chunk in a body (400), headers over its limit (431), chunk extensions
 * over its limit (413), a request that does not arrive in time (408), an `Expect` other than
 * `100-continue` (417), and an HTTP/1.1 request without `Host` (400, RFC 9112 3.2). By default
 * it answers them with a bare status line and an empty body. Here they are answered with a
 * complete HTTP/1.1 response (`Content-Type`, `Content-Length`, `Connection: close`, and
 * `X-Engine-Version`; no model was run, so there is no `X-Model-Version`) whose body is
 * the error envelope of the family the request line names (the native one when there is no
 * readable request line), with the status from `ErrorMapping` (`MalformedHttp`), after any response
 * still being written on the connection. Nothing is written on a socket that is gone; nothing here
 * throws.
 *
 * An answer given before its request's body was read (a refusal) does not make the server read
 * that body on the main thread to its end, as Node would to reach a next request: a declared
 * length over `MAX_DISCARD_BYTES` is answered with `Connection: close` and not read at all, a
 * chunked leftover is discarded up to `MAX_DISCARD_BYTES` and then cut (issue 25, item 4:
 * `npm run bench:flood`).
 */
import { ENGINE_VERSION } from "@decorum/core"
import { MalformedHttp } from "@decorum/domain"
import { createServer as createNodeServer, type IncomingMessage, type Server, ServerResponse, STATUS_CODES } from "node:http"
import type { Socket } from "node:net"
import type { Duplex } from "node:stream"
import { render } from "./ErrorMapping.js"
import { type Family, familyOfPath } from "./Families.js"

type Reason = MalformedHttp["reason"]

/** The error codes of Node's parser and server that `clientError` reports, by what they mean. */
const reasonOfCode = (code: string | undefined): Reason => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return "headersTooLarge"
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return "chunkExtensionsTooLarge"
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return "timeout"
    default:
      return "malformed"
  }
}

const MESSAGES: Readonly<Record<Reason, string>> = {
  malformed: "The request is not valid HTTP/1.1 (its request line or a header is malformed).",
  malformedBody: "The request body is not valid HTTP/1.1 framing (a malformed chunk).",
  missingHost: "An HTTP/1.1 request must have a Host header.",
  headersTooLarge: "The request's headers are larger than the server accepts.",
  expectation: "The request's Expect header asks for something this server does not do; only 100-continue is supported.",
  timeout: "The request did not arrive in time.",
  chunkExtensionsTooLarge: "The request's chunk extensions are larger than the server accepts."
}

/** The path of a request target (`/p?q`, `http://host/p`), or undefined. */
const pathOf = (target: string): string | undefined => {
  if (target.startsWith("/")) return target.replace(/[?#].*$/s, "")
  if (/^https?:\/\//i.test(target)) {
    try {
      return new URL(target).pathname
    } catch {
      return undefined
    }
  }
  return undefined
}

/**
 * The family the request line at the start of `raw` addresses (`POST /v1alpha1/... HTTP/1.1`), or
 * the native family when there is no readable request line.
 */
export const familyOfRequest = (raw: Buffer | string | undefined): Family => {
  if (raw === undefined) return "native"
  const head = (typeof raw === "string" ? raw.slice(0, 8192) : raw.subarray(0, 8192).toString("latin1")).replace(/^(\r?\n)+/, "")
  const line = head.split(/\r?\n/, 1)[0] ?? ""
  const target = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ +(\S+)/.exec(line)?.[1]
  const path = target === undefined ? undefined : pathOf(target)
  return path === undefined ? "native" : familyOfPath(path)
}

/** The whole HTTP/1.1 response for a request refused before routing, in `family`'s envelope. */
export const rawErrorResponse = (family: Family, reason: Reason): string => {
  const rendered = render(family, new MalformedHttp({ reason, message: MESSAGES[reason] }))
  const body = JSON.stringify(rendered.body)
  const headers = Object.entries(rendered.headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
  return `HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status] ?? "Error"}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\nX-Engine-Version: ${ENGINE_VERSION}\r\n${headers}\r\n${body}`
}

interface ParserError extends Error {
  readonly code?: string
  readonly rawPacket?: Buffer
}

/**
 * Node's `clientError`: answer in the envelope, then close the connection. A response still being
 * written on the connection (a request before the bad one, on a keep-alive connection) is let
 * finish first, so the envelope follows it instead of corrupting it. When what failed is the body
 * of the request being answered (a broken chunk, or a body that stopped arriving before its end),
 * that request can never be read to its end: it is answered here at once (400, or 408 for the
 * timeout), and its handler, waiting for the body, is settled when the connection closes. Waiting
 * for its answer instead would hold the connection and the handler until the client hangs up.
 * Nothing is written on a socket that is no longer writable. Never throws.
 */
export const onClientError = (error: ParserError, socket: Duplex): void => {
  const destroy = () => {
    try {
      socket.destroy()
    } catch {
      // the socket is gone already
    }
  }
  try {
    if (error.code === "ECONNRESET" || !socket.writable) return destroy()
    const current = (socket as { _httpMessage?: (ServerResponse & { readonly req?: IncomingMessage }) | null })._httpMessage
    const answering = current !== undefined && current !== null && !current.writableEnded
    const inBody = answering && current.req !== undefined && !current.req.complete
    const reason = reasonOfCode(error.code)
    const family = inBody ? familyOfRequest(`${current.req!.method ?? "GET"} ${current.req!.url ?? "/"}`) : familyOfRequest(error.rawPacket)
    const answer = rawErrorResponse(family, inBody && reason === "malformed" ? "malformedBody" : reason)
    // A request refused before it was handed over (headers over the limit, a bad header line) is
    // answered with a lingering close (`lingerThenDestroy`): destroyed as soon as the answer is
    // written, the connection would be reset under a client still sending the rest of its request,
    // and that client would see the reset instead of the answer. A request whose body failed is
    // already with its handler, which is settled by closing the connection at once.
    const respond = () => {
      try {
        if (!socket.writable) return destroy()
        if (inBody) return void socket.end(answer, destroy)
        socket.write(answer)
        lingerThenDestroy.call(socket as Socket)
      } catch {
        destroy()
      }
    }
    if (!answering) respond()
    else if (inBody) {
      // The answer has not started (nothing can be answered before the body is read, except a
      // refusal, which ends its response): it is this envelope. Otherwise the connection is cut.
      if (current.headersSent) destroy()
      else respond()
    } else current.once("close", respond)
  } catch {
    destroy()
  }
}

/** Answers `request` with the envelope of its path for `reason`, and closes the connection after it. */
const refuse = (request: IncomingMessage, response: ServerResponse, reason: Reason): void => {
  try {
    const family = familyOfRequest(`${request.method ?? "GET"} ${request.url ?? "/"}`)
    const rendered = render(family, new MalformedHttp({ reason, message: MESSAGES[reason] }))
    const body = JSON.stringify(rendered.body)
    response.shouldKeepAlive = false
    response.writeHead(rendered.status, {
      ...rendered.headers,
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      connection: "close",
      "x-engine-version": ENGINE_VERSION
    })
    response.end(body)
  } catch {
    request.socket.destroy()
  }
}

/** Node's `checkExpectation` (an `Expect` other than `100-continue`): 417 in the envelope of the request's path. */
export const onCheckExpectation = (request: IncomingMessage, response: ServerResponse): void => refuse(request, response, "expectation")

/**
 * An HTTP/1.1 request without `Host` (RFC 9112 3.2: 400). Node's own check (`requireHostHeader`)
 * answers it with an empty body, so it is off on this server and this one answers in the envelope.
 */
export const missesHost = (request: IncomingMessage): boolean =>
  request.httpVersionMajor === 1 && request.httpVersionMinor === 1 && request.headers.host === undefined

const ANSWERED = Symbol.for("@decorum/http/NodeServer/answered")

/**
 * Installs the envelope answers on `server` (once). A request without `Host` is answered before any
 * `request` listener sees it (those are the routes), so none of them runs for it.
 */
export const install = (server: Server): Server => {
  if (!server.listeners("clientError").includes(onClientError as never)) server.on("clientError", onClientError)
  if (!server.listeners("checkExpectation").includes(onCheckExpectation as never)) server.on("checkExpectation", onCheckExpectation)
  const marked = server as Server & { [ANSWERED]?: true }
  if (marked[ANSWERED] === undefined) {
    marked[ANSWERED] = true
    const emit = server.emit as (this: Server, event: string | symbol, ...args: Array<unknown>) => boolean
    server.emit = function(this: Server, event: string | symbol, ...args: Array<unknown>): boolean {
      if (event === "request" && missesHost(args[0] as IncomingMessage)) {
        refuse(args[0] as IncomingMessage, args[1] as ServerResponse, "missingHost")
        return true
      }
      return emit.call(this, event, ...args)
    } as Server["emit"]
  }
  return server
}

/**
 * The most of a request's body, in bytes, that the server reads and throws away after answering
 * the request before its body was read (a refusal: 401, 403, 413, 415, 429, ...), to keep the
 * connection for a next request (Node's own `_dump`).
 */
export const MAX_DISCARD_BYTES = 256 * 1024

/**
 * Whether `request`, being answered now, declared a body larger than `MAX_DISCARD_BYTES` that was
 * not read to its end: its answer carries `Connection: close` and nothing more of it is read
 * (`lingerThenDestroy`). Reading it to reach a next request would cost a read of every byte on
 * the main thread: under a flood of oversize bodies, the time `/healthz` waits for.
 */
export const unreadBodyIsLarge = (request: IncomingMessage | undefined): boolean => {
  if (request === undefined || request.complete) return false
  const declared = request.headers["content-length"]
  return declared !== undefined && Number(declared) > MAX_DISCARD_BYTES
}

/** How long a connection closed after such an answer stays open, unread, before it is destroyed. */
export const LINGER_MS = 1_000

/**
 * Node's `destroySoon` for a connection whose answer left a large body unread: the answer is
 * followed by a FIN, and nothing more is read (the rest of the body waits in the kernel's buffers,
 * and the client's upload stalls) until the connection is destroyed `LINGER_MS` later. Destroyed
 * at once, with unread bytes, the connection would be reset, and a client still uploading could
 * see the reset before the answer. (`_paused` is the flag Node's HTTP server keeps for a socket it
 * paused: the request's own discarding of its body, `_dump`, does not resume a socket so marked.)
 */
function lingerThenDestroy(this: Socket): void {
  ;(this as Socket & { _paused?: boolean })._paused = true
  this.pause()
  this.end()
  const timer = setTimeout(() => this.destroy(), LINGER_MS)
  timer.unref()
  this.once("close", () => clearTimeout(timer))
}

/**
 * A body of unknown length (chunked) left unread by an answer is read and thrown away by Node to
 * reach the next request; past `MAX_DISCARD_BYTES` more, the connection is destroyed instead of
 * reading on (a keyless client could otherwise make the server read without end).
 */
const capDiscard = (socket: Socket, request: IncomingMessage): void => {
  let discarded = 0
  const onData = (chunk: Buffer) => {
    discarded += chunk.length
    if (request.complete) done()
    else if (discarded > MAX_DISCARD_BYTES) {
      done()
      socket.destroy()
    }
  }
  const done = () => {
    socket.off("data", onData)
    socket.off("close", done)
    request.off("end", done)
  }
  socket.on("data", onData)
  socket.once("close", done)
  request.once("end", done)
}

/** Node's response, for an answer given before its request's body was read (`unreadBodyIsLarge`, `capDiscard`). */
class ClosingResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
const writeHead = ServerResponse.prototype.writeHead
ClosingResponse.prototype.writeHead = function(this: ServerResponse, ...args: Array<unknown>) {
  const request = this.req
  if (!this.headersSent && request !== undefined && !request.complete && this.socket !== null) {
    if (this.shouldKeepAlive && unreadBodyIsLarge(request)) {
      this.shouldKeepAlive = false
      ;(this.socket as Socket).destroySoon = lingerThenDestroy
    } else if (request.headers["transfer-encoding"] !== undefined) capDiscard(this.socket as Socket, request)
  }
  return (writeHead as (...args: Array<unknown>) => ServerResponse).apply(this, args)
} as ServerResponse["writeHead"]

/**
 * A `node:http` server for the contract, with the envelope answers installed (Node's bare `Host`
 * check off: see `missesHost`), and a refused large body left unread (`unreadBodyIsLarge`, `capDiscard`).
 */
export const createServer = (): Server => install(createNodeServer({ requireHostHeader: false, ServerResponse: ClosingResponse }))
