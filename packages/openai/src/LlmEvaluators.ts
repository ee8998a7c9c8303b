/**
 * The LLM implementations of the evaluations, on the `LlmClient` port: prompts, validation of the
 * answers, and the resilience policy (timeout, retries, concurrency limit, circuit breaker, cache).
 *
 * One evaluation is: cache lookup -> circuit breaker -> deadline over [ (permit -> one completion)
 * retried on transient failures with jittered backoff honouring Retry-After -> decode + validate ]
 * retried once when the answer is malformed -> cache store. Whatever fails ends as a
 * `ProviderFailure` naming the model and prompt (`openai:<model>@<prompt>-<version>`).
 */
import { createHash } from "node:crypto"
import { Metrics } from "@decorum/core"
import {
  type AttributeAnalysis,
  type AttributeAnalysisInput,
  type CommentScore,
  type CommentScoreInput,
  type DogwhistleCheck,
  type DogWhistleCheckInput,
  type Evaluated,
  Fallacies,
  Native,
  type LlmDetectInput,
  type LlmDetection,
  type Perspective,
  ProviderFailure,
  type RelevanceCheck,
  type RelevanceInput,
  type SpamCheck,
  type SpamCheckInput
} from "@decorum/domain"
import { Duration, Effect, Either, Metric, ParseResult, Schema } from "effect"
import { strictJsonSchema } from "./JsonSchema.js"
import { LlmClient, LlmError } from "./LlmClient.js"
import * as AttributesPrompt from "./prompts/Attributes.js"
import * as CommentScorePrompt from "./prompts/CommentScore.js"
import * as DogWhistlePrompt from "./prompts/DogWhistle.js"
import * as LlmDetectPrompt from "./prompts/LlmDetect.js"
import { type Prompt, promptTag } from "./prompts/Prompt.js"
import * as RelevancePrompt from "./prompts/Relevance.js"
import * as SpamPrompt from "./prompts/Spam.js"
import { keepQuoted, repairQuote } from "./Quotes.js"
import { makeCircuitBreaker, makeLruCache, transientRetrySchedule } from "./Resilience.js"

export interface LlmPolicy {
  /** Deadline of one evaluation, retries and waits included; past it the caller falls back. */
  readonly timeoutMs: number
  /** Retries of transient failures (429, 5xx, dropped connections) within the deadline. */
  readonly maxRetries: number
  readonly baseBackoffMs: number
  readonly maxBackoffMs: number
  /** Requests in flight to the provider at once, across all evaluations. */
  readonly maxConcurrency: number
  /** Consecutive failed evaluations that open the circuit, and how long it stays open. */
  readonly breakerThreshold: number
  readonly breakerCooldownMs: number
  /** Validated answers kept in memory (LRU); 0 turns the cache off. */
  readonly cacheSize: number
}

export const defaultPolicy: LlmPolicy = {
  timeoutMs: 10_000,
  maxRetries: 2,
  baseBackoffMs: 250,
  maxBackoffMs: 2_000,
  maxConcurrency: 16,
  breakerThreshold: 5,
  breakerCooldownMs: 30_000,
  cacheSize: 1_000
}

export interface LlmEvaluatorsService {
  readonly scoreComment: (input: CommentScoreInput) => Effect.Effect<Evaluated<CommentScore>, ProviderFailure>
  readonly checkSpam: (input: SpamCheckInput) => Effect.Effect<Evaluated<SpamCheck>, ProviderFailure>
  readonly checkRelevance: (input: RelevanceInput) => Effect.Effect<Evaluated<RelevanceCheck>, ProviderFailure>
  readonly checkDogwhistle: (input: DogWhistleCheckInput) => Effect.Effect<Evaluated<DogwhistleCheck>, ProviderFailure>
  readonly detectLlm: (input: LlmDetectInput) => Effect.Effect<Evaluated<LlmDetection>, ProviderFailure>
  readonly analyzeAttributes: (input: AttributeAnalysisInput) => Effect.Effect<Evaluated<AttributeAnalysis>, ProviderFailure>
  /** The provenance name of a prompt on this client, e.g. `openai:gpt-4o-mini@spam-check-v1`. */
  readonly modelFor: (
    evaluation: "comment_score" | "spam_check" | "relevance_check" | "dogwhistle_check" | "llm_detection" | "attributes"
  ) => string
  readonly circuit: Effect.Effect<"closed" | "open" | "half-open">
}

// ---------------------------------------------------------------- validation

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n))
const nonBlank = (s: string | undefined): s is string => s !== undefined && s.trim() !== ""

type Check<A> = Either.Either<A, string>

/** Quotes verbatim (repaired or dropped), scores in range, rewrites only where they say something. */
export const validateCommentScore = (answer: CommentScorePrompt.Answer, input: CommentScoreInput): Check<CommentScore> => {
  // A rewrite that only repeats the quote says nothing: it becomes "".
  const rewrite = (rewritten: string, quoted: string) => (nonBlank(rewritten) && rewritten.trim() !== quoted.trim() ? rewritten.trim() : "")
  const fallacies = keepQuoted(input.comment, answer.logical_fallacies.filter((f) => nonBlank(f.fallacy_name)), "quoted_logical_fallacy_example")
  const objectionable = keepQuoted(input.comment, answer.objectionable_phrases, "quoted_objectionable_phrase")
  const negative = keepQuoted(input.comment, answer.negative_tone_phrases, "quoted_negative_tone_phrase")
  return Either.right({
    logical_fallacies: fallacies.kept.map((f) => {
      // a name the catalogue knows (also by a synonym) is reported under the catalogue's name,
      // and an empty explanation gets the catalogue's
      const type = Fallacies.fallacyOf(f.fallacy_name)
      return Native.logicalFallacy({
        fallacy_name: type === undefined ? f.fallacy_name.trim() : Fallacies.FallacyCatalogue[type].name,
        quoted_logical_fallacy_example: f.quoted_logical_fallacy_example,
        explanation: nonBlank(f.explanation_and_suggestions) || type === undefined ? f.explanation_and_suggestions.trim() : Fallacies.explainFallacy(type),
        suggested_rewrite: rewrite(f.suggested_rewrite, f.quoted_logical_fallacy_example)
      })
    }),
    objectionable_phrases: objectionable.kept.map((p) => ({
      quoted_objectionable_phrase: p.quoted_objectionable_phrase,
      explanation: p.explanation.trim(),
      suggested_rewrite: rewrite(p.suggested_rewrite, p.quoted_objectionable_phrase)
    })),
    negative_tone_phrases: negative.kept.map((p) => ({
      quoted_negative_tone_phrase: p.quoted_negative_tone_phrase,
      explanation: p.explanation.trim(),
      suggested_rewrite: rewrite(p.suggested_rewrite, p.quoted_negative_tone_phrase)
    })),
    appears_low_effort: answer.appears_low_effort,
    overall_score: clamp(Math.round(answer.overall_score), 1, 5),
    toxicity_score: clamp(answer.toxicity_score, 0, 1),
    toxicity_explanation: answer.toxicity_explanation.trim()
  })
}

export const validateSpam = (answer: SpamPrompt.Answer): Check<SpamCheck> =>
  Either.right({ reasoning: answer.reasoning.trim(), confidence: clamp(answer.confidence, 0, 1), is_spam: answer.is_spam })

/** Banned topics are only ever names from the request, spelt as the request spelt them. */
export const validateRelevance = (answer: RelevancePrompt.Answer, input: RelevanceInput): Check<RelevanceCheck> => {
  const byLower = new Map(input.bannedTopics.map((t) => [t.trim().toLowerCase(), t] as const))
  const named = [...new Set(answer.banned_topics.banned_topics.map((t) => byLower.get(t.trim().toLowerCase())).filter((t) => t !== undefined))]
  return Either.right({
    on_topic: {
      reasoning: answer.on_topic.reasoning.trim(),
      on_topic: answer.on_topic.on_topic,
      confidence: clamp(answer.on_topic.confidence, 0, 1)
    },
    banned_topics: {
      reasoning: answer.banned_topics.reasoning.trim(),
      banned_topics: named,
      quantity_on_banned_topics: named.length === 0 ? 0 : clamp(answer.banned_topics.quantity_on_banned_topics, 0, 1),
      confidence: clamp(answer.banned_topics.confidence, 0, 1)
    }
  })
}

/**
 * Terms quoted verbatim (repaired or dropped), categories once each, numbers in range. A verdict
 * "detected" whose terms are all unquotable is unusable (the answer is asked for again); details
 * are null when nothing is detected, as the official client expects.
 */
export const validateDogwhistle = (answer: DogWhistlePrompt.Answer, input: DogWhistleCheckInput): Check<DogwhistleCheck> => {
  const terms = [...new Set(answer.dogwhistle_terms.map((t) => repairQuote(input.comment, t)).filter((t): t is string => t !== null))]
  const detection = {
    reasoning: answer.reasoning.trim(),
    dogwhistles_detected: answer.dogwhistles_detected,
    confidence: clamp(answer.confidence, 0, 1)
  }
  if (!answer.dogwhistles_detected) return Either.right({ detection, details: null })
  if (terms.length === 0) return Either.left("dog whistles detected, but no term it names occurs in the comment")
  return Either.right({
    detection,
    details: {
      dogwhistle_terms: terms,
      categories: [...new Set(answer.categories.map((c) => c.trim()).filter(nonBlank))],
      subtlety_level: clamp(answer.subtlety_level, 0, 1),
      harm_potential: clamp(answer.harm_potential, 0, 1)
    }
  })
}

/** Signals of the four types only, each quoting the comment verbatim (repaired or dropped); numbers in range. */
export const validateLlmDetection = (answer: LlmDetectPrompt.Answer, input: LlmDetectInput): Check<LlmDetection> => {
  const types: ReadonlyArray<string> = Native.LlmSignalTypes
  const typed = answer.signals_detected.filter((s): s is typeof s & { signal_type: Native.LlmSignalType } => types.includes(s.signal_type))
  const quoted = keepQuoted(input.comment, typed, "quoted_text")
  return Either.right({
    llm_likelihood: clamp(answer.llm_likelihood, 0, 1),
    confidence: clamp(answer.confidence, 0, 1),
    signals_detected: quoted.kept.map((s) => ({ signal_type: s.signal_type, description: s.description.trim(), quoted_text: s.quoted_text })),
    reasoning: answer.reasoning.trim()
  })
}

/** One score per requested attribute and per span; a misaligned span list is malformed. */
export const validateAttributes = (answer: AttributesPrompt.Answer, input: AttributeAnalysisInput): Check<AttributeAnalysis> => {
  const out: Partial<Record<Perspective.Attribute, { summary: number; spans: ReadonlyArray<number> }>> = {}
  for (const attribute of input.attributes) {
    const scored = answer[attribute]
    if (!scored) return Either.left(`no score for ${attribute}`)
    if (scored.spans.length !== input.spans.length) {
      return Either.left(`${attribute}: ${scored.spans.length} span scores for ${input.spans.length} sentences`)
    }
    out[attribute] = { summary: clamp(scored.summary, 0, 1), spans: scored.spans.map((v) => clamp(v, 0, 1)) }
  }
  return Either.right(out)
}

// ---------------------------------------------------------------- the evaluators

export const make = (policy: LlmPolicy): Effect.Effect<LlmEvaluatorsService, never, LlmClient> =>
  Effect.gen(function*() {
    const client = yield* LlmClient
    const semaphore = yield* Effect.makeSemaphore(Math.max(1, policy.maxConcurrency))
    const breaker = yield* makeCircuitBreaker({ failureThreshold: policy.breakerThreshold, cooldownMs: policy.breakerCooldownMs })
    const cache = yield* makeLruCache<unknown>(policy.cacheSize)
    const retry = transientRetrySchedule({
      maxRetries: policy.maxRetries,
      baseBackoffMs: policy.baseBackoffMs,
      maxBackoffMs: policy.maxBackoffMs,
      maxRetryAfterMs: policy.timeoutMs
    })

    const run = <I, Raw, Encoded, A>(
      prompt: Prompt<I, Raw, Encoded>,
      evaluation: string,
      input: I,
      validate: (raw: Raw, input: I) => Check<A>
    ): Effect.Effect<Evaluated<A>, ProviderFailure> => {
      const model = `${client.model}@${promptTag(prompt)}`
      const messages = prompt.messages(input)
      const key = `${model}\n${createHash("sha256").update(JSON.stringify(messages)).digest("base64url")}`
      const request = {
        messages,
        schema: { name: prompt.id.replace(/[^a-zA-Z0-9_-]/g, "_"), jsonSchema: strictJsonSchema(prompt.answer) },
        maxTokens: typeof prompt.maxTokens === "number" ? prompt.maxTokens : prompt.maxTokens(input)
      }
      const decode = Schema.decodeUnknown(prompt.answer)

      const calls = Metric.tagged(Metrics.llmCalls, "evaluation", evaluation)
      const retries = Metric.tagged(Metrics.llmRetries, "evaluation", evaluation)
      const timeouts = Metric.tagged(Metrics.llmTimeouts, "evaluation", evaluation)
      const cacheHits = Metric.tagged(Metrics.llmCacheHits, "evaluation", evaluation)
      // Every request to the provider is counted with its outcome; every one after the first is a retry.
      const attempt = (first: boolean) =>
        (first ? Effect.void : Metric.increment(retries)).pipe(
          Effect.zipRight(client.complete(request)),
          Effect.tapBoth({
            onFailure: (e) => Metric.increment(Metric.tagged(calls, "outcome", e.kind)),
            onSuccess: () => Metric.increment(Metric.tagged(calls, "outcome", "ok"))
          }),
          semaphore.withPermits(1)
        )
      const once = Effect.suspend(() => {
        let first = true
        return Effect.suspend(() => {
          const isFirst = first
          first = false
          return attempt(isFirst)
        }).pipe(Effect.retry(retry))
      })
      const answer = once.pipe(
        Effect.flatMap((json) =>
          decode(json).pipe(
            Effect.mapError((e) =>
              new LlmError({ kind: "malformed", message: `The LLM's answer does not fit the schema: ${ParseResult.TreeFormatter.formatErrorSync(e).slice(0, 300)}` })
            )
          )
        ),
        Effect.flatMap((raw) =>
          Either.match(validate(raw, input), {
            onLeft: (why) => Effect.fail(new LlmError({ kind: "malformed", message: `The LLM's answer is unusable: ${why}` })),
            onRight: Effect.succeed
          })
        ),
        // A malformed answer gets one more chance; then it is the provider's failure.
        Effect.retry({ times: 1, while: (e) => e.kind === "malformed" })
      )
      const guarded = breaker.protect(
        answer.pipe(
          Effect.timeoutFail({
            duration: Duration.millis(policy.timeoutMs),
            onTimeout: () => new LlmError({ kind: "timeout", message: `No answer from the LLM within ${policy.timeoutMs} ms.` })
          })
        ),
        () => new LlmError({ kind: "unavailable", message: "The LLM circuit is open after repeated failures; not calling it." })
      )

      const circuitGauge = Effect.flatMap(breaker.state, (state) => Metric.set(Metrics.llmCircuitState, Metrics.circuitStateValue(state)))
      return Effect.flatMap(cache.get(key), (hit) =>
        hit !== undefined
          ? Effect.as(Metric.increment(cacheHits), { value: hit as A, provenance: { model } })
          : guarded.pipe(
            Effect.tapError((e) => (e.kind === "timeout" ? Metric.increment(timeouts) : Effect.void)),
            Effect.ensuring(circuitGauge),
            Effect.tap((value) => cache.set(key, value)),
            Effect.map((value): Evaluated<A> => ({ value, provenance: { model } })),
            Effect.tapError((e) => Effect.logWarning("LLM evaluation failed", { model, evaluation, kind: e.kind, message: e.message })),
            Effect.mapError((e) =>
              new ProviderFailure({ provider: model, evaluation, message: e.message, transient: e.transient || e.kind === "timeout" || e.kind === "unavailable" })
            )
          )).pipe(Effect.withSpan(`LlmEvaluators.${evaluation}`, { attributes: { model } }))
    }

    const tags = {
      comment_score: promptTag(CommentScorePrompt.prompt),
      spam_check: promptTag(SpamPrompt.prompt),
      relevance_check: promptTag(RelevancePrompt.prompt),
      dogwhistle_check: promptTag(DogWhistlePrompt.prompt),
      llm_detection: promptTag(LlmDetectPrompt.prompt),
      attributes: `attributes-${AttributesPrompt.VERSION}`
    } as const

    return {
      scoreComment: (input) => run(CommentScorePrompt.prompt, "comment_score", input, validateCommentScore),
      checkSpam: (input) => run(SpamPrompt.prompt, "spam_check", input, validateSpam),
      checkRelevance: (input) => run(RelevancePrompt.prompt, "relevance_check", input, validateRelevance),
      checkDogwhistle: (input) => run(DogWhistlePrompt.prompt, "dogwhistle_check", input, validateDogwhistle),
      detectLlm: (input) => run(LlmDetectPrompt.prompt, "llm_detection", input, validateLlmDetection),
      analyzeAttributes: (input) =>
        input.attributes.length === 0
          ? Effect.succeed({ value: {}, provenance: { model: `${client.model}@${tags.attributes}` } })
          : run(AttributesPrompt.promptFor(input.attributes), "attributes", input, validateAttributes),
      modelFor: (evaluation) => `${client.model}@${tags[evaluation]}`,
      circuit: breaker.state
    } satisfies LlmEvaluatorsService
  })
