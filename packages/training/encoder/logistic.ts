/**
 * Dense L2 logistic regression by L-BFGS (issue 27): the heads over the frozen sentence encoder and
 * their Platt scaling. Targets may be soft (in [0, 1]); rows carry an optional sample weight, and
 * the loss is the weighted mean log-loss + lambda/2 |w|^2 (the bias is not penalised).
 */
import { sigmoid } from "@decorum/local/Calibration"

/** Rows of `dim` floats, row-major. */
export interface Dense {
  readonly X: Float32Array
  readonly dim: number
}

/** The last fit's iterations, largest gradient component and why it stopped (for the log). */
export const lastFit = { iterations: 0, gmax: 0, stop: "" }

/**
 * Weights (dim) then the bias, minimising the weighted mean log-loss + lambda/2 |w|^2 over `rows`
 * (indices into `data`) with targets `y` and sample weights `weight` (default 1 each).
 */
export const fitLogistic = (
  data: Dense,
  rows: ReadonlyArray<number>,
  y: ReadonlyArray<number>,
  lambda: number,
  iterations = 200,
  weight?: ReadonlyArray<number>
): Float64Array => {
  const { X, dim } = data
  const n = rows.length
  const p = dim + 1
  let total = 0
  for (let k = 0; k < n; k++) total += weight === undefined ? 1 : weight[k]!
  const lossGrad = (w: Float64Array, g: Float64Array): number => {
    g.fill(0)
    let loss = 0
    for (let k = 0; k < n; k++) {
      const off = rows[k]! * dim
      let z = w[dim]!
      for (let j = 0; j < dim; j++) z += w[j]! * X[off + j]!
      const t = y[k]!
      const c = weight === undefined ? 1 : weight[k]!
      // log(1 + e^z) - t z, stably
      loss += c * ((z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - t * z)
      const r = c * (sigmoid(z) - t)
      for (let j = 0; j < dim; j++) g[j]! += r * X[off + j]!
      g[dim]! += r
    }
    loss /= total
    for (let j = 0; j < p; j++) g[j]! /= total
    for (let j = 0; j < dim; j++) {
      loss += 0.5 * lambda * w[j]! * w[j]!
      g[j]! += lambda * w[j]!
    }
    return loss
  }
  const m = 10
  const S: Array<Float64Array> = []
  const Yv: Array<Float64Array> = []
  let w = new Float64Array(p)
  let g = new Float64Array(p)
  let f = lossGrad(w, g)
  const dot = (a: Float64Array, b: Float64Array) => {
    let s = 0
    for (let j = 0; j < p; j++) s += a[j]! * b[j]!
    return s
  }
  lastFit.stop = "iteration cap"
  let it = 0
  for (; it < iterations; it++) {
    // two-loop recursion
    const q = Float64Array.from(g)
    const alpha: Array<number> = []
    for (let i = S.length - 1; i >= 0; i--) {
      const a = dot(S[i]!, q) / dot(Yv[i]!, S[i]!)
      alpha[i] = a
      for (let j = 0; j < p; j++) q[j]! -= a * Yv[i]![j]!
    }
    const gamma = S.length > 0 ? dot(S[S.length - 1]!, Yv[Yv.length - 1]!) / dot(Yv[Yv.length - 1]!, Yv[Yv.length - 1]!) : 1
    for (let j = 0; j < p; j++) q[j]! *= gamma
    for (let i = 0; i < S.length; i++) {
      const b = dot(Yv[i]!, q) / dot(Yv[i]!, S[i]!)
      for (let j = 0; j < p; j++) q[j]! += S[i]![j]! * (alpha[i]! - b)
    }
    // backtracking line search along -q
    const gd = -dot(g, q)
    if (gd >= 0) {
      lastFit.stop = "not a descent direction"
      break
    }
    let step = 1
    const wNew = new Float64Array(p)
    const gNew = new Float64Array(p)
    let fNew = 0
    for (let tries = 0; tries < 30; tries++) {
      for (let j = 0; j < p; j++) wNew[j] = w[j]! - step * q[j]!
      fNew = lossGrad(wNew, gNew)
      if (fNew <= f + 1e-4 * step * gd) break
      step /= 2
    }
    const s = new Float64Array(p)
    const yy = new Float64Array(p)
    for (let j = 0; j < p; j++) {
      s[j] = wNew[j]! - w[j]!
      yy[j] = gNew[j]! - g[j]!
    }
    if (dot(s, yy) > 1e-12) {
      S.push(s)
      Yv.push(yy)
      if (S.length > m) {
        S.shift()
        Yv.shift()
      }
    }
    const done = Math.abs(f - fNew) < 1e-9 * Math.max(1, Math.abs(f))
    w = wNew
    g = gNew
    f = fNew
    let gmax = 0
    for (let j = 0; j < p; j++) gmax = Math.max(gmax, Math.abs(g[j]!))
    lastFit.gmax = gmax
    if (gmax < 1e-5) {
      lastFit.stop = "gradient below 1e-5"
      break
    }
    if (done) {
      lastFit.stop = "relative change below 1e-9"
      break
    }
  }
  lastFit.iterations = it + 1
  return w
}

/** The log-odds of row `r` under weights `w` (bias last). */
export const score = (data: Dense, w: Float64Array, r: number): number => {
  const off = r * data.dim
  let z = w[data.dim]!
  for (let j = 0; j < data.dim; j++) z += w[j]! * data.X[off + j]!
  return z
}

