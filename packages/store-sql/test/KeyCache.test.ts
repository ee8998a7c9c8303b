/**
 * The key cache serves verified keys from memory and never serves one past a change: a new probe
 * stamp, a revocation through the store, or the time to live each send the next lookup to the
 * database; on SQLite a revocation through another connection (another process) is seen at once.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AccountStore, type StoredKey } from "@decorum/core"
import { AccountId } from "@decorum/domain"
import { assert, it } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { afterAll, describe } from "vitest"
import { KeyCache, SqliteStore } from "../src/index.js"
import { freshEmail, newKey } from "./contract.js"

const stored = (keyId: string, revoked = false): StoredKey => ({
  keyId,
  hash: "h",
  revoked,
  account: { id: AccountId.make(1), email: "a@example.com", createdAt: new Date(0) }
})

/** An in-memory key table that counts the lookups reaching it. */
const countingStore = () => {
  const keys = new Map<string, StoredKey>([["known", stored("known")]])
  const counter = { lookups: 0 }
  const store = AccountStore.of({
    ensureAccount: () => Effect.die("unused"),
    findAccount: () => Effect.die("unused"),
    countAccounts: Effect.succeed(0),
    insertKey: () => Effect.void,
    listKeys: () => Effect.succeed([]),
    findKey: (keyId) =>
      Effect.sync(() => {
        counter.lookups++
        return Option.fromNullable(keys.get(keyId))
      }),
    findKeyNow: () => undefined,
    revokeKey: (keyId) =>
      Effect.sync(() => {
        const key = keys.get(keyId)
        if (!key || key.revoked) return false
        keys.set(keyId, { ...key, revoked: true })
        return true
      })
  })
  return { store, counter, keys }
}

describe("KeyCache.cached", () => {
  it.effect("answers a repeated lookup from memory while the stamp holds, and asks again when it moves", () =>
    Effect.gen(function*() {
      const { counter, keys, store } = countingStore()
      let stamp = 1
      const cache = KeyCache.cached(store, { stamp: () => stamp })
      assert.isTrue(Option.isSome(yield* cache.findKey("known")))
      assert.isTrue(Option.isSome(yield* cache.findKey("known")))
      assert.strictEqual(counter.lookups, 1)
      // Another process revoked it: the table changed, the stamp moved.
      keys.set("known", stored("known", true))
      stamp = 2
      const after = yield* cache.findKey("known")
      assert.strictEqual(counter.lookups, 2)
      assert.isTrue(Option.isSome(after) && after.value.revoked)
    }))

  it.effect("a revocation through the cached store takes effect on the next lookup and is announced", () =>
    Effect.gen(function*() {
      const { counter, store } = countingStore()
      const announced: Array<string> = []
      const cache = KeyCache.cached(store, { stamp: () => 1, changed: (keyId) => Effect.sync(() => void announced.push(keyId)) })
      yield* cache.findKey("known")
      assert.isTrue(yield* cache.revokeKey("known"))
      const after = yield* cache.findKey("known")
      assert.isTrue(Option.isSome(after) && after.value.revoked)
      assert.strictEqual(counter.lookups, 2)
      assert.deepStrictEqual(announced, ["known"])
    }))

  it.effect("caches nothing while the probe cannot tell, nor unknown keys, nor past the time to live", () =>
    Effect.gen(function*() {
      const { counter, store } = countingStore()
      let stamp: number | undefined = undefined
      let now = 0
      const cache = KeyCache.cached(store, { stamp: () => stamp }, { ttlMillis: 100, now: () => now })
      yield* cache.findKey("known")
      yield* cache.findKey("known")
      assert.strictEqual(counter.lookups, 2)
      stamp = 7
      yield* cache.findKey("unknown")
      yield* cache.findKey("unknown")
      assert.strictEqual(counter.lookups, 4)
      yield* cache.findKey("known")
      now = 99
      yield* cache.findKey("known")
      assert.strictEqual(counter.lookups, 5)
      now = 100
      yield* cache.findKey("known")
      assert.strictEqual(counter.lookups, 6)
    }))

  it.effect("a lookup that raced a change does not store its row under the new stamp", () =>
    Effect.gen(function*() {
      const { counter, store } = countingStore()
      let stamp = 1
      // The change commits while the lookup is in flight.
      const racing = AccountStore.of({ ...store, findKey: (keyId) => Effect.tap(store.findKey(keyId), () => void (stamp = 2)) })
      const cache = KeyCache.cached(racing, { stamp: () => stamp })
      yield* cache.findKey("known")
      yield* cache.findKey("known")
      assert.strictEqual(counter.lookups, 2)
    }))
})

describe("SqliteStore key cache", () => {
  const dir = mkdtempSync(join(tmpdir(), "decorum-keycache-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it.live("a key revoked through another connection is revoked on the next lookup", () =>
    Effect.gen(function*() {
      const filename = join(dir, "keys.db")
      const server = yield* Layer.build(SqliteStore.layer({ filename }))
      const cli = yield* Layer.build(SqliteStore.layer({ filename }))
      const serving = Context.get(server, AccountStore)
      const revoking = Context.get(cli, AccountStore)
      const account = yield* serving.ensureAccount(freshEmail("Cache"))
      const key = yield* newKey(account.id, null)
      yield* serving.insertKey(key)
      for (let i = 0; i < 3; i++) {
        const found = yield* serving.findKey(key.keyId)
        assert.isTrue(Option.isSome(found) && !found.value.revoked)
      }
      assert.isTrue(yield* revoking.revokeKey(key.keyId))
      const after = yield* serving.findKey(key.keyId)
      assert.isTrue(Option.isSome(after) && after.value.revoked)
    }).pipe(Effect.scoped))
})
