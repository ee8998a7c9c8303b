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
/** Candidate cascade bands: every [low, high] of these with low < high, and no band. */
export const BAND_LOWS = [0, 0.001, 0.005, 0.02, 0.05, 0.1, 0.2] as const
export const BAND_HIGHS = [0.1, 0.3, 0.5, 1] as const
/** The greedy band search's smallest counted step of routed share (1% of comments): no crawling by hundredths. */
export const MIN_STEP = 0.01
/** No band: cascade mode never routes on this attribute (a served probability is 1 only beyond log-odds 36). */
export const NO_BAND: readonly [number, number] = [1, 1]

/** The linear recipe's sample weight of a row for one label (pipeline.trainHeads). */
export const sampleWeight = (e: D.Example, label: ModelLabel): number => LABEL_SOURCE_WEIGHT[label]?.[e.source] ?? SOURCE_WEIGHT[e.source] ?? 1

/** The held-out tenth (Platt), by hash of the row's id: the same rows as the earlier stack experiment. */
export const heldOut = (e: D.Example): boolean => D.hash32(`stack:${e.source}:${e.id}`) % 10 === 0

/** Label masking: the row's dataset labels this attribute. */
export const hasLabel = (e: D.Example, label: ModelLabel): boolean => e.labels[label] !== undefined && !Number.isNaN(e.labels[label]!)

/**
 * One head: the weighted L2 logistic fit on the rows outside the held-out tenth, then Platt on the
 * held-out tenth, folded into the weights: z = a (w . x + b) + c. Platt's rows are re-weighted so
 * that their positive rate counts as `prevalence` (the linear release calibrates every head at the
 * natural Wikipedia prevalence, `JIGSAW_PREVALENCE`, the same prior shift): the head's log-odds are
 * then on the scale of the linear log-odds it is averaged with. Without `prevalence`, plain Platt.
 */
export const fitHead = (
  X: Float32Array,
  dim: number,
  rows: ReadonlyArray<D.Example>,
  label: ModelLabel,
  options: { readonly lambda?: number; readonly heldOut?: (e: D.Example) => boolean; readonly prevalence?: number | undefined } = {}
): { weights: Float64Array; bias: number; fitRows: number; plattRows: number; iterations: number; gmax: number } => {
  const isHeldOut = options.heldOut ?? heldOut
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
  const head = fitLogistic({ X, dim }, fit, y, options.lambda ?? LAMBDA, 200, w)
  const stats = { iterations: lastFit.iterations, gmax: lastFit.gmax }
  const z = Float32Array.from(platt, (r) => score({ X, dim }, head, r))
  const rate = py.reduce((a, v) => a + v, 0) / py.length
  const prior = options.prevalence
  const pw = prior === undefined ? undefined : py.map((v) => v * (prior / rate) + (1 - v) * ((1 - prior) / (1 - rate)))
  const [a, c] = fitLogistic({ X: z, dim: 1 }, platt.map((_, k) => k), py, 0, 200, pw)
  return {
    weights: Float64Array.from(head.subarray(0, dim), (v) => a! * v),
    bias: a! * head[dim]! + c!,
    fitRows: fit.length,
    plattRows: platt.length,
    ...stats
  }
}

/** logit of a probability, clamped as JudgeBackend.combine clamps the linear probability. */
export const servedLogit = (p: number): number => {
  const q = Math.min(Math.max(p, 1e-7), 1 - 1e-7)
  return Math.log(q / (1 - q))
}

/**
 * The calibrated combination: the unfitted mean `m = 0.5 z + 0.5 logit(p_linear)` (its ranking),
 * put on the scale the linear release serves for that attribute by a Platt map `a m + c` fitted on
 * calibration rows: `{ head: 0.5 a, linear: 0.5 a, bias: c }`. `targets` are the rows' labels in
 * [0, 1] (soft targets allowed: TOXICITY's are Perspective's scores, as the linear release maps
 * TOXICITY onto Perspective's scale); with `prevalence`, the rows are re-weighted so their positive
 * rate counts as that prevalence (the linear heads' calibration).
 */
export const calibrateMean = (
  z: ReadonlyArray<number>,
  linearProbability: ReadonlyArray<number>,
  targets: ReadonlyArray<number>,
  prevalence?: number,
  mean: { readonly head: number; readonly linear: number } = MEAN
): { head: number; linear: number; bias: number } => {
  const m = Float32Array.from(z, (v, i) => mean.head * v + mean.linear * servedLogit(linearProbability[i]!))
  const rate = targets.reduce((a, v) => a + v, 0) / targets.length
  const w = prevalence === undefined ? undefined : targets.map((v) => v * (prevalence / rate) + (1 - v) * ((1 - prevalence) / (1 - rate)))
  const [a, c] = fitLogistic({ X: m, dim: 1 }, targets.map((_, k) => k), targets, 0, 200, w)
  return { head: mean.head * a!, linear: mean.linear * a!, bias: c! }
}
