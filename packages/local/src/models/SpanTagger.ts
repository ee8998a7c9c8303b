/**
 * The trained toxic-span tagger as the `SpanModel` service: loads `spans.json` and its weight file
 * (checked against its sha256) from the models directory, once.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Effect, Layer, Option } from "effect"
import { optionalModelIn, layerOptional } from "../internal/optionalModel.js"
import { type SpanManifest, SpanWeights } from "../internal/spans/model.js"
import { SpanModel, type SpanModelService } from "../SpanModel.js"
import { defaultModelDirectory } from "./TrainedModel.js"

export const SPAN_MANIFEST = "spans.json"

/** Load the tagger from a directory holding `spans.json` and its weight file (synchronous). */
export const loadSpanWeights = (directory: string = defaultModelDirectory()): SpanWeights => {
  const manifest = JSON.parse(readFileSync(join(directory, SPAN_MANIFEST), "utf8")) as SpanManifest
  const bytes = readFileSync(join(directory, manifest.file))
  const sha = createHash("sha256").update(bytes).digest("hex")
  if (sha !== manifest.sha256) throw new Error(`model file ${manifest.file}: sha256 ${sha} does not match ${SPAN_MANIFEST}`)
  const weights = new Float32Array(bytes.byteLength / 4)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let i = 0; i < weights.length; i++) weights[i] = view.getFloat32(i * 4, true)
  return new SpanWeights(manifest, weights)
}

/** The `SpanModel` service over loaded weights. */
export const fromSpanWeights = (weights: SpanWeights): SpanModelService => ({
  version: weights.manifest.version,
  spans: (text, words) => weights.spans(text, words),
  confidentSpans: (text, words) => weights.confidentSpans(text, words)
})

/**
 * The tagger of a models directory: none when the directory has no `spans.json`, and none with one
 * warning when its files are damaged or one is missing (objectionable phrases are then cut from the
 * heads' explanations; every score is served as usual), as for the fallacy detector.
 */
export const spanModelIn = (directory: string): Effect.Effect<Option.Option<SpanModelService>> =>
  optionalModelIn(
    directory,
    SPAN_MANIFEST,
    () => fromSpanWeights(loadSpanWeights(directory)),
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
