/**
 * The monotone map of TOXICITY's raw log-odds onto Perspective's historical scale, fitted on the
 * Wikipedia CAT calibration quarter (the only use of CAT rows besides evaluation, issue 11).
 *
 * `quantileMap`: quantile (equipercentile) mapping, continued past the last knot with the slope of
 * a logistic fitted to the same pairs (11.3 to 12.3). Its upper knots are single order statistics:
 * in a quarter of 2,475 rows, the knots at the 0.99, 0.993, 0.996, 0.998 quantiles and the maximum
 * stand 7 to 25 rows apart, so where the 0.7 line falls is set by a handful of comments (11.3's map
 * jumps from 0.84 to 0.95 between its last two knots).
 *
 * `tailMap` (local-2026.12.4): the same quantile map below the `TAIL_FROM` quantile; above it, a
 * logistic logit(Perspective) = a * raw + b fitted by least squares to every order-statistic pair
 * of the top rows (about 124 in the quarter), so no knot rests on a few comments.
 *
 * `perspectiveMap` chooses between the two by 2-fold cross-fitting inside the calibration quarter
 * (fit on one half, measure on the other; never the report half, the test rows or the guardrails):
 * the mean absolute difference from Perspective's score over the held-out rows where either score
 * is at least 0.5, the region moderators threshold.
 */
import { applyCalibration, fitPlatt, fitQuantileMap, type Calibration } from "@decorum/local/Calibration"
import type { Example } from "./data.js"

/** Where the parametric tail starts (quantile of the fitting rows). */
export const TAIL_FROM = 0.95

const logit = (p: number) => {
  const q = Math.min(0.995, Math.max(0.005, p))
  return Math.log(q / (1 - q))
}
const sig = (x: number) => 1 / (1 + Math.exp(-x))

/** 11.3 to 12.3's map: quantile knots, then the logistic's slope past the last knot. */
export const quantileMap = (z: ReadonlyArray<number>, y: ReadonlyArray<number>): Calibration => {
  const iso = fitQuantileMap(z, y)
  const tail = fitPlatt(z, y)
  if (iso.kind !== "pwl" || tail.kind !== "platt") return iso
  const xs = [...iso.x]
  const ys = [...iso.y]
  const last = xs[xs.length - 1]!
  // the logistic's slope, shifted to pass through the last knot
  const a = Math.max(tail.a, 0.05)
  const top = Math.min(0.99, Math.max(0.01, ys[ys.length - 1]!))
  const b = Math.log(top / (1 - top)) - a * last
  const step = 0.5 / a
  for (let k = 1; k <= 12; k++) {
    const x = last + k * step
    const v = Math.min(0.995, 1 / (1 + Math.exp(-(a * x + b))))
    xs.push(Number(x.toFixed(5)))
    ys.push(Number(v.toFixed(5)))
  }
  return { kind: "pwl", x: xs, y: ys }
}

/**
 * The quantile map below the `from` quantile and a least-squares logistic tail above it (see the
 * module comment). Falls back to `quantileMap` when the tail's slope is not positive.
 */
export const tailMap = (z: ReadonlyArray<number>, y: ReadonlyArray<number>, from = TAIL_FROM): Calibration => {
  const zs = Float64Array.from(z).sort()
  const ts = Float64Array.from(y).sort()
  const n = zs.length
  const i0 = Math.floor(from * (n - 1))
  // least squares of logit(t_(i)) on z_(i) over the top order statistics
  let sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0
  for (let i = i0; i < n; i++) {
    const x = zs[i]!
    const t = logit(ts[i]!)
    sx += x
    sy += t
    sxx += x * x
    sxy += x * t
    m++
  }
  const den = m * sxx - sx * sx
  const a = den > 0 ? (m * sxy - sx * sy) / den : 0
  if (!(a > 0)) return quantileMap(z, y)
  const b = (sy - a * sx) / m
  const base = fitQuantileMap(z, y)
  if (base.kind !== "pwl") return base
  const x0 = zs[i0]!
  const xs: Array<number> = []
  const ys: Array<number> = []
  for (let k = 0; k < base.x.length; k++) {
    if (base.x[k]! >= x0) break
    xs.push(base.x[k]!)
    ys.push(base.y[k]!)
  }
  // tail knots: from the tail's start to 6 logistic units past the largest raw score
  const hi = zs[n - 1]! + 6 / a
  const steps = 16
  for (let k = 0; k <= steps; k++) {
    const x = Number((x0 + ((hi - x0) * k) / steps).toFixed(5))
    if (xs.length > 0 && x <= xs[xs.length - 1]!) continue
    const v = Number(Math.min(0.995, sig(a * x + b)).toFixed(5))
    xs.push(x)
    ys.push(Math.max(v, ys.length > 0 ? ys[ys.length - 1]! : 0))
  }
  return { kind: "pwl", x: xs, y: ys }
}

/** Held-out mean |map(raw) - Perspective| over the rows where either is at least 0.5, 2-fold. */
export const crossFitError = (
  fit: (z: ReadonlyArray<number>, y: ReadonlyArray<number>) => Calibration,
  z: ReadonlyArray<number>,
  y: ReadonlyArray<number>,
  fold: ReadonlyArray<number>
): number => {
  let sum = 0
  let count = 0
  for (const k of [0, 1]) {
    const idx = z.map((_, i) => i).filter((i) => fold[i] !== k)
    const map = fit(idx.map((i) => z[i]!), idx.map((i) => y[i]!))
    for (let i = 0; i < z.length; i++) {
      if (fold[i] !== k) continue
      const p = applyCalibration(map, z[i]!)
      if (p < 0.5 && y[i]! < 0.5) continue
      sum += Math.abs(p - y[i]!)
      count++
    }
  }
  return count === 0 ? Number.POSITIVE_INFINITY : sum / count
}

/**
 * The map `npm run train` ships: the tail map when its cross-fitted error is lower than the plain
 * quantile map's, else the quantile map; `log` gets both errors.
 */
export const perspectiveMap = (z: ReadonlyArray<number>, y: ReadonlyArray<number>, fold: ReadonlyArray<number>, log: (s: string) => void = () => {}): Calibration => {
  const plain = crossFitError(quantileMap, z, y, fold)
  const tail = crossFitError(tailMap, z, y, fold)
  log(`  TOXICITY map onto Perspective's scale, 2-fold inside the CAT calibration quarter, mean |map - Perspective| where either >= 0.5: quantile map ${plain.toFixed(4)}, logistic tail above q=${TAIL_FROM} ${tail.toFixed(4)}`)
  return tail < plain ? tailMap(z, y) : quantileMap(z, y)
}

/**
 * How much Perspective enriches TOXICITY over the human base rate, as an odds ratio: the odds of
 * Perspective's mean score over the odds of the human "toxic" rate on the same Wikipedia CAT rows
 * (the fitting quarter). Perspective's scores are not probabilities at natural prevalence; this
 * measures by how much they are shifted up, so that heads without Perspective reference scores
 * (THREAT, IDENTITY_ATTACK) can be calibrated onto a comparable scale.
 */
export const perspectiveEnrichment = (rows: ReadonlyArray<Example>): number => {
  let api = 0
  let human = 0
  for (const e of rows) {
    api += Number(e.extra!.api)
    human += e.labels.TOXICITY! >= 0.5 ? 1 : 0
  }
  const odds = (p: number) => p / (1 - p)
  return odds(api / rows.length) / odds(human / rows.length)
}

/** `p` with its odds multiplied by `k`. */
export const enrich = (p: number, k: number) => (p * k) / (1 - p + p * k)
