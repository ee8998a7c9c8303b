/**
 * The trained toxic-span tagger as the `SpanModel` service: reads `spans.json` and its weight file
 * (checked against its sha256) from the models directory, once, and decodes the weights on the
 * first comment it tags.
 */
import type { Effect, Layer, Option } from "effect"
import { type ModelFiles, optionalModelIn, layerOptional, readModelFiles } from "../internal/optionalModel.js"
import { SPAN_FORMAT, type SpanManifest, SpanWeights } from "../internal/spans/model.js"
import { SpanModel, type SpanModelService } from "../SpanModel.js"
import { defaultModelDirectory } from "./TrainedModel.js"

export const SPAN_MANIFEST = "spans.json"

/** The tagger of checked files: the weight file is little-endian float32s. */
const spanWeightsOf = ({ bytes, manifest }: ModelFiles<SpanManifest>): SpanWeights => {
  const weights = new Float32Array(bytes.byteLength / 4)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let i = 0; i < weights.length; i++) weights[i] = view.getFloat32(i * 4, true)
  return new SpanWeights(manifest, weights)
}

/** Load the tagger from a directory holding `spans.json` and its weight file (synchronous). */
export const loadSpanWeights = (directory: string = defaultModelDirectory()): SpanWeights =>
  spanWeightsOf(readModelFiles<SpanManifest>(directory, SPAN_MANIFEST, SPAN_FORMAT))

/** The `SpanModel` service over loaded weights. */
export const fromSpanWeights = (weights: SpanWeights): SpanModelService => ({
  version: weights.manifest.version,
  spans: (text, words) => weights.spans(text, words),
  confidentSpans: (text, words) => weights.confidentSpans(text, words)
})

/**
 * The tagger of a models directory: none when the directory has no `spans.json`, and none with one
 * warning when its files are damaged or one is missing (objectionable phrases are then cut from the
 * heads' explanations; every score is served as usual), as for the fallacy detector. The files are
 * read and checked here; the weights are decoded on the first comment tagged.
 */
export const spanModelIn = (directory: string): Effect.Effect<Option.Option<SpanModelService>> =>
  optionalModelIn(
    directory,
    SPAN_MANIFEST,
    (firstUse): SpanModelService => {
      const files = readModelFiles<SpanManifest>(directory, SPAN_MANIFEST, SPAN_FORMAT)
      const tagger = firstUse(() => fromSpanWeights(spanWeightsOf(files)))
      return {
        version: files.manifest.version,
        spans: (text, words) => tagger().spans(text, words),
        confidentSpans: (text, words) => tagger().confidentSpans(text, words)
      }
    },
    "toxic-span tagger",
    "objectionable phrases are cut from the toxicity heads' explanations; every score is served as usual"
  )

export const SpanTagger = {
  /**
   * Provides `SpanModel` from a models directory (the shipped one by default) when its tagger
   * loads, nothing otherwise (see `spanModelIn`).
   */
  layerIn: (directory: string = defaultModelDirectory()): Layer.Layer<never> => layerOptional(SpanModel, spanModelIn(directory))
}
