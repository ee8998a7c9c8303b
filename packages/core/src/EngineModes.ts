/**
 * The engine modes, as a combinator over the evaluation ports: `local | llm | cascade`.
 *
 * The layer requires the local `CommentScorer | SpamChecker | RelevanceChecker | DogWhistleChecker |
 * LlmDetector | AttributeScorer` and an `LlmEvaluation` (any LLM provider: `@decorum/openai`
 * supplies one), and provides the same six ports:
 * - `local` (the default): the local ports, unchanged; no LLM is needed (hosts do not build one).
 * - `llm`: every evaluation asks the LLM; when it fails (after its own retries, timeout or circuit
 *   breaker) the local model answers and `provenance.fallbackFrom` names what failed.
 * - `cascade`: the local model answers first; the LLM is asked only when the local verdict falls in
 *   the uncertainty band, or when the caller asked for `detail: "full"`. If the LLM then fails, the
 *   local answer stands, marked with `fallbackFrom`.
 * Attribute analysis (Perspective) stays local unless `llmAttributes` is set.
 */
import {
  type AttributeAnalysis,
  type AttributeAnalysisInput,
  type CommentScore,
  type CommentScoreInput,
  type DogwhistleCheck,
  type DogWhistleCheckInput,
  type Evaluated,
  type LlmDetectInput,
  type LlmDetection,
  ProviderFailure,
  type RelevanceCheck,
  type RelevanceInput,
  type SpamCheck,
  type SpamCheckInput
} from "@decorum/domain"
import { Context, Effect, Layer } from "effect"
import { AttributeScorer, CommentScorer, DogWhistleChecker, LlmDetector, RelevanceChecker, SpamChecker } from "./Providers.js"

export type EngineMode = "local" | "llm" | "cascade"

/** The six evaluation ports the modes combine. */
export type Ports = CommentScorer | SpamChecker | RelevanceChecker | DogWhistleChecker | LlmDetector | AttributeScorer

/** An LLM's side of the six evaluations: what an LLM provider supplies for `llm` and `cascade`. */
export class LlmEvaluation extends Context.Tag("@decorum/core/LlmEvaluation")<
  LlmEvaluation,
  {
    readonly scoreComment: (input: CommentScoreInput) => Effect.Effect<Evaluated<CommentScore>, ProviderFailure>
    readonly checkSpam: (input: SpamCheckInput) => Effect.Effect<Evaluated<SpamCheck>, ProviderFailure>
    readonly checkRelevance: (input: RelevanceInput) => Effect.Effect<Evaluated<RelevanceCheck>, ProviderFailure>
    readonly checkDogwhistle: (input: DogWhistleCheckInput) => Effect.Effect<Evaluated<DogwhistleCheck>, ProviderFailure>
    readonly detectLlm: (input: LlmDetectInput) => Effect.Effect<Evaluated<LlmDetection>, ProviderFailure>
    readonly analyzeAttributes: (input: AttributeAnalysisInput) => Effect.Effect<Evaluated<AttributeAnalysis>, ProviderFailure>
  }
>() {}

export interface ModeOptions {
  readonly mode: EngineMode
  /** Cascade: ask the LLM when the local probability of the verdict's class is in `[low, high]`. Default `[0.25, 0.75]`. */
  readonly cascadeBand?: readonly [number, number] | undefined
  /** Also send Perspective attribute analysis to the LLM. Default false. */
  readonly llmAttributes?: boolean | undefined
}

export const DEFAULT_BAND: readonly [number, number] = [0.25, 0.75]

/** What goes into `EngineInfo.modelVersion`: the local set, the LLM, or both. */
export const modelSet = (mode: EngineMode, localVersion: string, llmModel: string): string =>
  mode === "local" ? localVersion : mode === "llm" ? llmModel : `${localVersion}+${llmModel}`

const fellBack = <A>(result: Evaluated<A>, from: string): Evaluated<A> => ({
  value: result.value,
  provenance: { model: result.provenance.model, fallbackFrom: from }
})

/** The LLM, or the local model when the LLM fails; both failing is the local model's failure. */
export const withFallback = <A>(
  llm: Effect.Effect<Evaluated<A>, ProviderFailure>,
  local: Effect.Effect<Evaluated<A>, ProviderFailure>
): Effect.Effect<Evaluated<A>, ProviderFailure> =>
  Effect.catchAll(llm, (failure) =>
    local.pipe(
      Effect.map((result) => fellBack(result, failure.provider)),
      Effect.mapError((localFailure) =>
        new ProviderFailure({
          provider: localFailure.provider,
          evaluation: localFailure.evaluation,
          message: `${failure.message} The local fallback failed too: ${localFailure.message}`,
          transient: localFailure.transient || failure.transient
        })
      )
    ))

/** Local first; the LLM only for uncertain verdicts (or `full` detail), the local answer standing if it fails. */
export const cascade = <A>(
  local: Effect.Effect<Evaluated<A>, ProviderFailure>,
  llm: Effect.Effect<Evaluated<A>, ProviderFailure>,
  uncertain: (value: A) => boolean,
  full: boolean
): Effect.Effect<Evaluated<A>, ProviderFailure> =>
  full
    ? withFallback(llm, local)
    : Effect.matchEffect(local, {
      onFailure: (localFailure) =>
        llm.pipe(
          Effect.map((result) => fellBack(result, localFailure.provider)),
          Effect.mapError(() => localFailure)
        ),
      onSuccess: (result) =>
        uncertain(result.value)
          ? Effect.catchAll(llm, (failure) => Effect.succeed(fellBack(result, failure.provider)))
          : Effect.succeed(result)
    })

/** Probability of the class a verdict names, from a verdict and the confidence in it. */
const classProbability = (verdict: boolean, confidence: number) => (verdict ? confidence : 1 - confidence)

/** Whether each evaluation's local verdict is uncertain enough, under a band, to ask the LLM. */
export const uncertainty = (band: readonly [number, number]) => {
  const inBand = (p: number) => p >= band[0] && p <= band[1]
  return {
    commentScore: (v: CommentScore) => inBand(v.toxicity_score),
    spam: (v: SpamCheck) => inBand(classProbability(v.is_spam, v.confidence)),
    relevance: (v: RelevanceCheck, bannedTopicsAsked: boolean) =>
      inBand(classProbability(v.on_topic.on_topic, v.on_topic.confidence)) ||
      (bannedTopicsAsked && inBand(classProbability(v.banned_topics.banned_topics.length > 0, v.banned_topics.confidence))),
    dogwhistle: (v: DogwhistleCheck) => inBand(classProbability(v.detection.dogwhistles_detected, v.detection.confidence)),
    /** The likelihood itself is the probability of the class "machine-written". */
    llmText: (v: LlmDetection) => inBand(v.llm_likelihood),
    attributes: (v: AttributeAnalysis) => Object.values(v).some((r) => r !== undefined && inBand(r.summary))
  }
}

/** Whether a scorer serves every attribute of a call in the call's language. */
const localServes = (scorer: AttributeScorer["Type"], input: AttributeAnalysisInput): boolean => {
  if (scorer.attributesIn === undefined) return true
  const served = scorer.attributesIn(input.language ?? "en")
  return input.attributes.every((a) => served.has(a))
}

const make = (options: ModeOptions) =>
  Effect.gen(function*() {
    const local = {
      scorer: yield* CommentScorer,
      spam: yield* SpamChecker,
      relevance: yield* RelevanceChecker,
      dogwhistle: yield* DogWhistleChecker,
      llmText: yield* LlmDetector,
      attributes: yield* AttributeScorer
    }
    if (options.mode === "local") return Context.make(CommentScorer, local.scorer).pipe(
      Context.add(SpamChecker, local.spam),
      Context.add(RelevanceChecker, local.relevance),
      Context.add(DogWhistleChecker, local.dogwhistle),
      Context.add(LlmDetector, local.llmText),
      Context.add(AttributeScorer, local.attributes)
    )
    const llm = yield* LlmEvaluation
    const u = uncertainty(options.cascadeBand ?? DEFAULT_BAND)
    const pick = <A>(
      localEff: Effect.Effect<Evaluated<A>, ProviderFailure>,
      llmEff: Effect.Effect<Evaluated<A>, ProviderFailure>,
      uncertain: (a: A) => boolean,
      full: boolean
    ) => (options.mode === "llm" ? withFallback(llmEff, localEff) : cascade(localEff, llmEff, uncertain, full))

    return Context.make(
      CommentScorer,
      CommentScorer.of({
        score: (input) => pick(local.scorer.score(input), llm.scoreComment(input), u.commentScore, input.detail === "full")
      })
    ).pipe(
      Context.add(
        SpamChecker,
        SpamChecker.of({
          check: (input) => pick(local.spam.check(input), llm.checkSpam(input), u.spam, input.detail === "full")
        })
      ),
      Context.add(
        RelevanceChecker,
        RelevanceChecker.of({
          check: (input) =>
            pick(
              local.relevance.check(input),
              llm.checkRelevance(input),
              (v) => u.relevance(v, input.bannedTopics.length > 0),
              input.detail === "full"
            )
        })
      ),
      Context.add(
        DogWhistleChecker,
        DogWhistleChecker.of({
          check: (input) => pick(local.dogwhistle.check(input), llm.checkDogwhistle(input), u.dogwhistle, input.detail === "full")
        })
      ),
      Context.add(
        LlmDetector,
        LlmDetector.of({
          detect: (input) => pick(local.llmText.detect(input), llm.detectLlm(input), u.llmText, input.detail === "full")
        })
      ),
      Context.add(
        AttributeScorer,
        options.llmAttributes
          ? AttributeScorer.of({
            // The LLM reads every language (no `attributesIn`: none is refused); the local models
            // take part (cascade, fallback) only in a language they serve, never another language's model.
            analyze: (input) =>
              localServes(local.attributes, input)
                ? pick(local.attributes.analyze(input), llm.analyzeAttributes(input), u.attributes, false)
                : llm.analyzeAttributes(input),
            // Any answer may need the LLM: always the effect.
            analyzeNow: () => undefined
          })
          : local.attributes
      )
    )
  })

/** The six ports for a mode, from the local ports and an LLM's (`local` never asks for the LLM). */
export const layer = (options: ModeOptions): Layer.Layer<Ports, never, Ports | LlmEvaluation> =>
  Layer.effectContext(make(options))
