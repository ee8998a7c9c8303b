/**
 * The words of relevance's topic profiles: the tokenizer (with stems) and the stopword test that
 * `eval/relevance/build-background.mjs` of the training workspace counts the background corpus with.
 */
export { isStopword, topicTokens } from "./internal/relevance/topicWords.js"
export type { TopicToken } from "./internal/relevance/topicWords.js"
