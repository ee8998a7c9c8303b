/**
 * An `HttpServerRequest` over Node's `IncomingMessage`, for the fast path (`FastPath.ts`), which
 * runs the routes' handlers without the platform's Node server (whose request class is internal).
 * It answers what the platform's does: `source` is the `IncomingMessage` (so `Body.readText`
 * reads the stream itself, under every framing), `headers` are Node's lower-cased headers,
 * `remoteAddress` is the socket's peer, `url` the request target. The body accessors read the
 * stream within `MaxBodySize`; multipart and upgrades are not served on the fast routes.
 */
import { Cookies, type Headers, HttpIncomingMessage, HttpServerError, HttpServerRequest, type Multipart, type Socket, UrlParams } from "@effect/platform"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { Effect, Either, Inspectable, Option, Stream } from "effect"
import type { IncomingMessage } from "node:http"
import { collectNodeBytes } from "../Body.js"

const unsupported = (request: HttpServerRequest.HttpServerRequest, what: string) =>
  new HttpServerError.RequestError({ request, reason: "Decode", description: `${what} is not served on this route` })

export class NodeRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId

  constructor(
    readonly source: IncomingMessage,
    readonly url: string = source.url ?? "/",
    private readonly headersOverride?: Headers.Headers,
    private readonly remoteAddressOverride?: string
  ) {
    super()
  }

  get originalUrl(): string {
    return this.source.url ?? "/"
  }
  get method(): HttpMethod {
    return (this.source.method ?? "GET").toUpperCase() as HttpMethod
  }
  get headers(): Headers.Headers {
    return this.headersOverride ?? (this.source.headers as Headers.Headers)
  }
  get remoteAddress(): Option.Option<string> {
    return Option.fromNullable(this.remoteAddressOverride ?? this.source.socket?.remoteAddress)
  }
  get cookies(): Record<string, string> {
    return Cookies.parseHeader(this.headers["cookie"] ?? "")
  }

  private textEffect: Effect.Effect<string, HttpServerError.RequestError> | undefined
  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    // Read once (a stream is consumed by reading), like the platform's request.
    this.textEffect ??= Effect.runSync(Effect.cached(Effect.map(this.bytes, (bytes) => Buffer.from(bytes).toString("utf8"))))
    return this.textEffect
  }
  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({ try: () => (text === "" ? null : JSON.parse(text)) as unknown, catch: (cause) => this.decodeError(cause) }))
  }
  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({ try: () => UrlParams.fromInput(new URLSearchParams(text)), catch: (cause) => this.decodeError(cause) }))
  }
  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    return Effect.map(this.bytes, (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
  }
  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return Stream.fromAsyncIterable(this.source as AsyncIterable<Uint8Array>, (cause) => this.decodeError(cause))
  }
  get multipart(): Effect.Effect<Multipart.Persisted, Multipart.MultipartError> {
    return Effect.die(unsupported(this, "multipart"))
  }
  get multipartStream(): Stream.Stream<Multipart.Part, Multipart.MultipartError> {
    return Stream.die(unsupported(this, "multipart"))
  }
  get upgrade(): Effect.Effect<Socket.Socket, HttpServerError.RequestError> {
    return Effect.fail(unsupported(this, "upgrade"))
  }

  modify(options: { readonly url?: string; readonly headers?: Headers.Headers; readonly remoteAddress?: string }): HttpServerRequest.HttpServerRequest {
    return new NodeRequest(this.source, options.url ?? this.url, options.headers ?? this.headersOverride, options.remoteAddress ?? this.remoteAddressOverride)
  }

  override toString(): string {
    return `ServerRequest(${this.method} ${this.url})`
  }
  toJSON(): unknown {
    return { _id: "@effect/platform/HttpServerRequest", method: this.method, url: this.originalUrl }
  }

  private decodeError(cause: unknown) {
    return new HttpServerError.RequestError({ request: this, reason: "Decode", cause })
  }

  /**
   * The whole body, refused past `MaxBodySize` when one is set, collected by `Body.collectNodeBytes`
   * (the fast path's own collector): a stream that closes before its end fails at once.
   */
  private get bytes(): Effect.Effect<Uint8Array, HttpServerError.RequestError> {
    return Effect.flatMap(HttpIncomingMessage.MaxBodySize, (max) =>
      Effect.async<Uint8Array, HttpServerError.RequestError>((resume) => {
        const limit = Option.match(max, { onNone: () => Infinity, onSome: Number })
        const stop = collectNodeBytes(this.source, limit, (result) =>
          resume(
            Either.isRight(result)
              ? Effect.succeed(result.right)
              : Effect.fail(this.decodeError(new Error(result.left === "tooLarge" ? "maxBytes exceeded" : "the request body could not be read")))
          ))
        return Effect.sync(stop)
      }))
  }
}
