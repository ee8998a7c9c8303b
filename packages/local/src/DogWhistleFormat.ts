/**
 * The dog-whistle detector's model: the term resource's format, the term matcher, the in-context
 * hit features and the manifest (what `DogWhistleDetector` loads and training builds).
 */
export { DOGWHISTLE_FORMAT, HitFeaturizer, isSymbolForm } from "./internal/dogwhistle/model.js"
export type { DogWhistleTerm, DogWhistleShifts, DogWhistleManifest } from "./internal/dogwhistle/model.js"
export { TermMatcher, matchTokens, numberVariants } from "./internal/dogwhistle/matcher.js"
export type { FormSpec } from "./internal/dogwhistle/matcher.js"
