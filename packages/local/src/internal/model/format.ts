/**
 * The model file format.
 *
 * `manifest.json` names the model set's version, the feature configuration, the normaliser's
 * respelling map, the weight files (with sha256), and for every label how it is scored: a trained
 * head (a column of a weight file plus its calibration), an alias of another label, a derived
 * combination, or a documented word-weight head (manifest kind `lexicon`).
 *
 * A weight file (`*.bin`, little-endian) holds one family of heads that share a feature table:
 *
 * ```
 * magic "DCRM" | u32 format (1) | u32 bits | u32 labels L
 * f32 scale[L] | f32 bias[L] | i16 weights[2^bits * L]   (interleaved: slot-major)
 * ```
 *
 * A weight is `i16 * scale[label]`. Slot-major interleaving lets one pass over a comment's
 * features update every head of the family.
 */
import type { ModelLabel } from "../../AttributeModel.js"
import type { FeatureConfig } from "./features.js"
import type { EvidenceKind } from "./evidence.js"
import type { Calibration } from "../calibration.js"

export const MAGIC = 0x4d524344 // "DCRM" little-endian
export const FORMAT = 1

export interface SourceRef {
  /** Dataset folder name under `shared/data`. */
  readonly dataset: string
  readonly license: string
  /** `yes`, `no (NC)`, `unknown`, as in the data README. */
  readonly commercial: string
}

export interface FamilyEntry {
  readonly name: string
  readonly file: string
  readonly sha256: string
  readonly bits: number
  readonly labels: ReadonlyArray<ModelLabel>
  readonly sources: ReadonlyArray<SourceRef>
  /** Set when a source is not cleared for commercial use; a deployment may delete the file. */
  readonly flag?: string
}

export type LabelEntry =
  | {
      readonly kind: "trained"
      readonly family: string
      readonly calibration: Calibration
      /**
       * Pattern evidence added to the head's log-odds before calibration:
       * `calibration(raw + weight * strength)`, strength in [0, 1] (see `evidence.ts`).
       */
      readonly evidence?: { readonly kind: EvidenceKind; readonly weight: number }
      /**
       * Other trained heads this head reads, rectified (local-2026.12.7: TOXICITY reads
       * IDENTITY_ATTACK): each adds `weight * max(0, z_label)` to the head's raw log-odds before its
       * calibration, with the evidence above, where `z_label` is the read head's calibrated log-odds,
       * `logit(p_label)` of the probability returned for that label (for a Platt head `a * raw' + b`
       * exactly, `raw'` its raw log-odds plus its own evidence and reads). The head rises when the
       * read head is confident and never falls because a text is not of that kind. Weights are
       * non-negative; a head that reads itself, a cycle of reads, or a read of a label that is not
       * a trained head is refused at load. Absent in manifests before 12.7 (nothing is added).
       */
      readonly reads?: ReadonlyArray<{ readonly label: ModelLabel; readonly weight: number }>
    }
  | { readonly kind: "alias"; readonly of: ModelLabel }
  | { readonly kind: "max"; readonly of: ReadonlyArray<ModelLabel> }
  | WordWeightEntry

/**
 * A word-weight head: `sigmoid(bias + the weights of the distinct normalised words and word pairs
 * present)`, hand-set for a label no dataset labels. Its manifest kind is `"lexicon"` (file format).
 */
export interface WordWeightEntry {
  readonly kind: "lexicon"
  readonly bias: number
  readonly words: Readonly<Record<string, number>>
  readonly note: string
}

export interface Manifest {
  readonly format: number
  readonly version: string
  readonly features: FeatureConfig
  readonly respell: Readonly<Record<string, string>>
  readonly families: ReadonlyArray<FamilyEntry>
  readonly labels: Readonly<Partial<Record<ModelLabel, LabelEntry>>>
  /**
   * A per-language set's idf table (`encodeIdf`): the featuriser weights each slot's tf by it
   * before the block norms (`Featurizer.useIdf`). Absent: no idf (English).
   */
  readonly idf?: { readonly file: string; readonly sha256: string; readonly bits: number }
}

export interface WeightTable {
  readonly bits: number
  readonly labels: number
  /** Dequantised, slot-major: `weights[slot * labels + label]`. */
  readonly weights: Float32Array
  readonly bias: Float32Array
}

/** Quantise float weights (one array per label, each `2^bits` long) into a weight file. */
export const encodeWeights = (bits: number, columns: ReadonlyArray<Float32Array>, biases: ReadonlyArray<number>): Uint8Array => {
  const L = columns.length
  const size = 1 << bits
  const header = 16 + 8 * L
  const buf = new ArrayBuffer(header + size * L * 2)
  const view = new DataView(buf)
  view.setUint32(0, MAGIC, true)
  view.setUint32(4, FORMAT, true)
  view.setUint32(8, bits, true)
  view.setUint32(12, L, true)
  const scales: Array<number> = []
  for (let l = 0; l < L; l++) {
    let max = 0
    const col = columns[l]!
    for (let j = 0; j < size; j++) max = Math.max(max, Math.abs(col[j]!))
    const scale = Math.fround(max > 0 ? max / 32767 : 1)
    scales.push(scale)
    view.setFloat32(16 + 4 * l, scale, true)
    view.setFloat32(16 + 4 * L + 4 * l, biases[l]!, true)
  }
  for (let j = 0; j < size; j++) {
    for (let l = 0; l < L; l++) {
      const q = Math.max(-32767, Math.min(32767, Math.round(columns[l]![j]! / scales[l]!)))
      view.setInt16(header + 2 * (j * L + l), q, true)
    }
  }
  return new Uint8Array(buf)
}

/** A weight file's quantised contents, without dequantising. */
export interface QuantisedTable {
  readonly bits: number
  readonly labels: number
  /** Slot-major `i16`: `q[slot * labels + label] * scales[label]` is the weight. */
  readonly q: Int16Array
  readonly scales: Float32Array
  readonly bias: Float32Array
}

export const decodeQuantised = (bytes: Uint8Array): QuantisedTable => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== MAGIC) throw new Error("not a Decorum weight file")
  if (view.getUint32(4, true) !== FORMAT) throw new Error("unsupported weight file format")
  const bits = view.getUint32(8, true)
  const L = view.getUint32(12, true)
  const size = 1 << bits
  const header = 16 + 8 * L
  if (bytes.byteLength !== header + size * L * 2) throw new Error("truncated weight file")
  const scales = new Float32Array(L)
  const bias = new Float32Array(L)
  for (let l = 0; l < L; l++) {
    scales[l] = view.getFloat32(16 + 4 * l, true)
    bias[l] = view.getFloat32(16 + 4 * L + 4 * l, true)
  }
  const q = new Int16Array(size * L)
  for (let i = 0; i < size * L; i++) q[i] = view.getInt16(header + 2 * i, true)
  return { bits, labels: L, q, scales, bias }
}

/** The weights as floats: the quantised table, dequantised (for tests and tools; scoring uses `q` directly). */
export const decodeWeights = (bytes: Uint8Array): WeightTable => {
  const { bias, bits, labels, q, scales } = decodeQuantised(bytes)
  const weights = new Float32Array(q.length)
  for (let i = 0; i < q.length; i++) weights[i] = q[i]! * scales[i % labels]!
  return { bits, labels, weights, bias }
}

const IDF_MAGIC = 0x46444944 // "DIDF"
/** idf values are stored as `round(idf * IDF_SCALE)` in a u16 (idf <= 16 for up to 3 million rows). */
export const IDF_SCALE = 4096

/** An idf table (`2^bits` slots) as a file: magic, bits, then one u16 per slot (`idf * 4096`). */
export const encodeIdf = (idf: Float32Array | Float64Array): Uint8Array => {
  const bits = Math.log2(idf.length)
  if (!Number.isInteger(bits)) throw new Error("idf table size is not a power of two")
  const buf = new ArrayBuffer(8 + 2 * idf.length)
  const view = new DataView(buf)
  view.setUint32(0, IDF_MAGIC, true)
  view.setUint32(4, bits, true)
  for (let j = 0; j < idf.length; j++) view.setUint16(8 + 2 * j, Math.max(0, Math.min(65535, Math.round(idf[j]! * IDF_SCALE))), true)
  return new Uint8Array(buf)
}

/**
 * The idf table of `encodeIdf`'s file as stored: `idf * IDF_SCALE` per slot. The runtime keeps it
 * so (half the memory of floats; `Featurizer.useIdf` scales it, to the same values as `decodeIdf`'s).
 */
export const decodeIdfUnits = (bytes: Uint8Array): Uint16Array => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== IDF_MAGIC) throw new Error("not a Decorum idf file")
  const bits = view.getUint32(4, true)
  if (bits > 24 || bytes.byteLength !== 8 + 2 * (1 << bits)) throw new Error("truncated idf file")
  const out = new Uint16Array(1 << bits)
  for (let j = 0; j < out.length; j++) out[j] = view.getUint16(8 + 2 * j, true)
  return out
}

/** The idf table of `encodeIdf`'s file as floats (the stored, rounded values). */
export const decodeIdf = (bytes: Uint8Array): Float32Array => Float32Array.from(decodeIdfUnits(bytes), (u) => u / IDF_SCALE)
