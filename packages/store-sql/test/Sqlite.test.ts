/** The store contract on SQLite (a temporary file for this test file), and what only SQLite does. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomUUID } from "node:crypto"
import { AccountStore, Adaptation, ArticleContextStore, StoreHealth, SuggestionStore } from "@decorum/core"
import { ArticleContextId, StoreFailure } from "@decorum/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Option } from "effect"
import { SqliteClient, SqliteMigrator } from "@effect/sql-sqlite-node"
import { Migrations, SqliteStore, SqlStores, StoreLayer } from "../src/index.js"
import { fitsReadAsBefore, freshEmail, newKey, profile, storeContract, suggestion } from "./contract.js"

const dir = mkdtempSync(join(tmpdir(), "decorum-store-sql-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const file = (name: string) => join(dir, name)

storeContract("SqliteStore", SqliteStore.layer({ filename: file("contract.db") }))

describe("SqliteStore on a file", () => {
  it.live("the health check fails on a file the store cannot write (issue 10 item 7: /readyz answers 503)", () =>
    Effect.gen(function*() {
      const filename = file("readonly.db")
      // Create and migrate the file, then reopen it read-only.
      yield* Effect.scoped(Layer.build(SqliteStore.layer({ filename })))
      const readOnly = SqlStores.layer.pipe(Layer.provide(SqliteClient.layer({ filename, readonly: true })))
      const error = yield* Effect.flip(Effect.flatMap(StoreHealth, (health) => health.ping).pipe(Effect.provide(readOnly)))
      assert.instanceOf(error, StoreFailure)
      assert.match(error.message, /readonly/)
    })
  )

  it.live("the health check passes on a writable file", () =>
    Effect.gen(function*() {
      yield* (yield* StoreHealth).ping
    }).pipe(Effect.provide(SqliteStore.layer({ filename: file("writable.db") })))
  )

  it.live("a write is durable: a fresh layer on the same file sees it after the first one closed", () =>
    Effect.gen(function*() {
      const filename = file("durable.db")
      const email = freshEmail("Durable")
      const contextId = ArticleContextId.make(randomUUID())

      const written = yield* Effect.gen(function*() {
        const accounts = yield* AccountStore
        const account = yield* accounts.ensureAccount(email)
        const key = yield* newKey(account.id, "durable")
        yield* accounts.insertKey(key)
        const context = yield* (yield* ArticleContextStore).insert(contextId, {
          accountId: account.id,
          text: "durable text",
          title: null,
          topicDescription: null,
          sourceUrl: null,
          profile
        })
        const stored = yield* (yield* SuggestionStore).insert(suggestion(account.id, "durable comment"))
        return { account, key, context, stored }
      }).pipe(Effect.provide(SqliteStore.layer({ filename })))
      // `Effect.provide` has closed that layer's scope (and the connection) here.

      yield* Effect.gen(function*() {
        const accounts = yield* AccountStore
        assert.deepStrictEqual(yield* accounts.findAccount(email), Option.some(written.account))
        const key = yield* accounts.findKey(written.key.keyId)
        assert.deepStrictEqual(Option.map(key, (k) => k.hash), Option.some(written.key.hash))
        assert.deepStrictEqual(yield* (yield* ArticleContextStore).get(written.account.id, contextId), Option.some(written.context))
        assert.deepStrictEqual(yield* (yield* SuggestionStore).list({ email }), [written.stored])
      }).pipe(Effect.provide(SqliteStore.layer({ filename })))
    }))

  it.live("the connection runs in WAL mode with synchronous=FULL, a busy timeout and foreign keys", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pragma = (name: string) =>
        Effect.map(sql.unsafe<Record<string, unknown>>(`pragma ${name}`), (rows) => Object.values(rows[0] ?? {})[0])
      assert.strictEqual(yield* pragma("journal_mode"), "wal")
      assert.strictEqual(yield* pragma("synchronous"), 2) // FULL
      assert.strictEqual(yield* pragma("busy_timeout"), 1234)
      assert.strictEqual(yield* pragma("foreign_keys"), 1)
      // Migrated once, however often the file is opened.
      const migrations = yield* sql<{ readonly migration_id: number }>`select migration_id from decorum_migrations`
      assert.deepStrictEqual(migrations.map((m) => m.migration_id), [1, 2, 3, 4])
    }).pipe(
      Effect.provide(SqliteStore.layerClient({ filename: file("contract.db"), busyTimeout: "1234 millis" }))
    ))

  it.live("two layers open on one file see each other's writes", () =>
    Effect.gen(function*() {
      const filename = file("shared.db")
      const a = yield* Layer.build(SqliteStore.layer({ filename }))
      const b = yield* Layer.build(SqliteStore.layer({ filename }))
      const email = freshEmail("Shared")
      const [fromA, fromB] = yield* Effect.all([
        Effect.provide(Effect.flatMap(AccountStore, (s) => s.ensureAccount(email)), a),
        Effect.provide(Effect.flatMap(AccountStore, (s) => s.ensureAccount(email)), b)
      ], { concurrency: 2 })
      assert.deepStrictEqual(fromB, fromA)
      const key = yield* newKey(fromA.id, null)
      yield* Effect.provide(Effect.flatMap(AccountStore, (s) => s.insertKey(key)), a)
      const seen = yield* Effect.provide(Effect.flatMap(AccountStore, (s) => s.findKey(key.keyId)), b)
      assert.isTrue(Option.isSome(seen))
    }).pipe(Effect.scoped))

  it.live("a fit with a fallback reads as its fallback to a release before migration 4 (the latest row only)", () =>
    fitsReadAsBefore.pipe(Effect.provide(SqlStores.layer.pipe(Layer.provideMerge(SqliteStore.layerClient({ filename: file("fits.db") }))))))

  it.live("database errors are StoreFailures naming the operation, never defects", () =>
    Effect.gen(function*() {
      const accounts = yield* AccountStore
      const account = yield* accounts.ensureAccount(freshEmail("Dup"))
      const key = yield* newKey(account.id, null)
      yield* accounts.insertKey(key)
      const failure = yield* Effect.flip(accounts.insertKey(key))
      assert.strictEqual(failure.operation, "AccountStore.insertKey")
      assert.match(failure.message, /UNIQUE/i)

      // A key for an account that does not exist breaks a foreign key.
      const orphan = yield* Effect.flip(accounts.insertKey({ ...(yield* newKey(account.id, null)), accountId: 987654321 as typeof account.id }))
      assert.instanceOf(orphan, StoreFailure)
      assert.match(orphan.message, /FOREIGN KEY/i)
    }).pipe(Effect.provide(SqliteStore.layer({ filename: file("errors.db") }))))

  it.live("migration 3 on a database of migration 2: its corrections have no key id, and count as pending", () =>
    Effect.gen(function*() {
      const filename = file("upgrade.db")
      const { "3_correction_keys": _, "4_adapter_fits": _4, ...upToTwo } = Migrations.migrations
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* SqliteMigrator.make({})({ loader: SqliteMigrator.fromRecord(upToTwo), table: Migrations.migrationsTable })
        const at = new Date().toISOString()
        yield* sql`insert into accounts (email, created_at) values ('before@example.com', ${at})`
        yield* sql`insert into score_suggestions (account_id, comment_text, attribute_scores, languages, created_at)
          select id, 'stored before keys were recorded', '{"TOXICITY":1}', '[]', ${at} from accounts where email = 'before@example.com'`
      }).pipe(Effect.provide(SqliteClient.layer({ filename })))

      yield* Effect.gen(function*() {
        const [old] = yield* (yield* SuggestionStore).list({ email: "before@example.com" })
        assert.deepInclude(old, { commentText: "stored before keys were recorded", keyId: null, attributeScores: { TOXICITY: 1 } })
        assert.strictEqual(yield* (yield* Adaptation.AdapterStore).pending(old!.accountId), 1)
        const sql = yield* SqlClient.SqlClient
        const migrations = yield* sql<{ readonly migration_id: number }>`select migration_id from decorum_migrations`
        assert.deepStrictEqual(migrations.map((m) => m.migration_id), [1, 2, 3, 4])
      }).pipe(Effect.provide(SqlStores.layer.pipe(Layer.provideMerge(SqliteStore.layerClient({ filename })))))
    }))

  it.live("a file that cannot be opened fails the layer with a StoreFailure", () =>
    Effect.gen(function*() {
      // `Effect.flip` would not turn a defect into a value: the test would fail with it.
      const failure = yield* Effect.flip(
        Effect.provide(StoreHealth.pipe(Effect.flatMap((h) => h.ping)), SqliteStore.layer({ filename: file("missing-dir/x.db") }))
      )
      assert.deepInclude(failure, { _tag: "StoreFailure", operation: "SqliteStore.open" })
    }))

  it.live("layerConfig reads DECORUM_DB; StoreLayer.layer and layerConfig take a path for SQLite", () =>
    Effect.gen(function*() {
      const filename = file("config.db")
      yield* Effect.flatMap(StoreHealth, (h) => h.ping).pipe(
        Effect.provide(SqliteStore.layerConfig()),
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["DECORUM_DB", filename]])))
      )
      const missing = yield* Effect.flip(
        Effect.flatMap(StoreHealth, (h) => h.ping).pipe(
          Effect.provide(SqliteStore.layerConfig()),
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map()))
        )
      )
      assert.notStrictEqual(missing._tag, "StoreFailure")

      const email = freshEmail("FromUrl")
      yield* Effect.flatMap(AccountStore, (s) => s.ensureAccount(email)).pipe(Effect.provide(StoreLayer.layer(filename)))
      const found = yield* Effect.flatMap(AccountStore, (s) => s.findAccount(email)).pipe(
        Effect.provide(SqliteStore.layer({ filename }))
      )
      assert.isTrue(Option.isSome(found))

      const viaConfig = yield* Effect.flatMap(AccountStore, (s) => s.findAccount(email)).pipe(
        Effect.provide(StoreLayer.layerConfig()),
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["DECORUM_DB", filename]])))
      )
      assert.deepStrictEqual(viaConfig, found)
    }))
})

describe("StoreLayer.dialectOf", () => {
  it("reads postgres:// and postgresql:// URLs as PostgreSQL, anything else as a SQLite path", () => {
    assert.strictEqual(StoreLayer.dialectOf("postgres://u:p@h:5432/db"), "pg")
    assert.strictEqual(StoreLayer.dialectOf("PostgreSQL://h/db"), "pg")
    assert.strictEqual(StoreLayer.dialectOf("./decorum.db"), "sqlite")
    assert.strictEqual(StoreLayer.dialectOf("/var/lib/decorum/postgres.db"), "sqlite")
    assert.strictEqual(StoreLayer.dialectOf(":memory:"), "sqlite")
  })
})
