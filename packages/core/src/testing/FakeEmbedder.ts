/**
 * An `Adaptation.Embedder` for tests (the real one is the judge's sentence encoder, in
 * `@decorum/local`): each text's embedding is unit length, its first dimension `direction(text)`
 * (in [-1, 1]) and the rest a fixed pseudo-random pattern of the text. A corpus whose labels follow
 * `direction` is separated by one direction of the embedding and by nothing in its words.
 */
import { Effect, Layer } from "effect"
import * as Adaptation from "../Adaptation.js"
import { fnv1a } from "../Hashing.js"

export const SHA256 = "fa4e0000000000000000000000000000000000000000000000000000000000e1"

export interface Options {
  readonly direction: (text: string) => number
  readonly dimensions?: number
  readonly sha256?: string
  /** Fails every call (an encoder that stopped). */
  readonly failing?: boolean
}

export type FakeEmbedder = Adaptation.Embedder["Type"] & {
  /** Every text embedded so far, in order. */
  readonly embedded: ReadonlyArray<string>
}

/** The embedding `make` gives `text`. */
export const embedding = (text: string, direction: number, dimensions: number): Float32Array => {
  const out = new Float32Array(dimensions)
  let seed = fnv1a(text) || 1
  let sum = 0
  for (let d = 1; d < dimensions; d++) {
    // xorshift32: a fixed pattern per text.
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    out[d] = ((seed >>> 0) / 0xffffffff) * 2 - 1
    sum += out[d]! * out[d]!
  }
  const s = Math.max(-1, Math.min(1, direction))
  const rest = Math.sqrt(1 - s * s) / (Math.sqrt(sum) || 1)
  for (let d = 1; d < dimensions; d++) out[d] = out[d]! * rest
  out[0] = s
  return out
}

export const make = (options: Options): FakeEmbedder => {
  const dimensions = options.dimensions ?? 16
  const embedded: Array<string> = []
  return {
    sha256: options.sha256 ?? SHA256,
    dimensions,
    embedded,
    embed: (texts) =>
      options.failing === true
        ? Effect.fail(new Adaptation.EmbedderFailure({ message: "the fake encoder is down" }))
        : Effect.sync(() => {
          const out = new Float32Array(texts.length * dimensions)
          texts.forEach((text, row) => {
            embedded.push(text)
            out.set(embedding(text, options.direction(text), dimensions), row * dimensions)
          })
          return out
        })
  }
}

/** `make` as the `Adaptation.Embedder` layer. */
export const layer = (options: Options): Layer.Layer<Adaptation.Embedder> => Layer.sync(Adaptation.Embedder, () => make(options))
