/**
 * Calibration: the one place that maps a head's raw log-odds to a probability, and that fits the
 * map. Two kinds of map, both stored in the model manifest:
 * - Platt: `p = sigmoid(a z + b)` (`fitPlatt`; `fitPlatt2` also learns the weight of one extra
 *   evidence feature added to `z`);
 * - piecewise-linear, monotone in `z` (`fitIsotonic`, `fitQuantileMap`), clamped at the ends.
 *
 * `sigmoid` and `logit` here are the only logistic link and its inverse in the package; the
 * heuristic cue scores and the spam blend use them too. Fitting is deterministic (no randomness,
 * fixed iteration order), so training scripts reproduce the shipped maps byte for byte.
 */


/** `p = sigmoid(a z + b)`, or a monotone piecewise-linear map of `z` (clamped at the ends). */
export type Calibration =
  | { readonly kind: "platt"; readonly a: number; readonly b: number }
  | { readonly kind: "pwl"; readonly x: ReadonlyArray<number>; readonly y: ReadonlyArray<number> }

/** The logistic link, written so that neither branch overflows. */
export const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)))

/** The inverse of `sigmoid`, with `p` clamped to [1e-6, 1 - 1e-6] so that 0 and 1 stay finite. */
export const logit = (p: number): number => {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p))
  return Math.log(q / (1 - q))
}

export const applyCalibration = (c: Calibration, z: number): number => {
  if (c.kind === "platt") return sigmoid(c.a * z + c.b)
  const xs = c.x
  const ys = c.y
  const n = xs.length
  if (z <= xs[0]!) return ys[0]!
  if (z >= xs[n - 1]!) return ys[n - 1]!
  let lo = 0
  let hi = n - 1
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if (xs[mid]! <= z) lo = mid
    else hi = mid
  }
  const t = (z - xs[lo]!) / (xs[hi]! - xs[lo]!)
  return ys[lo]! + t * (ys[hi]! - ys[lo]!)
}

/**
 * Platt scaling: Newton's method with backtracking on the weighted log loss (targets in [0, 1]),
 * with Platt's target smoothing for hard labels (y=1 → (N₊+1)/(N₊+2), y=0 → 1/(N₋+2)) so that
 * separable calibration data cannot send the slope to infinity.
 */
export const fitPlatt = (z: ArrayLike<number>, y: ArrayLike<number>, w?: ArrayLike<number>): Calibration => {
  const n = z.length
  let np = 0
  let nn = 0
  for (let i = 0; i < n; i++) {
    const wi = w === undefined ? 1 : w[i]!
    np += wi * y[i]!
    nn += wi * (1 - y[i]!)
  }
  const hi = (np + 1) / (np + 2)
  const lo = 1 / (nn + 2)
  const t = Float64Array.from({ length: n }, (_, i) => (y[i] === 1 ? hi : y[i] === 0 ? lo : y[i]!))
  const weight = (i: number) => (w === undefined ? 1 : w[i]!)
  const loss = (a: number, b: number) => {
    let s = 0
    for (let i = 0; i < n; i++) {
      const m = a * z[i]! + b
      // log(1 + e^m) - t m, computed stably
      const softplus = m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m))
      s += weight(i) * (softplus - t[i]! * m)
    }
    return s
  }
  let a = 1
  let b = 0
  let current = loss(a, b)
  for (let iter = 0; iter < 100; iter++) {
    let ga = 0
    let gb = 0
    let haa = 1e-9
    let hab = 0
    let hbb = 1e-9
    for (let i = 0; i < n; i++) {
      const wi = weight(i)
      const p = sigmoid(a * z[i]! + b)
      const d = (p - t[i]!) * wi
      const h = Math.max(p * (1 - p), 1e-12) * wi
      ga += d * z[i]!
      gb += d
      haa += h * z[i]! * z[i]!
      hab += h * z[i]!
      hbb += h
    }
    const det = haa * hbb - hab * hab
    if (Math.abs(det) < 1e-18) break
    const da = (hbb * ga - hab * gb) / det
    const db = (haa * gb - hab * ga) / det
    let step = 1
    let next = loss(a - da, b - db)
    while (next > current && step > 1e-6) {
      step /= 2
      next = loss(a - step * da, b - step * db)
    }
    if (next > current) break
    a -= step * da
    b -= step * db
    const improved = current - next
    current = next
    if (Math.abs(step * da) + Math.abs(step * db) < 1e-10 || improved < 1e-12) break
  }
  return { kind: "platt", a, b }
}

/**
 * Platt scaling with one extra input: `p = sigmoid(a * (z + weight * s) + b)`, fitted as a
 * three-parameter logistic regression of `y` on `(z, s)` (Newton with backtracking, the same
 * target smoothing as `fitPlatt`, a small ridge on the evidence coefficient so that a pattern
 * that never fires gets weight 0). `s` is pattern evidence in [0, 1] (see `evidence.ts`).
 * `ridge` is that penalty as a fraction of the total sample weight (default 1e-3).
 */
export const fitPlatt2 = (
  z: ArrayLike<number>,
  s: ArrayLike<number>,
  y: ArrayLike<number>,
  w?: ArrayLike<number>,
  ridgeFraction = 1e-3
): { readonly a: number; readonly b: number; readonly weight: number } => {
  const n = z.length
  const weight = (i: number) => (w === undefined ? 1 : w[i]!)
  let np = 0
  let nn = 0
  for (let i = 0; i < n; i++) {
    np += weight(i) * y[i]!
    nn += weight(i) * (1 - y[i]!)
  }
  const hi = (np + 1) / (np + 2)
  const lo = 1 / (nn + 2)
  const t = Float64Array.from({ length: n }, (_, i) => (y[i] === 1 ? hi : y[i] === 0 ? lo : y[i]!))
  const ridge = ridgeFraction * (np + nn)
  const loss = (p: ReadonlyArray<number>) => {
    let sum = 0.5 * ridge * p[1]! * p[1]!
    for (let i = 0; i < n; i++) {
      const m = p[0]! * z[i]! + p[1]! * s[i]! + p[2]!
      const softplus = m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m))
      sum += weight(i) * (softplus - t[i]! * m)
    }
    return sum
  }
  let p = [1, 0, 0]
  let current = loss(p)
  for (let iter = 0; iter < 100; iter++) {
    const g = [0, ridge * p[1]!, 0]
    const H = [
      [1e-9, 0, 0],
      [0, 1e-9 + ridge, 0],
      [0, 0, 1e-9]
    ]
    for (let i = 0; i < n; i++) {
      const x = [z[i]!, s[i]!, 1]
      const q = sigmoid(p[0]! * x[0]! + p[1]! * x[1]! + p[2]!)
      const d = (q - t[i]!) * weight(i)
      const h = Math.max(q * (1 - q), 1e-12) * weight(i)
      for (let r = 0; r < 3; r++) {
        g[r]! += d * x[r]!
        for (let c = 0; c < 3; c++) H[r]![c]! += h * x[r]! * x[c]!
      }
    }
    // solve H d = g (Gaussian elimination, 3x3)
    const M = H.map((row, r) => [...row, g[r]!])
    for (let c = 0; c < 3; c++) {
      let piv = c
      for (let r = c + 1; r < 3; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[piv]![c]!)) piv = r
      ;[M[c], M[piv]] = [M[piv]!, M[c]!]
      for (let r = c + 1; r < 3; r++) {
        const f = M[r]![c]! / M[c]![c]!
        for (let k = c; k < 4; k++) M[r]![k]! -= f * M[c]![k]!
      }
    }
    const d = [0, 0, 0]
    for (let r = 2; r >= 0; r--) {
      let v = M[r]![3]!
      for (let k = r + 1; k < 3; k++) v -= M[r]![k]! * d[k]!
      d[r] = v / M[r]![r]!
    }
    if (d.some((v) => !Number.isFinite(v))) break
    let step = 1
    let next = loss(p.map((v, k) => v - d[k]!))
    while (next > current && step > 1e-6) {
      step /= 2
      next = loss(p.map((v, k) => v - step * d[k]!))
    }
    if (next > current) break
    p = p.map((v, k) => v - step * d[k]!)
    const improved = current - next
    current = next
    if (improved < 1e-12) break
  }
  const a = p[0]!
  return { a, b: p[2]!, weight: a > 1e-9 ? p[1]! / a : 0 }
}

/**
 * Isotonic regression (pool adjacent violators) of `y` on `z`, turned into a piecewise-linear
 * map through the centres of the pooled blocks, thinned to at most `maxKnots` knots.
 */
export const fitIsotonic = (z: ArrayLike<number>, y: ArrayLike<number>, maxKnots = 48, minBlock = 20): Calibration => {
  const order = Array.from({ length: z.length }, (_, i) => i).sort((i, j) => z[i]! - z[j]! || i - j)
  // pre-bin into blocks of minBlock points so the map is smooth
  const bx: Array<number> = []
  const by: Array<number> = []
  const bw: Array<number> = []
  for (let s = 0; s < order.length; s += minBlock) {
    const e = Math.min(order.length, s + minBlock)
    let sx = 0
    let sy = 0
    for (let k = s; k < e; k++) {
      sx += z[order[k]!]!
      sy += y[order[k]!]!
    }
    bx.push(sx / (e - s))
    by.push(sy / (e - s))
    bw.push(e - s)
  }
  // PAV
  const vx: Array<number> = []
  const vy: Array<number> = []
  const vw: Array<number> = []
  for (let i = 0; i < bx.length; i++) {
    vx.push(bx[i]! * bw[i]!)
    vy.push(by[i]! * bw[i]!)
    vw.push(bw[i]!)
    while (vy.length > 1 && vy[vy.length - 2]! / vw[vw.length - 2]! >= vy[vy.length - 1]! / vw[vw.length - 1]!) {
      const yw = vy.pop()!
      const xw = vx.pop()!
      const ww = vw.pop()!
      vy[vy.length - 1]! += yw
      vx[vx.length - 1]! += xw
      vw[vw.length - 1]! += ww
    }
  }
  let xs = vx.map((v, i) => v / vw[i]!)
  let ys = vy.map((v, i) => v / vw[i]!)
  if (xs.length > maxKnots) {
    const keep: Array<number> = []
    for (let k = 0; k < maxKnots; k++) keep.push(Math.round((k * (xs.length - 1)) / (maxKnots - 1)))
    xs = keep.map((i) => xs[i]!)
    ys = keep.map((i) => ys[i]!)
  }
  // strictly increasing x for interpolation
  const fx: Array<number> = []
  const fy: Array<number> = []
  for (let i = 0; i < xs.length; i++) {
    if (fx.length > 0 && xs[i]! <= fx[fx.length - 1]!) continue
    fx.push(Number(xs[i]!.toFixed(5)))
    fy.push(Number(ys[i]!.toFixed(5)))
  }
  return { kind: "pwl", x: fx, y: fy }
}

/**
 * Quantile (equipercentile) mapping: the piecewise-linear map that sends the q-quantile of `z` to
 * the q-quantile of `target`, so mapped scores have the target's distribution (the same share of
 * comments above 0.5, 0.7, 0.8). Knots are denser in the upper tail, where thresholds live.
 */
export const fitQuantileMap = (z: ArrayLike<number>, target: ArrayLike<number>): Calibration => {
  const zs = Float64Array.from(z).sort()
  const ts = Float64Array.from(target).sort()
  const levels: Array<number> = []
  for (let q = 0; q <= 0.9; q += 0.05) levels.push(Number(q.toFixed(2)))
  levels.push(0.92, 0.94, 0.96, 0.97, 0.98, 0.985, 0.99, 0.993, 0.996, 0.998, 1)
  const at = (a: Float64Array, q: number) => {
    const pos = q * (a.length - 1)
    const lo = Math.floor(pos)
    const hi = Math.min(a.length - 1, lo + 1)
    return a[lo]! + (pos - lo) * (a[hi]! - a[lo]!)
  }
  const x: Array<number> = []
  const y: Array<number> = []
  for (const q of levels) {
    const xv = Number(at(zs, q).toFixed(5))
    const yv = Number(at(ts, q).toFixed(5))
    if (x.length > 0 && xv <= x[x.length - 1]!) continue
    x.push(xv)
    y.push(Math.max(yv, y.length > 0 ? y[y.length - 1]! : 0))
  }
  return { kind: "pwl", x, y }
}
