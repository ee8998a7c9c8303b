/**
 * The toxic-span tagger's model: its per-word features, weight and manifest format, and the
 * decoding of word scores into verbatim spans (what `SpanTagger` loads and training fits).
 */
export { SPAN_FORMAT, wordFeatures, WordFeatureHashes, separatorClass, keyHash, CONTEXT_SLOTS, contextSlots, slotOf, decodeSpans, SpanWeights } from "./internal/spans/model.js"
export type { SpanDecode, SpanManifest } from "./internal/spans/model.js"
