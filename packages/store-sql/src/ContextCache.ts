/**
 * Article contexts served from memory, behind the same change probe as the key cache.
 *
 * Every comment scoring and relevance check (and the combined call) resolves its
 * `article_context_id`; through the SQL client that read (the row, its profile decoded) cost more
 * than the three local models of a megacall together. A context never changes once created; it is
 * only deleted. `cached` keeps the contexts `get` found in memory and serves one only while the
 * `ChangeProbe`'s stamp equals the stamp read before the row was fetched: any commit to the
 * database (a deletion by another process included) makes every context be read again.
 *
 * Only a probe that sees every commit may back it (SQLite's `PRAGMA data_version`); PostgreSQL's
 * probe hears key changes only, so `PgStore` does not cache contexts. Deletions through this store
 * clear the cache at once. Unknown ids are not cached, and what is held is bounded by entries and
 * by the article text it holds (contexts may hold up to `Limits.articleMaxLength` characters each).
 */
import { ArticleContextStore } from "@decorum/core"
import type { AccountId, ArticleContext, ArticleContextId } from "@decorum/domain"
import { Effect, Option } from "effect"
import type { ChangeProbe } from "./KeyCache.js"

export interface ContextCacheOptions {
  /** Most contexts held at once; the cache starts over when it is full. Default: 1,000. */
  readonly maxEntries?: number | undefined
  /** Most characters of article text held at once; the cache starts over past it. Default: 8,000,000. */
  readonly maxTextChars?: number | undefined
}

interface Entry {
  readonly context: ArticleContext
  readonly stamp: unknown
}

/** `store` with `get` answered from memory while the probe says nothing changed. */
export const cached = (store: ArticleContextStore["Type"], probe: ChangeProbe, options: ContextCacheOptions = {}): ArticleContextStore["Type"] => {
  const maxEntries = options.maxEntries ?? 1_000
  const maxTextChars = options.maxTextChars ?? 8_000_000
  const entries = new Map<string, Entry>()
  let textChars = 0
  let lastStamp: unknown = undefined

  const clear = () => {
    entries.clear()
    textChars = 0
  }
  const keyOf = (accountId: AccountId, id: ArticleContextId) => `${accountId} ${id}`

  const held = (key: string, stamp: unknown): ArticleContext | undefined => {
    if (stamp === undefined || stamp !== lastStamp) {
      clear()
      lastStamp = stamp
    }
    const entry = entries.get(key)
    return entry !== undefined && stamp !== undefined && entry.stamp === stamp ? entry.context : undefined
  }

  const remember = (key: string, stamp: unknown) => (found: Option.Option<ArticleContext>) => {
    if (stamp === undefined || Option.isNone(found)) return
    // A read that started before a change must not store what it read under the new stamp.
    if (probe.stamp() !== stamp) return
    const chars = found.value.text.length
    if (chars > maxTextChars) return
    if (entries.size >= maxEntries || textChars + chars > maxTextChars) clear()
    entries.set(key, { context: found.value, stamp })
    textChars += chars
  }

  return ArticleContextStore.of({
    ...store,
    get: (accountId, id) =>
      Effect.suspend(() => {
        const key = keyOf(accountId, id)
        const stamp = probe.stamp()
        const found = held(key, stamp)
        return found !== undefined ? Effect.succeed(Option.some(found)) : Effect.tap(store.get(accountId, id), remember(key, stamp))
      }),
    remove: (accountId, id) => Effect.tap(store.remove(accountId, id), (removed) => Effect.sync(() => removed && clear()))
  })
}
