/**
 * Sentence embeddings of the shipped encoder (`models/encoder/use-lite.fp16.onnx`), computed as
 * `packages/training/encoder/embed.ts` computes them for training: the SentencePiece ids of the
 * text (at most `maxTokens`) and a mask of ones over them; the output `embedding` [1, dimensions].
 *
 * One encoder run per text, never several texts in one padded run: onnxruntime's kernels sum in
 * another order for another batch shape, so a text's embedding (and its score) would change in the
 * last bits with the texts it happened to be batched with, and the same comment would not always
 * get the same score (measured: a text alone and beside another of the same length differ). The
 * runs of a call go to the worker in one message, which runs them one after another.
 */
import { Adaptation } from "@decorum/core"
import { Effect } from "effect"
import type { SentencePiece } from "./../encoder/sentencepiece.js"
import type { OrtWorker } from "./ortWorker.js"

export interface Encoder {
  readonly dimensions: number
  /** The embeddings of `texts`, row after row (`texts.length * dimensions`). */
  readonly embed: (texts: ReadonlyArray<string>) => Promise<Float32Array>
}

export const makeEncoder = (worker: OrtWorker, tokenizer: SentencePiece, maxTokens: number, dimensions: number): Encoder => ({
  dimensions,
  embed: async (texts) => {
    const runs = texts.map((text) => {
      const tokens = tokenizer.encodeFirst(text, maxTokens)
      // At least one position (an empty text: the mask is all zeros, as training's padded rows).
      const width = Math.max(1, tokens.length)
      const ids = new BigInt64Array(width)
      const mask = new Float32Array(width)
      tokens.forEach((id, t) => {
        ids[t] = BigInt(id)
        mask[t] = 1
      })
      return {
        ids: { type: "int64" as const, data: ids, dims: [1, width] },
        mask: { type: "float32" as const, data: mask, dims: [1, width] }
      }
    })
    const results = await worker.run(runs)
    if (results.length !== texts.length) throw new Error(`the encoder answered ${results.length} runs for ${texts.length} texts`)
    const out = new Float32Array(texts.length * dimensions)
    results.forEach((result, row) => {
      const embedding = result["embedding"]
      if (embedding === undefined || embedding.data.length !== dimensions) throw new Error(`the encoder answered no 1x${dimensions} embedding`)
      out.set(embedding.data, row * dimensions)
    })
    return out
  }
})

/** Scales each row of `rows` (`dimensions` wide) to unit length, in place (a zero row stays zero). */
export const normalizeRows = (rows: Float32Array, dimensions: number): Float32Array => {
  for (let offset = 0; offset < rows.length; offset += dimensions) {
    let sum = 0
    for (let j = 0; j < dimensions; j++) sum += rows[offset + j]! * rows[offset + j]!
    if (sum === 0) continue
    const inverse = 1 / Math.sqrt(sum)
    for (let j = 0; j < dimensions; j++) rows[offset + j] = rows[offset + j]! * inverse
  }
  return rows
}

/** The encoder as site adapters read it (`Adaptation.Embedder`): unit-length rows, failures typed. */
export const embedderOf = (encoder: Encoder, sha256: string): Adaptation.Embedder["Type"] => ({
  sha256,
  dimensions: encoder.dimensions,
  embed: (texts) =>
    Effect.tryPromise({
      try: () => encoder.embed(texts),
      catch: (e) => new Adaptation.EmbedderFailure({ message: `the encoder failed: ${e instanceof Error ? e.message : String(e)}` })
    }).pipe(Effect.map((rows) => normalizeRows(rows, encoder.dimensions)))
})

/**
 * `embedder` with at most `limit` calls in flight: past it a call fails at once (a site adapter
 * then applies its hashed fallback, as when the encoder is unavailable) instead of queueing behind
 * the encoder without bound. Serving's guard; fitting embeds one batch at a time.
 */
export const bounded = (embedder: Adaptation.Embedder["Type"], limit: number): Adaptation.Embedder["Type"] => {
  let inFlight = 0
  return {
    ...embedder,
    embed: (texts) =>
      Effect.suspend(() => {
        if (inFlight >= limit) return Effect.fail(new Adaptation.EmbedderFailure({ message: `the encoder has ${inFlight} site adapter calls in flight` }))
        inFlight++
        return Effect.ensuring(embedder.embed(texts), Effect.sync(() => inFlight--))
      })
  }
}

/**
 * The raw embeddings of the texts the judge embedded last (at most `capacity`), so that the site
 * adapter of a comment the judge has just read does not run the encoder again. The same values a
 * new run would give: a text's embedding does not depend on the texts run beside it (above).
 */
export const makeRecent = (capacity: number, dimensions: number) => {
  const rows = new Map<string, Float32Array>()
  return {
    /** Keeps `embeddings` (row after row) of `texts`, dropping the oldest past `capacity`. */
    remember: (texts: ReadonlyArray<string>, embeddings: Float32Array) => {
      texts.forEach((text, row) => {
        rows.delete(text)
        rows.set(text, embeddings.slice(row * dimensions, (row + 1) * dimensions))
        if (rows.size > capacity) rows.delete(rows.keys().next().value!)
      })
    },
    /** `embedder` answering from the texts kept when it has them all (no encoder call, not counted by `bounded`). */
    reading: (embedder: Adaptation.Embedder["Type"]): Adaptation.Embedder["Type"] => ({
      ...embedder,
      embed: (texts) =>
        Effect.suspend(() => {
          const out = new Float32Array(texts.length * dimensions)
          for (let row = 0; row < texts.length; row++) {
            const kept = rows.get(texts[row]!)
            if (kept === undefined) return embedder.embed(texts)
            out.set(kept, row * dimensions)
          }
          return Effect.succeed(normalizeRows(out, dimensions))
        })
    })
  }
}
