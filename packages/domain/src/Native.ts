/**
 * The native family (`/v0.2/...`): request and response shapes, snake_case on the wire.
 * Requests are decoded leniently (unknown fields ignored); responses are what the official
 * clients validate (overall score 1..5, confidences 0..1, uuid ids).
 */
import { Schema } from "effect"

const Probability = Schema.Number.pipe(Schema.between(0, 1))

// ---------------------------------------------------------------- comment scoring
//
// Every item carries `explanation` and `suggested_rewrite` (`""` when there is none): the hosted
// original's official Python client (pydantic, `respectify/schemas.py`) requires both on every
// item. Fallacies also carry the seed's `explanation_and_suggestions`, with the same text.

export const LogicalFallacy = Schema.Struct({
  fallacy_name: Schema.String,
  quoted_logical_fallacy_example: Schema.String,
  /** The seed's name for the explanation; always equal to `explanation`. */
  explanation_and_suggestions: Schema.String,
  /** The official client's name for the explanation; always equal to `explanation_and_suggestions`. */
  explanation: Schema.String,
  /** `""` when there is no rewrite. */
  suggested_rewrite: Schema.String
})
export type LogicalFallacy = typeof LogicalFallacy.Type

/** A fallacy with its explanation under both names. */
export const logicalFallacy = (item: {
  readonly fallacy_name: string
  readonly quoted_logical_fallacy_example: string
  readonly explanation: string
  readonly suggested_rewrite?: string | undefined
}): LogicalFallacy => ({
  fallacy_name: item.fallacy_name,
  quoted_logical_fallacy_example: item.quoted_logical_fallacy_example,
  explanation_and_suggestions: item.explanation,
  explanation: item.explanation,
  suggested_rewrite: item.suggested_rewrite ?? ""
})

export const ObjectionablePhrase = Schema.Struct({
  quoted_objectionable_phrase: Schema.String,
  explanation: Schema.String,
  /** `""` when there is no rewrite. */
  suggested_rewrite: Schema.String
})
export type ObjectionablePhrase = typeof ObjectionablePhrase.Type

export const NegativeTonePhrase = Schema.Struct({
  quoted_negative_tone_phrase: Schema.String,
  explanation: Schema.String,
  /** `""` when there is no rewrite. */
  suggested_rewrite: Schema.String
})
export type NegativeTonePhrase = typeof NegativeTonePhrase.Type

export const OverallScore = Schema.Number.pipe(Schema.int(), Schema.between(1, 5))

export const CommentScore = Schema.Struct({
  logical_fallacies: Schema.Array(LogicalFallacy),
  objectionable_phrases: Schema.Array(ObjectionablePhrase),
  negative_tone_phrases: Schema.Array(NegativeTonePhrase),
  appears_low_effort: Schema.Boolean,
  overall_score: OverallScore,
  toxicity_score: Probability,
  toxicity_explanation: Schema.String,
  /**
   * Issue 28: the language the comment was judged in (identified, as Perspective writes it), or
   * null when none could be; absent when the host identifies no language.
   */
  detected_language: Schema.optional(Schema.NullOr(Schema.String)),
  /** The language of the model behind the toxicity part ("en" when the comment's language has none). */
  toxicity_language: Schema.optional(Schema.String),
  /** The fields of this answer judged by English-only methods (empty when the comment is English). */
  english_only_fields: Schema.optional(Schema.Array(Schema.String))
}).annotations({ identifier: "CommentScore" })
export type CommentScore = typeof CommentScore.Type

// ---------------------------------------------------------------- spam

export const SpamCheck = Schema.Struct({
  reasoning: Schema.String,
  confidence: Probability,
  is_spam: Schema.Boolean,
  /** Issue 28: as in CommentScore. */
  detected_language: Schema.optional(Schema.NullOr(Schema.String)),
  english_only_fields: Schema.optional(Schema.Array(Schema.String))
}).annotations({ identifier: "SpamCheck" })
export type SpamCheck = typeof SpamCheck.Type

// ---------------------------------------------------------------- relevance

export const OnTopic = Schema.Struct({
  reasoning: Schema.String,
  on_topic: Schema.Boolean,
  confidence: Probability
})
export const BannedTopics = Schema.Struct({
  reasoning: Schema.String,
  banned_topics: Schema.Array(Schema.String),
  quantity_on_banned_topics: Probability,
  confidence: Probability
})
export const RelevanceCheck = Schema.Struct({
  on_topic: OnTopic,
  banned_topics: BannedTopics
}).annotations({ identifier: "RelevanceCheck" })
export type RelevanceCheck = typeof RelevanceCheck.Type

// ---------------------------------------------------------------- dog whistles (coded language)
//
// As the hosted original's official Python client parses them (`DogwhistleResult`): `details` is
// null when nothing was detected; every term in `dogwhistle_terms` is quoted verbatim from the
// comment that was judged.

export const DogwhistleDetection = Schema.Struct({
  reasoning: Schema.String,
  dogwhistles_detected: Schema.Boolean,
  /** Confidence in the verdict `dogwhistles_detected` (0.5: cannot tell). */
  confidence: Probability
}).annotations({ identifier: "DogwhistleDetection" })
export type DogwhistleDetection = typeof DogwhistleDetection.Type

export const DogwhistleDetails = Schema.Struct({
  /** Each a verbatim substring of the judged comment, strongest first. */
  dogwhistle_terms: Schema.Array(Schema.String),
  categories: Schema.Array(Schema.String),
  /** 0 obvious .. 1 very subtle. */
  subtlety_level: Probability,
  /** 0 low .. 1 high. */
  harm_potential: Probability
}).annotations({ identifier: "DogwhistleDetails" })
export type DogwhistleDetails = typeof DogwhistleDetails.Type

export const DogwhistleCheck = Schema.Struct({
  detection: DogwhistleDetection,
  /** Null when nothing was detected. */
  details: Schema.NullOr(DogwhistleDetails)
}).annotations({ identifier: "DogwhistleCheck" })
export type DogwhistleCheck = typeof DogwhistleCheck.Type

// ---------------------------------------------------------------- machine-written text

export const LlmSignalTypes = ["word_frequency", "structural", "stylistic", "epistemic"] as const
export const LlmSignalType = Schema.Literal(...LlmSignalTypes)
export type LlmSignalType = typeof LlmSignalType.Type

export const LlmDetectionSignal = Schema.Struct({
  signal_type: LlmSignalType,
  description: Schema.String,
  /** A verbatim substring of the judged comment (`""` for a signal of the whole text). */
  quoted_text: Schema.String
}).annotations({ identifier: "LlmDetectionSignal" })
export type LlmDetectionSignal = typeof LlmDetectionSignal.Type

export const LlmDetection = Schema.Struct({
  /** Probability the text was written by an LLM (0 human .. 1 certainly an LLM). */
  llm_likelihood: Probability,
  /** Confidence in that likelihood: low for short texts. */
  confidence: Probability,
  signals_detected: Schema.Array(LlmDetectionSignal),
  reasoning: Schema.String
}).annotations({ identifier: "LlmDetection" })
export type LlmDetection = typeof LlmDetection.Type

// ---------------------------------------------------------------- requests

/**
 * Request bodies are decoded from JSON or from form encoding (after `FormBody.normalize`).
 * Fields are typed loosely here (`unknown` where the engine checks them itself) so that every
 * rule of the contract produces its own, precise error rather than a generic schema failure.
 */
const OptionalString = Schema.optional(Schema.NullOr(Schema.String))
const OptionalBoolean = Schema.optional(Schema.NullOr(Schema.Boolean))
const OptionalStrings = Schema.optional(Schema.NullOr(Schema.Array(Schema.String)))

export const InitTopicRequest = Schema.Struct({
  text: OptionalString,
  url: OptionalString,
  topic_description: OptionalString,
  title: OptionalString
}).annotations({ identifier: "InitTopicRequest" })
export type InitTopicRequest = typeof InitTopicRequest.Type

export const InitTopicResponse = Schema.Struct({
  article_id: Schema.UUID
}).annotations({ identifier: "InitTopicResponse" })

export const CommentScoreRequest = Schema.Struct({
  article_context_id: OptionalString,
  comment: OptionalString,
  reply_to_comment: OptionalString
}).annotations({ identifier: "CommentScoreRequest" })
export type CommentScoreRequest = typeof CommentScoreRequest.Type

export const SpamCheckRequest = Schema.Struct({
  comment: OptionalString,
  article_context_id: OptionalString
}).annotations({ identifier: "SpamCheckRequest" })
export type SpamCheckRequest = typeof SpamCheckRequest.Type

export const RelevanceRequest = Schema.Struct({
  article_context_id: OptionalString,
  comment: OptionalString,
  reply_to_comment: OptionalString,
  banned_topics: OptionalStrings
}).annotations({ identifier: "RelevanceRequest" })
export type RelevanceRequest = typeof RelevanceRequest.Type

/**
 * `POST /v0.2/dogwhistle`. `article_context_id` is optional here (the official client always sends
 * one; when sent it must name one of the caller's contexts). `reply_to_comment` and
 * `context_comments` are Decorum's additions, as on the combined call: the thread the comment is in.
 */
export const DogwhistleRequest = Schema.Struct({
  comment: OptionalString,
  article_context_id: OptionalString,
  sensitive_topics: OptionalStrings,
  dogwhistle_examples: OptionalStrings,
  reply_to_comment: OptionalString,
  context_comments: OptionalStrings
}).annotations({ identifier: "DogwhistleRequest" })
export type DogwhistleRequest = typeof DogwhistleRequest.Type

/** `POST /v0.2/llmdetect`. */
export const LlmDetectRequest = Schema.Struct({
  comment: OptionalString
}).annotations({ identifier: "LlmDetectRequest" })
export type LlmDetectRequest = typeof LlmDetectRequest.Type

/** The combined evaluation ("megacall"). Unknown fields are ignored (clients send extra flags). */
export const MegacallRequest = Schema.Struct({
  comment: OptionalString,
  article_context_id: OptionalString,
  reply_to_comment: OptionalString,
  banned_topics: OptionalStrings,
  /** The dog-whistle section's site lists. */
  sensitive_topics: OptionalStrings,
  dogwhistle_examples: OptionalStrings,
  /** Earlier comments of the thread, most recent first: context for the dog-whistle section. */
  context_comments: OptionalStrings,
  run_comment_score: OptionalBoolean,
  run_spam_check: OptionalBoolean,
  run_relevance_check: OptionalBoolean,
  run_perspective: OptionalBoolean,
  run_dogwhistle_check: OptionalBoolean,
  run_llm_detect: OptionalBoolean,
  /** Attributes for the `perspective` section: a list of names or a Perspective-style map. */
  requested_attributes: Schema.optional(
    Schema.NullOr(Schema.Union(Schema.Array(Schema.String), Schema.Record({ key: Schema.String, value: Schema.Unknown })))
  ),
  /** The `perspective` section also scores each sentence (`spanScores`), as `spanAnnotations` does on analyse. */
  span_annotations: OptionalBoolean
}).annotations({ identifier: "MegacallRequest" })
export type MegacallRequest = typeof MegacallRequest.Type

export const UserCheckResponse = Schema.Struct({
  active: Schema.Boolean,
  status: Schema.String,
  plan_name: Schema.String,
  allowed_endpoints: Schema.Array(Schema.String),
  error: Schema.Null
}).annotations({ identifier: "UserCheckResponse" })
export type UserCheckResponse = typeof UserCheckResponse.Type

/** The body of every native error: `{"error": "<category>", "message": "<detail>", "code": <status>}`. */
export const NativeErrorBody = Schema.Struct({
  error: Schema.String,
  message: Schema.String,
  code: Schema.Number
}).annotations({ identifier: "NativeError" })
export type NativeErrorBody = typeof NativeErrorBody.Type

export const ArticleContextView = Schema.Struct({
  article_id: Schema.UUID,
  title: Schema.NullOr(Schema.String),
  topic_description: Schema.NullOr(Schema.String),
  source_url: Schema.NullOr(Schema.String),
  text_length: Schema.Number,
  created_at: Schema.String,
  keywords: Schema.Array(Schema.Struct({ term: Schema.String, weight: Schema.Number })),
  entities: Schema.Array(Schema.String),
  summary: Schema.String
}).annotations({ identifier: "ArticleContext" })
export type ArticleContextView = typeof ArticleContextView.Type

/** One entry of `GET /v0.2/article-contexts`: enough to pick a context, without its text or profile. */
export const ArticleContextSummaryView = Schema.Struct({
  article_id: Schema.UUID,
  title: Schema.NullOr(Schema.String),
  source_url: Schema.NullOr(Schema.String),
  text_length: Schema.Number,
  created_at: Schema.String
}).annotations({ identifier: "ArticleContextSummary" })
export type ArticleContextSummaryView = typeof ArticleContextSummaryView.Type

/** `GET /v0.2/article-contexts`: the calling account's contexts, oldest first. */
export const ArticleContextList = Schema.Struct({
  article_contexts: Schema.Array(ArticleContextSummaryView)
}).annotations({ identifier: "ArticleContextList" })
export type ArticleContextList = typeof ArticleContextList.Type

