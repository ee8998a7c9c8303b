/**
 * Decoding a request body (already parsed into a value) with its wire schema, the same way for
 * every host: unknown fields ignored, the first problem reported with its field path as an
 * `InvalidRequest`.
 */
import { InvalidRequest } from "@decorum/domain"
import { Effect, ParseResult, Schema } from "effect"

export const describeParseError = (error: ParseResult.ParseError): string => {
  const first = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  if (!first) return "The request does not match the expected shape."
  return `${first.path.length > 0 ? `Field "${first.path.join(".")}": ` : ""}${first.message}`
}

export const decode = <A, I>(schema: Schema.Schema<A, I>, value: unknown): Effect.Effect<A, InvalidRequest> =>
  typeof value !== "object" || value === null || Array.isArray(value)
    ? Effect.fail(new InvalidRequest({ message: "The request must be an object." }))
    : Schema.decodeUnknown(schema, { onExcessProperty: "ignore", errors: "first" })(value).pipe(
      Effect.mapError((error) => new InvalidRequest({ message: describeParseError(error) }))
    )
