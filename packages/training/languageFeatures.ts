/**
 * The feature matrices of the per-language trainer (languages.ts, issue 28 round 3), apart from
 * its command line so that tests can import them: the smooth idf of the hashed slots, the split
 * of a language's rows into the normaliser's features (even slots) and the plain baseline's
 * tokens (odd slots, `FeatureConfig.plain`), and the compact column numbering the L-BFGS solver
 * reads.
 */
import { decodeIdf, encodeIdf } from "@decorum/local/ModelFormat"
import { SparseMatrix } from "./fit.js"

/**
 * smooth idf (scikit-learn's) of every folded slot over the rows, rounded as the idf file stores
 * it; 0 for a slot no row has (dropped from the norm at run time, as an unknown n-gram).
 */
export const idfOf = (X: SparseMatrix, bits: number): Float32Array => {
  const size = 1 << bits
  const mask = size - 1
  const df = new Float64Array(size)
  const seen = new Int32Array(size).fill(-1)
  for (let r = 0; r < X.rows; r++) {
    for (let k = X.rowPtr[r]!; k < X.rowPtr[r + 1]!; k++) {
      const j = X.idx[k]! & mask
      if (seen[j] !== r) {
        seen[j] = r
        df[j]! += 1
      }
    }
  }
  const idf = new Float64Array(size)
  for (let j = 0; j < size; j++) idf[j] = df[j] === 0 ? 0 : Math.log((1 + X.rows) / (1 + df[j]!)) + 1
  return decodeIdf(encodeIdf(idf))
}

/**
 * `X` with its slots folded to `bits` and numbered in order of first use, as baseline.ts's solver
 * reads it (`slots[c]` is column c's slot): a slot no row has would keep weight 0 under the L2
 * penalty, so leaving it out changes nothing but the solver's cost (2^20 slots, 0.2-3 million used).
 */
export interface Compact {
  readonly rows: number
  readonly rowPtr: Int32Array
  readonly col: Int32Array
  readonly val: Float32Array
  readonly slots: Int32Array
}
export const compact = (X: SparseMatrix, bits: number): Compact => {
  const mask = (1 << bits) - 1
  const colOf = new Int32Array(1 << bits).fill(-1)
  const slots: Array<number> = []
  const col = new Int32Array(X.nnz)
  for (let k = 0; k < X.nnz; k++) {
    const j = X.idx[k]! & mask
    if (colOf[j]! < 0) {
      colOf[j] = slots.length
      slots.push(j)
    }
    col[k] = colOf[j]!
  }
  return { rows: X.rows, rowPtr: X.rowPtr.subarray(0, X.rows + 1), col, val: X.val.subarray(0, X.nnz), slots: Int32Array.from(slots) }
}

/** The entries of `X` on the slots of one parity: 0, the normaliser's features (R); 1, the baseline's tokens (P). */
export const parityPart = (X: SparseMatrix, parity: 0 | 1): SparseMatrix => {
  const out = new SparseMatrix()
  const idx: Array<number> = []
  const val: Array<number> = []
  for (let r = 0; r < X.rows; r++) {
    idx.length = 0
    val.length = 0
    for (let k = X.rowPtr[r]!; k < X.rowPtr[r + 1]!; k++) {
      if ((X.idx[k]! & 1) !== parity) continue
      idx.push(X.idx[k]!)
      val.push(X.val[k]!)
    }
    out.push(idx, val, idx.length)
  }
  return out
}

