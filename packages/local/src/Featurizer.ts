/**
 * The hashed word and character n-gram featuriser of the trained model set, its configuration
 * (stored in the manifest) and the string hash it buckets with. Training featurises with this
 * same code, so the weights it fits read the features the runtime computes.
 */
export { BLOCK_PLAIN_CHAR, BLOCK_PLAIN_WORD, DEFAULT_FEATURES, Featurizer, fmix, hashString } from "./internal/model/features.js"
export type { FeatureConfig } from "./internal/model/features.js"
