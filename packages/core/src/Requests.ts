/**
 * Decoding a request body (already parsed into a value) with its wire schema, the same way for
 * every host: unknown fields ignored, the first problem reported with its field path as an
 * `InvalidRequest`.
 */
import { InvalidRequest, Limits } from "@decorum/domain"
import { Effect, Either, ParseResult, Schema } from "effect"

/** Longest excerpt of a request's own text an error message quotes. */
export const EXCERPT_LENGTH = 120

/** At most `EXCERPT_LENGTH` characters of `text`, marked with an ellipsis when cut. */
export const excerpt = (text: string, length = EXCERPT_LENGTH): string =>
  text.length <= length ? text : `${text.slice(0, length)}…`

/** The first problem of a decoding, with its field path; quotes of the sent value are excerpts. */
export const describeParseError = (error: ParseResult.ParseError): string => {
  const first = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  if (!first) return "The request does not match the expected shape."
  const path = first.path.map(String).join(".")
  return `${first.path.length > 0 ? `Field "${excerpt(path, 80)}": ` : ""}${excerpt(first.message, 200)}`
}

/**
 * Whether JSON text nests objects and arrays deeper than `max`, found by one pass over the text
 * (brackets inside strings do not count), before anything parses or walks it.
 */
export const textNestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \\ */) i++
      else if (c === 34 /* " */) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--
  }
  return false
}

/** Whether a value nests objects and arrays deeper than `max` (iterative: no stack to overflow). */
export const valueNestsDeeperThan = (value: unknown, max: number): boolean => {
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  // Deepest level each object was reached at: a shared object is walked again only from deeper.
  const deepest = new Map<object, number>()
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!
    if (v === null || typeof v !== "object") continue
    if (depth + 1 > max) return true
    if ((deepest.get(v) ?? -1) >= depth) continue
    deepest.set(v, depth)
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1])
    }
  }
  return false
}

export const tooDeep = () =>
  new InvalidRequest({ message: `The request nests objects or arrays deeper than ${Limits.maxNestingDepth} levels.` })

// Compiled once per schema, and synchronous: request schemas have no effects, and decoding through
// an Effect costs more than the decoding itself on every request. Module cache, a documented
// constant: a decoder is a pure function of its schema, held weakly by the schema object.
const decoders = new WeakMap<object, (value: unknown) => Either.Either<unknown, ParseResult.ParseError>>()

const decoderOf = <A, I>(schema: Schema.Schema<A, I>) => {
  let decoder = decoders.get(schema)
  if (decoder === undefined) {
    decoder = Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore", errors: "first" })
    decoders.set(schema, decoder)
  }
  return decoder as (value: unknown) => Either.Either<A, ParseResult.ParseError>
}

/** `decode` without an effect around it (an `Either` is also an `Effect`), for callers outside a fiber. */
export const decodeEither = <A, I>(schema: Schema.Schema<A, I>, value: unknown): Either.Either<A, InvalidRequest> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return Either.left(new InvalidRequest({ message: "The request must be an object." }))
  }
  if (valueNestsDeeperThan(value, Limits.maxNestingDepth)) return Either.left(tooDeep())
  const decoded = decoderOf(schema)(value)
  return Either.isRight(decoded)
    ? Either.right(decoded.right)
    : Either.left(new InvalidRequest({ message: describeParseError(decoded.left) }))
}

export const decode = <A, I>(schema: Schema.Schema<A, I>, value: unknown): Effect.Effect<A, InvalidRequest> => decodeEither(schema, value)
