/**
 * The trained fallacy detector and typer as the `FallacyModel` service: loads `fallacy.json`
 * and its weight file (checked against its sha256) from the models directory, once.
 */
import { splitSentences } from "@decorum/core"
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer, Option } from "effect"
import { FallacyModel, type FallacyModelService } from "../FallacyModel.js"
import { type FallacyManifest, FallacyWeights } from "../internal/fallacy/model.js"
import { tokenize } from "../internal/text/words.js"
import { defaultModelDirectory } from "./TrainedModel.js"

export const FALLACY_MANIFEST = "fallacy.json"

/** Load the detector from a directory holding `fallacy.json` and its weight file (synchronous). */
export const loadFallacyWeights = (directory: string = defaultModelDirectory(), options: { readonly verify?: boolean } = {}): FallacyWeights => {
  const manifest = JSON.parse(readFileSync(join(directory, FALLACY_MANIFEST), "utf8")) as FallacyManifest
  const bytes = readFileSync(join(directory, manifest.file))
  if (options.verify !== false) {
    const sha = createHash("sha256").update(bytes).digest("hex")
    if (sha !== manifest.sha256) throw new Error(`model file ${manifest.file}: sha256 ${sha} does not match ${FALLACY_MANIFEST}`)
  }
  return new FallacyWeights(manifest, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
}

/** The `FallacyModel` service over loaded weights. */
export const fromFallacyWeights = (weights: FallacyWeights): FallacyModelService => ({
  version: weights.manifest.version,
  types: weights.types,
  analyse: (text, prepared) => {
    const s = prepared === undefined ? weights.analyse(text, splitSentences(text), tokenize(text)) : weights.analyse(text, prepared.sentences, prepared.words)
    return { text, score: s.score, threshold: weights.manifest.threshold, type: s.type, units: s.units }
  }
})

/** The detector of a models directory, or none when the directory has no `fallacy.json` (e.g. the flagged files were deleted). */
export const fallacyModelIn = (directory: string): Option.Option<FallacyModelService> =>
  existsSync(join(directory, FALLACY_MANIFEST)) ? Option.some(fromFallacyWeights(loadFallacyWeights(directory))) : Option.none()

export const FallacyDetector = {
  /** The shipped detector (`packages/local/models/fallacy.json`). Fails with the load error as a defect. */
  layer: Layer.sync(FallacyModel, () => fromFallacyWeights(loadFallacyWeights())),
  /** The detector of another models directory. */
  layerFrom: (directory: string) => Layer.effect(FallacyModel, Effect.sync(() => fromFallacyWeights(loadFallacyWeights(directory))))
}
