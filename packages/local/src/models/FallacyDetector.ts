/**
 * The trained fallacy detector and typer as the `FallacyModel` service: reads `fallacy.json` and
 * its weight file (checked against its sha256) from the models directory, once, and builds the
 * detector from them on the first comment it scores.
 */
import { splitSentences } from "@decorum/core"
import type { Effect, Layer, Option } from "effect"
import { optionalModelIn, layerOptional, readModelFiles } from "../internal/optionalModel.js"
import { FallacyModel, type FallacyModelService } from "../FallacyModel.js"
import { FALLACY_FORMAT, type FallacyManifest, FallacyWeights } from "../internal/fallacy/model.js"
import { tokenize } from "../internal/text/words.js"
import { defaultModelDirectory } from "./TrainedModel.js"

export const FALLACY_MANIFEST = "fallacy.json"

/** Load the detector from a directory holding `fallacy.json` and its weight file (synchronous). */
export const loadFallacyWeights = (directory: string = defaultModelDirectory(), options: { readonly verify?: boolean } = {}): FallacyWeights => {
  const { bytes, manifest } = readModelFiles<FallacyManifest>(directory, FALLACY_MANIFEST, FALLACY_FORMAT, options)
  return new FallacyWeights(manifest, bytes)
}

/** The `FallacyModel` service over loaded weights. */
export const fromFallacyWeights = (weights: FallacyWeights): FallacyModelService => ({
  version: weights.manifest.version,
  analyse: (text, prepared) => {
    const s = prepared === undefined ? weights.analyse(text, splitSentences(text), tokenize(text)) : weights.analyse(text, prepared.sentences, prepared.words)
    return { text, score: s.score, threshold: weights.manifest.threshold, type: s.type, units: s.units }
  }
})

/**
 * The detector of a models directory, when it can be used. None, silently, when the directory has
 * no `fallacy.json` (the flagged files were deleted); none with one warning logged when the files
 * are there but cannot be loaded (a missing or damaged weight file, a manifest that does not parse,
 * is of another format or does not match it). Either way the comment scorer falls back to the
 * fallacy patterns and every other score is still served: the detector is never a reason for the
 * engine not to start. The files are read and checked here; the weights are decoded on the first
 * comment scored.
 */
export const fallacyModelIn = (directory: string): Effect.Effect<Option.Option<FallacyModelService>> =>
  optionalModelIn(
    directory,
    FALLACY_MANIFEST,
    (firstUse): FallacyModelService => {
      const { bytes, manifest } = readModelFiles<FallacyManifest>(directory, FALLACY_MANIFEST, FALLACY_FORMAT)
      const detector = firstUse(() => fromFallacyWeights(new FallacyWeights(manifest, bytes)))
      return { version: manifest.version, analyse: (text, prepared) => detector().analyse(text, prepared) }
    },
    "fallacy detector",
    "fallacies are reported from the patterns; every other score is served as usual"
  )

export const FallacyDetector = {
  /**
   * Provides `FallacyModel` from a models directory (the shipped one by default) when its detector
   * loads, nothing otherwise (see `fallacyModelIn`: the comment scorer then uses the patterns).
   */
  layerIn: (directory: string = defaultModelDirectory()): Layer.Layer<never> => layerOptional(FallacyModel, fallacyModelIn(directory))
}
