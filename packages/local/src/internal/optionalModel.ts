/**
 * One rule for the models a directory may or may not hold (the fallacy detector, the toxic-span
 * tagger): none, silently, when its manifest is absent (the files were left out); none with one
 * warning when the files are there but do not load (a missing or damaged weight file, a manifest
 * that does not parse or does not match); so such a model is never a reason for the engine not to
 * start, and the scorer falls back to what it did without it.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { Context, Effect, Layer, Option } from "effect"

export const optionalModelIn = <A>(
  directory: string,
  manifest: string,
  load: () => A,
  what: string,
  fallback: string
): Effect.Effect<Option.Option<A>> =>
  Effect.suspend(() =>
    existsSync(join(directory, manifest))
      ? Effect.try(() => Option.some(load())).pipe(
        Effect.catchAll((e) =>
          Effect.logWarning(
            `${what} in ${directory} not loaded (${e.cause instanceof Error ? e.cause.message : String(e.cause)}): ${fallback}`
          ).pipe(Effect.as(Option.none<A>()))
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
