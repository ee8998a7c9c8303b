/**
 * The fallacy detector's model: what it reads (per-sentence units and their hashed features)
 * and its weight and manifest format (what `FallacyDetector` loads and training fits).
 */
export { MAX_UNIT, units, FallacyFeaturizer, commentVector } from "./internal/fallacy/features.js"
export { FALLACY_FORMAT, FallacyWeights } from "./internal/fallacy/model.js"
export type { FallacyManifest } from "./internal/fallacy/model.js"
