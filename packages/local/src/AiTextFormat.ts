/**
 * The AI-written-text detector's model: its named style features and hashed words, the lexicon
 * training mines, and its weight and manifest format (what `AiTextDetector` loads).
 */
export { DENSE, DENSE_SLOTS, FEATURE_NAMES, FUNCTION_WORDS, featurise } from "./internal/aitext/features.js"
export type { Lexicon } from "./internal/aitext/features.js"
export { AiTextWeights } from "./internal/aitext/model.js"
export type { AiTextManifest } from "./internal/aitext/model.js"
