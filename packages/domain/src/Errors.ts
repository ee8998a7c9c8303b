/**
 * The engine's expected failures. They carry no HTTP status: `@decorum/http` maps each tag to a
 * status and to the envelope of the family that answers (one table, `ErrorMapping.ts`).
 */
import { Schema } from "effect"

/** A parameter an evaluation needs was not sent (e.g. `article_context_id` for comment scoring). */
export class MissingParameter extends Schema.TaggedError<MissingParameter>()("MissingParameter", {
  parameter: Schema.String,
  message: Schema.String
}) {}

/** The combined evaluation was called with no `run_*` flag set to true. */
export class NoEvaluationRequested extends Schema.TaggedError<NoEvaluationRequested>()("NoEvaluationRequested", {
  flags: Schema.Array(Schema.String),
  message: Schema.String
}) {}

/** A flag asked for an evaluation this version does not offer. */
export class UnsupportedEvaluation extends Schema.TaggedError<UnsupportedEvaluation>()("UnsupportedEvaluation", {
  flag: Schema.String,
  message: Schema.String
}) {}

/** `article_context_id` is not a UUID. */
export class InvalidArticleContextId extends Schema.TaggedError<InvalidArticleContextId>()("InvalidArticleContextId", {
  value: Schema.String,
  message: Schema.String
}) {}

/** The article context does not exist, or belongs to another account (indistinguishable on purpose). */
export class UnknownArticleContext extends Schema.TaggedError<UnknownArticleContext>()("UnknownArticleContext", {
  id: Schema.String,
  message: Schema.String
}) {}

/** The comment is empty (or whitespace) or longer than the limit. */
export class InvalidComment extends Schema.TaggedError<InvalidComment>()("InvalidComment", {
  reason: Schema.Literal("empty", "too_long"),
  message: Schema.String
}) {}

/** A request body or field is malformed (wrong type, bad JSON, conflicting fields). */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  message: Schema.String
}) {}

/** Missing, wrong or revoked credentials. The message never says which credential was wrong. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  /** `missing` lets the Google-shaped family answer 403 for a missing key and 400 for a bad one. */
  reason: Schema.Literal("missing", "invalid"),
  message: Schema.String
}) {}

/** A requested Perspective attribute is not known. */
export class UnsupportedAttribute extends Schema.TaggedError<UnsupportedAttribute>()("UnsupportedAttribute", {
  attribute: Schema.String,
  message: Schema.String
}) {}

/**
 * An attribute cannot be scored in the comment's language (Perspective's
 * LANGUAGE_NOT_SUPPORTED_BY_ATTRIBUTE): `languages` are the request's `languages` when it sent
 * them (`source: "requested"`), else the detected ones (`source: "detected"`).
 */
export class LanguageNotSupportedByAttribute extends Schema.TaggedError<LanguageNotSupportedByAttribute>()("LanguageNotSupportedByAttribute", {
  attribute: Schema.String,
  languages: Schema.Array(Schema.String),
  source: Schema.Literal("requested", "detected"),
  message: Schema.String
}) {}

/** No language could be identified in the comment and none was sent (Perspective's LANGUAGE_DETECTION_FAILED). */
export class LanguageDetectionFailed extends Schema.TaggedError<LanguageDetectionFailed>()("LanguageDetectionFailed", {
  message: Schema.String
}) {}

/** The Google-shaped family requires `requestedAttributes`. */
export class NoRequestedAttributes extends Schema.TaggedError<NoRequestedAttributes>()("NoRequestedAttributes", {
  message: Schema.String
}) {}

/** The request body is in an encoding the endpoint does not accept. */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  contentType: Schema.String,
  message: Schema.String
}) {}

/** The request body is over the configured limit. */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  limitBytes: Schema.Number,
  message: Schema.String
}) {}

/** A resource (for example an article context fetched by id) does not exist for this account. */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  message: Schema.String
}) {}

/** The caller is over its rate limit. */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  retryAfterSeconds: Schema.Number,
  message: Schema.String
}) {}

/** A URL given to `inittopic` could not be fetched (unreachable, refused, or answered an error). */
export class FetchFailed extends Schema.TaggedError<FetchFailed>()("FetchFailed", {
  url: Schema.String,
  upstreamStatus: Schema.optional(Schema.Number),
  message: Schema.String
}) {}

/** A URL given to `inittopic` served a type the engine cannot read. */
export class UnsupportedContent extends Schema.TaggedError<UnsupportedContent>()("UnsupportedContent", {
  url: Schema.String,
  contentType: Schema.String,
  message: Schema.String
}) {}

/** An evaluation provider (local model, LLM) failed or timed out. */
export class ProviderFailure extends Schema.TaggedError<ProviderFailure>()("ProviderFailure", {
  provider: Schema.String,
  evaluation: Schema.String,
  message: Schema.String,
  /** true for transient failures (timeouts, 429, 5xx) a retry may cure. */
  transient: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {}

/** The store (database) failed. Not the caller's fault: mapped to 500/503. */
export class StoreFailure extends Schema.TaggedError<StoreFailure>()("StoreFailure", {
  operation: Schema.String,
  message: Schema.String
}) {}

/**
 * The server will not run this request now: it is shutting down, or the request's share of work
 * (for example a batch's time budget) is spent. Not the caller's fault; a retry later may succeed.
 */
export class Unavailable extends Schema.TaggedError<Unavailable>()("Unavailable", {
  message: Schema.String
}) {}

/** The path exists but does not serve the request's method; `allow` lists the methods it serves. */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  method: Schema.String,
  allow: Schema.Array(Schema.String),
  message: Schema.String
}) {}

/**
 * The HTTP message itself could not be read, so no route was reached: a malformed request line or
 * header (`malformed`), a body whose framing breaks HTTP/1.1 (`malformedBody`: a broken chunk), headers over the parser's limit (`headersTooLarge`), an `Expect` the server
 * does not meet (`expectation`), a request that did not arrive in time (`timeout`), or chunk
 * extensions over the parser's limit (`chunkExtensionsTooLarge`).
 */
export class MalformedHttp extends Schema.TaggedError<MalformedHttp>()("MalformedHttp", {
  reason: Schema.Literal("malformed", "malformedBody", "missingHost", "headersTooLarge", "expectation", "timeout", "chunkExtensionsTooLarge"),
  message: Schema.String
}) {}

/**
 * A background refit that could not finish (its worker failed, or it ran past its time limit). No
 * request ends in it: the account keeps the adapters in force, and the refitter logs it.
 */
export class RefitFailure extends Schema.TaggedError<RefitFailure>()("RefitFailure", {
  message: Schema.String
}) {}

/** Every error a request can end in. */
export type DecorumError =
  | MissingParameter
  | NoEvaluationRequested
  | UnsupportedEvaluation
  | InvalidArticleContextId
  | UnknownArticleContext
  | InvalidComment
  | InvalidRequest
  | Unauthorized
  | UnsupportedAttribute
  | LanguageNotSupportedByAttribute
  | LanguageDetectionFailed
  | NoRequestedAttributes
  | UnsupportedMediaType
  | PayloadTooLarge
  | NotFound
  | RateLimited
  | FetchFailed
  | UnsupportedContent
  | ProviderFailure
  | StoreFailure
  | Unavailable
  | MethodNotAllowed
  | MalformedHttp

/** Errors that mean "the request was bad", as opposed to faults of the engine or its providers. */
export type RequestError = Exclude<DecorumError, ProviderFailure | StoreFailure | Unavailable>
