/**
 * The store contract on PostgreSQL, and what a shared store must do for several server processes.
 * Needs `DATABASE_URL` (start a throwaway server with `eval "$(bash .ci/start-postgres.sh)"`).
 * Each run works in schemas of its own (through the URL's `search_path`) and drops them at the end.
 */
import { randomUUID } from "node:crypto"
import { AccountStore, Adaptation, ArticleContextStore, Auth, StoreHealth, SuggestionStore } from "@decorum/core"
import { ArticleContextId, StoreFailure } from "@decorum/domain"
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClientTag from "@effect/sql/SqlClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as PgMigrator from "@effect/sql-pg/PgMigrator"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer, Option, Redacted } from "effect"
import { Migrations, PgStore, SqlStores, StoreLayer, type Stores } from "../src/index.js"
import { fitsReadAsBefore, freshEmail, profile, storeContract, suggestion } from "./contract.js"

const databaseUrl = process.env["DATABASE_URL"]
if (!databaseUrl) {
  console.warn("PostgreSQL store tests skipped: set DATABASE_URL (see .ci/start-postgres.sh)")
}

const run = randomUUID().replace(/-/g, "").slice(0, 12)
const schemas = { contract: `decorum_test_${run}`, shared: `decorum_test_${run}_shared`, upgrade: `decorum_test_${run}_upgrade` }

/** The same database, with unqualified names resolved in `schema`. */
const inSchema = (url: string, schema: string) => {
  const u = new URL(url)
  u.searchParams.set("options", `-c search_path=${schema}`)
  return u.toString()
}

const admin = <A>(url: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, SqlError>) =>
  Effect.runPromise(
    Effect.scoped(Effect.flatMap(PgClient.make({ url: Redacted.make(url) }), f)).pipe(Effect.provide(Reactivity.layer))
  )

describe.runIf(databaseUrl)("PostgreSQL", () => {
  // Vitest still collects this block when it will not run it: build nothing from an absent URL.
  const url = databaseUrl ?? "postgres://unset/unset"
  const contractUrl = inSchema(url, schemas.contract)
  const sharedUrl = inSchema(url, schemas.shared)

  beforeAll(() =>
    admin(url, (sql) =>
      Effect.all([sql`create schema ${sql(schemas.contract)}`, sql`create schema ${sql(schemas.shared)}`, sql`create schema ${sql(schemas.upgrade)}`], {
        discard: true
      })
    )
  )
  afterAll(() =>
    admin(url, (sql) =>
      Effect.all([
        sql`drop schema if exists ${sql(schemas.contract)} cascade`,
        sql`drop schema if exists ${sql(schemas.shared)} cascade`,
        sql`drop schema if exists ${sql(schemas.upgrade)} cascade`
      ], { discard: true })
    )
  )

  storeContract("PgStore", PgStore.layer({ url: contractUrl }))

  /** Runs `effect` against the stores of one built layer (one "server process"). */
  const on = (stores: Context.Context<Stores>) => <A, E>(effect: Effect.Effect<A, E, Stores>) => Effect.provide(effect, stores)

  it.live("two layers with their own pools (two server processes) share one store", () =>
    Effect.gen(function*() {
      // Both start at once on an empty schema: the migrations must run exactly once.
      const [a, b] = yield* Effect.all([Layer.build(PgStore.layer({ url: sharedUrl })), Layer.build(PgStore.layer({ url: sharedUrl }))], {
        concurrency: 2
      })
      const onA = on(a)
      const onB = on(b)
      const migrations = yield* Effect.promise(() =>
        admin(sharedUrl, (sql) => sql<{ readonly migration_id: number }>`select migration_id from decorum_migrations`)
      )
      assert.deepStrictEqual(migrations.map((m) => m.migration_id), [1, 2, 3, 4])

      // The same new emails, created from both processes at once: nobody fails, one account each.
      const emails = Array.from({ length: 12 }, () => freshEmail("Race"))
      const created = yield* Effect.all(
        emails.flatMap((email) => [
          onA(Effect.flatMap(AccountStore, (s) => s.ensureAccount(email))),
          onB(Effect.flatMap(AccountStore, (s) => s.ensureAccount(email)))
        ]),
        { concurrency: "unbounded" }
      )
      for (let i = 0; i < emails.length; i++) {
        assert.deepStrictEqual(created[2 * i + 1], created[2 * i])
      }

      // A key created by one process authenticates on the other; a revocation is seen by both.
      const email = emails[0]!
      const key = yield* onA(Auth.createKey(email, "shared"))
      assert.strictEqual((yield* onB(Auth.authenticate(email, key.key))).id, key.account.id)
      assert.isTrue(yield* onB(Effect.flatMap(AccountStore, (s) => s.revokeKey(key.keyId))))
      assert.isFalse(yield* onA(Effect.flatMap(AccountStore, (s) => s.revokeKey(key.keyId))))
      assert.strictEqual((yield* onA(Effect.flip(Auth.authenticate(email, key.key))))._tag, "Unauthorized")

      // Article contexts.
      const id = ArticleContextId.make(randomUUID())
      const context = yield* onA(Effect.flatMap(ArticleContextStore, (s) =>
        s.insert(id, { accountId: key.account.id, text: "shared", title: "T", topicDescription: null, sourceUrl: null, profile })))
      assert.deepStrictEqual(yield* onB(Effect.flatMap(ArticleContextStore, (s) => s.get(key.account.id, id))), Option.some(context))
      assert.isTrue(yield* onB(Effect.flatMap(ArticleContextStore, (s) => s.remove(key.account.id, id))))
      assert.deepStrictEqual(yield* onA(Effect.flatMap(ArticleContextStore, (s) => s.get(key.account.id, id))), Option.none())

      // Suggestions.
      const stored = yield* onB(Effect.flatMap(SuggestionStore, (s) => s.insert(suggestion(key.account.id, "from b"))))
      assert.deepStrictEqual(yield* onA(Effect.flatMap(SuggestionStore, (s) => s.list({ email }))), [stored])

      // Refit claims (DECORUM_ADAPT_EVERY): both processes claim the same account at once, again
      // and again; exactly one wins each time.
      for (const email of emails.slice(1)) {
        const account = created[emails.indexOf(email) * 2]!
        const claims = yield* Effect.all([
          onA(Effect.flatMap(Adaptation.AdapterStore, (s) => s.claim(account.id, "instance a", 60_000))),
          onB(Effect.flatMap(Adaptation.AdapterStore, (s) => s.claim(account.id, "instance b", 60_000)))
        ], { concurrency: 2 })
        assert.lengthOf(claims.filter(Boolean), 1)
      }
    }).pipe(Effect.scoped))

  it.live("migration 3 on a database of migration 2: its corrections have no key id, and count as pending", () =>
    Effect.gen(function*() {
      const upgradeUrl = inSchema(url, schemas.upgrade)
      const { "3_correction_keys": _, "4_adapter_fits": _4, ...upToTwo } = Migrations.migrations
      yield* Effect.promise(() =>
        admin(upgradeUrl, (sql) =>
          Effect.gen(function*() {
            yield* PgMigrator.make({})({ loader: PgMigrator.fromRecord(upToTwo), table: Migrations.migrationsTable }).pipe(
              Effect.provideService(SqlClientTag.SqlClient, sql),
              Effect.orDie
            )
            const at = new Date().toISOString()
            yield* sql`insert into accounts (email, created_at) values ('before@example.com', ${at})`
            yield* sql`insert into score_suggestions (account_id, comment_text, attribute_scores, languages, created_at)
              select id, 'stored before keys were recorded', '{"TOXICITY":1}', '[]', ${at} from accounts where email = 'before@example.com'`
          }))
      )
      yield* Effect.gen(function*() {
        const [old] = yield* (yield* SuggestionStore).list({ email: "before@example.com" })
        assert.deepInclude(old, { commentText: "stored before keys were recorded", keyId: null, attributeScores: { TOXICITY: 1 } })
        assert.strictEqual(yield* (yield* Adaptation.AdapterStore).pending(old!.accountId), 1)
      }).pipe(Effect.provide(PgStore.layer({ url: upgradeUrl })))
      const migrations = yield* Effect.promise(() =>
        admin(upgradeUrl, (sql) => sql<{ readonly migration_id: number }>`select migration_id from decorum_migrations order by migration_id`)
      )
      assert.deepStrictEqual(migrations.map((m) => m.migration_id), [1, 2, 3, 4])
    }))

  it.live("a fit with a fallback reads as its fallback to a release before migration 4 (the latest row only)", () =>
    fitsReadAsBefore.pipe(Effect.provide(SqlStores.layer.pipe(Layer.provideMerge(PgStore.layerClient({ url: contractUrl }))))))

  it.live("database errors are StoreFailures naming the operation, never defects", () =>
    Effect.gen(function*() {
      const accounts = yield* AccountStore
      const account = yield* accounts.ensureAccount(freshEmail("Dup"))
      const generated = yield* Auth.generateKey
      const key = { accountId: account.id, keyId: generated.keyId, hash: generated.hash, label: null }
      yield* accounts.insertKey(key)
      const failure = yield* Effect.flip(accounts.insertKey(key))
      assert.instanceOf(failure, StoreFailure)
      assert.strictEqual(failure.operation, "AccountStore.insertKey")
      assert.match(failure.message, /duplicate key/i)
    }).pipe(Effect.provide(PgStore.layer({ url: contractUrl }))))

  it.live("a server that does not answer fails the layer with a StoreFailure", () =>
    Effect.gen(function*() {
      const unreachable = new URL(url)
      unreachable.port = "1"
      const failure = yield* Effect.flip(
        Effect.flatMap(StoreHealth, (h) => h.ping).pipe(
          Effect.provide(PgStore.layer({ url: unreachable.toString(), connectTimeout: "2 seconds" }))
        )
      )
      assert.deepInclude(failure, { _tag: "StoreFailure", operation: "PgStore.connect" })
      // The password is not in the message.
      const password = new URL(url).password
      if (password) assert.notInclude(failure.message, password)
    }))

  it.live("layerConfig reads DATABASE_URL; StoreLayer.layer picks PostgreSQL for a postgres:// URL", () =>
    Effect.gen(function*() {
      yield* Effect.flatMap(StoreHealth, (h) => h.ping).pipe(
        Effect.provide(PgStore.layerConfig()),
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["DATABASE_URL", contractUrl]])))
      )
      assert.strictEqual(StoreLayer.dialectOf(contractUrl), "pg")
      const email = freshEmail("FromUrl")
      const created = yield* Effect.flatMap(AccountStore, (s) => s.ensureAccount(email)).pipe(
        Effect.provide(StoreLayer.layer(contractUrl))
      )
      const found = yield* Effect.flatMap(AccountStore, (s) => s.findAccount(email)).pipe(
        Effect.provide(PgStore.layer({ url: contractUrl }))
      )
      assert.deepStrictEqual(found, Option.some(created))
      const viaConfig = yield* Effect.flatMap(AccountStore, (s) => s.findAccount(email)).pipe(
        Effect.provide(StoreLayer.layerConfig()),
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["DECORUM_DB", contractUrl]])))
      )
      assert.deepStrictEqual(viaConfig, found)
    }))
})
