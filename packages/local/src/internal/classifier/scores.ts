/**
 * From a classifier's output row to one attribute's log-odds: the mapping's activation read as
 * log-odds, its Platt calibration, and the pooling of a long comment's windows.
 */
import { logit } from "../calibration.js"
import type { Activation } from "./mapping.js"

/**
 * The log-odds of column `index` of the output row of `columns` values at `offset` in `data`: the
 * logit itself (sigmoid), the log-odds of that class against all the others (softmax:
 * `x_i - log sum_{j != i} e^{x_j}`, computed without overflow), or the logit of a probability.
 */
export const logOdds = (activation: Activation, data: ArrayLike<number>, offset: number, columns: number, index: number): number => {
  const x = data[offset + index]!
  switch (activation) {
    case "sigmoid":
      return x
    case "probability":
      return logit(x)
    case "softmax": {
      let top = -Infinity
      for (let j = 0; j < columns; j++) if (j !== index) top = Math.max(top, data[offset + j]!)
      let sum = 0
      for (let j = 0; j < columns; j++) if (j !== index) sum += Math.exp(data[offset + j]! - top)
      return x - (top + Math.log(sum))
    }
  }
}

const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)))

/**
 * One comment's log-odds from its windows': the highest (max), or the log-odds of the windows'
 * mean probability (mean). One window is its own score either way.
 */
export const pool = (how: "max" | "mean", z: ReadonlyArray<number>): number => {
  if (z.length === 1) return z[0]!
  if (how === "max") return Math.max(...z)
  return logit(z.reduce((s, v) => s + sigmoid(v), 0) / z.length)
}
