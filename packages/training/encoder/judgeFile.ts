/**
 * The neural judge's file (issue 27): `packages/local/models/encoder/judge.json`, written by
 * `npm run train:judge` and read by the server's built-in judge backend and by `npm run eval`.
 *
 *     {
 *       "release": "judge-2026.11.28",
 *       "encoder": { "file": "use-lite.fp16.onnx", "sha256": "...", "vocab": "vocab.json", "maxTokens": 128 },
 *       "linearRelease": "local-2026.12.7",
 *       "dimensions": 512,
 *       "heads": { "TOXICITY": { "weights": [512 numbers], "bias": b, "combine": { "head": 0.5, "linear": 0.5, "bias": 0 } }, ... },
 *       "cascade": { "TOXICITY": [low, high], ... }
 *     }
 *
 * A head's log-odds is `z = weights . embedding + bias` (Platt scaling folded in). The judged
 * probability is `JudgeBackend.combine(combine, z, p)` with `p` the probability the linear release
 * serves. Routing is per comment, as the server's `Judge.routes`: in neural mode every comment
 * goes to the encoder; in cascade mode a comment goes when the served linear probability of one of
 * the judge's attributes lies in that attribute's band (inclusive). The server reads every judged
 * attribute's linear score for this, requested or not, so that a score never depends on what else
 * a request asked for; `routes` below is called with all of them. A routed comment gets the judged
 * probability of every judged attribute; any other comment keeps the linear probabilities. The band `[1, 1]` never routes in practice (a
 * served probability is 1 only beyond log-odds 36).
 */
import { combine } from "@decorum/local/JudgeBackend"
import type { ModelLabel } from "@decorum/local"

export interface JudgeCombinationJson {
  readonly head: number
  readonly linear: number
  readonly bias: number
}

export interface JudgeHeadJson {
  readonly weights: ReadonlyArray<number>
  readonly bias: number
  readonly combine: JudgeCombinationJson
}

export interface JudgeFile {
  readonly release: string
  readonly encoder: { readonly file: string; readonly sha256: string; readonly vocab: string; readonly maxTokens: number }
  readonly linearRelease: string
  readonly dimensions: number
  readonly heads: Readonly<Record<string, JudgeHeadJson>>
  readonly cascade: Readonly<Record<string, readonly [number, number]>>
}

export const JUDGE_FILE = "judge.json"

export type JudgeMode = "neural" | "cascade"

/** Nine significant digits: more than the float32 embedding carries, and the same text on every run. */
const round = (x: number): number => Number(x.toPrecision(9))

/** The file's text: deterministic (keys in the order given, numbers to nine digits, arrays of numbers on one line). */
export const encodeJudgeFile = (file: JudgeFile): string => {
  const rounded: JudgeFile = {
    ...file,
    heads: Object.fromEntries(
      Object.entries(file.heads).map(([k, h]) => [
        k,
        { weights: h.weights.map(round), bias: round(h.bias), combine: { head: round(h.combine.head), linear: round(h.combine.linear), bias: round(h.combine.bias) } }
      ])
    ),
    cascade: Object.fromEntries(Object.entries(file.cascade).map(([k, [lo, hi]]) => [k, [round(lo), round(hi)] as const]))
  }
  return JSON.stringify(rounded, null, 2).replace(/\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]/g, (_, inner: string) => `[${inner.replace(/\s+/g, "")}]`) + "\n"
}

const fail = (why: string): never => {
  throw new Error(`judge file: ${why}`)
}
const isNumber = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x)

/** Parse and check a judge file (every head's width, every number finite, every band inside [0, 1]). */
export const decodeJudgeFile = (text: string): JudgeFile => {
  const f = JSON.parse(text) as JudgeFile
  if (typeof f.release !== "string" || f.release === "") fail("release missing")
  if (typeof f.linearRelease !== "string") fail("linearRelease missing")
  const e = f.encoder
  if (e === undefined || typeof e.file !== "string" || !/^[0-9a-f]{64}$/.test(e.sha256) || typeof e.vocab !== "string" || !isNumber(e.maxTokens)) fail("encoder incomplete")
  if (!isNumber(f.dimensions) || f.dimensions <= 0) fail("dimensions missing")
  for (const [label, h] of Object.entries(f.heads ?? fail("heads missing"))) {
    if (!Array.isArray(h.weights) || h.weights.length !== f.dimensions || !h.weights.every(isNumber)) fail(`${label}: weights must be ${f.dimensions} numbers`)
    if (!isNumber(h.bias)) fail(`${label}: bias`)
    if (h.combine === undefined || ![h.combine.head, h.combine.linear, h.combine.bias].every(isNumber)) fail(`${label}: combine`)
  }
  for (const [label, band] of Object.entries(f.cascade ?? fail("cascade missing"))) {
    if (!(label in f.heads)) fail(`cascade names ${label}, which has no head`)
    if (!Array.isArray(band) || band.length !== 2 || !band.every(isNumber) || !(0 <= band[0] && band[0] <= band[1] && band[1] <= 1)) fail(`${label}: band must be [low, high] within [0, 1]`)
  }
  return f
}

/** A head's log-odds for the embedding at `offset` of `X`. */
export const headLogit = (head: JudgeHeadJson, X: Float32Array, offset: number): number => {
  let z = head.bias
  for (let j = 0; j < head.weights.length; j++) z += head.weights[j]! * X[offset + j]!
  return z
}

/** Whether cascade mode's band of `label` holds its served linear probability. */
export const inBand = (file: JudgeFile, label: ModelLabel, linearProbability: number): boolean => {
  const band = file.cascade[label]
  return file.heads[label] !== undefined && band !== undefined && linearProbability >= band[0] && linearProbability <= band[1]
}

/** Whether `mode` sends a comment to the encoder, given the served linear probabilities of the requested attributes (the server's `Judge.routes`). */
export const routes = (file: JudgeFile, mode: JudgeMode, requested: ReadonlyArray<ModelLabel>, linear: (label: ModelLabel) => number): boolean =>
  mode === "neural" ? requested.some((l) => file.heads[l] !== undefined) : requested.some((l) => inBand(file, l, linear(l)))

/**
 * The probability the server serves for `label` of a comment the judge read: the head's log-odds
 * `z` combined with the served linear probability (JudgeBackend.combine); the linear probability
 * itself when the file has no head for the label.
 */
export const judged = (file: JudgeFile, label: ModelLabel, z: number, linearProbability: number): number => {
  const head = file.heads[label]
  return head === undefined ? linearProbability : combine(head.combine, z, linearProbability)
}
