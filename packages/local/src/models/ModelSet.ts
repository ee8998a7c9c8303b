/**
 * The loaded model set: predicts calibrated probabilities and explains them with the n-grams
 * that drove the score, quoted as verbatim spans of the original text.
 *
 * `analyse(text)` featurises a text once; the heads a prediction reads are scored in one pass over
 * the slot-major weight table when it first reads them (and only those: a comment scorer reads 8
 * of the 14). `predict` and `explain` are pure functions of that analysis, so a
 * request that needs several labels and explanations of one comment featurises it once, and in
 * any order. The featuriser's scratch buffers are reused between analyses (a ModelSet is not
 * shared across worker threads); an analysis owns copies of what it keeps.
 */
import type { Contribution, ModelLabel, TextAnalysis } from "../AttributeModel.js"
import { type Evidence, type EvidenceKind, identityEvidence, threatEvidence } from "../internal/model/evidence.js"
import { Featurizer, hasBigram } from "../internal/model/features.js"
import { decodeIdfUnits, decodeQuantised, type LabelEntry, type Manifest, type QuantisedTable, type WordWeightEntry } from "../internal/model/format.js"
import { type NormalizedTokens, Normalizer } from "../internal/model/normalize.js"
import { applyCalibration, logit, sigmoid } from "../internal/calibration.js"


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
  /** `score`'s scratch: raw log-odds and evidence over the featuriser's buffers, reused. */
  private readonly quick: QuickScores
  private readonly plans = new Map<string, Plan>()
  /** The gathered weight tables of the plans, by column list. */
  private readonly tables = new Map<string, Int16Array>()
  /** Tables being gathered in the background, by column list: the plans to move onto each when done. */
  private readonly gathering = new Map<string, Array<Plan>>()
  /** Called when no table is being gathered any more (`whenGathered`). */
  private gatheredWaiters: Array<() => void> = []
  /** `score`'s per-head sums, by the plan's column order (and an analysis' sums of the heads it reads). */
  private readonly sums: Float64Array
  /** The trained columns of a label list, for predictions over an analysis. */
  private readonly labelColumns = new Map<string, Int32Array>()

  /**
   * `files` maps a family's file name to its bytes. Families whose file is missing are skipped,
   * and the labels they carried are dropped (a deployment may delete a flagged family).
   */
  constructor(manifest: Manifest, files: ReadonlyMap<string, Uint8Array>) {
    this.manifest = manifest
    this.version = manifest.version
    this.featurizer = new Featurizer(manifest.features, new Normalizer({ respell: manifest.respell, script: manifest.features.script }))
    if (manifest.idf !== undefined) {
      const bytes = files.get(manifest.idf.file)
      if (bytes === undefined) throw new Error(`idf file ${manifest.idf.file} is missing`)
      const idf = decodeIdfUnits(bytes)
      if (idf.length !== 1 << manifest.idf.bits) throw new Error(`idf file ${manifest.idf.file} does not match the manifest`)
      this.featurizer.useIdf(idf)
    }
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
    this.quick = new QuickScores(C)
    this.sums = new Float64Array(C)
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
    checkReads(manifest.labels)
    for (const [label, entry] of Object.entries(manifest.labels) as Array<[ModelLabel, LabelEntry]>) {
      if (entry.kind === "trained" && !this.columnOf.has(label)) continue
      this.entries.set(label, entry)
    }
    // drop aliases, combinations and heads reading other heads whose targets are gone
    let changed = true
    while (changed) {
      changed = false
      for (const [label, entry] of this.entries) {
        const targets =
          entry.kind === "alias" ? [entry.of] : entry.kind === "max" ? entry.of : entry.kind === "trained" ? (entry.reads ?? []).map((r) => r.label) : []
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

  /**
   * Analyse a text once: normalise it and featurise it (recording which tokens each feature came
   * from, for explanations). The heads are scored from its features when first read (`predict`
   * sums the heads its labels need in one pass); what it reports never changes, and it reads
   * nothing of this set's scratch buffers afterwards.
   */
  analyse(text: string): ModelSetAnalysis {
    const f = this.featurizer
    f.run(text, true)
    const norm = f.normalizer
    const n = norm.count
    const tokens: NormalizedTokens = {
      count: n,
      tokens: Object.freeze(norm.tokens.slice(0, n)),
      begins: Object.freeze(norm.begins.slice(0, n)),
      ends: Object.freeze(norm.ends.slice(0, n)),
      flags: Object.freeze(norm.flags.slice(0, n))
    }
    // the heads' log-odds are summed when a prediction first reads them (`columnsOf`), and only
    // the heads it reads: a comment scorer asks 8 of the 14
    return new ModelSetAnalysis(this, text, tokens, this.columns, {
      slots: f.idx.slice(0, f.nnz),
      values: f.val.slice(0, f.nnz),
      occSlot: f.occSlot.slice(0, f.occ),
      tokenStart: f.tokenStart.slice(0, n + 1)
    })
  }

  /**
   * `ModelSetAnalysis`'s: sums the raw log-odds of `columns` (those not `done` yet) over an
   * analysis' features into `raws`, in one pass: per head the same sum in the same order as `score` (feature by feature, from zero), over
   * the same i16 weights, so the same bits whichever heads are asked first or together.
   */
  fillColumns(features: AnalysedFeatures, raws: Float64Array, done: Uint8Array, columns: ArrayLike<number>): void {
    let missing: Array<number> | undefined
    for (let k = 0; k < columns.length; k++) {
      const c = columns[k]!
      if (done[c] === 0) {
        done[c] = 1
        ;(missing ??= []).push(c)
      }
    }
    if (missing === undefined) return
    const K = missing.length
    const { slots, values } = features
    const sums = this.sums
    sumHeads(this.q, this.columns, missing, K, slots, values, slots.length, (1 << this.bits) - 1, sums)
    for (let k = 0; k < K; k++) {
      const c = missing[k]!
      raws[c] = this.bias[c]! + sums[k]! * this.scales[c]!
    }
  }

  /** The trained columns `labels` read (through aliases and combinations), cached per label list. */
  private columnsOf(labels: ReadonlyArray<ModelLabel>): Int32Array {
    const key = labels.join(",")
    let columns = this.labelColumns.get(key)
    if (columns === undefined) {
      const wanted = new Set<number>()
      const visit = (label: ModelLabel) => {
        const entry = this.entries.get(label)
        if (entry === undefined) return
        if (entry.kind === "trained") {
          wanted.add(this.columnOf.get(label)!)
          // a head that reads other heads needs their columns too (summed in the same pass)
          entry.reads?.forEach((r) => visit(r.label))
        } else if (entry.kind === "alias") visit(entry.of)
        else if (entry.kind === "max") entry.of.forEach(visit)
      }
      labels.forEach(visit)
      columns = Int32Array.from([...wanted].sort((a, b) => a - b))
      if (this.labelColumns.size < 64) this.labelColumns.set(key, columns)
    }
    return columns
  }

  /**
   * Calibrated probabilities of `labels` for `text`, without an analysis: what
   * `predict(analyse(text), labels)` returns, bit for bit, for less work. Nothing is recorded for
   * explanations, nothing is copied out of the scratch buffers, and only the heads the labels need
   * (through aliases and combinations) are multiplied out. The hot path of batch scoring and of
   * attribute scores without explanations.
   */
  score(text: string, labels: ReadonlyArray<ModelLabel>): Partial<Record<ModelLabel, number>> {
    const plan = this.planFor(labels)
    const f = this.featurizer
    f.run(text, false)
    const quick = this.quick
    quick.reset(text, f.normalizer)
    const raws = quick.raws
    const columns = plan.columns
    const K = columns.length
    if (K > 0) {
      const sums = this.sums
      // Per head, the same sum in the same order as `analyse` (`sumHeads`), over the same i16
      // weights: the same bits. The plan's table holds only its heads, so a comment's few
      // hundred random reads touch a fraction of the memory (fewer cache misses).
      sumHeads(plan.q, plan.stride, plan.offsets, K, f.idx, f.val, f.nnz, (1 << this.bits) - 1, sums)
      for (let k = 0; k < K; k++) {
        const c = columns[k]!
        raws[c] = this.bias[c]! + sums[k]! * this.scales[c]!
      }
    }
    const out: Partial<Record<ModelLabel, number>> = {}
    for (const l of labels) {
      const v = this.valueOf(l, quick)
      if (v !== undefined) out[l] = v
    }
    quick.reset("", undefined)
    return out
  }

  /**
   * The trained columns a list of labels reads (through aliases and combinations), cached per
   * list. When they are fewer than all, their weights are gathered into a slot-major table of
   * their own (1 MB per column, for the first eight column sets asked for), in the background:
   * a request never waits for it (a client choosing new label sets would otherwise make each
   * request that asks one build megabytes first). Until the table is ready the plan reads the
   * set's own table, which gives the same bits (the same weights, summed in the same order).
   */
  private planFor(labels: ReadonlyArray<ModelLabel>): Plan {
    const key = labels.join(",")
    let plan = this.plans.get(key)
    if (plan === undefined) {
      const columns = this.columnsOf(labels)
      const K = columns.length
      const id = columns.join(",")
      const gathered = this.tables.get(id)
      plan = { columns, q: this.q, stride: this.columns, offsets: columns }
      if (gathered !== undefined) useGathered(plan, gathered)
      else if (K < this.columns) {
        const waiting = this.gathering.get(id)
        if (waiting !== undefined) waiting.push(plan)
        else if (this.tables.size + this.gathering.size < 8) this.gather(id, columns, plan)
      }
      if (this.plans.size < 64) this.plans.set(key, plan)
    }
    return plan
  }

  /** Gathers the table of `columns` a slice of slots at a time, each in a macrotask of its own, then moves its plans onto it. */
  private gather(id: string, columns: Int32Array, plan: Plan) {
    this.gathering.set(id, [plan])
    const K = columns.length
    const C = this.columns
    const slots = 1 << this.bits
    const q = this.q
    let table: Int16Array | undefined
    let slot = 0
    const step = () => {
      table ??= new Int16Array(slots * K)
      const end = Math.min(slots, slot + GATHER_SLOTS_PER_STEP)
      for (; slot < end; slot++) for (let k = 0; k < K; k++) table[slot * K + k] = q[slot * C + columns[k]!]!
      if (slot < slots) return later(step)
      this.tables.set(id, table)
      for (const waiting of this.gathering.get(id)!) useGathered(waiting, table)
      this.gathering.delete(id)
      if (this.gathering.size === 0) for (const done of this.gatheredWaiters.splice(0)) done()
    }
    later(step)
  }

  /** Resolves once no weight table is being gathered (tests and benchmarks). */
  whenGathered(): Promise<void> {
    return this.gathering.size === 0 ? Promise.resolve() : new Promise((resolve) => this.gatheredWaiters.push(resolve))
  }

  /** How many gathered weight tables this set holds (tests and benchmarks). */
  get gatheredTables(): number {
    return this.tables.size
  }

  /** This set's analysis of `input`: itself when this set made it, otherwise a new analysis of its text. */
  private analysisOf(input: string | TextAnalysis): ModelSetAnalysis {
    if (typeof input === "string") return this.analyse(input)
    return input instanceof ModelSetAnalysis && input.set === this ? input : this.analyse(input.text)
  }

  private valueOf(label: ModelLabel, a: Scored): number | undefined {
    const entry = this.entries.get(label)
    if (entry === undefined) return undefined
    switch (entry.kind) {
      case "trained":
        return applyCalibration(entry.calibration, this.calibrationInput(label, entry, a))
      case "alias":
        return this.valueOf(entry.of, a)
      case "max": {
        let m = 0
        for (const o of entry.of) m = Math.max(m, this.valueOf(o, a) ?? 0)
        return m
      }
      case "lexicon":
        return wordWeightProbability(entry, a.tokens)
    }
  }

  /**
   * What a trained head's calibration reads: its raw log-odds, plus its pattern evidence, plus
   * `weight * max(0, z)` for each head it reads (`LabelEntry.reads`, z that head's calibrated
   * log-odds). Without reads the same floating-point operations as before 12.7 (the same bits).
   */
  private calibrationInput(label: ModelLabel, entry: TrainedEntry, a: Scored): number {
    let z = a.rawOf(this.columnOf.get(label)!)
    if (entry.evidence !== undefined) z = z + entry.evidence.weight * a.evidence(entry.evidence.kind).strength
    if (entry.reads !== undefined) for (const r of entry.reads) z += r.weight * Math.max(0, this.logOddsOf(r.label, a))
    return z
  }

  /**
   * A trained head's calibrated log-odds: `a z + b` for a Platt head (exactly, not through the
   * probability, which rounds to 1 for a confident head), else `logit` of its probability.
   * Reads are acyclic (`checkReads`), so the recursion ends.
   */
  private logOddsOf(label: ModelLabel, a: Scored): number {
    const entry = this.entries.get(label) as TrainedEntry
    const z = this.calibrationInput(label, entry, a)
    const c = entry.calibration
    return c.kind === "platt" ? c.a * z + c.b : logit(applyCalibration(c, z))
  }

  /**
   * Calibrated probabilities for the requested labels (labels this set cannot score are left out).
   * Pure over the analysis; a string is scored without one (`score`, the same numbers).
   */
  predict(input: string | TextAnalysis, labels: ReadonlyArray<ModelLabel>): Partial<Record<ModelLabel, number>> {
    if (typeof input === "string") return this.score(input, labels)
    const a = this.analysisOf(input)
    a.sum(this.columnsOf(labels))
    const out: Partial<Record<ModelLabel, number>> = {}
    for (const l of labels) {
      const v = this.valueOf(l, a)
      if (v !== undefined) out[l] = v
    }
    return out
  }

  /** The label's raw log-odds: its own column, without its evidence or reads (trained heads, through aliases; NaN otherwise). For evaluation. */
  raw(input: string | TextAnalysis, label: ModelLabel): number {
    let target: ModelLabel = label
    let entry = this.entries.get(label)
    while (entry !== undefined && entry.kind === "alias") {
      target = entry.of
      entry = this.entries.get(target)
    }
    if (entry === undefined || entry.kind !== "trained") return Number.NaN
    return this.analysisOf(input).rawOf(this.columnOf.get(target)!)
  }

  /**
   * The spans that pushed `label` up, strongest first: per token, the contributions of its word,
   * bigram (shared by its two tokens) and character n-gram features; adjacent positive tokens
   * are merged into phrases. Every span is `text.slice(begin, end)` of the original text.
   * Pure over the analysis; a string is analysed first. A trained head's spans are ranked once per
   * analysis and kept: another limit is a prefix of the same ranking (the comment scorer reads
   * TOXICITY's six strongest spans, then its three strongest).
   */
  explain(input: string | TextAnalysis, label: ModelLabel, limit = 5): Array<Contribution> {
    const a = this.analysisOf(input)
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
        const s = this.valueOf(o, a) ?? 0
        if (s > bestScore) {
          bestScore = s
          best = o
        }
      }
      return best === undefined ? [] : this.explain(a, best, limit)
    }
    const norm = a.tokens
    if (entry.kind === "lexicon") {
      const { hits } = wordWeightScore(entry, norm)
      return hits
        .filter((h) => h.weight > 0)
        .sort((x, y) => y.weight - x.weight || x.begin - y.begin)
        .slice(0, limit)
    }
    const column = this.columnOf.get(target)!
    return a.explained(column, () => this.withReadSpans(a, entry, this.rankSpans(a, entry, column))).slice(0, limit)
  }

  /**
   * A head that reads others (`LabelEntry.reads`) names each read head that lifted it by that
   * head's strongest span, weighted by what the read added to the log-odds (added to the head's
   * own span over the same range, if any). Without reads, `spans` as they are.
   */
  private withReadSpans(a: ModelSetAnalysis, entry: TrainedEntry, spans: Array<Contribution>): Array<Contribution> {
    if (entry.reads === undefined) return spans
    let changed = false
    for (const r of entry.reads) {
      const weight = Math.round(r.weight * Math.max(0, this.logOddsOf(r.label, a)) * 1e4) / 1e4
      const top = weight > 0 ? this.explain(a, r.label, 1)[0] : undefined
      if (top === undefined) continue
      changed = true
      const same = spans.findIndex((s) => s.begin === top.begin && s.end === top.end)
      if (same >= 0) spans[same] = { begin: top.begin, end: top.end, weight: Math.round((spans[same]!.weight + weight) * 1e4) / 1e4 }
      else spans.push({ begin: top.begin, end: top.end, weight })
    }
    return changed ? spans.sort((x, y) => y.weight - x.weight || x.begin - y.begin) : spans
  }

  /** Every span of a trained head's explanation (`explain`), strongest first. */
  private rankSpans(a: ModelSetAnalysis, entry: TrainedEntry, column: number): Array<Contribution> {
    const norm = a.tokens
    const scale = this.scales[column]!
    const C = this.columns
    const { slots, values, occSlot, tokenStart } = a.features
    const n = norm.count
    const tokenScore = new Float64Array(n)
    const mask = (1 << this.bits) - 1
    // split each slot's contribution evenly over its occurrences, and a bigram's over its two
    // tokens; global features (after the last token's occurrences) belong to no token
    const occurrences = a.occurrences()
    const q = this.q
    const contribution = (o: number): number => {
      const p = occSlot[o]!
      return (q[(slots[p]! & mask) * C + column]! * scale * values[p]!) / occurrences[p]!
    }
    for (let t = 0; t < n; t++) {
      let o = tokenStart[t]!
      const end = tokenStart[t + 1]!
      // the token's sum in a local, in the same order (its next token's bigram share comes last)
      let score = tokenScore[t]!
      score += contribution(o++) // the word
      if (hasBigram(norm.flags, t)) {
        const share = contribution(o++) / 2
        tokenScore[t - 1]! += share
        score += share
      }
      for (; o < end; o++) score += contribution(o) // character n-grams
      tokenScore[t] = score
    }
    const spans: Array<Contribution> = []
    if (entry.evidence !== undefined) {
      // the matched pattern is a span of its own, weighted by its share of the log-odds
      const e = a.evidence(entry.evidence.kind)
      const weight = Math.round(entry.evidence.weight * e.strength * 1e4) / 1e4
      if (weight > 0 && e.end > e.begin) spans.push({ begin: e.begin, end: e.end, weight })
    }
    let max = 0
    for (let t = 0; t < n; t++) max = Math.max(max, tokenScore[t]!)
    if (max <= 0) return spans
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
    return spans.sort((x, y) => y.weight - x.weight || x.begin - y.begin)
  }
}

type TrainedEntry = Extract<LabelEntry, { readonly kind: "trained" }>

/**
 * Refuses reads the runtime cannot compute (`LabelEntry.reads`): a read of a label that is not a
 * trained head, a negative or non-finite weight, a head reading itself, or a cycle of reads.
 */
const checkReads = (labels: Manifest["labels"]): void => {
  const state = new Map<string, "visiting" | "done">()
  const visit = (label: string, path: ReadonlyArray<string>): void => {
    if (state.get(label) === "done") return
    if (state.get(label) === "visiting") {
      const cycle = [...path.slice(path.indexOf(label)), label]
      throw new Error(cycle.length === 2 ? `model manifest: ${label} reads itself` : `model manifest: a cycle of reads (${cycle.join(" reads ")})`)
    }
    const entry = labels[label as ModelLabel]
    if (entry?.kind !== "trained" || entry.reads === undefined) {
      state.set(label, "done")
      return
    }
    if (!Array.isArray(entry.reads as unknown)) throw new Error(`model manifest: ${label}'s reads must be a list of { label, weight }`)
    state.set(label, "visiting")
    for (const r of entry.reads) {
      const target = labels[r.label]
      if (target?.kind !== "trained") throw new Error(`model manifest: ${label} reads ${r.label}, which is not a trained head`)
      if (!Number.isFinite(r.weight) || r.weight < 0) throw new Error(`model manifest: ${label} reads ${r.label} with weight ${r.weight}; a read's weight must be finite and non-negative`)
      visit(r.label, [...path, label])
    }
    state.set(label, "done")
  }
  for (const label of Object.keys(labels)) visit(label, [])
}

/**
 * Per head `k < K`, the sum over features `p < n` of `q[(slots[p] & mask) * stride + offsets[k]] *
 * values[p]`, into `out[k]`: each head's sum feature by feature from zero, in order (so the same
 * bits however many heads are summed together). Four heads per pass over the features, in local
 * accumulators: a head's running sum in a register instead of a load and a store to an array per
 * feature (the old one-pass loop took 1.3-1.7 times as long for the comment scorer's seven heads);
 * the rows read by the first pass are in the cache for the next.
 */
const sumHeads = (
  q: Int16Array,
  stride: number,
  offsets: ArrayLike<number>,
  K: number,
  slots: Int32Array,
  values: Float32Array,
  n: number,
  mask: number,
  out: Float64Array
): void => {
  for (let g = 0; g < K; g += 4) {
    // a group of fewer than four heads repeats its first head in the spare accumulators
    const c0 = offsets[g]!
    const c1 = g + 1 < K ? offsets[g + 1]! : c0
    const c2 = g + 2 < K ? offsets[g + 2]! : c0
    const c3 = g + 3 < K ? offsets[g + 3]! : c0
    let s0 = 0
    let s1 = 0
    let s2 = 0
    let s3 = 0
    for (let p = 0; p < n; p++) {
      const base = (slots[p]! & mask) * stride
      const v = values[p]!
      s0 += q[base + c0]! * v
      s1 += q[base + c1]! * v
      s2 += q[base + c2]! * v
      s3 += q[base + c3]! * v
    }
    out[g] = s0
    if (g + 1 < K) out[g + 1] = s1
    if (g + 2 < K) out[g + 2] = s2
    if (g + 3 < K) out[g + 3] = s3
  }
}

/** The heads a list of labels needs: their columns, and the table `score` reads their weights from. */
interface Plan {
  readonly columns: Int32Array
  /**
   * `q[slot * stride + offsets[k]]` is head `columns[k]`'s weight: the set's own table of every
   * head, then (once gathered in the background) a table of exactly these columns (at most eight
   * such tables). Changed only between two `score` calls.
   */
  q: Int16Array
  stride: number
  offsets: Int32Array
}

/** Slots of a gathered table copied per macrotask: about a millisecond of work for six columns. */
const GATHER_SLOTS_PER_STEP = 1 << 15

/** Runs `step` in a macrotask of its own, after the I/O callbacks already waiting (requests first). */
const later = (step: () => void) => {
  setImmediate(step)
}

/** Moves a plan onto the table gathered for its columns. */
const useGathered = (plan: Plan, table: Int16Array) => {
  plan.q = table
  plan.stride = plan.columns.length
  plan.offsets = Int32Array.from(plan.columns, (_, k) => k)
}

/** What a label's probability reads: raw log-odds by column, pattern evidence and the tokens. */
interface Scored {
  /** The raw log-odds of a trained head, by column. */
  rawOf(column: number): number
  readonly tokens: NormalizedTokens
  evidence(kind: EvidenceKind): Evidence
}

/** `ModelSet.score`'s view of one text while it is scored: the featuriser's buffers, not copies. */
class QuickScores implements Scored {
  readonly raws: Float64Array
  private text = ""
  private norm: NormalizedTokens = { count: 0, tokens: [], begins: [], ends: [], flags: [] }
  private threat: Evidence | undefined
  private identity: Evidence | undefined

  constructor(columns: number) {
    this.raws = new Float64Array(columns)
  }

  get tokens(): NormalizedTokens {
    return this.norm
  }

  rawOf(column: number): number {
    return this.raws[column]!
  }

  reset(text: string, norm: NormalizedTokens | undefined) {
    this.text = text
    if (norm !== undefined) this.norm = norm
    this.threat = undefined
    this.identity = undefined
  }

  evidence(kind: EvidenceKind): Evidence {
    if (kind === "threat") return (this.threat ??= threatEvidence(this.text))
    return (this.identity ??= identityEvidence(this.norm))
  }
}

/** The features of an analysed text and, per occurrence, the token range it came from. */
interface AnalysedFeatures {
  readonly slots: Int32Array
  readonly values: Float32Array
  /** Per feature occurrence, in emission order: its position in `slots` (see `Featurizer.occSlot`). */
  readonly occSlot: Int32Array
  /** Where each token's occurrences start; entry `count` is where the global features start. */
  readonly tokenStart: Int32Array
}

/**
 * A `ModelSet`'s analysis of one text (see `TextAnalysis`). Everything is computed by
 * `ModelSet.analyse` except the pattern evidence, computed on first use and kept: the analysis
 * never changes observably. Its arrays are owned by the analysis: read them, never write them.
 */
export class ModelSetAnalysis implements TextAnalysis, Scored {
  private threat: Evidence | undefined
  private identity: Evidence | undefined
  /** Raw log-odds by column, each summed on first read (`done`). */
  private readonly sums: Float64Array
  private readonly done: Uint8Array

  constructor(
    /** The set that made this analysis (its weights give the raw log-odds their meaning). */
    readonly set: ModelSet,
    readonly text: string,
    /** The normalised tokens, with their ranges of `text`. */
    readonly tokens: NormalizedTokens,
    columns: number,
    readonly features: AnalysedFeatures
  ) {
    this.sums = new Float64Array(columns)
    this.done = new Uint8Array(columns)
  }

  /** Sums the heads of `columns` not summed yet, in one pass over the features. */
  sum(columns: ArrayLike<number>): void {
    this.set.fillColumns(this.features, this.sums, this.done, columns)
  }

  rawOf(column: number): number {
    if (this.done[column] === 0) this.sum([column])
    return this.sums[column]!
  }

  private occurrenceCounts: Float64Array | undefined
  /** Each explained head's ranked spans, by column; made on the first explanation (most analyses have none). */
  private ranked: Map<number, ReadonlyArray<Contribution>> | undefined

  /**
   * The ranked spans of head `column`, made by `rank` on first use and kept. For `ModelSet.explain`,
   * the only caller that knows what ranking belongs to a column.
   * @internal
   */
  explained(column: number, rank: () => ReadonlyArray<Contribution>): ReadonlyArray<Contribution> {
    const ranked = (this.ranked ??= new Map())
    let spans = ranked.get(column)
    if (spans === undefined) {
      spans = rank()
      ranked.set(column, spans)
    }
    return spans
  }

  /** How many times each feature (by position in `features.slots`) occurs: what every explanation shares out. */
  occurrences(): Float64Array {
    if (this.occurrenceCounts === undefined) {
      const { slots, occSlot } = this.features
      const counts = new Float64Array(slots.length)
      for (let o = 0; o < occSlot.length; o++) counts[occSlot[o]!]! += 1
      this.occurrenceCounts = counts
    }
    return this.occurrenceCounts
  }

  /** Pattern evidence of a kind: threat patterns read the text, identity patterns the tokens. */
  evidence(kind: EvidenceKind): Evidence {
    if (kind === "threat") return (this.threat ??= threatEvidence(this.text))
    return (this.identity ??= identityEvidence(this.tokens))
  }
}

interface CompiledWordWeights {
  readonly words: ReadonlyMap<string, number>
  /** First words of two-word phrases (so single words skip the pair lookup). */
  readonly starts: ReadonlySet<string>
}
/** Module cache, a documented constant: a head's compiled lookup, a pure function of the (loaded, immutable) entry it is keyed by, weakly. */
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
export const wordWeightProbability = (entry: WordWeightEntry, norm: NormalizedTokens): number => {
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
  norm: NormalizedTokens
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
