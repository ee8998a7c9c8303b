/**
 * The loaded model set: predicts calibrated probabilities and explains them with the n-grams
 * that drove the score, quoted as verbatim spans of the original text.
 *
 * One featuriser pass per text serves every requested label; each weight family is one pass over
 * the features (slot-major weights). Buffers are reused, so predict allocates little. A ModelSet
 * is not re-entrant (JavaScript is single-threaded; do not share one across worker threads).
 */
import type { Contribution, ModelLabel } from "../AttributeModel.js"
import { type Evidence, identityEvidence, threatEvidence } from "../internal/model/evidence.js"
import { Featurizer } from "../internal/model/features.js"
import { decodeQuantised, type LabelEntry, type Manifest, type QuantisedTable, type WordWeightEntry } from "../internal/model/format.js"
import { Normalizer } from "../internal/model/normalize.js"
import { applyCalibration, sigmoid } from "../internal/calibration.js"


export class ModelSet {
  readonly version: string
  readonly labels: ReadonlyArray<ModelLabel>
  readonly manifest: Manifest
  private readonly featurizer: Featurizer
  /** Column of each trained head in the combined table. */
  private readonly columnOf = new Map<ModelLabel, number>()
  private readonly entries = new Map<ModelLabel, LabelEntry>()
  /**
   * Every trained head of every family in one slot-major `i16` table over the largest family's
   * slots (smaller families are repeated, as their mask would fold them): one cache line per
   * feature serves all heads.
   */
  private readonly q: Int16Array
  private readonly columns: number
  private readonly bits: number
  private readonly scales: Float64Array
  private readonly bias: Float64Array
  private readonly raws: Float64Array

  /**
   * `files` maps a family's file name to its bytes. Families whose file is missing are skipped,
   * and the labels they carried are dropped (a deployment may delete a flagged family).
   */
  constructor(manifest: Manifest, files: ReadonlyMap<string, Uint8Array>) {
    this.manifest = manifest
    this.version = manifest.version
    this.featurizer = new Featurizer(manifest.features, new Normalizer({ respell: manifest.respell }))
    const loaded: Array<{ labels: ReadonlyArray<ModelLabel>; table: QuantisedTable }> = []
    for (const family of manifest.families) {
      const bytes = files.get(family.file)
      if (bytes === undefined) continue
      const table = decodeQuantised(bytes)
      if (table.bits !== family.bits || table.labels !== family.labels.length) {
        throw new Error(`weight file ${family.file} does not match the manifest`)
      }
      if (table.bits > manifest.features.bits) throw new Error(`weight file ${family.file} has more slots than the feature space`)
      loaded.push({ labels: family.labels, table })
    }
    const bits = loaded.reduce((m, f) => Math.max(m, f.table.bits), 0)
    const C = loaded.reduce((n, f) => n + f.table.labels, 0)
    this.bits = bits
    this.columns = C
    this.q = new Int16Array((1 << bits) * C)
    this.scales = new Float64Array(C)
    this.bias = new Float64Array(C)
    this.raws = new Float64Array(C)
    let offset = 0
    for (const { labels, table } of loaded) {
      const L = table.labels
      const mask = (1 << this.bits) - 1
      for (let slot = 0; slot < 1 << bits; slot++) {
        const src = (slot & mask) * L
        const dst = slot * C + offset
        for (let l = 0; l < L; l++) this.q[dst + l] = table.q[src + l]!
      }
      labels.forEach((label, l) => {
        this.columnOf.set(label, offset + l)
        this.scales[offset + l] = table.scales[l]!
        this.bias[offset + l] = table.bias[l]!
      })
      offset += L
    }
    for (const [label, entry] of Object.entries(manifest.labels) as Array<[ModelLabel, LabelEntry]>) {
      if (entry.kind === "trained" && !this.columnOf.has(label)) continue
      this.entries.set(label, entry)
    }
    // drop aliases and combinations whose targets are gone
    let changed = true
    while (changed) {
      changed = false
      for (const [label, entry] of this.entries) {
        const targets = entry.kind === "alias" ? [entry.of] : entry.kind === "max" ? entry.of : []
        if (targets.some((t) => !this.entries.has(t))) {
          this.entries.delete(label)
          changed = true
        }
      }
    }
    this.labels = [...this.entries.keys()]
  }

  /** How a label is scored (trained, alias, max, word weights), or undefined when it is not. */
  entry(label: ModelLabel): LabelEntry | undefined {
    return this.entries.get(label)
  }

  /** Raw log-odds of every trained head (features computed once, one pass over the table). */
  private scoreAll(text: string): void {
    const f = this.featurizer
    f.run(text)
    const C = this.columns
    const out = this.raws
    out.fill(0)
    const mask = (1 << this.bits) - 1
    const q = this.q
    const idx = f.idx
    const val = f.val
    for (let p = 0; p < f.nnz; p++) {
      const base = (idx[p]! & mask) * C
      const v = val[p]!
      for (let c = 0; c < C; c++) out[c]! += q[base + c]! * v
    }
    for (let c = 0; c < C; c++) out[c] = this.bias[c]! + out[c]! * this.scales[c]!
  }

  /**
   * Pattern evidence of a kind for `text`. The identity detector reads the normaliser's tokens,
   * so it must run right after `scoreAll(text)` (which normalises), before anything else runs it.
   */
  private evidence(kind: "threat" | "identity", text: string): Evidence {
    return kind === "threat" ? threatEvidence(text) : identityEvidence(this.featurizer.normalizer)
  }

  /** 1: needs the trained heads, 2: needs the normaliser only (word-weight heads), 3: both. */
  private needs(label: ModelLabel): number {
    const entry = this.entries.get(label)
    if (entry === undefined) return 0
    if (entry.kind === "trained") return 1
    if (entry.kind === "alias") return this.needs(entry.of)
    if (entry.kind === "max") return entry.of.reduce((m, o) => m | this.needs(o), 0)
    return 2
  }

  private valueOf(label: ModelLabel, text: string, normalized: boolean): number | undefined {
    const entry = this.entries.get(label)
    if (entry === undefined) return undefined
    switch (entry.kind) {
      case "trained": {
        const raw = this.raws[this.columnOf.get(label)!]!
        if (entry.evidence === undefined) return applyCalibration(entry.calibration, raw)
        return applyCalibration(entry.calibration, raw + entry.evidence.weight * this.evidence(entry.evidence.kind, text).strength)
      }
      case "alias":
        return this.valueOf(entry.of, text, normalized)
      case "max": {
        let m = 0
        for (const o of entry.of) m = Math.max(m, this.valueOf(o, text, normalized) ?? 0)
        return m
      }
      case "lexicon": {
        if (!normalized) this.featurizer.normalizer.run(text)
        return wordWeightProbability(entry, this.featurizer.normalizer)
      }
    }
  }

  /** Calibrated probabilities for the requested labels (labels this set cannot score are left out). */
  predict(text: string, labels: ReadonlyArray<ModelLabel>): Partial<Record<ModelLabel, number>> {
    let needs = 0
    for (const l of labels) needs |= this.needs(l)
    if ((needs & 1) !== 0) this.scoreAll(text)
    else if (needs !== 0) this.featurizer.normalizer.run(text)
    const out: Partial<Record<ModelLabel, number>> = {}
    for (const l of labels) {
      const v = this.valueOf(l, text, true)
      if (v !== undefined) out[l] = v
    }
    return out
  }

  /** The label's raw log-odds for a text (trained heads, through aliases; NaN otherwise). For evaluation. */
  raw(text: string, label: ModelLabel): number {
    let target: ModelLabel = label
    let entry = this.entries.get(label)
    while (entry !== undefined && entry.kind === "alias") {
      target = entry.of
      entry = this.entries.get(target)
    }
    if (entry === undefined || entry.kind !== "trained") return Number.NaN
    this.scoreAll(text)
    return this.raws[this.columnOf.get(target)!]!
  }

  /**
   * The spans that pushed `label` up, strongest first: per token, the contributions of its word,
   * bigram (shared by its two tokens) and character n-gram features; adjacent positive tokens
   * are merged into phrases. Every span is `text.slice(begin, end)` of the original text.
   */
  explain(text: string, label: ModelLabel, limit = 5): Array<Contribution> {
    let target: ModelLabel = label
    let entry = this.entries.get(label)
    while (entry !== undefined && entry.kind === "alias") {
      target = entry.of
      entry = this.entries.get(target)
    }
    if (entry === undefined) return []
    if (entry.kind === "max") {
      // explain the component with the highest score
      let best: ModelLabel | undefined
      let bestScore = -1
      for (const o of entry.of) {
        const s = this.predict(text, [o])[o] ?? 0
        if (s > bestScore) {
          bestScore = s
          best = o
        }
      }
      return best === undefined ? [] : this.explain(text, best, limit)
    }
    const norm = this.featurizer.normalizer
    if (entry.kind === "lexicon") {
      norm.run(text)
      const { hits } = wordWeightScore(entry, norm)
      return hits
        .filter((h) => h.weight > 0)
        .sort((a, b) => b.weight - a.weight || a.begin - b.begin)
        .slice(0, limit)
    }
    const column = this.columnOf.get(target)!
    const scale = this.scales[column]!
    const C = this.columns
    const f = this.featurizer
    f.run(text, true)
    const n = norm.count
    const tokenScore = new Float64Array(n)
    const mask = (1 << this.bits) - 1
    // split each slot's contribution evenly over its occurrences
    const occurrences = new Float64Array(f.nnz)
    for (let o = 0; o < f.occ; o++) occurrences[f.occSlot[o]!]! += 1
    for (let o = 0; o < f.occ; o++) {
      const p = f.occSlot[o]!
      const from = f.occFrom[o]!
      if (from < 0) continue
      const to = f.occTo[o]!
      const c = (this.q[(f.idx[p]! & mask) * C + column]! * scale * f.val[p]!) / occurrences[p]!
      const share = c / (to - from + 1)
      for (let t = from; t <= to; t++) tokenScore[t]! += share
    }
    const spans: Array<Contribution> = []
    if (entry.evidence !== undefined) {
      // the matched pattern is a span of its own, weighted by its share of the log-odds
      const e = this.evidence(entry.evidence.kind, text)
      const weight = Math.round(entry.evidence.weight * e.strength * 1e4) / 1e4
      if (weight > 0 && e.end > e.begin) spans.push({ begin: e.begin, end: e.end, weight })
    }
    let max = 0
    for (let t = 0; t < n; t++) max = Math.max(max, tokenScore[t]!)
    if (max <= 0) return spans.slice(0, limit)
    const floor = Math.max(0.02, max * 0.25)
    for (let t = 0; t < n; ) {
      if (tokenScore[t]! < floor) {
        t++
        continue
      }
      let u = t
      let sum = tokenScore[t]!
      while (u + 1 < n && tokenScore[u + 1]! >= floor && norm.begins[u + 1]! >= norm.ends[u]!) {
        u++
        sum += tokenScore[u]!
      }
      const begin = norm.begins[t]!
      const end = Math.max(norm.ends[u]!, begin)
      const last = spans[spans.length - 1]
      if (last !== undefined && last.begin === begin && last.end === end) {
        spans[spans.length - 1] = { begin, end, weight: last.weight + sum }
      } else spans.push({ begin, end, weight: Math.round(sum * 1e4) / 1e4 })
      t = u + 1
    }
    return spans.sort((a, b) => b.weight - a.weight || a.begin - b.begin).slice(0, limit)
  }
}

interface CompiledWordWeights {
  readonly words: ReadonlyMap<string, number>
  /** First words of two-word phrases (so single words skip the pair lookup). */
  readonly starts: ReadonlySet<string>
}
const compiled = new WeakMap<object, CompiledWordWeights>()
const compile = (entry: WordWeightEntry): CompiledWordWeights => {
  let c = compiled.get(entry)
  if (c === undefined) {
    const words = new Map(Object.entries(entry.words))
    c = { words, starts: new Set([...words.keys()].filter((w) => w.includes(" ")).map((w) => w.split(" ")[0]!)) }
    compiled.set(entry, c)
  }
  return c
}

/** The probability of a word-weight head, without collecting spans (hot path). */
export const wordWeightProbability = (entry: WordWeightEntry, norm: Normalizer): number => {
  let z = entry.bias
  const { words, starts } = compile(entry)
  let seen: Set<string> | undefined
  for (let i = 0; i < norm.count; i++) {
    const t = norm.tokens[i]!
    const w = words.get(t)
    if (w !== undefined) {
      seen ??= new Set()
      if (!seen.has(t)) {
        seen.add(t)
        z += w
      }
    }
    if (i + 1 < norm.count && starts.has(t)) {
      const pair = t + " " + norm.tokens[i + 1]!
      const pw = words.get(pair)
      if (pw !== undefined) {
        seen ??= new Set()
        if (!seen.has(pair)) {
          seen.add(pair)
          z += pw
        }
      }
    }
  }
  return sigmoid(z)
}

/** A word-weight head: sigmoid of a bias plus the weights of distinct matched words. */
export const wordWeightScore = (
  entry: WordWeightEntry,
  norm: Normalizer
): { p: number; hits: Array<Contribution> } => {
  let z = entry.bias
  const { words } = compile(entry)
  const seen = new Set<string>()
  const hits: Array<Contribution> = []
  for (let i = 0; i < norm.count; i++) {
    const t = norm.tokens[i]!
    const w = words.get(t)
    // two-word entries
    if (i + 1 < norm.count) {
      const pair = t + " " + norm.tokens[i + 1]!
      const pw = words.get(pair)
      if (pw !== undefined && !seen.has(pair)) {
        seen.add(pair)
        z += pw
        hits.push({ begin: norm.begins[i]!, end: norm.ends[i + 1]!, weight: pw })
      }
    }
    if (w === undefined || seen.has(t)) continue
    seen.add(t)
    z += w
    hits.push({ begin: norm.begins[i]!, end: norm.ends[i]!, weight: w })
  }
  return { p: sigmoid(z), hits }
}
