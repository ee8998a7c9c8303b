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
import { Config, type ConfigError, Context, Duration, Effect, Layer, Option, Redacted, type Scope } from "effect"
import type * as KeyCache from "./KeyCache.js"
import pg from "pg"
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
export const layerClient = (
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

/** The channel every key change is announced on (database-wide: every schema shares it). */
export const KEY_CHANNEL = "decorum_keys"

const HEARTBEAT = "heartbeat"

export interface ChangeProbeOptions {
  /** How often this process notifies the channel to prove it is alive. Default: 1 second. */
  readonly heartbeatMillis?: number
  /** With nothing heard on the channel for this long, nothing is cached. Default: 3 heartbeats. */
  readonly silentAfterMillis?: number
}

/**
 * The key cache's change probe on PostgreSQL: `LISTEN decorum_keys` on a connection of its own.
 * Every notification other than a heartbeat is a key change somewhere and moves the stamp on. The
 * probe also sends a heartbeat every second; while nothing (heartbeat or change) has been heard for
 * three of them (not listening yet, or a connection that died without an error) the stamp is
 * `undefined`, nothing is served from memory, and the listener reconnects.
 */
export const changeProbe = (
  url: string,
  options: ChangeProbeOptions = {}
): Effect.Effect<KeyCache.ChangeProbe, never, SqlClient.SqlClient | Scope.Scope> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const heartbeat = options.heartbeatMillis ?? 1000
    const silentAfter = options.silentAfterMillis ?? 3 * heartbeat
    let generation = 0
    let lastHeard = Number.NEGATIVE_INFINITY
    const silent = () => Date.now() - lastHeard > silentAfter

    const connect = Effect.acquireRelease(
      Effect.tryPromise(async () => {
        const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, application_name: "decorum-keys" })
        client.on("error", () => {})
        try {
          await client.connect()
          await client.query(`LISTEN ${KEY_CHANNEL}`)
          return client
        } catch (error) {
          await client.end().catch(() => {})
          throw error
        }
      }),
      (client) => Effect.promise(() => client.end().catch(() => {})).pipe(Effect.timeoutOption(Duration.seconds(1)))
    )
    // `PgClient.notify` sends `NOTIFY channel, $1`, which PostgreSQL rejects; `pg_notify` takes parameters.
    const notify = (payload: string) => Effect.asVoid(sql`select pg_notify(${KEY_CHANNEL}, ${payload})`)
    // One connection's life: hears notifications until it fails, ends, or goes silent.
    const session = Effect.scoped(Effect.gen(function*() {
      const client = yield* connect
      // Hearing its own first heartbeat proves the channel works: caching starts then.
      yield* Effect.forkScoped(Effect.ignore(notify(HEARTBEAT)))
      const closed = Effect.async<never, string>((resume) => {
        const onNotification = (message: pg.Notification) => {
          if (message.channel !== KEY_CHANNEL) return
          lastHeard = Date.now()
          if (message.payload !== HEARTBEAT) generation++
        }
        const onEnd = () => resume(Effect.fail("ended"))
        client.on("notification", onNotification)
        client.on("error", onEnd)
        client.on("end", onEnd)
        return Effect.sync(() => {
          client.off("notification", onNotification)
          client.off("error", onEnd)
          client.off("end", onEnd)
        })
      })
      const watchdog = Effect.sleep(Duration.millis(silentAfter)).pipe(
        Effect.repeat({ until: silent }),
        Effect.zipRight(Effect.fail("silent"))
      )
      return yield* Effect.raceFirst(closed, watchdog)
    }))
    yield* session.pipe(
      Effect.catchAllCause(() => Effect.sync(() => generation++)),
      Effect.zipRight(Effect.sleep(Duration.millis(heartbeat))),
      Effect.forever,
      Effect.forkScoped
    )
    yield* notify(HEARTBEAT).pipe(
      Effect.ignore,
      Effect.zipRight(Effect.sleep(Duration.millis(heartbeat))),
      Effect.forever,
      Effect.forkScoped
    )
    return {
      stamp: () => (silent() ? undefined : generation),
      changed: (keyId: string) => notify(keyId).pipe(Effect.mapError(failure("PgStore.notify")))
    }
  })

/**
 * Every store port on PostgreSQL, migrated on startup; the pool closes with the scope. Verified
 * keys are cached in memory; key changes are announced with NOTIFY (see `changeProbe`).
 */
export const layer = (options: PgStoreOptions): Layer.Layer<SqlStores.Stores, StoreFailure> =>
  SqlStores.layerWithKeyCache(changeProbe(typeof options.url === "string" ? options.url : Redacted.value(options.url)), {
    ttlMillis: 10_000
  }).pipe(Layer.provide(layerClient(options)))

/** `layer` with the URL read (as a secret) from `DATABASE_URL`, or from the given config. */
export const layerConfig = (
  url: Config.Config<Redacted.Redacted<string>> = Config.redacted("DATABASE_URL")
): Layer.Layer<SqlStores.Stores, StoreFailure | ConfigError.ConfigError> =>
  Layer.unwrapEffect(Effect.map(url, (url) => layer({ url })))
