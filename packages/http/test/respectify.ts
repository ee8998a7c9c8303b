/**
 * What the hosted original's official Python client (`Respectify/respectify-python`) checks in
 * every answer it parses, written as Effect schemas so the contract suite can hold each native
 * response to it.
 *
 * The client posts JSON, and on a 200 calls `Model.model_validate(response.json())` on a pydantic
 * v2 model (`respectify/schemas.py`); any validation error becomes `RespectifyError("Failed to
 * parse response")`. On any other status it reads `message` from the JSON body. Pydantic ignores
 * unknown fields, so extra fields (the seed's `explanation_and_suggestions`, the combined call's
 * `errors`) are fine; missing required fields, wrong types and out-of-range numbers are not.
 *
 * The schemas below are stricter than pydantic's lax mode in one way only: numbers must be JSON
 * numbers and strings JSON strings (pydantic would coerce `"3"` to an int, we never send that).
 * Fields the client gives a default (`Field(default_factory=list)`, `Optional[...] = None`) are
 * optional here too.
 */
import { Either, ParseResult, Schema } from "effect"

/** `float = Field(..., ge=0.0, le=1.0)` */
const Unit = Schema.Number.pipe(Schema.finite(), Schema.between(0, 1))
/** `List[X] = Field(default_factory=list)`: may be absent, must be a list when present. */
const ListOf = <S extends Schema.Schema.Any>(item: S) => Schema.optional(Schema.Array(item))
/** `Optional[X] = Field(None)`: absent, null, or an X. */
const Maybe = <S extends Schema.Schema.Any>(item: S) => Schema.optional(Schema.NullOr(item))

export const LogicalFallacy = Schema.Struct({
  fallacy_name: Schema.String,
  quoted_logical_fallacy_example: Schema.String,
  explanation: Schema.String,
  suggested_rewrite: Schema.String
})

export const ObjectionablePhrase = Schema.Struct({
  quoted_objectionable_phrase: Schema.String,
  explanation: Schema.String,
  suggested_rewrite: Schema.String
})

export const NegativeTonePhrase = Schema.Struct({
  quoted_negative_tone_phrase: Schema.String,
  explanation: Schema.String,
  suggested_rewrite: Schema.String
})

export const CommentScore = Schema.Struct({
  logical_fallacies: ListOf(LogicalFallacy),
  objectionable_phrases: ListOf(ObjectionablePhrase),
  negative_tone_phrases: ListOf(NegativeTonePhrase),
  appears_low_effort: Schema.Boolean,
  overall_score: Schema.Int.pipe(Schema.between(1, 5)),
  toxicity_score: Unit,
  toxicity_explanation: Schema.String
})

export const SpamDetectionResult = Schema.Struct({
  reasoning: Schema.String,
  is_spam: Schema.Boolean,
  confidence: Unit
})

export const OnTopicResult = Schema.Struct({
  reasoning: Schema.String,
  on_topic: Schema.Boolean,
  confidence: Unit
})

export const BannedTopicsResult = Schema.Struct({
  reasoning: Schema.String,
  banned_topics: ListOf(Schema.String),
  quantity_on_banned_topics: Unit,
  confidence: Unit
})

export const CommentRelevanceResult = Schema.Struct({
  on_topic: OnTopicResult,
  banned_topics: BannedTopicsResult
})

/** `DogwhistleResult`: `details` is `Optional[DogwhistleDetails] = Field(None)`. */
export const DogwhistleResult = Schema.Struct({
  detection: Schema.Struct({
    reasoning: Schema.String,
    dogwhistles_detected: Schema.Boolean,
    confidence: Unit
  }),
  details: Maybe(Schema.Struct({
    dogwhistle_terms: ListOf(Schema.String),
    categories: ListOf(Schema.String),
    subtlety_level: Unit,
    harm_potential: Unit
  }))
})

/** `LlmDetectionResult`: `signal_type: str` (the client does not restrict it), `quoted_text` defaults to "". */
export const LlmDetectionResult = Schema.Struct({
  llm_likelihood: Unit,
  confidence: Unit,
  signals_detected: ListOf(Schema.Struct({
    signal_type: Schema.String,
    description: Schema.String,
    quoted_text: Schema.optional(Schema.String)
  })),
  reasoning: Schema.String
})

export const PerspectiveScore = Schema.Struct({ value: Unit, type: Schema.String })

export const PerspectiveAnalyzeCommentResponse = Schema.Struct({
  attributeScores: Schema.optional(
    Schema.Record({
      key: Schema.String,
      value: Schema.Struct({
        summaryScore: PerspectiveScore,
        spanScores: Maybe(Schema.Array(Schema.Struct({
          begin: Schema.Int.pipe(Schema.nonNegative()),
          end: Schema.Int.pipe(Schema.nonNegative()),
          score: PerspectiveScore
        })))
      })
    })
  ),
  languages: ListOf(Schema.String),
  detectedLanguages: Maybe(Schema.Array(Schema.String)),
  clientToken: Maybe(Schema.String)
})

export const PerspectiveSuggestCommentScoreResponse = Schema.Struct({
  requestedLanguages: Maybe(Schema.Array(Schema.String)),
  clientToken: Maybe(Schema.String)
})

export const MegaCallResult = Schema.Struct({
  comment_score: Maybe(CommentScore),
  spam_check: Maybe(SpamDetectionResult),
  relevance_check: Maybe(CommentRelevanceResult),
  dogwhistle_check: Maybe(DogwhistleResult),
  perspective: Maybe(PerspectiveAnalyzeCommentResponse),
  llm_detection: Maybe(LlmDetectionResult)
})

export const InitTopicResponse = Schema.Struct({ article_id: Schema.UUID })

export const UserCheckResponse = Schema.Struct({
  active: Schema.Boolean,
  status: Maybe(Schema.String),
  expires: Maybe(Schema.String),
  plan_name: Maybe(Schema.String),
  allowed_endpoints: Maybe(Schema.Array(Schema.String)),
  error: Maybe(Schema.String)
})

/** Where the client parses each native answer with which model. */
export const modelFor = {
  "/v0.2/inittopic": InitTopicResponse,
  "/v0.2/commentscore": CommentScore,
  "/v0.2/antispam": SpamDetectionResult,
  "/v0.2/commentrelevance": CommentRelevanceResult,
  "/v0.2/dogwhistle": DogwhistleResult,
  "/v0.2/llmdetect": LlmDetectionResult,
  "/v0.2/megacall": MegaCallResult,
  "/v0.2/usercheck": UserCheckResponse,
  "/v0.2/perspective-compat/analyse": PerspectiveAnalyzeCommentResponse,
  "/v0.2/perspective-compat/suggestscore": PerspectiveSuggestCommentScoreResponse
} as const

/** The client's parse of a 200 body: the reason it would raise `RespectifyError`, or null when it parses. */
export const parseError = (model: Schema.Schema<any, any, never>, body: unknown): string | null =>
  Either.match(Schema.decodeUnknownEither(model, { onExcessProperty: "ignore", errors: "all" })(body), {
    onLeft: (e) => ParseResult.TreeFormatter.formatErrorSync(e),
    onRight: () => null
  })

/**
 * The rules the server adds on top of what the client checks, so that both spellings of an
 * explanation agree: every fallacy carries the seed's `explanation_and_suggestions` with the same
 * text as `explanation`.
 */
export const fallacyAliasErrors = (score: { readonly logical_fallacies?: ReadonlyArray<Record<string, unknown>> }): Array<string> =>
  (score.logical_fallacies ?? []).flatMap((f, i) =>
    typeof f["explanation_and_suggestions"] === "string" && f["explanation_and_suggestions"] === f["explanation"]
      ? []
      : [`logical_fallacies[${i}]: explanation_and_suggestions must equal explanation`]
  )
