/**
 * Request bodies: content type, size limit, JSON or form encoding, then the endpoint's schema.
 * Every failure here is a typed request error, so it answers 4xx in the family's envelope
 * (HttpApi's own decoding is bypassed on purpose: its error body is neither family's).
 */
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from "@decorum/domain"
import { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
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

const mediaType = (header: string | undefined): string => (header ?? "").split(";")[0]!.trim().toLowerCase()

const isJson = (type: string) => type === "application/json" || type === "" || type.endsWith("+json")

/** Reads the raw body text within the configured limit. */
export const readText = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { bodyLimitBytes } = yield* HttpConfig
  // Built only when needed: an error captures a stack trace, which is not free on every request.
  const tooLarge = () =>
    new PayloadTooLarge({
      limitBytes: bodyLimitBytes,
      message: `The request body is larger than the limit of ${bodyLimitBytes} bytes.`
    })
  const declared = Number(request.headers["content-length"])
  if (Number.isFinite(declared) && declared > bodyLimitBytes) return yield* tooLarge()
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

/** Parses the body into a plain object according to its content type. */
export const readObject = (options: BodyOptions = {}) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const type = mediaType(request.headers["content-type"])
    const formAllowed = options.form !== undefined
    if (!isJson(type) && !(formAllowed && type === "application/x-www-form-urlencoded")) {
      return yield* new UnsupportedMediaType({
        contentType: type,
        message: `Unsupported content type "${type}". Send application/json${formAllowed ? " or application/x-www-form-urlencoded" : ""}.`
      })
    }
    const text = yield* readText
    if (type === "application/x-www-form-urlencoded") return yield* parseForm(text, options.form!)
    if (text.trim() === "") return {}
    const parsed = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: () => new InvalidRequest({ message: "The request body is not valid JSON." })
    })
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      return yield* new InvalidRequest({ message: "The request body must be a JSON object." })
    }
    return parsed as Record<string, unknown>
  })

/**
 * Decodes form fields: `a[]=x` (and PHP's `a[0]=x`) build arrays, a single `a[]=x` is still an
 * array of one; booleans must be the strings `true` or `false`. Mixing `a=x` with `a[]=y`, or
 * repeating a scalar field, is ambiguous and rejected.
 */
export const parseForm = (text: string, spec: FormSpec): Effect.Effect<Record<string, unknown>, InvalidRequest> =>
  Effect.suspend(() => {
    const arrays = new Set(spec.arrays)
    const booleans = new Set(spec.booleans)
    const out: Record<string, unknown> = {}
    const style = new Map<string, "plain" | "bracket">()
    let params: URLSearchParams
    try {
      params = new URLSearchParams(text)
    } catch {
      return Effect.fail(new InvalidRequest({ message: "The form body could not be parsed." }))
    }
    for (const [rawKey, value] of params) {
      const bracket = /^(.+?)\[(\d*)\]$/.exec(rawKey)
      const key = bracket ? bracket[1]! : rawKey
      const kind = bracket ? "bracket" : "plain"
      const previous = style.get(key)
      if (previous !== undefined && previous !== kind) {
        return Effect.fail(new InvalidRequest({ message: `Form field "${key}" is sent both as "${key}" and "${key}[]"; use "${key}[]" for every item.` }))
      }
      style.set(key, kind)
      if (arrays.has(key)) {
        if (kind === "plain" && previous !== undefined) {
          return Effect.fail(new InvalidRequest({ message: `Form field "${key}" is repeated; send arrays as "${key}[]=a&${key}[]=b".` }))
        }
        ;((out[key] ??= []) as Array<string>).push(value)
        continue
      }
      if (kind === "bracket") {
        return Effect.fail(new InvalidRequest({ message: `Form field "${key}" is not an array.` }))
      }
      if (previous !== undefined) {
        return Effect.fail(new InvalidRequest({ message: `Form field "${key}" is repeated.` }))
      }
      if (booleans.has(key)) {
        if (value !== "true" && value !== "false") {
          return Effect.fail(new InvalidRequest({ message: `Form field "${key}" must be the string "true" or "false", got "${value.slice(0, 32)}".` }))
        }
        out[key] = value === "true"
        continue
      }
      out[key] = value
    }
    return Effect.succeed(out)
  })

/** Decodes a parsed body with the endpoint's schema (shared with the in-process host). */
export const decode = Requests.decode
