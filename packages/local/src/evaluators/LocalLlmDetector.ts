/**
 * Machine-written-text detection on the trained AI-text detector (the `AiTextModel` port): the
 * model's analysis mapped onto the wire shape the hosted original's clients parse.
 *
 * Every signal's `quoted_text` is a verbatim slice of the judged comment: a signal whose offsets do
 * not hold is dropped rather than sent with a quote the comment does not contain.
 */
import { LlmDetector } from "@decorum/core"
import { type LlmDetectInput, type Native, ProviderFailure } from "@decorum/domain"
import { Effect, Layer, Option } from "effect"
import { AiTextModel, type AiTextModelService } from "../AiTextModel.js"
import { clamp01, round4 } from "../internal/text/words.js"

/** The most signals an answer lists (strongest first). */
export const MAX_SIGNALS = 10

/** Judges one comment. Synchronous; throws only if the model does. */
export const detectLlmText = (model: AiTextModelService, input: LlmDetectInput): Native.LlmDetection => {
  const { comment } = input
  const analysis = model.analyse(comment)
  const seen = new Set<string>()
  const signals: Array<Native.LlmDetectionSignal> = []
  for (const s of analysis.signals) {
    if (signals.length >= MAX_SIGNALS) break
    if (comment.slice(s.begin, s.end) !== s.quote) continue
    const key = `${s.type}\u0000${s.quote}`
    if (seen.has(key)) continue
    seen.add(key)
    signals.push({ signal_type: s.type, description: s.description, quoted_text: s.quote })
  }
  return {
    llm_likelihood: round4(clamp01(analysis.likelihood)),
    confidence: round4(clamp01(analysis.confidence)),
    signals_detected: signals,
    reasoning: analysis.reasoning
  }
}

/** The provenance name when no model is loaded. */
export const NO_AITEXT_MODEL = "aitext-none"

/**
 * The LlmDetector on the `AiTextModel` when one is provided. The models directory may lack the
 * AI-text detector (its files left out, or damaged: the model layer then provides nothing, with a
 * warning); every request then fails as the provider's failure (502), naming what is missing,
 * and an LLM mode's fallback reports it, while every other evaluation is served as usual.
 */
export const LocalLlmDetector: Layer.Layer<LlmDetector> = Layer.effect(
  LlmDetector,
  Effect.map(Effect.serviceOption(AiTextModel), (found) =>
    LlmDetector.of({
      detect: (input) =>
        Option.match(found, {
          onNone: () =>
            Effect.fail(
              new ProviderFailure({
                provider: NO_AITEXT_MODEL,
                evaluation: "llm_detection",
                message: "No local AI-text detector is loaded (its files are missing from the models directory); enable an LLM mode or restore the files."
              })
            ),
          onSome: (model) =>
            Effect.try({
              try: () => ({ value: detectLlmText(model, input), provenance: { model: model.version } }),
              catch: (cause) => new ProviderFailure({ provider: model.version, evaluation: "llm_detection", message: `Local LLM-text detection failed: ${String(cause)}` })
            })
        })
    }))
)
