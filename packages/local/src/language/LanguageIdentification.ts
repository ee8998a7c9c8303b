/**
 * The `LanguageIdentifier` port on the shipped character n-gram model (`models/langid.bin`,
 * trained by `training/langid.ts` on the per-language sets, English, and romanised Hindi as a
 * language of its own) with franc (`franc-min`, MIT, its data in the package) as the fallback for
 * comments unlike every language with data: Czech, Dutch, Swedish and other languages that share
 * a script with one. Why this and not a library alone, with the measurements:
 * docs/language-identification.md.
 *
 * Both are loaded once at start (1 MB table + franc's 150 kB of trigrams). A comment costs one
 * pass over its first 100 letters (a few µs for a one-sentence comment); franc (about 70 µs)
 * runs only for a comment of 20 letters or more that reads unlike its best language (about one
 * English first sentence in a hundred).
 */
import { LanguageIdentifier } from "@decorum/core"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { francFallback, identify } from "../internal/langid/identify.js"
import { decodeModel, scratchFor } from "../internal/langid/ngrams.js"
import { defaultModelDirectory } from "../models/TrainedModel.js"

/** The model file in the models directory. */
export const LANGUAGE_ID_MODEL = "langid.bin"

/** The identifier over `langid.bin` in a directory. */
const layerIn = (directory: string): Layer.Layer<LanguageIdentifier> =>
  Layer.effect(
    LanguageIdentifier,
    Effect.gen(function*() {
      const model = decodeModel(readFileSync(join(directory, LANGUAGE_ID_MODEL)))
      const { franc } = yield* Effect.promise(() => import("franc-min"))
      const fallback = francFallback(franc, model.languages)
      const scratch = scratchFor(model)
      return LanguageIdentifier.of({ detect: (text) => identify(model, fallback, text, scratch).languages })
    })
  )

/**
 * The identifier of the first of `directories` that has `langid.bin` (a models directory given by
 * `DECORUM_MODEL_DIR`, as bundles ship it, then the shipped one); none, with a warning, when no
 * directory has it: analyze then treats every comment as English, as before issue 28.
 */
const layerFirstOf = (directories: ReadonlyArray<string>): Layer.Layer<never> =>
  Layer.unwrapEffect(
    Effect.sync(() => directories.find((d) => existsSync(join(d, LANGUAGE_ID_MODEL)))).pipe(
      Effect.flatMap((found) =>
        found === undefined
          ? Effect.as(Effect.logWarning(`language identification: no ${LANGUAGE_ID_MODEL} in ${directories.join(" or ")}; every comment is taken for English`), Layer.empty)
          : Effect.succeed(layerIn(found) as Layer.Layer<never>)
      )
    )
  )

export const LanguageIdentification = {
  /** The shipped model (`packages/local/models/langid.bin`). */
  layer: Layer.suspend(() => layerIn(defaultModelDirectory())),
  layerIn,
  layerFirstOf
} as const
