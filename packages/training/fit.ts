/**
 * Training: a sparse design matrix, naive-Bayes feature weighting, logistic regression with
 * Adagrad and L2, Platt and isotonic calibration, and the metrics the model card reports.
 *
 * Everything here is deterministic: fixed seeds, fixed iteration order, no threads. The same
 * inputs give bit-identical weights on any machine that runs the same JavaScript engine.
 */
import { Featurizer } from "@decorum/local/Featurizer"

/** Rows of hashed features in compressed sparse row form. */
export class SparseMatrix {
  rowPtr: Int32Array = new Int32Array(1024)
  idx: Int32Array = new Int32Array(1 << 16)
  val: Float32Array = new Float32Array(1 << 16)
  rows = 0
  nnz = 0

  /** Append the featuriser's current row. */
  pushFeatures(f: Featurizer): number {
    return this.push(f.idx, f.val, f.nnz)
  }

  push(idx: ArrayLike<number>, val: ArrayLike<number>, count: number): number {
    if (this.rows + 2 > this.rowPtr.length) {
      const r = new Int32Array(this.rowPtr.length * 2)
      r.set(this.rowPtr)
      this.rowPtr = r
    }
    while (this.nnz + count > this.idx.length) {
      const i = new Int32Array(this.idx.length * 2)
      i.set(this.idx)
      this.idx = i
      const v = new Float32Array(this.val.length * 2)
      v.set(this.val)
      this.val = v
    }
    for (let k = 0; k < count; k++) {
      this.idx[this.nnz + k] = idx[k]!
      this.val[this.nnz + k] = val[k]!
    }
    this.nnz += count
    this.rows++
    this.rowPtr[this.rows] = this.nnz
    return this.rows - 1
  }
}

/** Deterministic PRNG (mulberry32). */
export const mulberry32 = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Fisher–Yates shuffle of `0..n-1` with a seeded PRNG. */
export const shuffled = (n: number, seed: number): Int32Array => {
  const order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  const rnd = mulberry32(seed)
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1))
    const t = order[i]!
    order[i] = order[j]!
    order[j] = t
  }
  return order
}

export interface TrainOptions {
  /** log2 of the weight table; feature slots are folded into it with a mask. */
  readonly bits: number
  readonly epochs: number
  readonly learningRate: number
  readonly l2: number
  /** Naive-Bayes log-count-ratio weighting (NB-LR, Wang & Manning 2012), with this smoothing. */
  readonly nbAlpha?: number | undefined
  /** Cap on |r| of the NB ratios (keeps rare n-grams from dominating). */
  readonly nbClip?: number | undefined
  readonly seed: number
  /**
   * Average the weights (and bias) at the end of each epoch from this one (0-based) on, and return
   * the average instead of the last iterate. Absent: the last iterate.
   */
  readonly averageFrom?: number | undefined
}

export interface LinearModel {
  /** Weights on the raw features (NB ratios already folded in), length `2^bits`. */
  readonly weights: Float32Array
  readonly bias: number
  readonly bits: number
}

/**
 * Train one label. `target[r]` is the label of row `r` in [0, 1] (soft labels allowed) or NaN
 * when the row's dataset does not label it (label masking: such rows are skipped); `weight[r]`
 * is the row's sample weight.
 */
export const trainLogistic = (
  X: SparseMatrix,
  target: Float32Array,
  weight: Float32Array,
  options: TrainOptions
): LinearModel => {
  const size = 1 << options.bits
  const mask = size - 1
  const rows: Array<number> = []
  for (let r = 0; r < X.rows; r++) if (!Number.isNaN(target[r]!) && weight[r]! > 0) rows.push(r)
  // naive-Bayes ratios
  const ratio = new Float32Array(size).fill(1)
  if (options.nbAlpha !== undefined) {
    const pos = new Float64Array(size)
    const neg = new Float64Array(size)
    let posTotal = 0
    let negTotal = 0
    for (const r of rows) {
      const y = target[r]!
      const w = weight[r]!
      for (let k = X.rowPtr[r]!; k < X.rowPtr[r + 1]!; k++) {
        const j = X.idx[k]! & mask
        pos[j]! += w * y
        neg[j]! += w * (1 - y)
      }
      posTotal += w * y
      negTotal += w * (1 - y)
    }
    const alpha = options.nbAlpha
    const clip = options.nbClip ?? 4
    const lp = Math.log(posTotal + alpha)
    const ln = Math.log(negTotal + alpha)
    for (let j = 0; j < size; j++) {
      if (pos[j] === 0 && neg[j] === 0) continue
      const r = Math.log(pos[j]! + alpha) - lp - (Math.log(neg[j]! + alpha) - ln)
      ratio[j] = Math.max(-clip, Math.min(clip, r))
    }
  }
  // logistic regression, Adagrad, L2 applied to the coordinates a row touches
  const w = new Float64Array(size)
  const g2 = new Float64Array(size).fill(1e-8)
  let bias = 0
  let bg2 = 1e-8
  // start the bias at the weighted log-odds
  {
    let sp = 0
    let sw = 0
    for (const r of rows) {
      sp += weight[r]! * target[r]!
      sw += weight[r]!
    }
    const p = Math.min(1 - 1e-6, Math.max(1e-6, sp / Math.max(sw, 1e-12)))
    bias = Math.log(p / (1 - p))
  }
  const lr = options.learningRate
  const l2 = options.l2
  const rowArr = Int32Array.from(rows)
  const averageFrom = options.averageFrom
  const sum = averageFrom === undefined ? undefined : new Float64Array(size)
  let biasSum = 0
  let averaged = 0
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    const order = shuffled(rowArr.length, options.seed + epoch * 7919)
    for (let o = 0; o < order.length; o++) {
      const r = rowArr[order[o]!]!
      const start = X.rowPtr[r]!
      const end = X.rowPtr[r + 1]!
      let z = bias
      for (let k = start; k < end; k++) {
        const j = X.idx[k]! & mask
        z += w[j]! * X.val[k]! * ratio[j]!
      }
      const p = z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z))
      const g = (p - target[r]!) * weight[r]!
      for (let k = start; k < end; k++) {
        const j = X.idx[k]! & mask
        const x = X.val[k]! * ratio[j]!
        const grad = g * x + l2 * w[j]!
        g2[j]! += grad * grad
        w[j]! -= (lr * grad) / Math.sqrt(g2[j]!)
      }
      bg2 += g * g
      bias -= (lr * g) / Math.sqrt(bg2)
    }
    if (sum !== undefined && epoch >= averageFrom!) {
      for (let j = 0; j < size; j++) sum[j]! += w[j]!
      biasSum += bias
      averaged++
    }
  }
  if (sum !== undefined && averaged > 0) {
    for (let j = 0; j < size; j++) w[j] = sum[j]! / averaged
    bias = biasSum / averaged
  }
  const weights = new Float32Array(size)
  for (let j = 0; j < size; j++) weights[j] = w[j]! * ratio[j]!
  return { weights, bias, bits: options.bits }
}

/** The raw score (log-odds) of row `r` under a model. */
export const scoreRow = (X: SparseMatrix, r: number, m: LinearModel): number => {
  const mask = (1 << m.bits) - 1
  let z = m.bias
  for (let k = X.rowPtr[r]!; k < X.rowPtr[r + 1]!; k++) z += m.weights[X.idx[k]! & mask]! * X.val[k]!
  return z
}

// ---------------------------------------------------------------- metrics

/** ROC AUC with tie handling (Mann–Whitney). Labels are thresholded at 0.5. */
export const rocAuc = (scores: ArrayLike<number>, labels: ArrayLike<number>): number => {
  const order = Array.from({ length: scores.length }, (_, i) => i).sort((i, j) => scores[i]! - scores[j]!)
  let pos = 0
  let neg = 0
  let rankSum = 0
  for (let i = 0; i < order.length; ) {
    let j = i
    while (j < order.length && scores[order[j]!] === scores[order[i]!]) j++
    const avgRank = (i + j + 1) / 2
    for (let k = i; k < j; k++) if (labels[order[k]!]! >= 0.5) rankSum += avgRank
    i = j
  }
  for (let i = 0; i < labels.length; i++) {
    if (labels[i]! >= 0.5) pos++
    else neg++
  }
  if (pos === 0 || neg === 0) return Number.NaN
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg)
}

const ranks = (v: ArrayLike<number>): Float64Array => {
  const order = Array.from({ length: v.length }, (_, i) => i).sort((i, j) => v[i]! - v[j]!)
  const r = new Float64Array(v.length)
  for (let i = 0; i < order.length; ) {
    let j = i
    while (j < order.length && v[order[j]!] === v[order[i]!]) j++
    for (let k = i; k < j; k++) r[order[k]!] = (i + j - 1) / 2
    i = j
  }
  return r
}

export const pearson = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  const n = a.length
  let ma = 0
  let mb = 0
  for (let i = 0; i < n; i++) {
    ma += a[i]!
    mb += b[i]!
  }
  ma /= n
  mb /= n
  let sab = 0
  let saa = 0
  let sbb = 0
  for (let i = 0; i < n; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb)
    saa += (a[i]! - ma) ** 2
    sbb += (b[i]! - mb) ** 2
  }
  return sab / Math.sqrt(saa * sbb)
}

export const spearman = (a: ArrayLike<number>, b: ArrayLike<number>): number => pearson(ranks(a), ranks(b))

/** Fraction of rows where both scores fall on the same side of `threshold`. */
export const agreement = (a: ArrayLike<number>, b: ArrayLike<number>, threshold: number): number => {
  let same = 0
  for (let i = 0; i < a.length; i++) if (a[i]! >= threshold === b[i]! >= threshold) same++
  return same / a.length
}

/** Accuracy of `score >= threshold` against labels (>= 0.5 is positive). */
export const accuracy = (scores: ArrayLike<number>, labels: ArrayLike<number>, threshold = 0.5): number => {
  let ok = 0
  for (let i = 0; i < scores.length; i++) if (scores[i]! >= threshold === labels[i]! >= 0.5) ok++
  return ok / scores.length
}

/** Mean log loss and Brier score. */
export const logLoss = (p: ArrayLike<number>, y: ArrayLike<number>): number => {
  let s = 0
  for (let i = 0; i < p.length; i++) {
    const q = Math.min(1 - 1e-7, Math.max(1e-7, p[i]!))
    s -= y[i]! * Math.log(q) + (1 - y[i]!) * Math.log(1 - q)
  }
  return s / p.length
}

/**
 * Log loss with each row weighted so the sample's positive rate counts as `prevalence` (what a
 * calibrated score would face at that base rate).
 */
export const reweightedLogLoss = (p: ArrayLike<number>, y: ArrayLike<number>, prevalence: number): number => {
  let rate = 0
  for (let i = 0; i < y.length; i++) rate += y[i]!
  rate /= y.length
  let loss = 0
  let total = 0
  for (let i = 0; i < p.length; i++) {
    const w = y[i] === 1 ? prevalence / rate : (1 - prevalence) / (1 - rate)
    const q = Math.min(1 - 1e-9, Math.max(1e-9, p[i]!))
    loss -= w * (y[i] === 1 ? Math.log(q) : Math.log(1 - q))
    total += w
  }
  return loss / total
}

/** Expected calibration error over ten equal-width bins. */
export const calibrationError = (p: ArrayLike<number>, y: ArrayLike<number>, bins = 10): number => {
  const sp = new Float64Array(bins)
  const sy = new Float64Array(bins)
  const n = new Float64Array(bins)
  for (let i = 0; i < p.length; i++) {
    const b = Math.min(bins - 1, Math.floor(p[i]! * bins))
    sp[b]! += p[i]!
    sy[b]! += y[i]!
    n[b]! += 1
  }
  let e = 0
  for (let b = 0; b < bins; b++) if (n[b]! > 0) e += Math.abs(sp[b]! - sy[b]!)
  return e / p.length
}
