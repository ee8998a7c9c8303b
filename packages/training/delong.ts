/**
 * DeLong, DeLong & Clarke-Pearson (1988): the standard error of the difference between two ROC
 * AUCs measured on the same rows (paired). The release rule of issue 27 uses it as "the noise of
 * that set": a head with nine positives has a wide interval and cannot veto a release alone.
 */

/** Per-row structural components: for each positive, the share of negatives it outranks (ties 1/2); for each negative, the share of positives that outrank it. */
const components = (scores: ArrayLike<number>, y: ArrayLike<number>): { pos: Float64Array; neg: Float64Array } => {
  const posScores: Array<number> = []
  const negScores: Array<number> = []
  for (let i = 0; i < y.length; i++) (y[i]! >= 0.5 ? posScores : negScores).push(scores[i]!)
  const sortedNeg = Float64Array.from(negScores).sort()
  const sortedPos = Float64Array.from(posScores).sort()
  /** Number of sorted values below v, and equal to v. */
  const count = (sorted: Float64Array, v: number): [number, number] => {
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (sorted[mid]! < v) lo = mid + 1
      else hi = mid
    }
    let eq = lo
    while (eq < sorted.length && sorted[eq] === v) eq++
    return [lo, eq - lo]
  }
  const pos = Float64Array.from(posScores, (v) => {
    const [below, equal] = count(sortedNeg, v)
    return (below + 0.5 * equal) / sortedNeg.length
  })
  const neg = Float64Array.from(negScores, (v) => {
    const [below, equal] = count(sortedPos, v)
    return (sortedPos.length - below - equal + 0.5 * equal) / sortedPos.length
  })
  return { pos, neg }
}

const mean = (x: Float64Array) => x.reduce((s, v) => s + v, 0) / x.length

/** Sample covariance (n - 1). */
const covariance = (a: Float64Array, b: Float64Array): number => {
  if (a.length < 2) return 0
  const ma = mean(a)
  const mb = mean(b)
  return a.reduce((s, v, i) => s + (v - ma) * (b[i]! - mb), 0) / (a.length - 1)
}

/** AUC of A, AUC of B and the standard error of AUC(A) - AUC(B) on the same rows (labels 0/1). */
export const pairedAuc = (a: ArrayLike<number>, b: ArrayLike<number>, y: ArrayLike<number>): { a: number; b: number; se: number } => {
  const A = components(a, y)
  const B = components(b, y)
  const m = A.pos.length
  const n = A.neg.length
  const varDiff =
    (covariance(A.pos, A.pos) + covariance(B.pos, B.pos) - 2 * covariance(A.pos, B.pos)) / m +
    (covariance(A.neg, A.neg) + covariance(B.neg, B.neg) - 2 * covariance(A.neg, B.neg)) / n
  return { a: mean(A.pos), b: mean(B.pos), se: Math.sqrt(Math.max(0, varDiff)) }
}
