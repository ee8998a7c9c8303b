/**
 * Chooses the store from one string, as hosts and the CLI take it (`--db`, `DECORUM_DB`):
 * a `postgres://` or `postgresql://` URL is PostgreSQL, anything else is a SQLite file path.
 */
import type { StoreFailure } from "@decorum/domain"
import type { Layer } from "effect"
import { Redacted } from "effect"
import * as PgStore from "./PgStore.js"
import * as SqliteStore from "./SqliteStore.js"
import type { Stores } from "./SqlStores.js"

const PG_URL = /^postgres(?:ql)?:\/\//i

/** Which dialect a database spec names. */
export const dialectOf = (dbSpec: string | Redacted.Redacted<string>): "pg" | "sqlite" =>
  PG_URL.test((Redacted.isRedacted(dbSpec) ? Redacted.value(dbSpec) : dbSpec).trim()) ? "pg" : "sqlite"

/** The store layer for a database spec (a PostgreSQL URL, or a SQLite file path). */
export const fromUrl = (dbSpec: string | Redacted.Redacted<string>): Layer.Layer<Stores, StoreFailure> => {
  const value = (Redacted.isRedacted(dbSpec) ? Redacted.value(dbSpec) : dbSpec).trim()
  return dialectOf(value) === "pg" ? PgStore.layer({ url: Redacted.make(value) }) : SqliteStore.layer({ filename: value })
}
