/**
 * Stand-ins for the local evaluators, for tests and the benchmark: fixed verdicts whose certainty
 * can be set (to drive the cascade), a switch to make them fail, and a count of calls.
 */
import { type ArticleContext, ArticleContextId, AccountId, ProviderFailure } from "@decorum/domain"
import { AttributeScorer, CommentScorer, DogWhistleChecker, LlmDetector, RelevanceChecker, SpamChecker } from "@decorum/core"
import { Context, Effect, Layer } from "effect"

export const MODEL = "local-stub"

export interface LocalStubSettings {
  /** Toxicity of every comment score (in the default band 0.25..0.75 the cascade asks the LLM). */
  toxicity: number
  /** Confidence of the spam verdict (is_spam false). */
  spamConfidence: number
  /** Confidence of the on-topic verdict (on_topic true). */
  onTopicConfidence: number
  /** Summary score of every attribute. */
  attributeScore: number
  /** Confidence of the dog-whistle verdict (dogwhistles_detected false). */
  dogwhistleConfidence: number
  /** LLM likelihood of every comment (in the default band 0.25..0.75 the cascade asks the LLM). */
  llmLikelihood: number
  /** Every local evaluation fails. */
  failing: boolean
}

export interface LocalStub {
  readonly settings: LocalStubSettings
  readonly calls: {
    comment_score: number
    spam_check: number
    relevance_check: number
    dogwhistle_check: number
    llm_detection: number
    attributes: number
  }
  readonly layer: Layer.Layer<CommentScorer | SpamChecker | RelevanceChecker | DogWhistleChecker | LlmDetector | AttributeScorer>
}

export const make = (initial: Partial<LocalStubSettings> = {}): LocalStub => {
  const settings: LocalStubSettings = {
    toxicity: 0.05,
    spamConfidence: 0.97,
    onTopicConfidence: 0.95,
    attributeScore: 0.05,
    dogwhistleConfidence: 0.95,
    llmLikelihood: 0.05,
    failing: false,
    ...initial
  }
  const calls = { comment_score: 0, spam_check: 0, relevance_check: 0, dogwhistle_check: 0, llm_detection: 0, attributes: 0 }
  const answer = <A>(evaluation: keyof typeof calls, value: () => A) =>
    Effect.suspend(() => {
      calls[evaluation]++
      return settings.failing
        ? Effect.fail(new ProviderFailure({ provider: MODEL, evaluation, message: "The local stub was told to fail.", transient: false }))
        : Effect.succeed({ value: value(), provenance: { model: MODEL } })
    })
  const context = Context.empty().pipe(
    Context.add(
      CommentScorer,
      CommentScorer.of({
        score: () =>
          answer("comment_score", () => ({
            logical_fallacies: [],
            objectionable_phrases: [],
            negative_tone_phrases: [],
            appears_low_effort: false,
            overall_score: 3,
            toxicity_score: settings.toxicity,
            toxicity_explanation: "local estimate"
          }))
      })
    ),
    Context.add(
      SpamChecker,
      SpamChecker.of({ check: () => answer("spam_check", () => ({ reasoning: "local estimate", confidence: settings.spamConfidence, is_spam: false })) })
    ),
    Context.add(
      RelevanceChecker,
      RelevanceChecker.of({
        check: () =>
          answer("relevance_check", () => ({
            on_topic: { reasoning: "local estimate", on_topic: true, confidence: settings.onTopicConfidence },
            banned_topics: { reasoning: "local estimate", banned_topics: [], quantity_on_banned_topics: 0, confidence: 0.9 }
          }))
      })
    ),
    Context.add(
      DogWhistleChecker,
      DogWhistleChecker.of({
        check: () =>
          answer("dogwhistle_check", () => ({
            detection: { reasoning: "local estimate", dogwhistles_detected: false, confidence: settings.dogwhistleConfidence },
            details: null
          }))
      })
    ),
    Context.add(
      LlmDetector,
      LlmDetector.of({
        detect: () =>
          answer("llm_detection", () => ({
            llm_likelihood: settings.llmLikelihood,
            confidence: 0.6,
            signals_detected: [],
            reasoning: "local estimate"
          }))
      })
    ),
    Context.add(
      AttributeScorer,
      AttributeScorer.of({
        analyze: (input) =>
          answer("attributes", () =>
            Object.fromEntries(input.attributes.map((a) => [a, { summary: settings.attributeScore, spans: input.spans.map(() => settings.attributeScore) }]))),
        // It stands for an LLM: always the effect.
        analyzeNow: () => undefined
      })
    )
  )
  return { settings, calls, layer: Layer.succeedContext(context) }
}

/** An article context for prompts, without a store. */
export const article = (overrides: Partial<ArticleContext> = {}): ArticleContext => ({
  id: ArticleContextId.make("00000000-0000-4000-8000-000000000001"),
  accountId: AccountId.make(1),
  text: "The city council voted on Tuesday to extend the tram line to the airport by 2030. Supporters say it cuts traffic; critics point to the cost.",
  title: "Tram line to the airport approved",
  topicDescription: "Local transport",
  sourceUrl: null,
  profile: { version: 1, terms: [{ term: "tram", weight: 0.8 }, { term: "airport", weight: 0.6 }], entities: ["city council"], summary: "The council approved a tram extension." },
  createdAt: new Date(0),
  ...overrides
})
