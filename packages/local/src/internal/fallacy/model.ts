/**
 * The fallacy detector's weights and scoring: one linear head that says whether a comment argues
 * fallaciously ("fallacy") and one per catalogue type (the typer), over the features of
 * `features.ts`, in one slot-major weight file (`internal/model/format.ts`'s codec, read as is).
 *
 * `fallacy.json` (its own manifest, beside the toxicity set's):
 *
 * ```
 * { format: 1, version, file, sha256, bits, heads: ["fallacy", <catalogue types>...],
 *   threshold, sources[], flag?, metrics? }
 * ```
 *
 * `threshold` is on the detector's log-odds, chosen on dev for F1 (training/fallacy.ts).
 */
import type { Fallacies } from "@decorum/domain"
import { decodeQuantised, type SourceRef } from "../model/format.js"
import type { Range, Token } from "../text/words.js"
import { CHAR, FallacyFeaturizer, PATTERN, WORD } from "./features.js"

export const FALLACY_FORMAT = 1

export interface FallacyManifest {
  readonly format: number
  readonly version: string
  /** The weight file, beside the manifest. */
  readonly file: string
  readonly sha256: string
  readonly bits: number
  /** Character n-gram lengths, or null for words and patterns only. */
  readonly chars: readonly [number, number] | null
  /** Column order of the weight file: the detector, then the catalogue types the typer knows. */
  readonly heads: ReadonlyArray<"fallacy" | Fallacies.FallacyType>
  /** Report a fallacy when the detector's log-odds reach this (chosen on dev for F1). */
  readonly threshold: number
  readonly sources: ReadonlyArray<SourceRef>
  /** Set when a source is not cleared for commercial use. */
  readonly flag?: string
  /** What training measured (informative; the model card prints the eval's figures). */
  readonly metrics?: Readonly<Record<string, unknown>>
}

/** One scored unit (a sentence, or a clause of a very long one). */
export interface UnitScore extends Range {
  /** This unit's share of the comment's detector log-odds (its features' contributions). */
  readonly drive: number
  /** The detector's log-odds for the unit on its own. */
  readonly score: number
  /**
   * The typer's best type for the unit on its own, when the unit on its own is at least as likely
   * fallacious as not and reaches the threshold; otherwise the comment's type.
   */
  readonly type: Fallacies.FallacyType
}

export interface FallacyScores {
  /** The detector's log-odds for the whole comment. */
  readonly score: number
  /** The typer's best type for the whole comment. */
  readonly type: Fallacies.FallacyType
  /** Every unit, in text order. */
  readonly units: ReadonlyArray<UnitScore>
}

/**
 * `out[1 + t] += qt[slot * T + t] * v` for every type head `t < T`, over the slots of
 * `rows[from..to)` (each read through `slotOf` when given), in that order: each head's sum goes
 * on feature by feature as in a one-pass loop (the same bits), four heads per pass in local
 * accumulators rather than a load and a store of `out` per head and feature.
 */
const addTypeRows = (
  qt: Int16Array,
  T: number,
  rows: Int32Array,
  slotOf: Int32Array | undefined,
  from: number,
  to: number,
  v: number,
  out: Float64Array
): void => {
  for (let g = 0; g < T; g += 4) {
    // a group of fewer than four heads repeats its first head in the spare accumulators
    const c1 = g + 1 < T ? 1 : 0
    const c2 = g + 2 < T ? 2 : 0
    const c3 = g + 3 < T ? 3 : 0
    let s0 = out[1 + g]!
    let s1 = out[1 + g + c1]!
    let s2 = out[1 + g + c2]!
    let s3 = out[1 + g + c3]!
    for (let k = from; k < to; k++) {
      const r = rows[k]!
      const base = (slotOf === undefined ? r : slotOf[r]!) * T + g
      s0 += qt[base]! * v
      s1 += qt[base + c1]! * v
      s2 += qt[base + c2]! * v
      s3 += qt[base + c3]! * v
    }
    out[1 + g] = s0
    if (c1 !== 0) out[1 + g + 1] = s1
    if (c2 !== 0) out[1 + g + 2] = s2
    if (c3 !== 0) out[1 + g + 3] = s3
  }
}

/**
 * The loaded detector and typer. Scoring reuses scratch buffers (one featuriser, counters by
 * feature id): an instance is not shared across threads.
 */
export class FallacyWeights {
  readonly heads: number
  /** The detector's column on its own (every comment reads it: a quarter of a MB, cache-friendly)... */
  private readonly q0: Int16Array
  /** ...and the type heads, slot-major (`(slot * (heads - 1)) + type`), read only for comments that reach the threshold. */
  private readonly qt: Int16Array
  private readonly scales: Float32Array
  private readonly bias: Float32Array
  readonly types: ReadonlyArray<Fallacies.FallacyType>
  private readonly featurizer: FallacyFeaturizer
  /** How many units of the current text hold each of its features (by the featuriser's id). */
  private count = new Uint16Array(4096)
  private touched = new Int32Array(4096)
  private readonly raw: Float64Array
  private readonly own: Float64Array

  constructor(readonly manifest: FallacyManifest, bytes: Uint8Array) {
    if (manifest.format !== FALLACY_FORMAT) throw new Error(`fallacy model format ${manifest.format} is not supported`)
    const table = decodeQuantised(bytes)
    if (table.bits !== manifest.bits || table.labels !== manifest.heads.length) throw new Error(`weight file ${manifest.file} does not match its manifest`)
    if (manifest.heads[0] !== "fallacy" || manifest.heads.length < 2) throw new Error("a fallacy model needs the detector and at least one type")
    this.heads = table.labels
    const size = 1 << table.bits
    const T = table.labels - 1
    this.q0 = new Int16Array(size)
    this.qt = new Int16Array(size * T)
    for (let slot = 0; slot < size; slot++) {
      this.q0[slot] = table.q[slot * table.labels]!
      for (let t = 0; t < T; t++) this.qt[slot * T + t] = table.q[slot * table.labels + 1 + t]!
    }
    this.scales = table.scales
    this.bias = table.bias
    this.types = manifest.heads.slice(1) as Array<Fallacies.FallacyType>
    this.featurizer = new FallacyFeaturizer({ bits: manifest.bits, chars: manifest.chars })
    this.raw = new Float64Array(this.heads)
    this.own = new Float64Array(this.heads)
  }

  private bestType(raw: Float64Array): Fallacies.FallacyType {
    let best = 1
    for (let h = 2; h < this.heads; h++) if (raw[h]! > raw[best]!) best = h
    return this.types[best - 1]!
  }

  /**
   * Score a text: the comment, and each unit on its own and as a share of the comment's score.
   * The comment's type is computed when it reaches the threshold or `typeAlways` is set (the
   * eval's type accuracy); a unit's when it could be reported on its own (`FallacyUnit.type`).
   */
  analyse(text: string, sentences: ReadonlyArray<Range>, tokens?: ReadonlyArray<Token>, typeAlways = false): FallacyScores {
    const f = this.featurizer.run(text, sentences, tokens)
    const { units, slots, ids, slotOf } = f
    const H = this.heads
    const q0 = this.q0
    const qt = this.qt
    const T = H - 1
    const raw = this.raw
    raw.fill(0)
    if (this.touched.length < f.distinct) this.touched = new Int32Array(f.distinct * 2)
    if (this.count.length < f.distinct) this.count = new Uint16Array(f.distinct * 2)
    const touched = this.touched
    const count = this.count
    // the comment: each block's distinct features (ids) over all units, counted per unit that holds them
    const value = [0, 0, 1]
    const from = [0, 0, 0]
    let nt = 0
    for (let b = WORD; b <= PATTERN; b++) {
      from[b] = nt
      for (const u of units) {
        for (let k = u.start[b]!; k < u.end[b]!; k++) {
          const id = ids[k]!
          const c = count[id]!
          if (c < 0xffff) count[id] = c + 1
          if (c === 0) touched[nt++] = id
        }
      }
      const distinct = nt - from[b]!
      if (b !== PATTERN) value[b] = distinct > 0 ? 1 / Math.sqrt(distinct) : 0
      const v = value[b]!
      let z = 0
      for (let k = from[b]!; k < nt; k++) z += q0[slotOf[touched[k]!]!]!
      raw[0]! += z * v
    }
    const score = this.bias[0]! + raw[0]! * this.scales[0]!
    const threshold = this.manifest.threshold
    let type: Fallacies.FallacyType = this.types[0]!
    if (score >= threshold || typeAlways) {
      for (let b = WORD; b <= PATTERN; b++) addTypeRows(qt, T, touched, slotOf, from[b]!, b === PATTERN ? nt : from[b + 1]!, value[b]!, raw)
      for (let h = 1; h < H; h++) raw[h] = this.bias[h]! + raw[h]! * this.scales[h]!
      type = this.bestType(raw)
    }
    const bar = Math.max(threshold, 0)
    // A sentence's own type is read only when the comment is reported (or the caller asked for
    // types): below the threshold nothing is reported, and typing every sentence there read every
    // type head for nothing on most comments.
    const typeUnits = score >= threshold || typeAlways
    const scale = this.scales[0]!
    const scored: Array<UnitScore> = units.map((u) => {
      let drive = 0
      let alone = 0
      for (let b = WORD; b <= PATTERN; b++) {
        const n = u.end[b]! - u.start[b]!
        const own = b === PATTERN ? 1 : n > 0 ? 1 / Math.sqrt(n) : 0
        let sum = 0
        let shared = 0
        for (let k = u.start[b]!; k < u.end[b]!; k++) {
          const w = q0[slots[k]!]!
          sum += w
          shared += w / count[ids[k]!]!
        }
        drive += shared * value[b]!
        alone += sum * own
      }
      const unitScore = this.bias[0]! + alone * scale
      return { begin: u.range.begin, end: u.range.end, drive: drive * scale, score: unitScore, type: typeUnits && unitScore >= bar ? this.unitType(u, slots) : type }
    })
    count.fill(0, 0, f.distinct)
    return { score, type, units: scored }
  }

  /** The typer's best type for one unit on its own. */
  private unitType(u: { readonly start: ReadonlyArray<number>; readonly end: ReadonlyArray<number> }, slots: Int32Array): Fallacies.FallacyType {
    const H = this.heads
    const own = this.own
    own.fill(0)
    for (const b of [WORD, CHAR, PATTERN]) {
      const n = u.end[b]! - u.start[b]!
      const v = b === PATTERN ? 1 : n > 0 ? 1 / Math.sqrt(n) : 0
      addTypeRows(this.qt, H - 1, slots, undefined, u.start[b]!, u.end[b]!, v, own)
    }
    for (let h = 1; h < H; h++) own[h] = this.bias[h]! + own[h]! * this.scales[h]!
    return this.bestType(own)
  }
}
