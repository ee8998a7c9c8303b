/**
 * The trained AI-written-text detector as the `AiTextModel` service: loads `aitext.json` and its
 * weight file (checked against its sha256) from the models directory, once.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Effect, Layer, Option } from "effect"
import { AiTextModel, type AiTextModelService } from "../AiTextModel.js"
import { type AiTextManifest, AiTextWeights } from "../internal/aitext/model.js"
import { optionalModelIn, layerOptional } from "../internal/optionalModel.js"
import { defaultModelDirectory } from "./TrainedModel.js"

export const AITEXT_MANIFEST = "aitext.json"

/** Load the detector from a directory holding `aitext.json` and its weight file (synchronous). */
export const loadAiTextWeights = (directory: string = defaultModelDirectory()): AiTextWeights => {
  const manifest = JSON.parse(readFileSync(join(directory, AITEXT_MANIFEST), "utf8")) as AiTextManifest
  const bytes = readFileSync(join(directory, manifest.file))
  const sha = createHash("sha256").update(bytes).digest("hex")
  if (sha !== manifest.sha256) throw new Error(`model file ${manifest.file}: sha256 ${sha} does not match ${AITEXT_MANIFEST}`)
  return new AiTextWeights(manifest, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
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
 * none with one warning when the files are there but do not load (as the fallacy detector).
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
