/**
 * The offline dog-whistle detector as the `DogWhistleModel` service: reads `dogwhistle.json` (the
 * curated term resource, the decision threshold and the request shifts) and its weight file
 * `dogwhistle.bin` (checked against its sha256) from the models directory, once, and builds the
 * detector (its term matcher and weights) on the first comment it checks.
 */
import type { Effect, Layer, Option } from "effect"
import { DogWhistleModel, type DogWhistleModelService } from "../DogWhistleModel.js"
import { DOGWHISTLE_FORMAT, type DogWhistleManifest, DogWhistleScorer } from "../internal/dogwhistle/model.js"
import { optionalModelIn, layerOptional, readModelFiles } from "../internal/optionalModel.js"
import { defaultModelDirectory } from "./TrainedModel.js"

export const DOGWHISTLE_MANIFEST = "dogwhistle.json"

/** Load the detector from a directory holding `dogwhistle.json` and its weight file (synchronous). */
export const loadDogWhistleScorer = (directory: string = defaultModelDirectory()): DogWhistleScorer => {
  const { bytes, manifest } = readModelFiles<DogWhistleManifest>(directory, DOGWHISTLE_MANIFEST, DOGWHISTLE_FORMAT)
  return new DogWhistleScorer(manifest, bytes)
}

/** The `DogWhistleModel` service over a loaded detector. */
export const fromDogWhistleScorer = (scorer: DogWhistleScorer): DogWhistleModelService => ({
  version: scorer.manifest.version,
  analyse: (input) => {
    const a = scorer.analyse(input)
    return {
      detected: a.detected,
      confidence: a.confidence,
      hits: a.hits.map((h) => ({
        term: h.term,
        begin: h.begin,
        end: h.end,
        root: h.root,
        category: h.category,
        meaning: h.meaning,
        probability: h.probability,
        source: h.source
      })),
      subtlety: a.subtlety,
      harm: a.harm,
      reasoning: a.reasoning
    }
  }
})

/**
 * The detector of a models directory, when it can be used: none, silently, when the directory has
 * no `dogwhistle.json`; none with one warning logged when the files are there but do not load (a
 * missing or damaged weight file, a manifest that does not parse, is of another format or does not
 * match it). The files are read and checked here; the detector is built on the first comment.
 */
export const dogWhistleModelIn = (directory: string): Effect.Effect<Option.Option<DogWhistleModelService>> =>
  optionalModelIn(
    directory,
    DOGWHISTLE_MANIFEST,
    (firstUse): DogWhistleModelService => {
      const { bytes, manifest } = readModelFiles<DogWhistleManifest>(directory, DOGWHISTLE_MANIFEST, DOGWHISTLE_FORMAT)
      const detector = firstUse(() => fromDogWhistleScorer(new DogWhistleScorer(manifest, bytes)))
      return { version: manifest.version, analyse: (input) => detector().analyse(input) }
    },
    "dog-whistle detector",
    "coded-language checks are not served offline; every other score is served as usual"
  )

export const DogWhistleDetector = {
  /** Provides `DogWhistleModel` from a models directory (the shipped one by default) when its detector loads, nothing otherwise. */
  layerIn: (directory: string = defaultModelDirectory()): Layer.Layer<never> => layerOptional(DogWhistleModel, dogWhistleModelIn(directory))
}
