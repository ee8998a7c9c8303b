/**
 * The embedded default evaluators: a lexicon model (`LexiconModel`, the `AttributeModel` of
 * this version) and the comment scorer, spam checker and attribute scorer built on any
 * `AttributeModel`.
 */
import { Layer } from "effect"
import { LexiconModel } from "./LexiconModel.js"
import { LocalAttributeScorer } from "./LocalAttributeScorer.js"
import { LocalCommentScorer } from "./LocalCommentScorer.js"
import { LocalSpamChecker } from "./LocalSpamChecker.js"

export { LEXICON_VERSION, LexiconModel, makeLexiconModel } from "./LexiconModel.js"
export { analyzeAttributes, LocalAttributeScorer } from "./LocalAttributeScorer.js"
export { LocalCommentScorer, scoreComment } from "./LocalCommentScorer.js"
export { checkSpam, LocalSpamChecker } from "./LocalSpamChecker.js"

/** The three local evaluators, on whatever `AttributeModel` is provided. */
const evaluators = Layer.mergeAll(LocalCommentScorer, LocalSpamChecker, LocalAttributeScorer)

export const LocalHeuristics = {
  /** Comment scorer, spam checker and attribute scorer; needs an `AttributeModel`. */
  evaluators,
  /** The evaluators on the lexicon model; also provides the `AttributeModel` itself. */
  layer: evaluators.pipe(Layer.provideMerge(LexiconModel))
} as const
