/**
 * `POST /batch`: Google's batch format, because Google's Python client (and the research harnesses
 * built on it) send `new_batch_http_request()` there (`{rootUrl}batch`).
 *
 * The body is `multipart/mixed`; each part is `Content-Type: application/http` holding one HTTP
 * request (request line, headers, blank line, body). Each part is answered by the same app that
 * answers a direct request (routes, auth, handlers, error table, engine headers): the envelope
 * middleware provides a `BatchDispatcher` that runs the app on a synthetic `HttpServerRequest`.
 * The answer is `multipart/mixed`, one `application/http` part per request, in order, each with
 * `Content-ID: <response-ID>` for the request's `Content-ID: <ID>`.
 *
 * A part that fails (unknown attribute, bad key, malformed part) answers its own Google-style
 * error; only a malformed batch as a whole (not multipart, no boundary, no parts, too many parts,
 * too large) fails the whole call.
 */
import { InvalidRequest, Unavailable, UnsupportedMediaType } from "@decorum/domain"
import { Headers, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Context, Effect, Option } from "effect"
import { readText } from "./Body.js"
import * as ClientAddress from "./ClientAddress.js"
import { render } from "./ErrorMapping.js"
import { HttpConfig } from "./HttpConfig.js"

/** Most requests one batch may hold (Google's own clients cap batches at 1,000; we are stricter). */
export const MAX_PARTS = 100

/** How many parts of one batch are answered at once. */
const PART_CONCURRENCY = 4

/**
 * Present while a batch part runs. The batch handler refuses to run inside a part, whatever path
 * spelling reached it: nesting is refused by where a request is routed, not by how its path reads.
 */
export class InsideBatch extends Context.Tag("@decorum/http/Batch/InsideBatch")<InsideBatch, true>() {}

/** Runs the whole app (routes and envelope) for one synthetic request. */
export class BatchDispatcher extends Context.Tag("@decorum/http/BatchDispatcher")<
  BatchDispatcher,
  { readonly dispatch: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<HttpServerResponse.HttpServerResponse> }
>() {}

// ---------------------------------------------------------------- parsing

/** One part of a `multipart/mixed` body: its headers (lowercased names) and its content. */
export interface MimePart {
  readonly headers: Readonly<Record<string, string>>
  readonly content: string
}

/** The request inside an `application/http` part. */
export interface InnerRequest {
  readonly method: string
  readonly target: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string
}

const invalid = (message: string) => new InvalidRequest({ message })

/** The `boundary` parameter of a `multipart/mixed` content type, or why there is none. */
export const boundaryOf = (contentType: string | undefined): Effect.Effect<string, UnsupportedMediaType | InvalidRequest> => {
  const [type = "", ...params] = (contentType ?? "").split(";")
  const media = type.trim().toLowerCase()
  if (media !== "multipart/mixed") {
    return Effect.fail(
      new UnsupportedMediaType({
        contentType: media,
        message: `Unsupported content type "${media}" for a batch. Send multipart/mixed with one application/http part per request.`
      })
    )
  }
  for (const param of params) {
    const eq = param.indexOf("=")
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "boundary") continue
    let value = param.slice(eq + 1).trim()
    if (value.startsWith("\"") && value.endsWith("\"") && value.length >= 2) value = value.slice(1, -1)
    if (value.length > 0 && value.length <= 200) return Effect.succeed(value)
  }
  return Effect.fail(invalid("The multipart/mixed content type has no boundary."))
}

/** Splits a block of `Name: value` lines (LF or CRLF, folded lines allowed) into lowercased headers. */
const parseHeaderLines = (block: string): Array<[string, string]> => {
  const out: Array<[string, string]> = []
  for (const line of block.split(/\r?\n/)) {
    if (line.length === 0) continue
    if ((line[0] === " " || line[0] === "\t") && out.length > 0) {
      out[out.length - 1]![1] += " " + line.trim()
      continue
    }
    const colon = line.indexOf(":")
    if (colon <= 0) continue
    out.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()])
  }
  return out
}

/** Splits at the first blank line: headers before, the rest (verbatim) after. */
const splitHead = (text: string): { readonly head: string; readonly rest: string } => {
  const m = /\r?\n\r?\n/.exec(text)
  if (!m) return { head: text, rest: "" }
  return { head: text.slice(0, m.index), rest: text.slice(m.index + m[0].length) }
}

/**
 * Splits a `multipart/mixed` body (RFC 2046) into parts. Delimiters are `--boundary` at the start of
 * a line; the line break before a delimiter belongs to it. Both CRLF and bare LF are accepted
 * (Google's Python client writes LF).
 */
export const parseMultipart = (body: string, boundary: string): Effect.Effect<ReadonlyArray<MimePart>, InvalidRequest> =>
  Effect.suspend(() => {
    const delimiter = `--${boundary}`
    const positions: Array<number> = []
    let from = 0
    for (;;) {
      const at = body.indexOf(delimiter, from)
      if (at < 0) break
      if (at === 0 || body[at - 1] === "\n") positions.push(at)
      from = at + delimiter.length
    }
    if (positions.length === 0) return Effect.fail(invalid("The batch body contains no part delimited by its boundary."))
    const parts: Array<MimePart> = []
    let closed = false
    for (let i = 0; i < positions.length; i++) {
      const afterDelimiter = positions[i]! + delimiter.length
      if (body.startsWith("--", afterDelimiter)) {
        closed = true
        break
      }
      if (i + 1 >= positions.length) break
      const lineEnd = body.indexOf("\n", afterDelimiter)
      if (lineEnd < 0) break
      let end = positions[i + 1]! - 1
      if (end > lineEnd && body[end - 1] === "\r") end--
      const raw = end > lineEnd ? body.slice(lineEnd + 1, end) : ""
      const { head, rest } = splitHead(raw)
      parts.push({ headers: Object.fromEntries(parseHeaderLines(head)), content: rest })
      if (parts.length > MAX_PARTS) {
        return Effect.fail(invalid(`A batch may contain at most ${MAX_PARTS} requests.`))
      }
    }
    if (!closed) return Effect.fail(invalid("The batch body is not terminated by its closing boundary."))
    if (parts.length === 0) return Effect.fail(invalid("The batch contains no requests."))
    return Effect.succeed(parts)
  })

/** Reads the HTTP request of an `application/http` part. */
export const parseInnerRequest = (content: string): Effect.Effect<InnerRequest, InvalidRequest> =>
  Effect.suspend(() => {
    const text = content.replace(/^(\r?\n)+/, "")
    const lineEnd = text.indexOf("\n")
    const requestLine = (lineEnd < 0 ? text : text.slice(0, lineEnd)).replace(/\r$/, "")
    const m = /^([A-Za-z]+)\s+(\S+)(?:\s+HTTP\/\d(?:\.\d)?)?$/.exec(requestLine.trim())
    if (!m) return Effect.fail(invalid("A batch part does not start with an HTTP request line (\"POST /v1alpha1/comments:analyze HTTP/1.1\")."))
    const afterLine = lineEnd < 0 ? "" : text.slice(lineEnd + 1)
    // Headers may be empty: then the part is the request line, a blank line and the body.
    const { head, rest } = /^\r?\n/.test(afterLine) ? { head: "", rest: afterLine.replace(/^\r?\n/, "") } : splitHead(afterLine)
    return Effect.succeed({ method: m[1]!.toUpperCase(), target: m[2]!, headers: parseHeaderLines(head), body: rest })
  })

// ---------------------------------------------------------------- answering

/** Headers a part inherits from the batch when it lacks them: the credentials of every family. */
const INHERITED = ["x-goog-api-key", "x-user-email", "x-api-key", "authorization"] as const
/**
 * Headers of a part that describe its transport, not the request; and the forwarding headers: a
 * part comes from the batch's client, whatever it claims.
 */
const DROPPED = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "content-transfer-encoding",
  "mime-version",
  "x-forwarded-for",
  "forwarded"
])

/** Decodes a run of `%XX` escapes (a UTF-8 sequence), keeping `/ ? # %` escaped; a bad run stays as sent. */
const decodeRun = (run: string): string => {
  try {
    return decodeURIComponent(run).replace(/[/?#%]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  } catch {
    return run
  }
}

/**
 * A path as the router will read it: dot segments resolved (`/x/../batch`, `/./batch`, `%2e`),
 * percent escapes decoded except those of `/`, `?`, `#` and `%` (`/%62atch`), repeated and trailing
 * slashes removed. Null when the path cannot be parsed.
 */
export const normalizePath = (path: string): string | null => {
  let resolved: string
  try {
    resolved = new URL(`http://batch.invalid${path.startsWith("/") ? "" : "/"}${path}`).pathname
  } catch {
    return null
  }
  const segments: Array<string> = []
  for (const segment of resolved.split("/")) {
    if (segment === "") continue
    const decoded = segment.replace(/(?:%[0-9a-f]{2})+/gi, decodeRun)
    // Decoding may reveal dot segments the URL parser did not see.
    if (decoded === ".") continue
    if (decoded === "..") {
      segments.pop()
      continue
    }
    segments.push(decoded)
  }
  return "/" + segments.join("/")
}

/** The path (and query) the part addresses, relative to the server root. */
export const innerTarget = (target: string, publicBaseUrl: string | null): string | null => {
  let path = target
  if (/^https?:\/\//i.test(path)) {
    try {
      const url = new URL(path)
      path = url.pathname + url.search
    } catch {
      return null
    }
  }
  if (!path.startsWith("/")) return null
  if (publicBaseUrl) {
    try {
      const prefix = new URL(publicBaseUrl).pathname.replace(/\/+$/, "")
      if (prefix.length > 0 && (path === prefix || path.startsWith(prefix + "/") || path.startsWith(prefix + "?"))) {
        path = path.slice(prefix.length) || "/"
        if (!path.startsWith("/")) path = "/" + path
      }
    } catch {
      // an unparsable configured base URL leaves paths as sent
    }
  }
  const q = path.search(/[?#]/)
  const normalized = normalizePath(q < 0 ? path : path.slice(0, q))
  if (normalized === null) return null
  const query = q < 0 || path[q] === "#" ? "" : path.slice(q).replace(/#.*$/, "")
  return normalized + query
}

/**
 * Builds the synthetic request of a part, inheriting the batch's credentials where it has none.
 * Its peer is the batch's client address, so its failed authentications count against the address
 * that sent the batch.
 */
const innerRequest = (
  inner: InnerRequest,
  path: string,
  outer: HttpServerRequest.HttpServerRequest,
  outerKey: string | undefined,
  client: Option.Option<string>
): HttpServerRequest.HttpServerRequest | null => {
  const headers: Record<string, string> = {}
  for (const [name, value] of inner.headers) {
    if (!DROPPED.has(name)) headers[name] = value
  }
  for (const name of INHERITED) {
    const value = outer.headers[name]
    if (headers[name] === undefined && value !== undefined) headers[name] = value
  }
  const query = new URLSearchParams(path.includes("?") ? path.slice(path.indexOf("?") + 1) : "")
  if (outerKey !== undefined && !query.has("key") && headers["x-goog-api-key"] === undefined) headers["x-goog-api-key"] = outerKey
  headers["host"] ??= outer.headers["host"] ?? "localhost"
  const hasBody = inner.method !== "GET" && inner.method !== "HEAD"
  // `Request` refuses some methods (CONNECT, TRACE, TRACK) and odd URLs: that is the part's error.
  let web: Request
  try {
    web = new Request(`http://batch.invalid${path}`, { method: inner.method, ...(hasBody ? { body: inner.body } : {}) })
  } catch {
    return null
  }
  return HttpServerRequest.fromWeb(web).modify({
    headers: Headers.fromInput(headers),
    ...(Option.isSome(client) ? { remoteAddress: client.value } : {})
  })
}

const REASONS: Readonly<Record<number, string>> = {
  200: "OK",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable"
}

/** Writes a response as an `application/http` payload: status line, headers, blank line, body (CRLF). */
const serializeResponse = (response: HttpServerResponse.HttpServerResponse) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const web = HttpServerResponse.toWeb(response, { runtime })
    const body = yield* Effect.promise(() => web.text())
    const lines = [`HTTP/1.1 ${web.status} ${REASONS[web.status] ?? "Unknown"}`]
    web.headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "transfer-encoding") lines.push(`${name}: ${value}`)
    })
    lines.push(`content-length: ${new TextEncoder().encode(body).length}`)
    return `${lines.join("\r\n")}\r\n\r\n${body}`
  })

const partError = (message: string) => {
  const rendered = render("google", invalid(message))
  return HttpServerResponse.unsafeJson(rendered.body, { status: rendered.status, headers: rendered.headers })
}

/** `<ID>` -> `<response-ID>`, as Google answers (its clients read the ID back after `response-`). */
export const responseContentId = (requestId: string | undefined): string | null => {
  if (requestId === undefined) return null
  const trimmed = requestId.trim()
  const bare = trimmed.startsWith("<") && trimmed.endsWith(">") ? trimmed.slice(1, -1) : trimmed
  return `<response-${bare}>`
}

const newBoundary = () => {
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  return `batch_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`
}

/** The handler of `POST /batch`. */
export const handle = Effect.gen(function*() {
  if (Option.isSome(yield* Effect.serviceOption(InsideBatch))) return yield* invalid("A batch part cannot itself be a batch.")
  const request = yield* HttpServerRequest.HttpServerRequest
  const dispatcher = yield* Effect.serviceOption(BatchDispatcher)
  if (Option.isNone(dispatcher)) return yield* Effect.dieMessage("POST /batch needs the BatchDispatcher of HttpApp.EnvelopeMiddleware")
  const boundary = yield* boundaryOf(request.headers["content-type"])
  const body = yield* readText
  const parts = yield* parseMultipart(body, boundary)
  // One batch's work is bounded in parts (`MAX_PARTS`), bytes (the body limit) and time: when the
  // time limit passes, running parts are stopped and parts not started are not run (503 each).
  const { batchTimeLimitMs, publicBaseUrl } = yield* HttpConfig
  const deadline = (yield* Clock.currentTimeMillis) + batchTimeLimitMs
  const overTime = () => {
    const rendered = render(
      "google",
      new Unavailable({ message: `The batch ran past its time limit of ${batchTimeLimitMs / 1000} s; this part was not answered. Send it again.` })
    )
    return HttpServerResponse.unsafeJson(rendered.body, { status: rendered.status, headers: rendered.headers })
  }
  const outerKeyParam = new URLSearchParams(request.url.includes("?") ? request.url.slice(request.url.indexOf("?") + 1) : "").get("key")
  const outerKey = outerKeyParam ?? undefined
  const client = yield* ClientAddress.current

  const answer = (part: MimePart) =>
    Effect.gen(function*() {
      const type = (part.headers["content-type"] ?? "application/http").split(";")[0]!.trim().toLowerCase()
      if (type !== "application/http") return partError(`A batch part must be application/http, not "${type}".`)
      const parsed = yield* Effect.either(parseInnerRequest(part.content))
      if (parsed._tag === "Left") return partError(parsed.left.message)
      const path = innerTarget(parsed.right.target, publicBaseUrl)
      if (path === null) return partError(`A batch part addresses "${parsed.right.target.slice(0, 100)}", which is not a path of this server.`)
      if (path === "/batch" || path.startsWith("/batch?")) return partError("A batch part cannot itself be a batch.")
      const left = deadline - (yield* Clock.currentTimeMillis)
      if (left <= 0) return overTime()
      const inner = innerRequest(parsed.right, path, request, outerKey, client)
      if (inner === null) return partError(`A batch part's request "${parsed.right.method} ${parsed.right.target.slice(0, 100)}" cannot be served.`)
      return yield* Effect.provideService(dispatcher.value.dispatch(inner), InsideBatch, true).pipe(
        Effect.timeoutTo({ duration: left, onTimeout: overTime, onSuccess: (response) => response })
      )
    })

  const answered = yield* Effect.forEach(
    parts,
    (part) =>
      Effect.flatMap(answer(part), serializeResponse).pipe(
        Effect.map((payload) => ({ payload, contentId: responseContentId(part.headers["content-id"]) }))
      ),
    { concurrency: PART_CONCURRENCY }
  )
  const out = newBoundary()
  const chunks = answered.map(({ contentId, payload }) =>
    `--${out}\r\nContent-Type: application/http\r\n${contentId ? `Content-ID: ${contentId}\r\n` : ""}\r\n${payload}\r\n`
  )
  return HttpServerResponse.text(`${chunks.join("")}--${out}--\r\n`, { contentType: `multipart/mixed; boundary=${out}` })
})
