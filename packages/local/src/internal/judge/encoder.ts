/**
 * Sentence embeddings of the shipped encoder (`models/encoder/use-lite.fp16.onnx`), computed as
 * `packages/training/encoder/embed.ts` computes them for training: the SentencePiece ids of the
 * text (at most `maxTokens`), a mask of ones over them, padded with zeros to the longest row of a
 * run; the output `embedding` [rows, dimensions].
 *
 * A call is split into runs of similar token length: a run pads every row to its longest, and the
 * encoder's attention costs the square of that length, so a short comment batched with a long one
 * would cost as much as the long one.
 */
import type { SentencePiece } from "./../encoder/sentencepiece.js"
import type { OrtWorker } from "./ortWorker.js"

/** Rows per encoder run at most. */
export const MAX_RUN_ROWS = 32

/**
 * The runs of a call: row indices grouped by token length (sorted), a run closing when it holds
 * `MAX_RUN_ROWS` rows or the next row is more than twice as long as its first (plus 8 tokens).
 */
export const runsByLength = (lengths: ReadonlyArray<number>): Array<Array<number>> => {
  const order = Array.from(lengths.keys()).sort((a, b) => lengths[a]! - lengths[b]!)
  const runs: Array<Array<number>> = []
  let run: Array<number> = []
  for (const i of order) {
    if (run.length > 0 && (run.length >= MAX_RUN_ROWS || lengths[i]! > 2 * lengths[run[0]!]! + 8)) {
      runs.push(run)
      run = []
    }
    run.push(i)
  }
  if (run.length > 0) runs.push(run)
  return runs
}

export interface Encoder {
  readonly dimensions: number
  /** The embeddings of `texts`, row after row (`texts.length * dimensions`). */
  readonly embed: (texts: ReadonlyArray<string>) => Promise<Float32Array>
}

export const makeEncoder = (worker: OrtWorker, tokenizer: SentencePiece, maxTokens: number, dimensions: number): Encoder => ({
  dimensions,
  embed: async (texts) => {
    const tokens = texts.map((t) => tokenizer.encode(t).slice(0, maxTokens))
    const out = new Float32Array(texts.length * dimensions)
    await Promise.all(runsByLength(tokens.map((t) => t.length)).map(async (run) => {
      const width = Math.max(1, ...run.map((r) => tokens[r]!.length))
      const ids = new BigInt64Array(run.length * width)
      const mask = new Float32Array(run.length * width)
      run.forEach((r, b) =>
        tokens[r]!.forEach((id, t) => {
          ids[b * width + t] = BigInt(id)
          mask[b * width + t] = 1
        })
      )
      const result = await worker.run({
        ids: { type: "int64", data: ids, dims: [run.length, width] },
        mask: { type: "float32", data: mask, dims: [run.length, width] }
      })
      const embedding = result["embedding"]
      if (embedding === undefined || embedding.data.length !== run.length * dimensions) {
        throw new Error(`the encoder answered no ${run.length}x${dimensions} embedding`)
      }
      run.forEach((r, b) => out.set(embedding.data.subarray(b * dimensions, (b + 1) * dimensions), r * dimensions))
    }))
    return out
  }
})
