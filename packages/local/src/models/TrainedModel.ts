/**
 * The trained model set as the `AttributeModel` service: loads `packages/local/models/` (the
 * manifest and its weight files, checked against their sha256) once, at layer construction.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Layer } from "effect"
import { AttributeModel, type AttributeModelService } from "../AttributeModel.js"
import type { Manifest } from "../internal/model/format.js"
import { ModelSet } from "./ModelSet.js"

/** The shipped models: `packages/local/models`, found from this module (src/models or dist/models). */
export const defaultModelDirectory = (): string => fileURLToPath(new URL("../../models/", import.meta.url))

export interface LoadOptions {
  /** Families (weight file groups) to leave out, e.g. `["c3"]` to drop heads with unclear licences. */
  readonly exclude?: ReadonlyArray<string>
  /** Verify every weight file's sha256 against the manifest (default true). */
  readonly verify?: boolean
}

/** Load a model set from a directory holding `manifest.json` and its weight files (synchronous). */
export const loadModelSet = (directory: string = defaultModelDirectory(), options: LoadOptions = {}): ModelSet => {
  const manifest = JSON.parse(readFileSync(join(directory, "manifest.json"), "utf8")) as Manifest
  const files = new Map<string, Uint8Array>()
  for (const family of manifest.families) {
    if (options.exclude?.includes(family.name)) continue
    const bytes = readFileSync(join(directory, family.file))
    if (options.verify !== false) {
      const sha = createHash("sha256").update(bytes).digest("hex")
      if (sha !== family.sha256) throw new Error(`model file ${family.file}: sha256 ${sha} does not match the manifest`)
    }
    files.set(family.file, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  }
  // a per-language set's idf table, checked like a weight file
  if (manifest.idf !== undefined) {
    const bytes = readFileSync(join(directory, manifest.idf.file))
    if (options.verify !== false) {
      const sha = createHash("sha256").update(bytes).digest("hex")
      if (sha !== manifest.idf.sha256) throw new Error(`idf file ${manifest.idf.file}: sha256 ${sha} does not match the manifest`)
    }
    files.set(manifest.idf.file, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  }
  return new ModelSet(manifest, files)
}

/** The `AttributeModel` service over a loaded model set. */
export const fromModelSet = (set: ModelSet): AttributeModelService => ({
  version: set.version,
  labels: set.labels,
  analyse: (text) => set.analyse(text),
  predict: (analysis, labels) => set.predict(analysis, labels),
  score: (text, labels) => set.score(text, labels),
  explain: (analysis, label, limit) => set.explain(analysis, label, limit)
})

export const TrainedModel = {
  /** The shipped model set (`packages/local/models`). Fails with the load error as a defect. */
  layer: Layer.sync(AttributeModel, () => fromModelSet(loadModelSet())),
  /** A model set from another directory (e.g. models retrained on your moderators' corrections). */
  layerFrom: (directory: string, options: LoadOptions = {}) =>
    Layer.effect(
      AttributeModel,
      Effect.sync(() => fromModelSet(loadModelSet(directory, options)))
    )
}
