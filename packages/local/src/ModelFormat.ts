/**
 * The trained model set's files: the manifest (`manifest.json`) and the weight-file encoding
 * (`*.bin`) and per-slot idf tables (`*.idf`) that `loadModelSet` reads and training writes.
 */
export { encodeWeights, decodeWeights, encodeIdf, decodeIdf, decodeIdfUnits } from "./internal/model/format.js"
export type { SourceRef, FamilyEntry, LabelEntry, WordWeightEntry, Manifest } from "./internal/model/format.js"
