/**
 * The shared store for several server instances: PostgreSQL through `@effect/sql-pg` (node-postgres).
 *
 * Each layer owns a connection pool, closed when the layer's scope closes. Several processes may
 * start at once against the same database: migrations are serialised by an advisory lock and by the
 * migrator's own table lock, and every write is safe to race (see `SqlStores`).
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as PgMigrator from "@effect/sql-pg/PgMigrator"
import { StoreFailure } from "@decorum/domain"
import { Config, type ConfigError, Context, Duration, Effect, Layer, Option, Redacted } from "effect"
import { migrations, migrationsTable } from "./Migrations.js"
import * as SqlStores from "./SqlStores.js"

export interface PgStoreOptions {
  /** A `postgres://user:password@host:port/database` URL. */
  readonly url: Redacted.Redacted<string> | string
  /** Largest number of pooled connections. Default: node-postgres's (10). */
  readonly maxConnections?: number | undefined
  /** How long to wait for the server at startup and for a connection. Default: 5 seconds. */
  readonly connectTimeout?: Duration.DurationInput | undefined
  /** The `application_name` the server shows for these connections. Default: `decorum`. */
  readonly applicationName?: string | undefined
}

const migrate = PgMigrator.make({})({ loader: PgMigrator.fromRecord(migrations), table: migrationsTable })

/**
 * The migrator creates its table after a failed `select 'table'::regclass`, which two processes
 * starting together can both do (one then fails). Creating it first, under a transaction-scoped
 * advisory lock, leaves the migrator's own `lock table` to serialise the migrations themselves.
 */
const prepareMigrationsTable = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(
    Effect.zipRight(
      sql`select pg_advisory_xact_lock(hashtext(${`decorum:${migrationsTable}`}))`,
      sql`create table if not exists ${sql(migrationsTable)} (
        migration_id integer primary key,
        created_at timestamp with time zone not null default now(),
        name text not null
      )`
    )
  )
})

const failure = (operation: string) => (error: { readonly message: string; readonly cause?: unknown }) =>
  new StoreFailure({ operation, message: SqlStores.failureMessage(error) })

/** A migrated PostgreSQL pool. Provides `SqlClient` (and `PgClient`) for callers that need it. */
export const clientLayer = (
  options: PgStoreOptions
): Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, StoreFailure> =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const client = yield* PgClient.make({
        url: typeof options.url === "string" ? Redacted.make(options.url) : options.url,
        maxConnections: options.maxConnections,
        connectTimeout: options.connectTimeout ?? Duration.seconds(5),
        applicationName: options.applicationName ?? "decorum"
      }).pipe(
        // A malformed URL makes node-postgres throw: a store failure at startup, not a bug.
        Effect.catchAllDefect((defect) =>
          Effect.fail(failure("PgStore.connect")({ message: "cannot create the connection pool", cause: defect }))
        ),
        Effect.mapError((error) => (error instanceof StoreFailure ? error : failure("PgStore.connect")(error)))
      )
      yield* Effect.zipRight(prepareMigrationsTable, migrate).pipe(
        Effect.provideService(SqlClient.SqlClient, client),
        // The migrator turns a failing migration into a defect; it is a store failure here.
        Effect.catchSomeDefect((defect) =>
          defect instanceof PgMigrator.MigrationError ? Option.some(Effect.fail(defect)) : Option.none()
        ),
        Effect.mapError(failure("PgStore.migrate"))
      )
      return Context.make(PgClient.PgClient, client).pipe(Context.add(SqlClient.SqlClient, client))
    })
  ).pipe(Layer.provide(Reactivity.layer))

/** Every store port on PostgreSQL, migrated on startup; the pool closes with the scope. */
export const layer = (options: PgStoreOptions): Layer.Layer<SqlStores.Stores, StoreFailure> =>
  SqlStores.layer.pipe(Layer.provide(clientLayer(options)))

/** `layer` with the URL read (as a secret) from `DATABASE_URL`, or from the given config. */
export const layerConfig = (
  url: Config.Config<Redacted.Redacted<string>> = Config.redacted("DATABASE_URL")
): Layer.Layer<SqlStores.Stores, StoreFailure | ConfigError.ConfigError> =>
  Layer.unwrapEffect(Effect.map(url, (url) => layer({ url })))
