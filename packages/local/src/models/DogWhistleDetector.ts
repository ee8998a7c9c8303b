/**
 * The offline dog-whistle detector as the `DogWhistleModel` service: loads `dogwhistle.json` (the
 * curated term resource, the decision threshold and the request shifts) and its weight file
 * `dogwhistle.bin` (checked against its sha256) from the models directory, once.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Effect, Layer, Option } from "effect"
import { DogWhistleModel, type DogWhistleModelService } from "../DogWhistleModel.js"
import { type DogWhistleManifest, DogWhistleScorer } from "../internal/dogwhistle/model.js"
import { optionalModelIn, layerOptional } from "../internal/optionalModel.js"
import { defaultModelDirectory } from "./TrainedModel.js"

export const DOGWHISTLE_MANIFEST = "dogwhistle.json"

/** Load the detector from a directory holding `dogwhistle.json` and its weight file (synchronous). */
export const loadDogWhistleScorer = (directory: string = defaultModelDirectory()): DogWhistleScorer => {
  const manifest = JSON.parse(readFileSync(join(directory, DOGWHISTLE_MANIFEST), "utf8")) as DogWhistleManifest
  const bytes = readFileSync(join(directory, manifest.file))
  const sha = createHash("sha256").update(bytes).digest("hex")
  if (sha !== manifest.sha256) throw new Error(`model file ${manifest.file}: sha256 ${sha} does not match ${DOGWHISTLE_MANIFEST}`)
  return new DogWhistleScorer(manifest, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
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
 * missing or damaged weight file, a manifest that does not parse or does not match it).
 */
export const dogWhistleModelIn = (directory: string): Effect.Effect<Option.Option<DogWhistleModelService>> =>
  optionalModelIn(
    directory,
    DOGWHISTLE_MANIFEST,
    () => fromDogWhistleScorer(loadDogWhistleScorer(directory)),
    "dog-whistle detector",
    "coded-language checks are not served offline; every other score is served as usual"
  )

export const DogWhistleDetector = {
  /** Provides `DogWhistleModel` from a models directory (the shipped one by default) when its detector loads, nothing otherwise. */
  layerIn: (directory: string = defaultModelDirectory()): Layer.Layer<never> => layerOptional(DogWhistleModel, dogWhistleModelIn(directory))
}
