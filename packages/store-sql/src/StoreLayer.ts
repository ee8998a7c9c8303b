/**
 * Chooses the store from one string, as hosts and the CLI take it (`--db`, `DECORUM_DB`):
 * a `postgres://` or `postgresql://` URL is PostgreSQL, anything else is a SQLite file path.
 */
import type { StoreFailure } from "@decorum/domain"
import { Config, type ConfigError, Effect, Layer, Redacted } from "effect"
import * as PgStore from "./PgStore.js"
import * as SqliteStore from "./SqliteStore.js"
import type { Stores } from "./SqlStores.js"

const PG_URL = /^postgres(?:ql)?:\/\//i

/** Which dialect a database spec names. */
export const dialectOf = (dbSpec: string | Redacted.Redacted<string>): "pg" | "sqlite" =>
  PG_URL.test((Redacted.isRedacted(dbSpec) ? Redacted.value(dbSpec) : dbSpec).trim()) ? "pg" : "sqlite"

/** The store layer for a database spec (a PostgreSQL URL, or a SQLite file path). */
export const layer = (dbSpec: string | Redacted.Redacted<string>): Layer.Layer<Stores, StoreFailure> => {
  const value = (Redacted.isRedacted(dbSpec) ? Redacted.value(dbSpec) : dbSpec).trim()
  return dialectOf(value) === "pg" ? PgStore.layer({ url: Redacted.make(value) }) : SqliteStore.layer({ filename: value })
}

/**
 * `layer` with the spec read from `DECORUM_DB` (or from the given config). It is read as a secret,
 * since a PostgreSQL URL carries a password.
 */
export const layerConfig = (
  dbSpec: Config.Config<Redacted.Redacted<string>> = Config.redacted("DECORUM_DB")
): Layer.Layer<Stores, StoreFailure | ConfigError.ConfigError> => Layer.unwrapEffect(Effect.map(dbSpec, layer))

