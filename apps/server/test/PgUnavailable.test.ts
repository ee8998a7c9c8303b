/**
 * Issue 10 items 4 and 7 on PostgreSQL, through the HTTP contract:
 *
 * - `/readyz` checks that the store can write: on a read-only session (what a client of a hot
 *   standby, or of a database set `default_transaction_read_only`, gets) it answers 503 not-ready,
 *   while the same schema through a writable session is ready.
 * - A store that is closing under requests in flight answers 503, never a false "API key not
 *   valid." / "Invalid user ID or API key.", also through the key cache (`PgStore.layer`).
 *
 * Needs DATABASE_URL (`eval "$(bash .ci/start-postgres.sh)"`); skipped without it. Works in a schema
 * of its own (the URL's search_path), dropped at the end.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import { PgStore, SqlStores } from "@decorum/store-sql"
import { randomUUID } from "node:crypto"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHttpHost, type TestHost } from "../../../packages/http/test/harness.js"

const databaseUrl = process.env["DATABASE_URL"]
if (!databaseUrl) console.warn("PostgreSQL /readyz and closing-store tests skipped: set DATABASE_URL (see .ci/start-postgres.sh)")

const schema = `decorum_test_${randomUUID().replace(/-/g, "").slice(0, 12)}_unavailable`

const admin = (url: string, statement: string) =>
  Effect.runPromise(
    Effect.scoped(Effect.flatMap(PgClient.make({ url: Redacted.make(url) }), (sql) => sql.unsafe(statement))).pipe(Effect.provide(Reactivity.layer))
  )

/** The database URL with its sessions' settings (`-c name=value ...`). */
const withOptions = (url: string, options: string) => {
  const u = new URL(url)
  u.searchParams.set("options", options)
  return u.toString()
}

describe.runIf(databaseUrl)("PostgreSQL: not ready and closing answer 503", () => {
  const base = databaseUrl ?? "postgres://unset/unset"
  const writable = withOptions(base, `-c search_path=${schema}`)
  const readOnly = withOptions(base, `-c search_path=${schema} -c default_transaction_read_only=on`)
  const hosts: Array<TestHost> = []
  const scopes: Array<Scope.CloseableScope> = []

  /** Builds `layer` in a scope of its own, closed by the test (or after all). */
  const build = async <A>(layer: Layer.Layer<A, unknown>) => {
    const scope = Effect.runSync(Scope.make())
    scopes.push(scope)
    return { scope, context: await Effect.runPromise(Layer.buildWithScope(layer, scope)) }
  }

  beforeAll(() => admin(base, `create schema ${schema}`))
  afterAll(async () => {
    for (const host of hosts) await host.close()
    for (const scope of scopes) await Effect.runPromise(Scope.close(scope, Exit.void))
    await admin(base, `drop schema if exists ${schema} cascade`)
  })

  it("/readyz answers 503 not-ready on a read-only database, 200 on a writable one", async () => {
    // Migrated through a writable pool; then served through read-only sessions on the same schema.
    const migrated = await build(PgStore.layer({ url: writable }))
    const ready = await startHttpHost({ stores: Layer.succeedContext(migrated.context) })
    hosts.push(ready)
    const replica = await build(SqlStores.layer.pipe(Layer.provide(PgClient.layer({ url: Redacted.make(readOnly) })), Layer.provide(Reactivity.layer)))
    const notReady = await startHttpHost({ stores: Layer.succeedContext(replica.context) })
    hosts.push(notReady)

    const good = await fetch(`${ready.url}/readyz`)
    assert.strictEqual(good.status, 200)
    assert.deepInclude(await good.json(), { status: "ready" })
    const bad = await fetch(`${notReady.url}/readyz`)
    assert.strictEqual(bad.status, 503)
    expect(await bad.json()).toMatchObject({ status: "unavailable", reason: expect.stringMatching(/read-only/) })
  })

  it("a store closing under requests in flight answers 503, never a false key error, through the key cache", async () => {
    const store = await build(PgStore.layer({ url: writable }))
    const host = await startHttpHost({ stores: Layer.succeedContext(store.context as Context.Context<any>) })
    hosts.push(host)
    const email = "closing@example.com"
    const key = await host.createKey(email)
    // A well-formed key that is nobody's: only the store can say it is wrong.
    const unknown = `dk_${"q".repeat(10)}_${"Q".repeat(32)}`
    const google = (k: string) =>
      fetch(`${host.url}/v1alpha1/comments:analyze?key=${k}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ comment: { text: "hello" }, requestedAttributes: { TOXICITY: {} } })
      })
    const native = (k: string) => fetch(`${host.url}/v0.2/usercheck`, { headers: { "x-user-email": email, "x-api-key": k } })
    // The valid key is verified once (and cached); the unknown one is never cached.
    assert.strictEqual((await google(key)).status, 200)
    assert.strictEqual((await google(unknown)).status, 400)

    const answer = async (valid: boolean, res: Promise<Response>) => {
      const r = await res
      return { valid, status: r.status, body: await r.text() }
    }
    const calls = () => [answer(true, google(key)), answer(true, native(key)), answer(false, google(unknown)), answer(false, native(unknown))]
    // Requests in flight while the pool closes, and requests after it closed.
    const during = Array.from({ length: 10 }, calls).flat()
    const closing = Effect.runPromise(Scope.close(store.scope, Exit.void))
    const meanwhile = Array.from({ length: 5 }, calls).flat()
    await closing
    const after = calls()
    const answers = await Promise.all([...during, ...meanwhile, ...after])

    for (const a of answers) {
      if (a.valid) {
        // The valid key: verified (by the store, or from the cache) or 503; never called wrong.
        assert.notMatch(a.body, /API key not valid|Invalid user ID or API key/)
        assert.include([200, 503], a.status)
      } else {
        // The unknown key: called wrong only by a store that answered (400 Google, 401 native), else 503.
        assert.include([400, 401, 503], a.status)
      }
    }
    // Once closed, a key the cache does not hold cannot be checked: 503 in each family's envelope.
    const [, , googleUnknown, nativeUnknown] = await Promise.all(after)
    assert.strictEqual(googleUnknown!.status, 503)
    assert.deepInclude(JSON.parse(googleUnknown!.body).error, { code: 503, status: "UNAVAILABLE" })
    assert.strictEqual(nativeUnknown!.status, 503)
    assert.deepInclude(JSON.parse(nativeUnknown!.body), { error: "Service Unavailable", code: 503 })
    assert.strictEqual((await fetch(`${host.url}/readyz`)).status, 503)
  })
})
