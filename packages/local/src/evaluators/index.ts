/**
 * The local evaluators: the comment scorer, spam checker and attribute scorer, each built on
 * whatever `AttributeModel` is provided (the trained set or the cue model).
 */
import { Layer } from "effect"
import { JudgedAttributeScorer, LocalAttributeScorer } from "./LocalAttributeScorer.js"
import { LocalCommentScorer } from "./LocalCommentScorer.js"
import { LocalSpamChecker } from "./LocalSpamChecker.js"

export { analyzeAttributes, JudgedAttributeScorer, LocalAttributeScorer } from "./LocalAttributeScorer.js"
export { LocalCommentScorer, QUOTE_GATE, scoreComment } from "./LocalCommentScorer.js"
export type { QuoteGate } from "./LocalCommentScorer.js"
export { checkSpam, LocalSpamChecker, SPAM_BLEND, spamProbability } from "./LocalSpamChecker.js"
export type { SpamBlend } from "./LocalSpamChecker.js"
export { checkDogWhistles, LocalDogWhistleChecker, NO_DOGWHISTLE_MODEL, threadContext } from "./LocalDogWhistleChecker.js"
export { detectLlmText, LocalLlmDetector, MAX_SIGNALS, NO_AITEXT_MODEL } from "./LocalLlmDetector.js"
// The tuned blends and weights (chosen by the training workspace's dev runs) and the fallacy items
// of a comment score, for packages/training.
export { fallacyItems } from "./FallacyItems.js"
export { QualityWeights } from "./Quality.js"

/** The three local evaluators, on whatever `AttributeModel` is provided. */
const evaluators = Layer.mergeAll(LocalCommentScorer, LocalSpamChecker, LocalAttributeScorer)

/** The three local evaluators, the attribute scorer with the `Judge` as its second stage. */
const judged = Layer.mergeAll(LocalCommentScorer, LocalSpamChecker, JudgedAttributeScorer)

export const LocalEvaluators = {
  /** Comment scorer, spam checker and attribute scorer; needs an `AttributeModel` (see `LocalEngine.layer`). */
  evaluators,
  /** As `evaluators`, the attribute scorer judged (`JudgedAttributeScorer`); needs an `AttributeModel` and a `Judge`. */
  judged
} as const
