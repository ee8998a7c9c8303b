/**
 * The neural judge's scores as the server serves them (issue 27), for training's band choice and
 * `npm run eval`: the encoder's embedding (embed.ts: the shipped ONNX on onnxruntime-node, the
 * SentencePiece tokenizer, the 128-token cap), the file's heads, and JudgeBackend.combine with the
 * probability the linear release serves.
 */
import type { ModelLabel } from "@decorum/local"
import type { Encoder } from "./embed.js"
import { headLogit, inBand, judged, routes, type JudgeFile } from "./judgeFile.js"

/** What the judge needs of the linear release: the served probabilities of a text. */
export interface LinearRelease {
  readonly version: string
  readonly predict: (text: string, labels: ReadonlyArray<ModelLabel>) => Partial<Record<ModelLabel, number>>
}

export interface JudgeScores {
  /** The linear release's served probability. */
  readonly linear: Map<ModelLabel, Float64Array>
  /** The head's log-odds (Platt folded in). */
  readonly head: Map<ModelLabel, Float64Array>
  /** DECORUM_JUDGE=neural: every comment judged. */
  readonly neural: Map<ModelLabel, Float64Array>
  /** DECORUM_JUDGE=cascade: judged when the comment is routed, linear elsewhere. */
  readonly cascade: Map<ModelLabel, Float64Array>
  /** 1 where the attribute's served linear probability is in its band. */
  readonly inBand: Map<ModelLabel, Uint8Array>
  /** 1 where the cascade sends the comment to the encoder (any requested attribute in its band). */
  readonly routed: Uint8Array
}

/** Served linear probabilities of every label for a list of texts. */
export const linearScores = (linear: LinearRelease, labels: ReadonlyArray<ModelLabel>, texts: ReadonlyArray<string>): Map<ModelLabel, Float64Array> => {
  const out = new Map<ModelLabel, Float64Array>(labels.map((l) => [l, new Float64Array(texts.length)]))
  texts.forEach((t, i) => {
    const p = linear.predict(t, labels)
    for (const l of labels) out.get(l)![i] = p[l]!
  })
  return out
}

/**
 * Every mode's scores from a text list's embeddings and served linear probabilities, for a request
 * that asks `labels` (the eval asks the six toxicity attributes, as an analyze of all six does).
 */
export const judgeFrom = (file: JudgeFile, labels: ReadonlyArray<ModelLabel>, X: Float32Array, linear: Map<ModelLabel, Float64Array>): JudgeScores => {
  const n = X.length / file.dimensions
  const head = new Map<ModelLabel, Float64Array>()
  const neural = new Map<ModelLabel, Float64Array>()
  const band = new Map<ModelLabel, Uint8Array>()
  for (const l of labels) {
    const h = file.heads[l]
    const p = linear.get(l)!
    const z = Float64Array.from({ length: n }, (_, i) => (h === undefined ? Number.NaN : headLogit(h, X, i * file.dimensions)))
    head.set(l, z)
    neural.set(l, Float64Array.from(p, (v, i) => judged(file, l, z[i]!, v)))
    band.set(l, Uint8Array.from(p, (v) => (inBand(file, l, v) ? 1 : 0)))
  }
  const routed = Uint8Array.from({ length: n }, (_, i) => (routes(file, "cascade", labels, (l) => linear.get(l)![i]!) ? 1 : 0))
  const cascade = new Map<ModelLabel, Float64Array>(labels.map((l) => [l, Float64Array.from(linear.get(l)!, (v, i) => (routed[i] === 1 ? neural.get(l)![i]! : v))]))
  return { linear, head, neural, cascade, inBand: band, routed }
}

/** Scores of texts (embedded through `encoder`, cached by embed.ts). */
export const judgeScorer = (file: JudgeFile, encoder: Encoder, linear: LinearRelease, labels: ReadonlyArray<ModelLabel>, log?: (s: string) => void) =>
  async (texts: ReadonlyArray<string>): Promise<JudgeScores> =>
    judgeFrom(file, labels, await encoder.embed(texts, log), linearScores(linear, labels, texts))
