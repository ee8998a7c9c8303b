/**
 * One rule for the models a directory may or may not hold (the fallacy detector, the toxic-span
 * tagger, the dog-whistle and AI-text detectors): none, silently, when its manifest is absent (the
 * files were left out); none with one warning when the files are there but do not load (a missing
 * or damaged weight file, a manifest that does not parse, is of another format or does not match
 * the weight file's sha256); so such a model is never a reason for the engine not to start, and
 * the scorer falls back to what it did without it.
 *
 * That is decided at start-up from the files (`readModelFiles`: the manifest's format and the
 * checksum of its weight file, a few milliseconds); a detector whose decoding costs more than that
 * (fallacy, spans, dog-whistle) is built from them on the first comment that needs it
 * (`onFirstUse`), so a cold start that serves no such comment does not pay for it. What decoding
 * checks beyond that (the manifest's shape against the weight file's header) fails only for a
 * manifest edited by hand, since the trainer writes both and the checksum ties them.
 */
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Context, Effect, Layer, Option, Runtime } from "effect"

/** Builds a model's parts on first use (`onFirstUse`), logging once, as an error, should that fail. */
export type FirstUse = <B>(make: () => B) => () => B

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/**
 * The model of `directory` when its `manifest` is there and `load` succeeds; none, silently, without
 * the manifest; none with one warning (`what ... not loaded (why): fallback`) when `load` throws.
 * `load` reads and checks the files; what it defers with `firstUse` is built on first use, and a
 * failure then (files that passed the checks but do not decode) is logged once and thrown to the
 * caller, whose evaluation answers the provider's failure.
 */
export const optionalModelIn = <A>(
  directory: string,
  manifest: string,
  load: (firstUse: FirstUse) => A,
  what: string,
  fallback: string
): Effect.Effect<Option.Option<A>> =>
  Effect.suspend(() =>
    existsSync(join(directory, manifest))
      ? Effect.flatMap(Effect.runtime<never>(), (runtime) => {
        const firstUse: FirstUse = (make) =>
          onFirstUse(make, (e) => Runtime.runSync(runtime)(Effect.logError(`${what} in ${directory} failed to load on first use (${messageOf(e)})`)))
        return Effect.try(() => Option.some(load(firstUse)))
      }).pipe(
        Effect.catchAll((e) =>
          Effect.logWarning(`${what} in ${directory} not loaded (${messageOf(e.cause)}): ${fallback}`).pipe(Effect.as(Option.none<A>()))
        )
      )
      : Effect.succeed(Option.none())
  )

/** A layer that provides `tag` with the model when `model` found one, and nothing otherwise. */
export const layerOptional = <I, S>(tag: Context.Tag<I, S>, model: Effect.Effect<Option.Option<S>>): Layer.Layer<never> =>
  Layer.effectContext(
    Effect.map(model, (m): Context.Context<never> =>
      Option.match(m, { onNone: () => Context.empty(), onSome: (service) => Context.make(tag, service) as Context.Context<never> }))
  )

/** What every detector's manifest says of its weight file. */
export interface WeightManifest {
  readonly format: number
  readonly version: string
  /** The weight file, beside the manifest. */
  readonly file: string
  readonly sha256: string
}

/** A manifest and the bytes of its weight file, checked against each other. */
export interface ModelFiles<M extends WeightManifest> {
  readonly manifest: M
  readonly bytes: Uint8Array
}

/**
 * Read a detector's manifest (`manifest`, in `directory`) and its weight file, and check them
 * (synchronous; throws what is wrong): the manifest's format is `format`, the one this version
 * reads, and the weight file's sha256 is the manifest's (unless `verify` is false).
 */
export const readModelFiles = <M extends WeightManifest>(
  directory: string,
  manifest: string,
  format: number,
  options: { readonly verify?: boolean } = {}
): ModelFiles<M> => {
  const m = JSON.parse(readFileSync(join(directory, manifest), "utf8")) as M
  if (m.format !== format) throw new Error(`${manifest}: format ${m.format} is not supported (this version reads ${format})`)
  const bytes = readFileSync(join(directory, m.file))
  if (options.verify !== false) {
    const sha = createHash("sha256").update(bytes).digest("hex")
    if (sha !== m.sha256) throw new Error(`model file ${m.file}: sha256 ${sha} does not match ${manifest}`)
  }
  return { manifest: m, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
}

/**
 * `make`, run on the first call and never again: every later call returns what it returned, or
 * throws what it threw (told once to `failed`). Files that passed `readModelFiles` do not fail to
 * build unless their manifest was edited by hand, and trying again per comment would not mend them.
 */
export const onFirstUse = <A>(make: () => A, failed: (error: unknown) => void = () => {}): () => A => {
  let made: { readonly value: A } | { readonly error: unknown } | undefined
  return () => {
    if (made === undefined) {
      try {
        made = { value: make() }
      } catch (error) {
        made = { error }
        failed(error)
      }
    }
    if ("error" in made) throw made.error
    return made.value
  }
}
