/**
 * The Lambda function's configuration: the one `EngineConfig` (the same variables as the server,
 * see the README), with Lambda's own rule for the store.
 *
 * The store is PostgreSQL (`DECORUM_DB`, else `DATABASE_URL`): a function's file system is
 * read-only and per instance, so a SQLite file would be neither durable nor shared. `memory` is
 * accepted for a trial (nothing persists, each instance has its own accounts).
 */
import type { StoreFailure } from "@decorum/domain"
import { Engine, EngineConfig, type EngineSettings } from "@decorum/engine"
import { HttpApp } from "@decorum/http"
import { StoreLayer } from "@decorum/store-sql"
import { Config, ConfigError, Effect, Either, Layer, Redacted } from "effect"
import type { AppRequirements } from "./Handler.js"

/** `EngineConfig.config`, refusing a store that is not PostgreSQL (or `memory`). */
export const config: Config.Config<EngineSettings> = EngineConfig.config.pipe(
  Config.mapOrFail((settings) => {
    const db = Redacted.value(settings.store.db)
    if (settings.store.source === "default") {
      return Either.left(ConfigError.MissingData(["DECORUM_DB"], "DECORUM_DB: set it (or DATABASE_URL) to a postgres:// URL"))
    }
    if (db !== "memory" && StoreLayer.dialectOf(db) !== "pg") {
      return Either.left(
        ConfigError.InvalidData([settings.store.source], `${settings.store.source}: on Lambda the store is PostgreSQL: set a postgres:// URL (or \`memory\` for a trial)`)
      )
    }
    return Either.right(settings)
  })
)

/** The engine, its `EngineConfig` and the HTTP settings, from the environment. */
export const engineFromEnv = (): Layer.Layer<AppRequirements | EngineConfig, ConfigError.ConfigError | StoreFailure> =>
  Layer.unwrapEffect(
    Effect.map(EngineConfig, (settings) =>
      // The server's HTTP settings; /metrics would answer for one execution environment, so it stays off (use CloudWatch).
      Layer.merge(Engine.layer, HttpApp.settingsLayer({ ...settings, observability: { ...settings.observability, metrics: false } })))
  ).pipe(
    Layer.provideMerge(EngineConfig.layerConfig(config))
  )
