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
import * as LocalJudgeFile from "@decorum/local/JudgeFile"
import { Either } from "effect"

/** The file as training writes it: the server's schema (`@decorum/local/JudgeFile`), with a band for every head. */
export type JudgeFile = LocalJudgeFile.JudgeFile & { readonly cascade: Readonly<Record<string, readonly [number, number]>> }

export type JudgeHeadJson = JudgeFile["heads"][string]

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

/** Parse and check a judge file with the server's checks, and that every head has its band. */
export const decodeJudgeFile = (text: string): JudgeFile => {
  const f = Either.getOrThrowWith(LocalJudgeFile.parseJudgeFile(text), (why) => new Error(why))
  const missing = Object.keys(f.heads).filter((label) => f.cascade?.[label] === undefined)
  if (missing.length > 0) throw new Error(`judge.json: no cascade band for ${missing.join(", ")}`)
  return f as JudgeFile
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
