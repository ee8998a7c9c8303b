/**
 * The trained AI-written-text detector as the `AiTextModel` service: loads `aitext.json` and its
 * weight file (checked against its sha256) from the models directory, once.
 */
import type { Effect, Layer, Option } from "effect"
import { AiTextModel, type AiTextModelService } from "../AiTextModel.js"
import { AITEXT_FORMAT, type AiTextManifest, AiTextWeights } from "../internal/aitext/model.js"
import { optionalModelIn, layerOptional, readModelFiles } from "../internal/optionalModel.js"
import { defaultModelDirectory } from "./TrainedModel.js"

export const AITEXT_MANIFEST = "aitext.json"

/** Load the detector from a directory holding `aitext.json` and its weight file (synchronous). */
export const loadAiTextWeights = (directory: string = defaultModelDirectory()): AiTextWeights => {
  const { bytes, manifest } = readModelFiles<AiTextManifest>(directory, AITEXT_MANIFEST, AITEXT_FORMAT)
  return new AiTextWeights(manifest, bytes)
}

/** The `AiTextModel` service over loaded weights. */
export const fromAiTextWeights = (weights: AiTextWeights): AiTextModelService => ({
  version: weights.manifest.version,
  analyse: (text) => {
    const s = weights.analyse(text)
    return { likelihood: s.likelihood, confidence: s.confidence, signals: s.signals, reasoning: s.reasoning }
  }
})

/**
 * The detector of a models directory, when it can be used: none, silently, without `aitext.json`;
 * none with one warning when the files are there but do not load (as the fallacy detector). Unlike
 * the other optional detectors it is decoded here, at start-up: that takes a few milliseconds, and
 * decoding is what checks that its manifest was trained on this version's feature list.
 */
export const aiTextModelIn = (directory: string): Effect.Effect<Option.Option<AiTextModelService>> =>
  optionalModelIn(
    directory,
    AITEXT_MANIFEST,
    () => fromAiTextWeights(loadAiTextWeights(directory)),
    "AI-text detector",
    "llmdetect has no local model; every other score is served as usual"
  )

export const AiTextDetector = {
  /** Provides `AiTextModel` from a models directory (the shipped one by default) when its detector loads, nothing otherwise. */
  layerIn: (directory: string = defaultModelDirectory()): Layer.Layer<never> => layerOptional(AiTextModel, aiTextModelIn(directory))
}
