/**
 * The seam between the local attribute scorer and the per-language model sets (one per language
 * with labelled data, under packages/local/models/languages/<code>/). English is not here: it is
 * the main AttributeModel.
 */
import { Context } from "effect"
import type { AttributeModelService, ModelLabel } from "./AttributeModel.js"

export interface LanguageModelsService {
  /**
   * Every language with a model, as Perspective writes the code ("de", "fr", "hi", "hi-Latn",
   * "zh", "ja", "ko", ...), with the labels its model scores. Read from small manifests at start;
   * no weights are loaded for it.
   */
  readonly languages: ReadonlyMap<string, ReadonlyArray<ModelLabel>>
  /**
   * The language's model set, loaded on first use and kept (English-only sites never load one);
   * undefined when the language has none. Its `version` names the language, e.g. `local-de-2026.11.28.3`.
   * Every span its `explain` returns is a verbatim slice of the text (UTF-16 offsets).
   */
  readonly forLanguage: (language: string) => AttributeModelService | undefined
}

export class LanguageModels extends Context.Tag("@decorum/local/LanguageModels")<LanguageModels, LanguageModelsService>() {}
