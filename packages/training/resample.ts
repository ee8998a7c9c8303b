/**
 * Pure statistics for training/catcurve.ts (issue 11): a stratified bootstrap of ROC AUC (positives
 * and negatives resampled separately, so every resample keeps the set's class counts), its paired
 * form for two scorers on the same rows, percentile intervals, a least-squares line and a
 * deterministic hash-chosen subset. No I/O; unit-tested in test/resample.test.ts.
 */
import { mulberry32, rocAuc } from "./fit.js"
import { hash32 } from "./data.js"

/** Linear-interpolation quantile (R's type 7, numpy's default) of values already sorted ascending. */
export const quantileSorted = (sorted: ArrayLike<number>, q: number): number => {
  const n = sorted.length
  if (n === 0) return Number.NaN
  const h = (n - 1) * q
  const lo = Math.floor(h)
  const hi = Math.min(n - 1, lo + 1)
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!)
}

/**
 * Row indices of one stratified resample: as many draws with replacement among the positives
 * (label >= 0.5) as there are positives, then the same among the negatives.
 */
export const stratifiedResample = (positives: ReadonlyArray<number>, negatives: ReadonlyArray<number>, rnd: () => number): Int32Array => {
  const out = new Int32Array(positives.length + negatives.length)
  let k = 0
  for (let i = 0; i < positives.length; i++) out[k++] = positives[Math.floor(rnd() * positives.length)]!
  for (let i = 0; i < negatives.length; i++) out[k++] = negatives[Math.floor(rnd() * negatives.length)]!
  return out
}

const strata = (labels: ArrayLike<number>) => {
  const pos: Array<number> = []
  const neg: Array<number> = []
  for (let i = 0; i < labels.length; i++) (labels[i]! >= 0.5 ? pos : neg).push(i)
  return { pos, neg }
}

const pick = (v: ArrayLike<number>, idx: Int32Array): Float64Array => {
  const out = new Float64Array(idx.length)
  for (let i = 0; i < idx.length; i++) out[i] = v[idx[i]!]!
  return out
}

export interface AucInterval {
  readonly auc: number
  readonly lo: number
  readonly hi: number
}

/** ROC AUC of `scores` and the 95% percentile interval of `boot` stratified resamples (seeded). */
export const bootstrapAuc = (scores: ArrayLike<number>, labels: ArrayLike<number>, boot: number, seed: number): AucInterval => {
  const { pos, neg } = strata(labels)
  const rnd = mulberry32(seed)
  const values = new Float64Array(boot)
  for (let b = 0; b < boot; b++) {
    const idx = stratifiedResample(pos, neg, rnd)
    values[b] = rocAuc(pick(scores, idx), pick(labels, idx))
  }
  values.sort()
  return { auc: rocAuc(scores, labels), lo: quantileSorted(values, 0.025), hi: quantileSorted(values, 0.975) }
}

export interface PairedDifference {
  /** AUC(a) - AUC(b) on the full rows. */
  readonly diff: number
  readonly lo: number
  readonly hi: number
  /** Share of resamples with AUC(b) >= AUC(a). */
  readonly shareBAtLeastA: number
}

/**
 * Paired stratified bootstrap of AUC(a) - AUC(b): both scorers are evaluated on the same resampled
 * rows in every resample (positives and negatives resampled separately, seeded).
 */
export const pairedBootstrap = (
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  labels: ArrayLike<number>,
  boot: number,
  seed: number
): PairedDifference => {
  const { pos, neg } = strata(labels)
  const rnd = mulberry32(seed)
  const diffs = new Float64Array(boot)
  let atLeast = 0
  for (let r = 0; r < boot; r++) {
    const idx = stratifiedResample(pos, neg, rnd)
    const y = pick(labels, idx)
    const d = rocAuc(pick(a, idx), y) - rocAuc(pick(b, idx), y)
    diffs[r] = d
    if (d <= 0) atLeast++
  }
  diffs.sort()
  return {
    diff: rocAuc(a, labels) - rocAuc(b, labels),
    lo: quantileSorted(diffs, 0.025),
    hi: quantileSorted(diffs, 0.975),
    shareBAtLeastA: boot === 0 ? Number.NaN : atLeast / boot
  }
}

/** Ordinary least-squares line y = intercept + slope * x. */
export const lineFit = (x: ReadonlyArray<number>, y: ReadonlyArray<number>): { slope: number; intercept: number } => {
  const n = x.length
  const mx = x.reduce((s, v) => s + v, 0) / n
  const my = y.reduce((s, v) => s + v, 0) / n
  let sxy = 0
  let sxx = 0
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my)
    sxx += (x[i]! - mx) * (x[i]! - mx)
  }
  const slope = sxx === 0 ? Number.NaN : sxy / sxx
  return { slope, intercept: my - slope * mx }
}

/**
 * Whether a row with key `key` is in the hash-chosen fraction `f` of its set: the subsets are
 * nested (every row of the 1/8 subset is in the 1/4 subset) and f >= 1 keeps every row.
 */
export const inFraction = (key: string, f: number, salt = "catcurve"): boolean => f >= 1 || hash32(`${salt}:${key}`) / 4294967296 < f
