/**
 * The character n-gram language-identification model behind `LanguageIdentification`: its
 * features, file format and scorer, and the identification rule with its franc fallback.
 */
export { BUCKETS, STEPS_PER_NAT, forEachGram, read, encodeModel, decodeModel } from "./internal/langid/ngrams.js"
export type { NgramModel } from "./internal/langid/ngrams.js"
export { ISO639_3, francFallback, identify } from "./internal/langid/identify.js"
export type { Fallback } from "./internal/langid/identify.js"
