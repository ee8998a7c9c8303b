/**
 * Request bodies: content type, size limit, JSON or form encoding, then the endpoint's schema.
 * Every failure here is a typed request error, so it answers 4xx in the family's envelope
 * (HttpApi's own decoding is bypassed on purpose: its error body is neither family's).
 */
import { InvalidRequest, Limits, PayloadTooLarge, UnsupportedMediaType } from "@decorum/domain"
import { HttpServerRequest } from "@effect/platform"
import { Effect, Either, Option } from "effect"
import { Requests } from "@decorum/core"
import { HttpConfig } from "./HttpConfig.js"

export interface FormSpec {
  /** Fields that hold arrays (`name[]=a&name[]=b`). */
  readonly arrays: ReadonlyArray<string>
  /** Fields that hold booleans (the strings `true` / `false`). */
  readonly booleans: ReadonlyArray<string>
}

export interface BodyOptions {
  /** Accept `application/x-www-form-urlencoded` (native family only). */
  readonly form?: FormSpec
}

export const mediaType = (header: string | undefined): string => (header ?? "").split(";")[0]!.trim().toLowerCase()

const isJson = (type: string) => type === "application/json" || type === "" || type.endsWith("+json")

/**
 * The parts of Node's `IncomingMessage` the reader uses. The Node host hands its request over as
 * `HttpServerRequest.source`; other hosts (Lambda, the synthetic parts of `/batch`) hand a web
 * `Request` whose body is already in memory.
 */
export interface NodeBody {
  on(event: string, listener: (...args: Array<any>) => void): unknown
  off(event: string, listener: (...args: Array<any>) => void): unknown
  resume(): unknown
  readonly readableEnded: boolean
  readonly destroyed: boolean
  readonly socket?: { destroy(): void } | null
}

const isNodeBody = (source: unknown): source is NodeBody =>
  typeof source === "object" && source !== null && typeof (source as NodeBody).on === "function" &&
  typeof (source as NodeBody).resume === "function" && "readableEnded" in source

/** How long the rest of a refused body is read and thrown away before the connection is cut. */
const DISCARD_MS = 5_000

/**
 * Reads and throws away what is left of a refused body, so that the client (still sending) reads
 * its 413 instead of a reset, and a keep-alive connection stays usable. Nothing is kept in memory.
 * A client that keeps sending past `maxBytes` or `DISCARD_MS` has its connection cut.
 */
const discardRest = (source: NodeBody, maxBytes: number) => {
  if (source.readableEnded || source.destroyed) return
  let discarded = 0
  const cut = () => {
    done()
    source.socket?.destroy()
  }
  const timer = setTimeout(cut, DISCARD_MS)
  timer.unref?.()
  const onData = (chunk: Uint8Array | string) => {
    discarded += chunk.length
    if (discarded > maxBytes) cut()
  }
  const done = () => {
    clearTimeout(timer)
    source.off("data", onData)
    source.off("end", done)
    source.off("close", done)
    source.off("error", done)
  }
  source.on("data", onData)
  source.on("end", done)
  source.on("close", done)
  source.on("error", done)
  source.resume()
}

/** Why a Node body could not be collected: over the limit, or the stream failed or closed before its end. */
export type NotCollected = "tooLarge" | "unreadable"

/**
 * Collects a Node request body within `limit` bytes, whatever its framing (Content-Length,
 * chunked), and calls `done` once: with the bytes at the end of the stream; `tooLarge` as soon as
 * the limit is passed (nothing more is kept, and the rest is read and discarded, so the client
 * reads the answer); `unreadable` on a stream error, or when the stream closes before its end (a
 * client that went away mid-body: its request is settled at once, not left waiting). Returns a
 * function that stops collecting (interruption). The one body collector of the Node host.
 */
export const collectNodeBytes = (source: NodeBody, limit: number, done: (result: Either.Either<Buffer, NotCollected>) => void): () => void => {
  let chunks: Array<Buffer> = []
  let bytes = 0
  const cleanup = () => {
    source.off("data", onData)
    source.off("end", onEnd)
    source.off("error", onError)
    source.off("close", onClose)
  }
  const onData = (chunk: Buffer | string) => {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk
    bytes += buffer.length
    if (bytes > limit) {
      cleanup()
      chunks = []
      discardRest(source, limit * 4)
      done(Either.left("tooLarge"))
      return
    }
    chunks.push(buffer)
  }
  const onEnd = () => {
    cleanup()
    const body = Buffer.concat(chunks, bytes)
    chunks = []
    done(Either.right(body))
  }
  const onError = () => {
    cleanup()
    chunks = []
    done(Either.left("unreadable"))
  }
  const onClose = () => {
    if (source.readableEnded) return
    onError()
  }
  source.on("data", onData)
  source.on("end", onEnd)
  source.on("error", onError)
  source.on("close", onClose)
  return () => {
    cleanup()
    chunks = []
  }
}

/**
 * `collectNodeBytes` as UTF-8 text, with the body errors of the API: `tooLarge()` over the limit,
 * `InvalidRequest` when the body could not be read.
 */
export const collectNodeBody = (
  source: NodeBody,
  limit: number,
  tooLarge: () => PayloadTooLarge,
  done: (result: Either.Either<string, PayloadTooLarge | InvalidRequest>) => void
): () => void =>
  collectNodeBytes(source, limit, (result) =>
    done(
      Either.isRight(result)
        ? Either.right(result.right.toString("utf8"))
        : Either.left(result.left === "tooLarge" ? tooLarge() : new InvalidRequest({ message: "The request body could not be read." }))
    ))

const readNodeBody = (source: NodeBody, limit: number, tooLarge: () => PayloadTooLarge) =>
  Effect.async<string, PayloadTooLarge | InvalidRequest>((resume) => {
    const stop = collectNodeBody(source, limit, tooLarge, resume)
    return Effect.sync(stop)
  })

/** The body limit's error. Built only when needed: an error captures a stack trace, which is not free on every request. */
export const tooLargeFor = (bodyLimitBytes: number) => () =>
  new PayloadTooLarge({
    limitBytes: bodyLimitBytes,
    message: `The request body is larger than the limit of ${bodyLimitBytes} bytes.`
  })

/**
 * What is refused before reading a byte: a compressed body (415) and a declared length over the
 * limit (413). The rest of a refused Node body is discarded.
 */
export const refusedBeforeReading = (
  headers: Readonly<Record<string, string | undefined>>,
  node: NodeBody | null,
  bodyLimitBytes: number,
  tooLarge: () => PayloadTooLarge
): UnsupportedMediaType | PayloadTooLarge | undefined => {
  const encoding = (headers["content-encoding"] ?? "").trim().toLowerCase()
  if (encoding !== "" && encoding !== "identity") {
    if (node) discardRest(node, bodyLimitBytes * 4)
    return new UnsupportedMediaType({
      contentType: encoding.slice(0, 40),
      message: `Content-Encoding "${encoding.slice(0, 40)}" is not accepted; send the body uncompressed.`
    })
  }
  const declared = Number(headers["content-length"])
  if (Number.isFinite(declared) && declared > bodyLimitBytes) {
    if (node) discardRest(node, bodyLimitBytes * 4)
    return tooLarge()
  }
  return undefined
}

/**
 * Reads the raw body text within the configured limit. A body over the limit answers 413 however it
 * is framed, and its bytes are not kept. A compressed body (`Content-Encoding`) is refused with 415:
 * the limit applies to what the server holds, and a small compressed body can inflate without bound.
 */
export const readText = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { bodyLimitBytes } = yield* HttpConfig
  const tooLarge = tooLargeFor(bodyLimitBytes)
  const source = request.source
  const node = isNodeBody(source) && !source.readableEnded && !source.destroyed ? source : null
  const refused = refusedBeforeReading(request.headers, node, bodyLimitBytes, tooLarge)
  if (refused !== undefined) return yield* refused
  if (node) return yield* readNodeBody(node, bodyLimitBytes, tooLarge)
  const text: string = yield* request.text.pipe(
    HttpServerRequest.withMaxBodySize(Option.some(bodyLimitBytes)),
    Effect.catchAll((error): Effect.Effect<never, PayloadTooLarge | InvalidRequest> =>
      String((error as { cause?: unknown }).cause).includes("maxBytes")
        ? Effect.fail(tooLarge())
        : Effect.fail(new InvalidRequest({ message: "The request body could not be read." }))
    )
  )
  if (text.length > bodyLimitBytes && Buffer.byteLength(text) > bodyLimitBytes) return yield* tooLarge()
  return text
})

/** The content types a body may have: JSON, and form fields when the endpoint takes them. */
export const unsupportedType = (type: string, options: BodyOptions): UnsupportedMediaType | undefined => {
  const formAllowed = options.form !== undefined
  if (isJson(type) || (formAllowed && type === "application/x-www-form-urlencoded")) return undefined
  return new UnsupportedMediaType({
    contentType: type,
    message: `Unsupported content type "${type}". Send application/json${formAllowed ? " or application/x-www-form-urlencoded" : ""}.`
  })
}

/** Parses body text of an accepted content type (`unsupportedType`) into a plain object. */
export const parseObject = (type: string, text: string, options: BodyOptions): Either.Either<Record<string, unknown>, InvalidRequest> => {
  if (type === "application/x-www-form-urlencoded") return formFields(text, options.form!)
  if (text.trim() === "") return Either.right({})
  if (Requests.textNestsDeeperThan(text, Limits.maxNestingDepth)) return Either.left(Requests.tooDeep())
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return Either.left(new InvalidRequest({ message: "The request body is not valid JSON." }))
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return Either.left(new InvalidRequest({ message: "The request body must be a JSON object." }))
  }
  return Either.right(parsed as Record<string, unknown>)
}

/** Parses the body into a plain object according to its content type. */
export const readObject = (options: BodyOptions = {}) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const type = mediaType(request.headers["content-type"])
    const unsupported = unsupportedType(type, options)
    if (unsupported !== undefined) return yield* unsupported
    const text = yield* readText
    return yield* parseObject(type, text, options)
  })

/**
 * Decodes form fields: `a[]=x` (and PHP's `a[0]=x`) build arrays, a single `a[]=x` is still an
 * array of one; booleans must be the strings `true` or `false`. Mixing `a=x` with `a[]=y`, or
 * repeating a scalar field, is ambiguous and rejected.
 */
export const parseForm = (text: string, spec: FormSpec): Effect.Effect<Record<string, unknown>, InvalidRequest> =>
  Effect.suspend(() => formFields(text, spec))

const formFields = (text: string, spec: FormSpec): Either.Either<Record<string, unknown>, InvalidRequest> => {
  const arrays = new Set(spec.arrays)
  const booleans = new Set(spec.booleans)
  const out: Record<string, unknown> = {}
  const style = new Map<string, "plain" | "bracket">()
  let params: URLSearchParams
  try {
    params = new URLSearchParams(text)
  } catch {
    return Either.left(new InvalidRequest({ message: "The form body could not be parsed." }))
  }
  for (const [rawKey, value] of params) {
    const bracket = /^(.+?)\[(\d*)\]$/.exec(rawKey)
    const key = bracket ? bracket[1]! : rawKey
    const kind = bracket ? "bracket" : "plain"
    const previous = style.get(key)
    if (previous !== undefined && previous !== kind) {
      return Either.left(new InvalidRequest({ message: `Form field "${key}" is sent both as "${key}" and "${key}[]"; use "${key}[]" for every item.` }))
    }
    style.set(key, kind)
    if (arrays.has(key)) {
      if (kind === "plain" && previous !== undefined) {
        return Either.left(new InvalidRequest({ message: `Form field "${key}" is repeated; send arrays as "${key}[]=a&${key}[]=b".` }))
      }
      ;((out[key] ??= []) as Array<string>).push(value)
      continue
    }
    if (kind === "bracket") {
      return Either.left(new InvalidRequest({ message: `Form field "${key}" is not an array.` }))
    }
    if (previous !== undefined) {
      return Either.left(new InvalidRequest({ message: `Form field "${key}" is repeated.` }))
    }
    if (booleans.has(key)) {
      if (value !== "true" && value !== "false") {
        return Either.left(new InvalidRequest({ message: `Form field "${key}" must be the string "true" or "false", got "${value.slice(0, 32)}".` }))
      }
      out[key] = value === "true"
      continue
    }
    out[key] = value
  }
  return Either.right(out)
}

/** Decodes a parsed body with the endpoint's schema (shared with the in-process host). */
export const decode = Requests.decode
