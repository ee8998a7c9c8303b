/**
 * The local evaluators: the comment scorer, spam checker and attribute scorer, each built on
 * whatever `AttributeModel` is provided (the trained set or the cue model).
 */
import { Layer } from "effect"
import { LocalAttributeScorer } from "./LocalAttributeScorer.js"
import { LocalCommentScorer } from "./LocalCommentScorer.js"
import { LocalSpamChecker } from "./LocalSpamChecker.js"

export { analyzeAttributes, LocalAttributeScorer } from "./LocalAttributeScorer.js"
export { LocalCommentScorer, scoreComment } from "./LocalCommentScorer.js"
export { checkSpam, LocalSpamChecker } from "./LocalSpamChecker.js"
export { checkDogWhistles, LocalDogWhistleChecker, NO_DOGWHISTLE_MODEL, threadContext } from "./LocalDogWhistleChecker.js"
export { detectLlmText, LocalLlmDetector, MAX_SIGNALS, NO_AITEXT_MODEL } from "./LocalLlmDetector.js"

/** The three local evaluators, on whatever `AttributeModel` is provided. */
const evaluators = Layer.mergeAll(LocalCommentScorer, LocalSpamChecker, LocalAttributeScorer)

export const LocalEvaluators = {
  /** Comment scorer, spam checker and attribute scorer; needs an `AttributeModel` (see `LocalEngine.layer`). */
  evaluators
} as const
