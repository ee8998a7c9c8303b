/**
 * The neural judge's head recipe (issue 27; `npm run train:judge` runs it, encoder/judge.ts): a
 * weighted L2 logistic regression per attribute on the frozen encoder's embedding, Platt-scaled on
 * a held-out tenth, combined with the served linear probability by the unfitted mean.
 */
import type { ModelLabel } from "@decorum/local"
import * as D from "../data.js"
import { LABEL_SOURCE_WEIGHT, SOURCE_WEIGHT } from "../pipeline.js"
import { fitLogistic, lastFit, score } from "./logistic.js"

export const RELEASE = "judge-2026.11.28"
export const ENCODER_FILE = "use-lite.fp16.onnx"
export const LAMBDA = 1e-4
export const MEAN = { head: 0.5, linear: 0.5, bias: 0 } as const
/** Share of the neural mode's dev gain a cascade band must keep. */
export const KEEP = 0.9
export const BAND_LOWS = [0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3] as const
export const BAND_HIGHS = [0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1] as const

/** The linear recipe's sample weight of a row for one label (pipeline.trainHeads). */
export const sampleWeight = (e: D.Example, label: ModelLabel): number => LABEL_SOURCE_WEIGHT[label]?.[e.source] ?? SOURCE_WEIGHT[e.source] ?? 1

/** The held-out tenth (Platt), by hash of the row's id: the same rows as the earlier stack experiment. */
export const heldOut = (e: D.Example): boolean => D.hash32(`stack:${e.source}:${e.id}`) % 10 === 0

/** Label masking: the row's dataset labels this attribute. */
export const hasLabel = (e: D.Example, label: ModelLabel): boolean => e.labels[label] !== undefined && !Number.isNaN(e.labels[label]!)

/**
 * One head: the weighted L2 logistic fit on the rows outside the held-out tenth, then Platt on the
 * held-out tenth (unweighted), folded into the weights: z = a (w . x + b) + c.
 */
export const fitHead = (
  X: Float32Array,
  dim: number,
  rows: ReadonlyArray<D.Example>,
  label: ModelLabel,
  lambda: number = LAMBDA,
  isHeldOut: (e: D.Example) => boolean = heldOut
): { weights: Float64Array; bias: number; fitRows: number; plattRows: number; iterations: number; gmax: number } => {
  const fit: Array<number> = []
  const y: Array<number> = []
  const w: Array<number> = []
  const platt: Array<number> = []
  const py: Array<number> = []
  rows.forEach((e, i) => {
    if (!hasLabel(e, label)) return
    if (isHeldOut(e)) {
      platt.push(i)
      py.push(e.labels[label]!)
    } else {
      fit.push(i)
      y.push(e.labels[label]!)
      w.push(sampleWeight(e, label))
    }
  })
  const head = fitLogistic({ X, dim }, fit, y, lambda, 200, w)
  const stats = { iterations: lastFit.iterations, gmax: lastFit.gmax }
  const z = Float32Array.from(platt, (r) => score({ X, dim }, head, r))
  const [a, c] = fitLogistic({ X: z, dim: 1 }, platt.map((_, k) => k), py, 0)
  return {
    weights: Float64Array.from(head.subarray(0, dim), (v) => a! * v),
    bias: a! * head[dim]! + c!,
    fitRows: fit.length,
    plattRows: platt.length,
    ...stats
  }
}
