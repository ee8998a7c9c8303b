/**
 * Perspective-style attribute scores from the local model: the summary is the model's
 * probability on the whole text, each span's score its probability on that span's slice.
 * Context (article, parent comment) is not used by this version.
 *
 * The language (issue 28): English is the main model set; another language is scored by its own
 * set (`LanguageModels.forLanguage`, loaded on first use), and only in the attributes that set
 * has labels for (`attributesIn`, which analyze asks first, so a language without a model gets
 * Perspective's LANGUAGE_NOT_SUPPORTED_BY_ATTRIBUTE, never the English model).
 *
 * The judge (issue 27, `Judge`): with one (`JudgedAttributeScorer`), an English comment the judge
 * routes (a comment with a requested judged attribute, and in cascade mode the linear summary of
 * one of the judge's attributes, requested or not, inside its band) is scored by `analyze` only: `analyzeNow` answers undefined for it, and `analyze` scores it
 * linear, asks the judge, and answers the judged summaries (spans keep the linear scores) with the
 * provenance `<linear set>+<judge release>`. A judge that fails for a request leaves its linear
 * scores, with `fallbackFrom` naming the judge (counted as a fallback, logged). Other languages
 * keep their own linear sets.
 */
import { AttributeScorer } from "@decorum/core"
import { type AttributeAnalysis, type AttributeAnalysisInput, type AttributeResult, type Evaluated, type Perspective, ProviderFailure } from "@decorum/domain"
import { Clock, Effect, Either, Layer, Option } from "effect"
import { AttributeModel, type AttributeModelService, type ModelLabel } from "../AttributeModel.js"
import { Judge, type JudgeService } from "../Judge.js"
import { LanguageModels, type LanguageModelsService } from "../LanguageModels.js"
import { ModelAnalysis } from "../internal/analyses.js"
import { clamp01 } from "../internal/text/words.js"

/** Scores the requested attributes. Fails (as a provider failure) for an attribute the model set lacks. */
export const analyzeAttributes = (model: AttributeModelService, input: AttributeAnalysisInput): AttributeAnalysis => {
  const missing = input.attributes.filter((a) => !model.labels.includes(a))
  if (missing.length > 0) throw new MissingLabels(missing)
  // The text is scored once; a span covering it whole (the Google-shaped family's default) is
  // the summary itself, and every other span is a text of its own. Nothing is explained, so the
  // model set's score-only path serves when it has one (the same numbers, less work).
  const probabilities = (text: string) =>
    model.score !== undefined ? model.score(text, input.attributes) : model.predict(model.analyse(text), input.attributes)
  // The request's other evaluators (the combined call) may have analysed the text with this set
  // already: the prediction reads that analysis (the same numbers as `score`, bit for bit).
  const analysed = input.analysed?.text === input.text ? input.analysed.peek(ModelAnalysis, model) : undefined
  const whole = analysed !== undefined ? model.predict(analysed, input.attributes) : probabilities(input.text)
  const perSpan = input.spans.map((s) =>
    s.begin === 0 && s.end === input.text.length ? whole : probabilities(input.text.slice(s.begin, s.end))
  )
  const out: Partial<Record<Perspective.Attribute, AttributeResult>> = {}
  for (const a of input.attributes) {
    out[a] = { summary: clamp01(whole[a] ?? 0), spans: perSpan.map((p) => clamp01(p[a] ?? 0)) }
  }
  return out
}

class MissingLabels extends Error {
  constructor(readonly labels: ReadonlyArray<string>) {
    super(`the model set cannot score ${labels.join(", ")}`)
  }
}

/** Scores as `analyzeAttributes` does, with a failure as the provider failure the port promises. */
const analyzeNow = (model: AttributeModelService, input: AttributeAnalysisInput): Either.Either<Evaluated<AttributeAnalysis>, ProviderFailure> => {
  try {
    return Either.right({ value: analyzeAttributes(model, input), provenance: { model: model.version } })
  } catch (cause) {
    return Either.left(
      new ProviderFailure({
        provider: model.version,
        evaluation: "attributes",
        message: cause instanceof MissingLabels ? `Model set ${model.version}: ${cause.message}` : `Local attribute scoring failed: ${String(cause)}`
      })
    )
  }
}

const attributeSet = (labels: ReadonlyArray<ModelLabel>): ReadonlySet<Perspective.Attribute> =>
  new Set(labels.filter((l): l is Perspective.Attribute => l !== "LOW_EFFORT" && l !== "CONSTRUCTIVE"))

const NONE: ReadonlySet<Perspective.Attribute> = new Set()

/**
 * The local scorer over the English model set and the per-language sets (none when no
 * `LanguageModels` is given): what `attributesIn` and `analyze` read.
 */
export const makeLocalAttributeScorer = (
  model: AttributeModelService,
  languages: LanguageModelsService | undefined,
  judge?: JudgeService
): AttributeScorer["Type"] => {
  const english = attributeSet(model.labels)
  const served = new Map<string, ReadonlySet<Perspective.Attribute>>([["en", english]])
  for (const [language, labels] of languages?.languages ?? []) if (language !== "en") served.set(language, attributeSet(labels))
  const scoreIn = (input: AttributeAnalysisInput): Either.Either<Evaluated<AttributeAnalysis>, ProviderFailure> => {
    const language = input.language ?? "en"
    if (language === "en") return analyzeNow(model, input)
    const set = served.has(language) ? languages?.forLanguage(language) : undefined
    if (set === undefined) {
      return Either.left(
        new ProviderFailure({ provider: model.version, evaluation: "attributes", message: `No model set for language ${language} could be loaded.` })
      )
    }
    return analyzeNow(set, input)
  }
  const attributesIn = (language: string) => served.get(language) ?? NONE
  if (judge === undefined || judge.status.state !== "ready") {
    return AttributeScorer.of({ analyze: (input) => Effect.suspend(() => scoreIn(input)), analyzeNow: scoreIn, attributesIn })
  }
  const failureLog = failureLogger()
  /** The linear answer, and whether the judge is to read the text. */
  // The judged attributes the model set scores: in cascade mode, a comment is routed by the linear
  // summaries of all of them, whichever were requested, so that an attribute's score never depends
  // on what else the request asked for.
  const judgedLabels = judge.attributes.filter((a) => english.has(a))
  const firstStage = (input: AttributeAnalysisInput) => {
    if ((input.language ?? "en") !== "en" || !input.attributes.some((a) => judge.attributes.includes(a))) {
      return { linear: scoreIn(input), routed: false }
    }
    // One pass of the model set over the text for the requested and the routing attributes (a
    // second pass for the unrequested ones doubled the linear cost of a one-attribute request);
    // the answer keeps the requested ones.
    const missing = judgedLabels.filter((a) => !input.attributes.includes(a))
    const scored = scoreIn(missing.length === 0 ? input : { ...input, attributes: [...input.attributes, ...missing] })
    if (Either.isLeft(scored)) return { linear: scored, routed: false }
    const routed = judge.routes(judgedLabels, summaries(scored.right.value))
    return { linear: missing.length === 0 ? scored : Either.right(requestedOf(scored.right, input.attributes)), routed }
  }
  return AttributeScorer.of({
    analyze: (input) =>
      Effect.suspend(() => {
        const { linear, routed } = firstStage(input)
        return routed && Either.isRight(linear) ? judged(judge, failureLog, input, linear.right) : linear
      }),
    analyzeNow: (input) => {
      const { linear, routed } = firstStage(input)
      if (!routed) return linear
      // Over the judge's budget on arrival: answered linear here, without a fiber.
      return Either.isRight(linear) && judge.shedNow() ? Either.right(fallback(judge, linear.right)) : undefined
    },
    attributesIn
  })
}

/** The answer with only the `attributes` asked for. */
const requestedOf = (answer: Evaluated<AttributeAnalysis>, attributes: ReadonlyArray<Perspective.Attribute>): Evaluated<AttributeAnalysis> => {
  const value: Partial<Record<Perspective.Attribute, AttributeResult>> = {}
  for (const a of attributes) {
    const result = answer.value[a]
    if (result !== undefined) value[a] = result
  }
  return { ...answer, value }
}

const summaries = (analysis: AttributeAnalysis): Partial<Record<Perspective.Attribute, number>> => {
  const out: Partial<Record<Perspective.Attribute, number>> = {}
  for (const [attribute, result] of Object.entries(analysis) as Array<[Perspective.Attribute, AttributeResult | undefined]>) {
    if (result !== undefined) out[attribute] = result.summary
  }
  return out
}

/**
 * The judge's summaries over the linear answer; the linear answer, as a fallback, when the judge
 * fails. A span that covers the whole text is the summary (as in linear scoring, and as Google's
 * client reads it: its default span is the whole comment); every other span keeps its linear score.
 */
const judged = (
  judge: JudgeService,
  failureLog: (reason: string) => Effect.Effect<void>,
  input: AttributeAnalysisInput,
  linear: Evaluated<AttributeAnalysis>
): Effect.Effect<Evaluated<AttributeAnalysis>> =>
  judge.judge(input.text, summaries(linear.value)).pipe(
    Effect.map((probabilities): Evaluated<AttributeAnalysis> => {
      const value: Partial<Record<Perspective.Attribute, AttributeResult>> = { ...linear.value }
      const whole = input.spans.map((s) => s.begin === 0 && s.end === input.text.length)
      for (const [attribute, p] of Object.entries(probabilities) as Array<[Perspective.Attribute, number]>) {
        const result = value[attribute]
        if (result === undefined) continue
        const summary = clamp01(p)
        value[attribute] = { summary, spans: result.spans.map((score, i) => (whole[i] === true ? summary : score)) }
      }
      return { value, provenance: { model: `${linear.provenance.model}+${judge.status.model}` } }
    }),
    Effect.catchTag("JudgeFailure", (failure) =>
      // Shedding over the budget is the design working (counted as `over_budget`), not a fault to warn of.
      (failure.shed === true ? Effect.void : failureLog(failure.reason)).pipe(Effect.as(fallback(judge, linear))))
  )

/** The linear answer, naming the judge as the model it stands in for. */
const fallback = (judge: JudgeService, linear: Evaluated<AttributeAnalysis>): Evaluated<AttributeAnalysis> => ({
  value: linear.value,
  provenance: { model: linear.provenance.model, fallbackFrom: judge.status.model! }
})

/** Seconds between two warnings of failed judging (an overload fails many requests; each is counted as a fallback anyway). */
const FAILURE_LOG_EVERY_MS = 10_000

/** A warning for a failed judging, at most one per `FAILURE_LOG_EVERY_MS`, with the count of the failures since the last one. */
const failureLogger = (): ((reason: string) => Effect.Effect<void>) => {
  let last = -Infinity
  let unlogged = 0
  return (reason) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (now - last < FAILURE_LOG_EVERY_MS) {
        unlogged++
        return Effect.void
      }
      const since = unlogged
      last = now
      unlogged = 0
      return Effect.logWarning(`Judge failed, answering the linear scores: ${reason}${since > 0 ? ` (and ${since} more failures since the last warning)` : ""}`)
    })
}

/**
 * The attribute scorer on whatever `AttributeModel` is provided, and the per-language sets when a
 * `LanguageModels` is: synchronous, so it also answers `analyzeNow`.
 */
export const LocalAttributeScorer: Layer.Layer<AttributeScorer, never, AttributeModel> = Layer.effect(
  AttributeScorer,
  Effect.gen(function*() {
    const model = yield* AttributeModel
    const languages = yield* Effect.serviceOption(LanguageModels)
    return makeLocalAttributeScorer(model, Option.getOrUndefined(languages))
  })
)

/**
 * The attribute scorer with the `Judge` provided as its second stage (what the engine serves): as
 * `LocalAttributeScorer` when the judge is off or unavailable. `LocalAttributeScorer` itself stays
 * linear whatever judge is around (the adapters' refits score with the linear models).
 */
export const JudgedAttributeScorer: Layer.Layer<AttributeScorer, never, AttributeModel | Judge> = Layer.effect(
  AttributeScorer,
  Effect.gen(function*() {
    const model = yield* AttributeModel
    const languages = yield* Effect.serviceOption(LanguageModels)
    return makeLocalAttributeScorer(model, Option.getOrUndefined(languages), yield* Judge)
  })
)
