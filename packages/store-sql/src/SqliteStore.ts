/**
 * The default store: one SQLite file, through `@effect/sql-sqlite-node` (better-sqlite3).
 *
 * The connection runs in WAL journal mode with `synchronous = FULL`, so a write whose effect has
 * succeeded survives a crash or power loss; a busy timeout lets several processes share the file;
 * foreign keys are enforced. The connection closes when the layer's scope closes.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as SqliteMigrator from "@effect/sql-sqlite-node/SqliteMigrator"
import { StoreFailure } from "@decorum/domain"
import Sqlite from "better-sqlite3"
import { Config, type ConfigError, Context, Duration, Effect, Layer, Option, type Scope } from "effect"
import { sqliteUnsupported } from "./internal/driverSupport.js"
import type * as KeyCache from "./KeyCache.js"
import { migrations, migrationsTable } from "./Migrations.js"
import * as SqlStores from "./SqlStores.js"

export interface SqliteStoreOptions {
  /** The database file (created if missing; its directory must exist). `:memory:` for a throwaway. */
  readonly filename: string
  /** How long a statement waits for another process's lock before failing. Default: 5 seconds. */
  readonly busyTimeout?: Duration.DurationInput | undefined
}

const migrate = SqliteMigrator.make({})({ loader: SqliteMigrator.fromRecord(migrations), table: migrationsTable })

const failure = (operation: string) => (error: { readonly message: string; readonly cause?: unknown }) =>
  new StoreFailure({ operation, message: SqlStores.failureMessage(error) })

/**
 * A migrated SQLite client: opens the file, sets the connection's pragmas and runs the migrations.
 * Provides `SqlClient` (and `SqliteClient`) for callers that need the connection itself.
 */
export const layerClient = (
  options: SqliteStoreOptions
): Layer.Layer<SqlClient.SqlClient | SqliteClient.SqliteClient, StoreFailure> =>
  Layer.scopedContext(
    Effect.gen(function*() {
      // On a Node.js the driver was not built for, opening would crash the process, not fail.
      const refused = sqliteUnsupported(process.versions.node)
      if (refused !== undefined) return yield* Effect.fail(failure("SqliteStore.open")({ message: refused }))
      // better-sqlite3 opens the file synchronously and throws (a missing directory, a file that is
      // not a database): that is a store failure at startup, not a bug.
      const client = yield* SqliteClient.make({ filename: options.filename }).pipe(
        Effect.catchAllDefect((defect) =>
          Effect.fail(failure("SqliteStore.open")({ message: `cannot open ${options.filename}`, cause: defect }))
        )
      )
      const busyMillis = Math.round(Duration.toMillis(Duration.decode(options.busyTimeout ?? Duration.seconds(5))))
      // One connection serves the whole client, so per-connection pragmas hold for its lifetime.
      // WAL mode is set by the client when it opens the file.
      yield* client.unsafe(`pragma busy_timeout = ${busyMillis}`).unprepared
      yield* client`pragma synchronous = full`.unprepared
      yield* client`pragma foreign_keys = on`.unprepared
      yield* Effect.mapError(
        migrate.pipe(
          Effect.provideService(SqlClient.SqlClient, client),
          // The migrator turns a failing migration into a defect; it is a store failure here.
          Effect.catchSomeDefect((defect) =>
            defect instanceof SqliteMigrator.MigrationError ? Option.some(Effect.fail(defect)) : Option.none()
          )
        ),
        failure("SqliteStore.migrate")
      )
      return Context.make(SqliteClient.SqliteClient, client).pipe(Context.add(SqlClient.SqlClient, client))
    }).pipe(
      Effect.mapError((error) => (error instanceof StoreFailure ? error : failure("SqliteStore.open")(error)))
    )
  ).pipe(Layer.provide(Reactivity.layer))

const isMemory = (filename: string) => filename === "" || filename === ":memory:" || filename.startsWith("file::memory:")

/**
 * The key and context caches' change probe on SQLite: `PRAGMA data_version` on a read-only connection of its
 * own, which changes whenever any connection (this process's or another's) commits to the file.
 * An in-memory database has no other writer, so there the store's own revocations suffice.
 */
export const changeProbe = (filename: string): Effect.Effect<KeyCache.ChangeProbe, StoreFailure, Scope.Scope> =>
  isMemory(filename)
    ? Effect.succeed({ stamp: () => 0 })
    : Effect.acquireRelease(
      Effect.try({
        try: () => new Sqlite(filename, { readonly: true, fileMustExist: true }),
        catch: (cause) => failure("SqliteStore.open")({ message: `cannot open ${filename}`, cause })
      }),
      (db) => Effect.sync(() => db.close())
    ).pipe(Effect.map((db) => {
      const version = db.prepare("pragma data_version").pluck()
      return { stamp: () => version.get() }
    }))

/**
 * Every store port on a SQLite file, migrated on startup; the connections close with the scope.
 * Verified keys and article contexts are cached in memory and re-read after any commit to the file
 * (see `KeyCache`, `ContextCache`).
 */
export const layer = (options: SqliteStoreOptions): Layer.Layer<SqlStores.Stores, StoreFailure> =>
  SqlStores.layerWithKeyCache(changeProbe(options.filename), { contexts: {} }).pipe(Layer.provide(layerClient(options)))

/** `layer` with the file name read from `DECORUM_DB` (or from the given config). */
export const layerConfig = (
  filename: Config.Config<string> = Config.string("DECORUM_DB")
): Layer.Layer<SqlStores.Stores, StoreFailure | ConfigError.ConfigError> =>
  Layer.unwrapEffect(Effect.map(filename, (filename) => layer({ filename })))
