/**
 * `@decorum/store-sql`: the core's store ports on `@effect/sql`, over SQLite (the default, one file)
 * and PostgreSQL (shared by several instances). Each layer runs the migrations on startup.
 */
export * as Migrations from "./Migrations.js"
export * as PgStore from "./PgStore.js"
export * as SqliteStore from "./SqliteStore.js"
export * as SqlStores from "./SqlStores.js"
export * as StoreLayer from "./StoreLayer.js"
export type { Stores } from "./SqlStores.js"
export * as ContextCache from "./ContextCache.js"
export * as KeyCache from "./KeyCache.js"
