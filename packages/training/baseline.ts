/**
 * The plain reference every shipped head must beat (issue 11): scikit-learn's recipe
 *
 *   TfidfVectorizer(analyzer="word", ngram_range=(1, 2), sublinear_tf=True)   (lowercase, token \b\w\w+\b)
 *   TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True)
 *   hstack -> LogisticRegression(C=4)   (L2, intercept not penalised)
 *
 * re-implemented in TypeScript, one logistic regression per head, trained on the same rows. The
 * per-language baselines (issue 28, training/languages.ts) start the character range at 1
 * (`charMin`), as the issue states their baseline; English keeps 2.
 *
 * Vocabulary: every n-gram seen in the training texts gets its own column (min_df 1, as
 * scikit-learn's default). N-grams are identified by a 52-bit hash of their text (two independent
 * 32-bit FNV-1a hashes), so the expected number of pairs of distinct n-grams sharing a column is
 * about V^2 / 2^53 (V = 5 million n-grams: 0.003). The report prints V.
 * N-grams not seen in training are dropped at transform time, like an unknown vocabulary term.
 *
 * Weighting: tf' = 1 + ln(tf), idf = ln((1 + n) / (1 + df)) + 1 (smooth_idf), each vectoriser's row
 * L2-normalised on its own, then the two blocks side by side (so a row's norm is sqrt 2, as in the
 * scikit-learn pipeline).
 *
 * Solver: L-BFGS on the mean log loss + (1 / (2 C n)) ||w||^2, the objective scikit-learn's lbfgs
 * minimises, run until the gradient's largest component is below `gtol` (default 1e-4, scikit-learn's
 * tol on the same objective scaling) or the objective stops moving, with no iteration cap short of
 * that (scikit-learn stops at max_iter=100, often before its tolerance is met). The report prints
 * each head's iterations and final gradient.
 */

export interface TfidfMatrix {
  readonly rows: number
  readonly rowPtr: Int32Array
  readonly col: Int32Array
  readonly val: Float32Array
}

const WORD_SEEDS = [0x9747b28c, 0x2f1e3d4c] as const
const CHAR_SEEDS = [0x5bd1e995, 0x1b873593] as const
const TWO20 = 1048576

/** Python's `\w`: letters, marks, digits, underscore. */
const WORD_RUN = /[\p{L}\p{M}\p{N}_]+/gu
const SPACES = /\s+/u

/** Word tokens as scikit-learn's default token_pattern `(?u)\b\w\w+\b` finds them, lower-cased. */
export const wordTokens = (text: string): Array<string> => {
  const out: Array<string> = []
  for (const m of text.toLowerCase().matchAll(WORD_RUN)) if (m[0].length >= 2) out.push(m[0])
  return out
}

/** Character n-grams as scikit-learn's `char_wb` analyser builds them (for tests and explanations). */
export const charWbGrams = (text: string, min = 2, max = 5): Array<string> => {
  const out: Array<string> = []
  for (const word of text.toLowerCase().split(SPACES)) {
    if (word === "") continue
    const w = ` ${word} `
    for (let n = min; n <= max; n++) {
      let offset = 0
      out.push(w.slice(offset, offset + n))
      while (offset + n < w.length) {
        offset++
        out.push(w.slice(offset, offset + n))
      }
      if (offset === 0) break
    }
  }
  return out
}

const fnv = (h: number, code: number) => Math.imul(h ^ code, 0x01000193) >>> 0
/** 52 bits of two 32-bit hashes; doubled (+1 for characters) it stays an exact integer below 2^53. */
const key52 = (a: number, b: number) => a * TWO20 + (b & (TWO20 - 1))

/**
 * Counts of every word 1-2-gram and char_wb 2-5-gram of `text`, keyed by their 52-bit hash; word
 * keys are even, character keys odd, so the two blocks never share a key.
 */
export const ngramCounts = (text: string, into: Map<number, number> = new Map(), charMin = 2): Map<number, number> => {
  into.clear()
  const bump = (k: number) => into.set(k, (into.get(k) ?? 0) + 1)
  // words
  const tokens = wordTokens(text)
  let prevA = 0
  let prevB = 0
  for (let t = 0; t < tokens.length; t++) {
    const tok = tokens[t]!
    let a: number = WORD_SEEDS[0]
    let b: number = WORD_SEEDS[1]
    for (let i = 0; i < tok.length; i++) {
      const c = tok.charCodeAt(i)
      a = fnv(a, c)
      b = fnv(b, c)
    }
    bump(key52(a, b) * 2)
    if (t > 0) {
      // the bigram "prev tok": continue the previous token's hash over " " + tok
      let ba = fnv(prevA, 32)
      let bb = fnv(prevB, 32)
      for (let i = 0; i < tok.length; i++) {
        const c = tok.charCodeAt(i)
        ba = fnv(ba, c)
        bb = fnv(bb, c)
      }
      bump(key52(ba, bb) * 2)
    }
    prevA = a
    prevB = b
  }
  // characters (char_wb 2..5)
  for (const word of text.toLowerCase().split(SPACES)) {
    if (word === "") continue
    const len = word.length + 2
    const code = (i: number) => (i === 0 || i === len - 1 ? 32 : word.charCodeAt(i - 1))
    for (let n = charMin; n <= 5; n++) {
      // scikit-learn emits the whole padded word once when it is no longer than n, then stops
      if (n > len) break
      for (let offset = 0; offset + n <= len; offset++) {
        let a: number = CHAR_SEEDS[0]
        let b: number = CHAR_SEEDS[1]
        for (let i = offset; i < offset + n; i++) {
          const c = code(i)
          a = fnv(a, c)
          b = fnv(b, c)
        }
        bump(key52(a, b) * 2 + 1)
      }
    }
  }
  return into
}

/** A fitted TF-IDF vocabulary (word block first, then character block). */
export class Tfidf {
  private constructor(
    private readonly column: Map<number, number>,
    readonly idf: Float32Array,
    readonly wordColumns: number,
    /** The shortest character n-gram (2 for English, 1 for the per-language baselines). */
    readonly charMin = 2
  ) {}

  /** The n-gram key of every column, in column order (for saving a fitted vocabulary). */
  keys(): Float64Array {
    const out = new Float64Array(this.idf.length)
    for (const [k, j] of this.column) out[j] = k
    return out
  }

  /** A vocabulary saved with `keys()`. */
  static restore(keys: Float64Array, idf: Float32Array, wordColumns: number, charMin = 2): Tfidf {
    const column = new Map<number, number>()
    keys.forEach((k, j) => column.set(k, j))
    return new Tfidf(column, idf, wordColumns, charMin)
  }

  get columns(): number {
    return this.idf.length
  }

  static fit(texts: Iterable<string>, charMin = 2): Tfidf {
    const df = new Map<number, number>()
    const counts = new Map<number, number>()
    let n = 0
    for (const text of texts) {
      n++
      for (const k of ngramCounts(text, counts, charMin).keys()) df.set(k, (df.get(k) ?? 0) + 1)
    }
    // deterministic column order: word keys then char keys, each ascending
    const keys = [...df.keys()].sort((a, b) => (a % 2) - (b % 2) || a - b)
    const column = new Map<number, number>()
    const idf = new Float32Array(keys.length)
    let words = 0
    keys.forEach((k, j) => {
      column.set(k, j)
      idf[j] = Math.log((1 + n) / (1 + df.get(k)!)) + 1
      if (k % 2 === 0) words++
    })
    return new Tfidf(column, idf, words, charMin)
  }

  transform(texts: ReadonlyArray<string>): TfidfMatrix {
    const rowPtr = new Int32Array(texts.length + 1)
    let col = new Int32Array(1 << 20)
    let val = new Float32Array(1 << 20)
    let nnz = 0
    const counts = new Map<number, number>()
    const rowCols: Array<number> = []
    const rowVals: Array<number> = []
    texts.forEach((text, r) => {
      rowCols.length = 0
      rowVals.length = 0
      let sw = 0
      let sc = 0
      for (const [k, c] of ngramCounts(text, counts, this.charMin)) {
        const j = this.column.get(k)
        if (j === undefined) continue
        const v = (1 + Math.log(c)) * this.idf[j]!
        rowCols.push(j)
        rowVals.push(v)
        if (j < this.wordColumns) sw += v * v
        else sc += v * v
      }
      const iw = sw > 0 ? 1 / Math.sqrt(sw) : 0
      const ic = sc > 0 ? 1 / Math.sqrt(sc) : 0
      while (nnz + rowCols.length > col.length) {
        const c2 = new Int32Array(col.length * 2)
        c2.set(col)
        col = c2
        const v2 = new Float32Array(val.length * 2)
        v2.set(val)
        val = v2
      }
      for (let p = 0; p < rowCols.length; p++) {
        const j = rowCols[p]!
        col[nnz] = j
        val[nnz] = rowVals[p]! * (j < this.wordColumns ? iw : ic)
        nnz++
      }
      rowPtr[r + 1] = nnz
    })
    return { rows: texts.length, rowPtr, col: col.subarray(0, nnz), val: val.subarray(0, nnz) }
  }
}

export interface LogisticFit {
  readonly weights: Float64Array
  readonly bias: number
  readonly iterations: number
  /** Largest |gradient component| of the objective at the returned point. */
  readonly gradient: number
  readonly converged: boolean
}

export interface LogisticOptions {
  /** Inverse regularisation strength, scikit-learn's C. */
  readonly C: number
  readonly gtol?: number
  readonly maxIterations?: number
  readonly memory?: number
  /** Sample weight per row of X (default 1); the loss is the weighted mean, lambda = 1 / (C * sum of weights). */
  readonly sampleWeight?: ArrayLike<number>
  /** Progress every 50 iterations. */
  readonly log?: (s: string) => void
}

const log1pExp = (z: number) => (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)))

/**
 * L2-regularised logistic regression on rows `rows` of `X` with 0/1 targets `y[r]`:
 * minimise (1/n) sum log(1 + exp(-s z)) + (1 / (2 C n)) ||w||^2 (bias unpenalised) with L-BFGS.
 */
export const fitLogistic = (
  X: TfidfMatrix,
  rows: ReadonlyArray<number>,
  y: ArrayLike<number>,
  options: LogisticOptions
): LogisticFit => {
  const d = X.rowPtr.length > 0 ? columnsOf(X) : 0
  const sw = options.sampleWeight
  let n = 0
  for (const r of rows) n += sw === undefined ? 1 : sw[r]!
  const lambda = 1 / (options.C * n)
  const gtol = options.gtol ?? 1e-4
  const maxIt = options.maxIterations ?? 500
  const m = options.memory ?? 8
  const D = d + 1 // last coordinate is the bias
  const { rowPtr, col, val } = X
  const z = new Float64Array(rows.length)

  /** objective and gradient at x (gradient written into g) */
  const evaluate = (x: Float64Array, g: Float64Array): number => {
    const b = x[d]!
    let loss = 0
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!
      let s = b
      for (let k = rowPtr[r]!; k < rowPtr[r + 1]!; k++) s += x[col[k]!]! * val[k]!
      z[i] = s
    }
    g.fill(0)
    let gb = 0
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!
      const t = y[r]! >= 0.5 ? 1 : 0
      const s = z[i]!
      const wr = sw === undefined ? 1 : sw[r]!
      loss += wr * (t === 1 ? log1pExp(-s) : log1pExp(s))
      const p = s >= 0 ? 1 / (1 + Math.exp(-s)) : Math.exp(s) / (1 + Math.exp(s))
      const e = (wr * (p - t)) / n
      gb += e
      for (let k = rowPtr[r]!; k < rowPtr[r + 1]!; k++) g[col[k]!]! += e * val[k]!
    }
    let reg = 0
    for (let j = 0; j < d; j++) {
      const w = x[j]!
      reg += w * w
      g[j]! += lambda * w
    }
    g[d] = gb
    return loss / n + 0.5 * lambda * reg
  }

  const x = new Float64Array(D)
  const g = new Float64Array(D)
  const xNew = new Float64Array(D)
  const gNew = new Float64Array(D)
  const dir = new Float64Array(D)
  const S: Array<Float32Array> = []
  const Y: Array<Float32Array> = []
  const rho: Array<number> = []
  const alpha = new Float64Array(m)
  let f = evaluate(x, g)
  const maxAbs = (v: Float64Array) => {
    let a = 0
    for (let j = 0; j < v.length; j++) a = Math.max(a, Math.abs(v[j]!))
    return a
  }
  let it = 0
  let converged = maxAbs(g) <= gtol
  while (!converged && it < maxIt) {
    it++
    // two-loop recursion
    for (let j = 0; j < D; j++) dir[j] = -g[j]!
    const k = S.length
    for (let i = k - 1; i >= 0; i--) {
      let a = 0
      const s = S[i]!
      for (let j = 0; j < D; j++) a += s[j]! * dir[j]!
      a *= rho[i]!
      alpha[i] = a
      const yy = Y[i]!
      for (let j = 0; j < D; j++) dir[j]! -= a * yy[j]!
    }
    if (k > 0) {
      const s = S[k - 1]!
      const yy = Y[k - 1]!
      let sy = 0
      let yy2 = 0
      for (let j = 0; j < D; j++) {
        sy += s[j]! * yy[j]!
        yy2 += yy[j]! * yy[j]!
      }
      const gamma = sy / yy2
      for (let j = 0; j < D; j++) dir[j]! *= gamma
    }
    for (let i = 0; i < k; i++) {
      let bb = 0
      const yy = Y[i]!
      for (let j = 0; j < D; j++) bb += yy[j]! * dir[j]!
      bb *= rho[i]!
      const s = S[i]!
      const c = alpha[i]! - bb
      for (let j = 0; j < D; j++) dir[j]! += c * s[j]!
    }
    let slope = 0
    for (let j = 0; j < D; j++) slope += g[j]! * dir[j]!
    if (slope >= 0) {
      // not a descent direction: restart from steepest descent
      S.length = 0
      Y.length = 0
      rho.length = 0
      for (let j = 0; j < D; j++) dir[j] = -g[j]!
      slope = 0
      for (let j = 0; j < D; j++) slope -= g[j]! * g[j]!
    }
    // backtracking line search (Armijo); the first step of the first iteration is scaled
    let step = k === 0 ? 1 / Math.max(1, Math.sqrt(-slope)) : 1
    let fNew = Number.POSITIVE_INFINITY
    for (let tries = 0; tries < 40; tries++) {
      for (let j = 0; j < D; j++) xNew[j] = x[j]! + step * dir[j]!
      fNew = evaluate(xNew, gNew)
      if (fNew <= f + 1e-4 * step * slope) break
      step *= 0.5
    }
    if (!(fNew < f)) break
    const s = new Float32Array(D)
    const yy = new Float32Array(D)
    let sy = 0
    for (let j = 0; j < D; j++) {
      s[j] = xNew[j]! - x[j]!
      yy[j] = gNew[j]! - g[j]!
      sy += s[j]! * yy[j]!
    }
    if (sy > 1e-12) {
      if (S.length === m) {
        S.shift()
        Y.shift()
        rho.shift()
      }
      S.push(s)
      Y.push(yy)
      rho.push(1 / sy)
    }
    const rel = (f - fNew) / Math.max(Math.abs(f), Math.abs(fNew), 1)
    x.set(xNew)
    g.set(gNew)
    f = fNew
    converged = maxAbs(g) <= gtol || rel < 1e-10
    if (it % 50 === 0) options.log?.(`    iteration ${it}: objective ${f.toFixed(6)}, max |gradient| ${maxAbs(g).toExponential(1)}`)
  }
  return { weights: x.subarray(0, d), bias: x[d]!, iterations: it, gradient: maxAbs(g), converged }
}

const columnsOf = (X: TfidfMatrix): number => {
  let d = 0
  for (let k = 0; k < X.col.length; k++) if (X.col[k]! >= d) d = X.col[k]! + 1
  return d
}

/** Log-odds of row `r` of `X` under a fitted model (columns beyond the model's width count zero). */
export const scoreTfidfRow = (X: TfidfMatrix, r: number, fit: LogisticFit): number => {
  let s = fit.bias
  const w = fit.weights
  for (let k = X.rowPtr[r]!; k < X.rowPtr[r + 1]!; k++) {
    const j = X.col[k]!
    if (j < w.length) s += w[j]! * X.val[k]!
  }
  return s
}

/** The baseline for a set of heads: one vocabulary, one logistic regression per head. */
export interface PlainBaseline {
  readonly tfidf: Tfidf
  readonly heads: ReadonlyMap<string, LogisticFit>
  /** Log-odds of every head for each text. */
  readonly score: (texts: ReadonlyArray<string>) => Map<string, Float64Array>
}

export interface BaselineRow {
  readonly text: string
  /** Label per head in [0, 1], binarised at 0.5; missing or NaN = the row does not label that head. */
  readonly labels: Readonly<Partial<Record<string, number>>>
}

const plainBaseline = (tfidf: Tfidf, fits: ReadonlyMap<string, LogisticFit>): PlainBaseline => ({
  tfidf,
  heads: fits,
  score: (texts) => {
    const M = tfidf.transform(texts)
    const out = new Map<string, Float64Array>()
    for (const [head, fit] of fits) {
      const s = new Float64Array(texts.length)
      for (let r = 0; r < texts.length; r++) s[r] = scoreTfidfRow(M, r, fit)
      out.set(head, s)
    }
    return out
  }
})

/**
 * A trained baseline as bytes (vocabulary, idf and every head's weights), so that repeated
 * evaluations of the same training rows need not retrain it.
 */
export const saveBaseline = (b: PlainBaseline): Uint8Array => {
  const heads = [...b.heads]
  const header = JSON.stringify({
    columns: b.tfidf.columns,
    wordColumns: b.tfidf.wordColumns,
    ...(b.tfidf.charMin === 2 ? {} : { charMin: b.tfidf.charMin }),
    heads: heads.map(([name, f]) => ({ name, bias: f.bias, iterations: f.iterations, gradient: f.gradient, converged: f.converged }))
  })
  const d = b.tfidf.columns
  const headerBytes = new TextEncoder().encode(header)
  const pad = (8 - ((4 + headerBytes.length) % 8)) % 8
  const size = 4 + headerBytes.length + pad + 8 * d + 4 * d + 4 * d * heads.length
  const out = new Uint8Array(size)
  new DataView(out.buffer).setUint32(0, headerBytes.length, true)
  out.set(headerBytes, 4)
  let o = 4 + headerBytes.length + pad
  out.set(new Uint8Array(b.tfidf.keys().buffer), o)
  o += 8 * d
  out.set(new Uint8Array(b.tfidf.idf.buffer, b.tfidf.idf.byteOffset, 4 * d), o)
  o += 4 * d
  for (const [, f] of heads) {
    out.set(new Uint8Array(Float32Array.from(f.weights).buffer), o)
    o += 4 * d
  }
  return out
}

export const loadBaseline = (bytes: Uint8Array): PlainBaseline => {
  const copy = bytes.slice()
  const len = new DataView(copy.buffer).getUint32(0, true)
  const header = JSON.parse(new TextDecoder().decode(copy.subarray(4, 4 + len))) as {
    columns: number
    wordColumns: number
    charMin?: number
    heads: Array<{ name: string; bias: number; iterations: number; gradient: number; converged: boolean }>
  }
  const d = header.columns
  let o = 4 + len + ((8 - ((4 + len) % 8)) % 8)
  const keys = new Float64Array(copy.buffer, o, d)
  o += 8 * d
  const idf = new Float32Array(copy.buffer, o, d)
  o += 4 * d
  const fits = new Map<string, LogisticFit>()
  for (const h of header.heads) {
    fits.set(h.name, { weights: Float64Array.from(new Float32Array(copy.buffer, o, d)), bias: h.bias, iterations: h.iterations, gradient: h.gradient, converged: h.converged })
    o += 4 * d
  }
  return plainBaseline(Tfidf.restore(keys, idf, header.wordColumns, header.charMin ?? 2), fits)
}

export const trainPlainBaseline = (
  rows: ReadonlyArray<BaselineRow>,
  heads: ReadonlyArray<string>,
  options: { readonly C?: number; readonly gtol?: number; readonly log?: (s: string) => void; readonly charMin?: number } = {}
): PlainBaseline => {
  const log = options.log ?? (() => {})
  const t0 = Date.now()
  const texts = rows.map((e) => e.text)
  const tfidf = Tfidf.fit(texts, options.charMin ?? 2)
  const X = tfidf.transform(texts)
  log(`baseline: ${tfidf.columns} columns (${tfidf.wordColumns} word), ${X.val.length} non-zeros over ${X.rows} rows, ${((Date.now() - t0) / 1000).toFixed(0)} s`)
  const fits = new Map<string, LogisticFit>()
  for (const head of heads) {
    const t1 = Date.now()
    const idx: Array<number> = []
    const y = new Float64Array(rows.length)
    rows.forEach((e, r) => {
      const v = e.labels[head]
      if (v === undefined || Number.isNaN(v)) return
      idx.push(r)
      y[r] = v >= 0.5 ? 1 : 0
    })
    if (idx.length === 0) continue
    const fit = fitLogistic(X, idx, y, { C: options.C ?? 4, gtol: options.gtol ?? 1e-4, log })
    fits.set(head, fit)
    log(`  ${head}: ${idx.length} rows, ${fit.iterations} L-BFGS iterations, max |gradient| ${fit.gradient.toExponential(1)}${fit.converged ? "" : " (not converged)"}, ${((Date.now() - t1) / 1000).toFixed(0)} s`)
  }
  return plainBaseline(tfidf, fits)
}
