/**
 * The Perspective (Comment Analyzer v1alpha1) wire shapes, served by the compat family
 * (`/v0.2/external-compat/...`, `/v0.2/perspective-compat/...`) and the Google-shaped family
 * (`/v1alpha1/comments:...`). Answers are lowerCamelCase; requests may be either case
 * (`normalizeRequestKeys`).
 */
import { Schema } from "effect"
import { Limits } from "./Limits.js"

// ---------------------------------------------------------------- attributes

/** Production attributes of Perspective, each also accepted with an `_EXPERIMENTAL` suffix. */
export const CoreAttributes = [
  "TOXICITY",
  "SEVERE_TOXICITY",
  "IDENTITY_ATTACK",
  "INSULT",
  "PROFANITY",
  "THREAT",
  "SEXUALLY_EXPLICIT",
  "FLIRTATION"
] as const

/** The older (New York Times and Wikipedia era) attributes. */
export const LegacyAttributes = [
  "ATTACK_ON_AUTHOR",
  "ATTACK_ON_COMMENTER",
  "INCOHERENT",
  "INFLAMMATORY",
  "LIKELY_TO_REJECT",
  "OBSCENE",
  "SPAM",
  "UNSUBSTANTIAL"
] as const

/** The bridging attributes (only ever offered as experimental). */
export const BridgingAttributes = [
  "AFFINITY_EXPERIMENTAL",
  "COMPASSION_EXPERIMENTAL",
  "CURIOSITY_EXPERIMENTAL",
  "NUANCE_EXPERIMENTAL",
  "PERSONAL_STORY_EXPERIMENTAL",
  "REASONING_EXPERIMENTAL",
  "RESPECT_EXPERIMENTAL"
] as const

export type CoreAttribute = (typeof CoreAttributes)[number]
export type LegacyAttribute = (typeof LegacyAttributes)[number]
export type BridgingAttribute = (typeof BridgingAttributes)[number]

/** The canonical attribute every accepted name resolves to: one model or approximation each. */
export type Attribute = CoreAttribute | LegacyAttribute | BridgingAttribute

export const Attributes: ReadonlyArray<Attribute> = [...CoreAttributes, ...LegacyAttributes, ...BridgingAttributes]

const canonicalByName: ReadonlyMap<string, Attribute> = new Map<string, Attribute>([
  ...Attributes.map((a) => [a, a] as const),
  ...CoreAttributes.map((a) => [`${a}_EXPERIMENTAL`, a] as const)
])

/** Every name the service accepts (before an optional `@VERSION` suffix). */
export const AcceptedAttributeNames: ReadonlyArray<string> = [...canonicalByName.keys()]

/**
 * Resolve a requested name (`TOXICITY`, `toxicity`, `TOXICITY_EXPERIMENTAL`, `TOXICITY@6`) to its
 * canonical attribute, or `undefined` when unknown. The response echoes the name as requested.
 */
export const resolveAttribute = (requested: string): Attribute | undefined => {
  const at = requested.indexOf("@")
  const base = (at >= 0 ? requested.slice(0, at) : requested).trim().toUpperCase()
  if (at >= 0 && !/^\d+$/.test(requested.slice(at + 1))) return undefined
  return canonicalByName.get(base)
}

// ---------------------------------------------------------------- analyze

export const ScoreType = Schema.Literal("SCORE_TYPE_UNSPECIFIED", "PROBABILITY", "STD_DEV_SCORE", "PERCENTILE", "RAW")

export const AttributeParameters = Schema.Struct({
  scoreType: Schema.optional(Schema.NullOr(Schema.String)),
  scoreThreshold: Schema.optional(Schema.NullOr(Schema.Number))
})
export type AttributeParameters = typeof AttributeParameters.Type

export const TextEntry = Schema.Struct({
  text: Schema.optional(Schema.NullOr(Schema.String)),
  type: Schema.optional(Schema.NullOr(Schema.String))
})
export type TextEntry = typeof TextEntry.Type

export const Context = Schema.Struct({
  entries: Schema.optional(Schema.NullOr(Schema.Array(TextEntry))),
  articleAndParentComment: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        article: Schema.optional(Schema.NullOr(TextEntry)),
        parentComment: Schema.optional(Schema.NullOr(TextEntry))
      })
    )
  )
})
export type Context = typeof Context.Type

/** `comment` is `{text, type}` or, leniently, a plain string. */
export const CommentField = Schema.Union(Schema.String, TextEntry)

export const AnalyzeCommentRequest = Schema.Struct({
  comment: Schema.optional(Schema.NullOr(CommentField)),
  context: Schema.optional(Schema.NullOr(Context)),
  requestedAttributes: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.NullOr(AttributeParameters) }))),
  spanAnnotations: Schema.optional(Schema.NullOr(Schema.Boolean)),
  languages: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  doNotStore: Schema.optional(Schema.NullOr(Schema.Boolean)),
  clientToken: Schema.optional(Schema.NullOr(Schema.String)),
  sessionId: Schema.optional(Schema.NullOr(Schema.String)),
  communityId: Schema.optional(Schema.NullOr(Schema.String)),
  dropUnsupportedAttributes: Schema.optional(Schema.NullOr(Schema.Boolean))
}).annotations({ identifier: "AnalyzeCommentRequest" })
export type AnalyzeCommentRequest = typeof AnalyzeCommentRequest.Type

export const Score = Schema.Struct({
  value: Schema.Number,
  type: Schema.String
}).annotations({ identifier: "Score" })
export type Score = typeof Score.Type

export const SpanScore = Schema.Struct({
  begin: Schema.Number,
  end: Schema.Number,
  score: Score
}).annotations({ identifier: "SpanScore" })
export type SpanScore = typeof SpanScore.Type

export const AttributeScores = Schema.Struct({
  spanScores: Schema.optional(Schema.Array(SpanScore)),
  summaryScore: Score
}).annotations({ identifier: "AttributeScores" })
export type AttributeScores = typeof AttributeScores.Type

export const AnalyzeCommentResponse = Schema.Struct({
  attributeScores: Schema.optional(Schema.Record({ key: Schema.String, value: AttributeScores })),
  /** The languages the comment was scored in: the request's `languages` when sent, else the top detected one. */
  languages: Schema.Array(Schema.String),
  /** The languages identified in the comment, most likely first (also when `languages` was sent). */
  detectedLanguages: Schema.optional(Schema.Array(Schema.String)),
  clientToken: Schema.optional(Schema.String)
}).annotations({ identifier: "AnalyzeCommentResponse" })
export type AnalyzeCommentResponse = typeof AnalyzeCommentResponse.Type

// ---------------------------------------------------------------- suggestscore

export const SuggestCommentScoreRequest = Schema.Struct({
  comment: Schema.optional(Schema.NullOr(CommentField)),
  context: Schema.optional(Schema.NullOr(Context)),
  attributeScores: Schema.optional(
    Schema.NullOr(
      Schema.Record({
        key: Schema.String,
        value: Schema.Struct({
          summaryScore: Schema.optional(Schema.NullOr(Schema.Struct({ value: Schema.Number, type: Schema.optional(Schema.NullOr(Schema.String)) }))),
          spanScores: Schema.optional(Schema.NullOr(Schema.Array(Schema.Unknown)))
        })
      })
    )
  ),
  languages: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  clientToken: Schema.optional(Schema.NullOr(Schema.String)),
  sessionId: Schema.optional(Schema.NullOr(Schema.String)),
  communityId: Schema.optional(Schema.NullOr(Schema.String))
}).annotations({ identifier: "SuggestCommentScoreRequest" })
export type SuggestCommentScoreRequest = typeof SuggestCommentScoreRequest.Type

export const SuggestCommentScoreResponse = Schema.Struct({
  clientToken: Schema.optional(Schema.String),
  detectedLanguages: Schema.optional(Schema.Array(Schema.String)),
  requestedLanguages: Schema.optional(Schema.Array(Schema.String))
}).annotations({ identifier: "SuggestCommentScoreResponse" })
export type SuggestCommentScoreResponse = typeof SuggestCommentScoreResponse.Type

// ---------------------------------------------------------------- errors

export const GoogleErrorDetail = Schema.Struct({
  "@type": Schema.String,
  errorType: Schema.optional(Schema.String),
  reason: Schema.optional(Schema.String),
  domain: Schema.optional(Schema.String),
  /** With errorType LANGUAGE_NOT_SUPPORTED_BY_ATTRIBUTE, as Perspective sends it. */
  languageNotSupportedByAttributeError: Schema.optional(Schema.Struct({
    detectedLanguages: Schema.optional(Schema.Array(Schema.String)),
    requestedLanguages: Schema.optional(Schema.Array(Schema.String)),
    attribute: Schema.String
  }))
})

/** Google's error envelope. */
export const GoogleErrorBody = Schema.Struct({
  error: Schema.Struct({
    code: Schema.Number,
    message: Schema.String,
    status: Schema.String,
    details: Schema.optional(Schema.Array(GoogleErrorDetail))
  })
}).annotations({ identifier: "GoogleError" })
export type GoogleErrorBody = typeof GoogleErrorBody.Type

// ---------------------------------------------------------------- key normalisation

const SNAKE_TO_CAMEL: Readonly<Record<string, string>> = {
  requested_attributes: "requestedAttributes",
  span_annotations: "spanAnnotations",
  do_not_store: "doNotStore",
  client_token: "clientToken",
  session_id: "sessionId",
  community_id: "communityId",
  drop_unsupported_attributes: "dropUnsupportedAttributes",
  score_type: "scoreType",
  score_threshold: "scoreThreshold",
  article_and_parent_comment: "articleAndParentComment",
  parent_comment: "parentComment",
  attribute_scores: "attributeScores",
  summary_score: "summaryScore",
  span_scores: "spanScores"
}

/** Keys whose values are maps keyed by attribute name: their own keys are never renamed. */
const ATTRIBUTE_MAPS = new Set(["requestedAttributes", "attributeScores"])

/**
 * Rename the snake_case fields of a Perspective request to lowerCamelCase (Jigsaw's own sample
 * server sends snake_case). Attribute names (keys of `requestedAttributes`, `attributeScores`) are
 * left alone. When both spellings are sent, the lowerCamelCase one wins.
 */
export const normalizeRequestKeys = (value: unknown, inAttributeMap = false, depth = 0): unknown => {
  // Deeper than any valid request: left as is, without a walk, for the decoder to refuse.
  if (depth > Limits.maxNestingDepth) return value
  if (Array.isArray(value)) return value.map((v) => normalizeRequestKeys(v, false, depth + 1))
  if (value === null || typeof value !== "object") return value
  const out: Record<string, unknown> = {}
  const entries = Object.entries(value as Record<string, unknown>)
  for (const [key, v] of entries) {
    const camel = inAttributeMap ? key : (SNAKE_TO_CAMEL[key] ?? key)
    if (camel !== key && Object.prototype.hasOwnProperty.call(value, camel)) continue
    out[camel] = normalizeRequestKeys(v, !inAttributeMap && ATTRIBUTE_MAPS.has(camel), depth + 1)
  }
  return out
}
