/**
 * The context cache serves article contexts from memory and never serves one past a change: a new
 * probe stamp or a deletion through the store sends the next read to the database; on SQLite a
 * deletion through another connection (another process) is seen at once.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AccountStore, ArticleContextStore } from "@decorum/core"
import { AccountId, type ArticleContext, ArticleContextId } from "@decorum/domain"
import { assert, it } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { afterAll, describe } from "vitest"
import { ContextCache, SqliteStore } from "../src/index.js"
import { freshEmail } from "./contract.js"

const account = AccountId.make(1)
const id = ArticleContextId.make("00000000-0000-4000-8000-000000000001")
const context = (text: string): ArticleContext => ({
  id,
  accountId: account,
  text,
  title: null,
  topicDescription: null,
  sourceUrl: null,
  profile: { version: 1, terms: [], entities: [], summary: "" },
  createdAt: new Date(0)
})

/** An in-memory context table that counts the reads reaching it. */
const countingStore = () => {
  const contexts = new Map<string, ArticleContext>([[id, context("An article.")]])
  const counter = { reads: 0 }
  const store = ArticleContextStore.of({
    insert: () => Effect.die("unused"),
    list: () => Effect.succeed([]),
    get: (accountId, contextId) =>
      Effect.sync(() => {
        counter.reads++
        const found = contexts.get(contextId)
        return Option.fromNullable(found?.accountId === accountId ? found : undefined)
      }),
    remove: (_accountId, contextId) => Effect.sync(() => contexts.delete(contextId))
  })
  return { store, counter, contexts }
}

describe("ContextCache.cached", () => {
  it.effect("answers a repeated read from memory while the stamp holds, and reads again when it moves", () =>
    Effect.gen(function*() {
      const { contexts, counter, store } = countingStore()
      let stamp = 1
      const cache = ContextCache.cached(store, { stamp: () => stamp })
      assert.isTrue(Option.isSome(yield* cache.get(account, id)))
      assert.isTrue(Option.isSome(yield* cache.get(account, id)))
      assert.strictEqual(counter.reads, 1)
      // Another account asks for the same id: its own read, and nothing.
      assert.isTrue(Option.isNone(yield* cache.get(AccountId.make(2), id)))
      assert.strictEqual(counter.reads, 2)
      // Another process deleted it: the database changed, the stamp moved.
      contexts.delete(id)
      stamp = 2
      assert.isTrue(Option.isNone(yield* cache.get(account, id)))
      assert.strictEqual(counter.reads, 3)
    }))

  it.effect("a deletion through the cached store takes effect on the next read", () =>
    Effect.gen(function*() {
      const { counter, store } = countingStore()
      const cache = ContextCache.cached(store, { stamp: () => 1 })
      yield* cache.get(account, id)
      assert.isTrue(yield* cache.remove(account, id))
      assert.isTrue(Option.isNone(yield* cache.get(account, id)))
      assert.strictEqual(counter.reads, 2)
    }))

  it.effect("caches nothing while the probe cannot tell, nor unknown ids, nor a text past the bound", () =>
    Effect.gen(function*() {
      const { contexts, counter, store } = countingStore()
      let stamp: number | undefined = undefined
      const cache = ContextCache.cached(store, { stamp: () => stamp }, { maxTextChars: 20 })
      yield* cache.get(account, id)
      yield* cache.get(account, id)
      assert.strictEqual(counter.reads, 2)
      stamp = 7
      const unknown = ArticleContextId.make("00000000-0000-4000-8000-000000000002")
      yield* cache.get(account, unknown)
      yield* cache.get(account, unknown)
      assert.strictEqual(counter.reads, 4)
      contexts.set(id, context("An article longer than twenty characters."))
      yield* cache.get(account, id)
      yield* cache.get(account, id)
      assert.strictEqual(counter.reads, 6)
    }))

  it.effect("a read that raced a change does not store its row under the new stamp", () =>
    Effect.gen(function*() {
      const { counter, store } = countingStore()
      let stamp = 1
      const racing = ArticleContextStore.of({ ...store, get: (a, c) => Effect.tap(store.get(a, c), () => void (stamp = 2)) })
      const cache = ContextCache.cached(racing, { stamp: () => stamp })
      yield* cache.get(account, id)
      yield* cache.get(account, id)
      assert.strictEqual(counter.reads, 2)
    }))
})

describe("SqliteStore context cache", () => {
  const dir = mkdtempSync(join(tmpdir(), "decorum-contextcache-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it.live("a context deleted through another connection is gone on the next read", () =>
    Effect.gen(function*() {
      const filename = join(dir, "contexts.db")
      const server = yield* Layer.build(SqliteStore.layer({ filename }))
      const cli = yield* Layer.build(SqliteStore.layer({ filename }))
      const serving = Context.get(server, ArticleContextStore)
      const owner = yield* Context.get(server, AccountStore).ensureAccount(freshEmail("ContextCache"))
      const created = yield* serving.insert(id, { ...context("An article."), accountId: owner.id })
      for (let i = 0; i < 3; i++) assert.isTrue(Option.isSome(yield* serving.get(owner.id, created.id)))
      assert.isTrue(yield* Context.get(cli, ArticleContextStore).remove(owner.id, created.id))
      assert.isTrue(Option.isNone(yield* serving.get(owner.id, created.id)))
    }).pipe(Effect.scoped))
})
