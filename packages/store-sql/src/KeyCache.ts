/**
 * Verified-key lookups served from memory, without letting a revocation lag.
 *
 * Every authenticated request looks its key up; through the SQL client that lookup costs more than
 * the whole evaluation. `cached` keeps the rows `findKey` returned in memory and asks a
 * `ChangeProbe` on every lookup whether the key table may have changed since the row was read:
 *
 * - SQLite (`sqliteProbe`): `PRAGMA data_version` on a connection of its own. It changes whenever
 *   any connection, in this process or another (`decorum keys revoke`, another server on the same
 *   file), commits to the database, and reading it is a microsecond.
 * - PostgreSQL (`PgStore`): a counter bumped by `LISTEN decorum_keys`, to which every key change
 *   is `NOTIFY`ed. Until the listener has heard its own first notification, and after its
 *   connection fails, nothing is cached; entries also expire after a short time to live, as the
 *   backstop for a notification channel that drops silently.
 *
 * A row is served from memory only while the probe's stamp equals the stamp read before the row was
 * fetched, so a change committed while a lookup is in flight still invalidates it. Keys changed
 * through this store (`revokeKey`) clear the cache at once. Unknown key ids are not
 * cached (nobody can fill memory with guesses), and the cache holds a bounded number of keys.
 */
import { AccountStore, type StoredKey } from "@decorum/core"
import type { StoreFailure } from "@decorum/domain"
import { Effect, Option } from "effect"

/** Tells whether the key table may have changed: a different stamp than last time means "maybe". */
export interface ChangeProbe {
  /** Read on every lookup, so it must be cheap. `undefined` means "cannot tell now": do not cache. */
  readonly stamp: () => unknown
  /** Called after this process changed a key (the PostgreSQL probe notifies the other processes). */
  readonly changed?: (keyId: string) => Effect.Effect<void, StoreFailure>
}

export interface CacheOptions {
  /** How long an entry is served at most, in milliseconds. Default: no limit (the probe decides). */
  readonly ttlMillis?: number | undefined
  /** Most keys held at once; the cache starts over when it is full. Default: 10,000. */
  readonly maxEntries?: number | undefined
  /** The clock for the time to live (tests). Default: `Date.now`. */
  readonly now?: () => number
}

interface Entry {
  readonly key: StoredKey
  readonly stamp: unknown
  readonly expiresAt: number
}

/** `store` with `findKey` answered from memory while the probe says nothing changed. */
export const cached = (store: AccountStore["Type"], probe: ChangeProbe, options: CacheOptions = {}): AccountStore["Type"] => {
  const ttl = options.ttlMillis ?? Number.POSITIVE_INFINITY
  const maxEntries = options.maxEntries ?? 10_000
  const now = options.now ?? Date.now
  const entries = new Map<string, Entry>()
  let lastStamp: unknown = undefined

  const invalidate = (keyId: string) =>
    Effect.suspend(() => {
      entries.clear()
      return probe.changed ? probe.changed(keyId) : Effect.void
    })

  const remember = (keyId: string, stamp: unknown) => (found: Option.Option<StoredKey>) => {
    if (stamp === undefined || Option.isNone(found)) return
    // A lookup that started before a change must not store what it read under the new stamp.
    if (probe.stamp() !== stamp) return
    if (entries.size >= maxEntries) entries.clear()
    entries.set(keyId, { key: found.value, stamp, expiresAt: now() + ttl })
  }

  /** The row when memory holds it under the current stamp; undefined when the store must be asked. */
  const held = (keyId: string, stamp: unknown): Option.Option<StoredKey> | undefined => {
    if (stamp === undefined || stamp !== lastStamp) {
      entries.clear()
      lastStamp = stamp
    }
    const entry = entries.get(keyId)
    return entry !== undefined && stamp !== undefined && entry.stamp === stamp && entry.expiresAt > now() ? Option.some(entry.key) : undefined
  }

  return AccountStore.of({
    ...store,
    findKey: (keyId) =>
      Effect.suspend(() => {
        const stamp = probe.stamp()
        const found = held(keyId, stamp)
        return found !== undefined ? Effect.succeed(found) : Effect.tap(store.findKey(keyId), remember(keyId, stamp))
      }),
    // A key held in memory is known without I/O; anything else goes through `findKey`.
    findKeyNow: (keyId) => held(keyId, probe.stamp()),
    revokeKey: (keyId) => Effect.tap(store.revokeKey(keyId), (revoked) => (revoked ? invalidate(keyId) : Effect.void))
  })
}
