/**
 * The per-language model sets as the `LanguageModels` service (issue 28).
 *
 * A languages directory (`packages/local/models/languages/` is shipped) holds `index.json`, the
 * small index read at start (every language's code, version and labels), and one folder per
 * language with a model set in the English set's format (`manifest.json` + its weight file, loaded
 * by `loadModelSet`). A language's weights are loaded on its first `forLanguage` and kept, so an
 * English-only site never loads one. A missing or empty directory, or one without an index, gives
 * no languages; an index that does not parse gives none, with one warning; a language whose files
 * fail to load (damaged, deleted) answers undefined, with one warning, and the others are served.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Layer, Runtime } from "effect"
import type { AttributeModelService, ModelLabel } from "../AttributeModel.js"
import { LanguageModels, type LanguageModelsService } from "../LanguageModels.js"
import { fromModelSet, loadModelSet } from "./TrainedModel.js"

/** The index file of a languages directory. */
export const LANGUAGE_INDEX = "index.json"

export interface LanguageIndex {
  readonly format: 1
  /** By Perspective's language code: the set's version, labels and folder (relative to the directory). */
  readonly languages: Readonly<Record<string, { readonly version: string; readonly labels: ReadonlyArray<ModelLabel>; readonly directory: string }>>
}

/** The shipped per-language sets: `packages/local/models/languages`. */
export const defaultLanguageDirectory = (): string => fileURLToPath(new URL("../../models/languages/", import.meta.url))

export interface LanguageModelsOptions {
  /** Told once per problem (an unreadable index, a language that fails to load). */
  readonly warn?: (message: string) => void
  /** Told each time a language's set is loaded (tests count loads). */
  readonly onLoad?: (language: string) => void
}

/** Read a languages directory's index: an empty map when there is none (see the module comment). */
export const readLanguageIndex = (directory: string, warn: (message: string) => void = () => {}): LanguageIndex["languages"] => {
  const path = join(directory, LANGUAGE_INDEX)
  if (!existsSync(path)) return {}
  try {
    const index = JSON.parse(readFileSync(path, "utf8")) as LanguageIndex
    if (index.format !== 1 || typeof index.languages !== "object" || index.languages === null) throw new Error("not a format-1 language index")
    return index.languages
  } catch (e) {
    warn(`per-language models: ${path} cannot be read (${e instanceof Error ? e.message : String(e)}); no language other than English is scored`)
    return {}
  }
}

/** The `LanguageModels` service over a languages directory: the index now, each language's weights on first use. */
export const makeLanguageModels = (directory: string, options: LanguageModelsOptions = {}): LanguageModelsService => {
  const warn = options.warn ?? (() => {})
  const index = readLanguageIndex(directory, warn)
  const languages = new Map<string, ReadonlyArray<ModelLabel>>(Object.entries(index).map(([code, entry]) => [code, [...entry.labels]]))
  const loaded = new Map<string, AttributeModelService | null>()
  return {
    languages,
    forLanguage: (language) => {
      const entry = Object.prototype.hasOwnProperty.call(index, language) ? index[language] : undefined
      if (entry === undefined) return undefined
      const known = loaded.get(language)
      if (known !== undefined) return known ?? undefined
      try {
        const service = fromModelSet(loadModelSet(join(directory, entry.directory)))
        loaded.set(language, service)
        options.onLoad?.(language)
        return service
      } catch (e) {
        loaded.set(language, null)
        warn(`per-language models: the ${language} model in ${join(directory, entry.directory)} cannot be loaded (${e instanceof Error ? e.message : String(e)}); ${language} is not scored`)
        return undefined
      }
    }
  }
}

const layerIn = (directory: string): Layer.Layer<LanguageModels> =>
  Layer.effect(
    LanguageModels,
    Effect.gen(function* () {
      const runtime = yield* Effect.runtime<never>()
      const warn = (message: string) => Runtime.runSync(runtime)(Effect.logWarning(message))
      return makeLanguageModels(directory, { warn })
    })
  )

export const LanguageModelSets = {
  /** The shipped per-language sets (`packages/local/models/languages`). */
  layer: Layer.suspend(() => layerIn(defaultLanguageDirectory())),
  /** The per-language sets of a directory; an empty or missing directory gives no languages (never a failure). */
  layerIn
}
