/**
 * Perspective-style attribute scores from the local model: the summary is the model's
 * probability on the whole text, each span's score its probability on that span's slice.
 * Context (article, parent comment) is not used by this version.
 */
import { AttributeScorer } from "@decorum/core"
import { type AttributeAnalysis, type AttributeAnalysisInput, type AttributeResult, type Evaluated, type Perspective, ProviderFailure } from "@decorum/domain"
import { Effect, Either, Layer } from "effect"
import { AttributeModel, type AttributeModelService } from "../AttributeModel.js"
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
  const whole = probabilities(input.text)
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

/** The attribute scorer on whatever `AttributeModel` is provided: synchronous, so it also answers `analyzeNow`. */
export const LocalAttributeScorer: Layer.Layer<AttributeScorer, never, AttributeModel> = Layer.effect(
  AttributeScorer,
  Effect.map(AttributeModel, (model) =>
    AttributeScorer.of({
      analyze: (input) => Effect.suspend(() => analyzeNow(model, input)),
      analyzeNow: (input) => analyzeNow(model, input)
    }))
)
