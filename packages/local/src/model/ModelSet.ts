/**
 * The loaded model set: predicts calibrated probabilities and explains them with the n-grams
 * that drove the score, quoted as verbatim spans of the original text.
 *
 * One featuriser pass per text serves every requested label; each weight family is one pass over
 * the features (slot-major weights). Buffers are reused, so predict allocates little. A ModelSet
 * is not re-entrant (JavaScript is single-threaded; do not share one across worker threads).
 */
import type { Contribution, ModelLabel } from "../AttributeModel.js"
import { Featurizer } from "./features.js"
import { decodeWeights, type FamilyEntry, type LabelEntry, type Manifest, type WeightTable } from "./format.js"
import { Normalizer } from "./normalize.js"
import { applyCalibration } from "./train.js"

interface Head {
  readonly table: WeightTable
  readonly column: number
}

export class ModelSet {
  readonly version: string
  readonly labels: ReadonlyArray<ModelLabel>
  readonly manifest: Manifest
  private readonly featurizer: Featurizer
  private readonly tables = new Map<string, WeightTable>()
  private readonly heads = new Map<ModelLabel, Head>()
  private readonly entries = new Map<ModelLabel, LabelEntry>()
  private readonly rawCache = new Map<string, Float64Array>()

  /**
   * `files` maps a family's file name to its bytes. Families whose file is missing are skipped,
   * and the labels they carried fall back to nothing (a deployment may delete a flagged family).
   */
  constructor(manifest: Manifest, files: ReadonlyMap<string, Uint8Array>) {
    this.manifest = manifest
    this.version = manifest.version
    this.featurizer = new Featurizer(manifest.features, new Normalizer({ respell: manifest.respell }))
    const families = new Map<string, FamilyEntry>()
    for (const family of manifest.families) {
      const bytes = files.get(family.file)
      if (bytes === undefined) continue
      const table = decodeWeights(bytes)
      if (table.bits !== family.bits || table.labels !== family.labels.length) {
        throw new Error(`weight file ${family.file} does not match the manifest`)
      }
      this.tables.set(family.name, table)
      this.rawCache.set(family.name, new Float64Array(table.labels))
      families.set(family.name, family)
    }
    for (const [label, entry] of Object.entries(manifest.labels) as Array<[ModelLabel, LabelEntry]>) {
      if (entry.kind === "trained") {
        const family = families.get(entry.family)
        const table = this.tables.get(entry.family)
        if (family === undefined || table === undefined) continue
        this.heads.set(label, { table, column: family.labels.indexOf(label) })
      }
      this.entries.set(label, entry)
    }
    // drop aliases and combinations whose targets are gone
    let changed = true
    while (changed) {
      changed = false
      for (const [label, entry] of this.entries) {
        const targets = entry.kind === "alias" ? [entry.of] : entry.kind === "max" ? entry.of : []
        if (entry.kind === "trained" && !this.heads.has(label)) {
          this.entries.delete(label)
          changed = true
        } else if (targets.some((t) => !this.entries.has(t))) {
          this.entries.delete(label)
          changed = true
        }
      }
    }
    this.labels = [...this.entries.keys()]
  }

  /** How a label is scored (trained, alias, max, lexicon), or undefined when it is not. */
  entry(label: ModelLabel): LabelEntry | undefined {
    return this.entries.get(label)
  }

  /** Raw log-odds of every trained label in the requested set (features computed once). */
  private scoreFamilies(text: string, wanted: ReadonlySet<string>): void {
    const f = this.featurizer
    f.run(text)
    for (const name of wanted) {
      const table = this.tables.get(name)!
      const out = this.rawCache.get(name)!
      const L = table.labels
      const mask = (1 << table.bits) - 1
      const w = table.weights
      for (let l = 0; l < L; l++) out[l] = table.bias[l]!
      const idx = f.idx
      const val = f.val
      if (L === 1) {
        let z = out[0]!
        for (let p = 0; p < f.nnz; p++) z += w[idx[p]! & mask]! * val[p]!
        out[0] = z
      } else {
        for (let p = 0; p < f.nnz; p++) {
          const base = (idx[p]! & mask) * L
          const v = val[p]!
          for (let l = 0; l < L; l++) out[l]! += w[base + l]! * v
        }
      }
    }
  }

  private collectFamilies(label: ModelLabel, into: Set<string>, lexicons: Set<ModelLabel>) {
    const entry = this.entries.get(label)
    if (entry === undefined) return
    if (entry.kind === "trained") into.add(entry.family)
    else if (entry.kind === "alias") this.collectFamilies(entry.of, into, lexicons)
    else if (entry.kind === "max") for (const o of entry.of) this.collectFamilies(o, into, lexicons)
    else lexicons.add(label)
  }

  private valueOf(label: ModelLabel, text: string, normalized: boolean): number | undefined {
    const entry = this.entries.get(label)
    if (entry === undefined) return undefined
    switch (entry.kind) {
      case "trained": {
        const head = this.heads.get(label)!
        const raw = this.rawCache.get(entry.family)![head.column]!
        return applyCalibration(entry.calibration, raw)
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
        return lexiconScore(entry, this.featurizer.normalizer).p
      }
    }
  }

  /** Calibrated probabilities for the requested labels (labels this set cannot score are left out). */
  predict(text: string, labels: ReadonlyArray<ModelLabel>): Partial<Record<ModelLabel, number>> {
    const families = new Set<string>()
    const lexicons = new Set<ModelLabel>()
    for (const l of labels) this.collectFamilies(l, families, lexicons)
    if (families.size > 0) this.scoreFamilies(text, families)
    else if (lexicons.size > 0) this.featurizer.normalizer.run(text)
    const out: Partial<Record<ModelLabel, number>> = {}
    for (const l of labels) {
      const v = this.valueOf(l, text, true)
      if (v !== undefined) out[l] = Math.round(v * 1e6) / 1e6
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
    this.scoreFamilies(text, new Set([entry.family]))
    return this.rawCache.get(entry.family)![this.heads.get(target)!.column]!
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
      const { hits } = lexiconScore(entry, norm)
      return hits
        .filter((h) => h.weight > 0)
        .sort((a, b) => b.weight - a.weight || a.begin - b.begin)
        .slice(0, limit)
    }
    const head = this.heads.get(target)!
    const table = head.table
    const f = this.featurizer
    f.run(text, true)
    const n = norm.count
    const tokenScore = new Float64Array(n)
    const mask = (1 << table.bits) - 1
    // split each slot's contribution evenly over its occurrences
    const occurrences = new Float64Array(f.nnz)
    for (let o = 0; o < f.occ; o++) occurrences[f.occSlot[o]!]! += 1
    for (let o = 0; o < f.occ; o++) {
      const p = f.occSlot[o]!
      const from = f.occFrom[o]!
      if (from < 0) continue
      const to = f.occTo[o]!
      const c = (table.weights[(f.idx[p]! & mask) * table.labels + head.column]! * f.val[p]!) / occurrences[p]!
      const share = c / (to - from + 1)
      for (let t = from; t <= to; t++) tokenScore[t]! += share
    }
    let max = 0
    for (let t = 0; t < n; t++) max = Math.max(max, tokenScore[t]!)
    if (max <= 0) return []
    const floor = Math.max(0.02, max * 0.25)
    const spans: Array<Contribution> = []
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

/** A lexicon approximation: logistic of a bias plus the weights of distinct matched words. */
export const lexiconScore = (
  entry: Extract<LabelEntry, { kind: "lexicon" }>,
  norm: Normalizer
): { p: number; hits: Array<Contribution> } => {
  let z = entry.bias
  const seen = new Set<string>()
  const hits: Array<Contribution> = []
  for (let i = 0; i < norm.count; i++) {
    const t = norm.tokens[i]!
    const w = entry.words[t]
    // two-word entries
    if (i + 1 < norm.count) {
      const pair = t + " " + norm.tokens[i + 1]!
      const pw = entry.words[pair]
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
  return { p: 1 / (1 + Math.exp(-z)), hits }
}
