/**
 * The Lambda function's configuration, from environment variables (the same names as the server,
 * see the README): the store, the engine options, and the HTTP settings.
 *
 * The store is PostgreSQL (`DECORUM_DB`, else `DATABASE_URL`): a function's file system is
 * read-only and per instance, so a SQLite file would be neither durable nor shared. `memory` is
 * accepted for a trial (nothing persists, each instance has its own accounts).
 */
import type { StoreFailure } from "@decorum/domain"
import { Engine } from "@decorum/embedded"
import { HttpConfig } from "@decorum/http"
import { StoreLayer } from "@decorum/store-sql"
import { Config, ConfigError, Effect, Either, Layer, Option, Redacted } from "effect"
import type { AppRequirements } from "./Handler.js"

/** `DECORUM_DB`, else `DATABASE_URL`: a `postgres://` URL, or `memory`. Read as a secret. */
export const dbConfig: Config.Config<Redacted.Redacted<string>> = Config.option(Config.redacted("DECORUM_DB")).pipe(
  Config.map(Option.filter((v) => Redacted.value(v).trim() !== "")),
  Config.zipWith(
    Config.option(Config.redacted("DATABASE_URL")).pipe(Config.map(Option.filter((v) => Redacted.value(v).trim() !== ""))),
    (db, url) => Option.orElse(db, () => url)
  ),
  Config.mapOrFail((spec) => {
    if (Option.isNone(spec)) {
      return Either.left(ConfigError.MissingData(["DECORUM_DB"], "Set DECORUM_DB (or DATABASE_URL) to a postgres:// URL"))
    }
    const value = Redacted.value(spec.value).trim()
    if (value !== "memory" && StoreLayer.dialectOf(value) !== "pg") {
      return Either.left(
        ConfigError.InvalidData(["DECORUM_DB"], "On Lambda the store is PostgreSQL: set a postgres:// URL (or `memory` for a trial)")
      )
    }
    return Either.right(Redacted.make(value))
  })
)

/** `DECORUM_BODY_LIMIT_BYTES` and `DECORUM_PUBLIC_URL`, as on the server. */
export const httpConfig: Config.Config<Partial<HttpConfig["Type"]>> = Config.all({
  bodyLimitBytes: Config.option(
    Config.integer("DECORUM_BODY_LIMIT_BYTES").pipe(
      Config.validate({ message: "must be an integer >= 1024", validation: (n) => n >= 1024 })
    )
  ),
  publicBaseUrl: Config.option(Config.string("DECORUM_PUBLIC_URL"))
}).pipe(
  Config.map(({ bodyLimitBytes, publicBaseUrl }) => ({
    ...(Option.isSome(bodyLimitBytes) ? { bodyLimitBytes: bodyLimitBytes.value } : {}),
    publicBaseUrl: Option.getOrNull(Option.filter(Option.map(publicBaseUrl, (u) => u.trim()), (u) => u !== ""))
  }))
)

/** The engine (`Engine.layerFromEnv`) on the configured store, and the HTTP settings. */
export const engineFromEnv = (): Layer.Layer<AppRequirements, ConfigError.ConfigError | StoreFailure> =>
  Layer.unwrapEffect(
    Effect.map(
      Config.all({ db: dbConfig, http: httpConfig }),
      ({ db, http }) => Layer.merge(Engine.layerFromEnv({ db: Redacted.value(db) }), HttpConfig.layer(http))
    )
  )
