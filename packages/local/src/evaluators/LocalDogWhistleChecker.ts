/**
 * Dog-whistle detection on the trained coded-language detector (the `DogWhistleModel` port): the
 * model's analysis mapped onto the wire shape the hosted original's clients parse.
 *
 * - The thread (`reply_to_comment`, then `context_comments`) goes to the model as context, most
 *   relevant first; the site's `sensitive_topics` and `dogwhistle_examples` take effect at once.
 * - `dogwhistle_terms` are the hits' surface forms, each a verbatim slice of the judged comment
 *   (a hit whose offsets do not hold is dropped: a quote the comment does not contain is never
 *   sent); `categories` their categories, once each, strongest first.
 * - `details` is null when nothing is detected, as the official client expects.
 */
import { DogWhistleChecker } from "@decorum/core"
import { type DogWhistleCheckInput, type Native, ProviderFailure } from "@decorum/domain"
import { Effect, Layer, Option } from "effect"
import { DogWhistleModel, type DogWhistleModelService } from "../DogWhistleModel.js"
import { clamp01, round4 } from "../internal/text/words.js"

/** The thread as the model's context: the comment replied to first, then the others as sent. */
export const threadContext = (input: Pick<DogWhistleCheckInput, "replyTo" | "contextComments">): ReadonlyArray<string> =>
  [input.replyTo, ...input.contextComments].filter((c): c is string => c !== null && c.trim() !== "")

const unique = (items: ReadonlyArray<string>): Array<string> => [...new Set(items)]

/** Checks one comment. Synchronous; throws only if the model does. */
export const checkDogWhistles = (model: DogWhistleModelService, input: DogWhistleCheckInput): Native.DogwhistleCheck => {
  const { comment } = input
  const analysis = model.analyse({
    comment,
    sensitiveTopics: input.sensitiveTopics,
    examples: input.examples,
    context: threadContext(input)
  })
  const detection: Native.DogwhistleDetection = {
    reasoning: analysis.reasoning,
    dogwhistles_detected: analysis.detected,
    confidence: round4(clamp01(analysis.confidence))
  }
  if (!analysis.detected) return { detection, details: null }
  const hits = analysis.hits.filter((h) => h.term !== "" && comment.slice(h.begin, h.end) === h.term)
  return {
    detection,
    details: {
      dogwhistle_terms: unique(hits.map((h) => h.term)),
      categories: unique(hits.map((h) => h.category).filter((c) => c.trim() !== "")),
      subtlety_level: round4(clamp01(analysis.subtlety)),
      harm_potential: round4(clamp01(analysis.harm))
    }
  }
}

/** The provenance name when no model is loaded. */
export const NO_DOGWHISTLE_MODEL = "dogwhistle-none"

/**
 * The DogWhistleChecker on the `DogWhistleModel` when one is provided. The models directory may lack the
 * dog-whistle detector (its files left out, or damaged: the model layer then provides nothing, with a
 * warning); every request then fails as the provider's failure (502), naming what is missing,
 * and an LLM mode's fallback reports it, while every other evaluation is served as usual.
 */
export const LocalDogWhistleChecker: Layer.Layer<DogWhistleChecker> = Layer.effect(
  DogWhistleChecker,
  Effect.map(Effect.serviceOption(DogWhistleModel), (found) =>
    DogWhistleChecker.of({
      check: (input) =>
        Option.match(found, {
          onNone: () =>
            Effect.fail(
              new ProviderFailure({
                provider: NO_DOGWHISTLE_MODEL,
                evaluation: "dogwhistle_check",
                message: "No local dog-whistle detector is loaded (its files are missing from the models directory); enable an LLM mode or restore the files."
              })
            ),
          onSome: (model) =>
            Effect.try({
              try: () => ({ value: checkDogWhistles(model, input), provenance: { model: model.version } }),
              catch: (cause) => new ProviderFailure({ provider: model.version, evaluation: "dogwhistle_check", message: `Local dog-whistle check failed: ${String(cause)}` })
            })
        })
    }))
)
