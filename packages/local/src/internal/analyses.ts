/**
 * What the local evaluators derive from a comment, as the analyses of the request's analysed
 * comment (`AnalysedComment` of `@decorum/domain`): the first evaluator of a request that needs
 * one derives it, every other evaluator of that request reads it. Constants (compared by
 * identity); the values live in the request's analysed comment, not here.
 */
import { splitSentences } from "@decorum/core"
import { analysis } from "@decorum/domain"
import type { AttributeModelService, TextAnalysis } from "../AttributeModel.js"
import { tokenize } from "./text/words.js"

/** The comment's word tokens (`text/words.ts`). */
export const Tokens = analysis("tokens", tokenize)

/** The comment's sentences (the core's splitter, as analyze's spans). */
export const Sentences = analysis("sentences", splitSentences)

/** A model set's analysis of the comment (normalised tokens, features, head sums), one per model set. */
export const ModelAnalysis = analysis<TextAnalysis, AttributeModelService>("model set analysis", (text, model) => model.analyse(text))
