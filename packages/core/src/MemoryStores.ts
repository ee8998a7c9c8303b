/**
 * In-memory implementations of every store port: for tests, and for embedding without a database.
 * Nothing here survives the process.
 */
import type { Account, AccountId, ApiKeyInfo, ArticleContext, Perspective, ScoreSuggestion } from "@decorum/domain"
import { AccountId as AccountIdSchema } from "@decorum/domain"
import { Context, Effect, Layer, Option } from "effect"
import { AdapterStore, type StoredAdapter } from "./Adaptation.js"
import { AccountStore, ArticleContextStore, StoreHealth, type StoredKey, SuggestionStore } from "./Stores.js"

interface KeyRow {
  keyId: string
  hash: string
  accountId: AccountId
  label: string | null
  createdAt: Date
  revokedAt: Date | null
}

export const make = Effect.sync(() => {
  const accounts = new Map<string, Account>()
  const keys = new Map<string, KeyRow>()
  const contexts = new Map<string, ArticleContext>()
  const suggestions: Array<ScoreSuggestion> = []
  let nextAccount = 1

  const byId = (id: AccountId) => [...accounts.values()].find((a) => a.id === id)!

  /** Memory answers at once. */
  const findKeyNow = (keyId: string): Option.Option<StoredKey> => {
    const row = keys.get(keyId)
    return row ? Option.some({ keyId, hash: row.hash, account: byId(row.accountId), revoked: row.revokedAt !== null }) : Option.none()
  }

  const accountStore = AccountStore.of({
    ensureAccount: (email) =>
      Effect.sync(() => {
        const key = email.trim().toLowerCase()
        let account = accounts.get(key)
        if (!account) {
          account = { id: AccountIdSchema.make(nextAccount++), email: key, createdAt: new Date() }
          accounts.set(key, account)
        }
        return account
      }),
    findAccount: (email) => Effect.sync(() => Option.fromNullable(accounts.get(email.trim().toLowerCase()))),
    countAccounts: Effect.sync(() => accounts.size),
    insertKey: ({ accountId, hash, keyId, label }) =>
      Effect.sync(() => {
        keys.set(keyId, { keyId, hash, accountId, label, createdAt: new Date(), revokedAt: null })
      }),
    findKey: (keyId) => Effect.sync(() => findKeyNow(keyId)),
    findKeyNow,
    listKeys: (email) =>
      Effect.sync(() =>
        [...keys.values()]
          .map((row): ApiKeyInfo => ({
            keyId: row.keyId,
            email: byId(row.accountId).email,
            label: row.label,
            createdAt: row.createdAt,
            revokedAt: row.revokedAt,
            lastUsedAt: null
          }))
          .filter((k) => email === undefined || k.email === email.trim().toLowerCase())
      ),
    revokeKey: (keyId) =>
      Effect.sync(() => {
        const row = keys.get(keyId)
        if (!row || row.revokedAt) return false
        row.revokedAt = new Date()
        return true
      })
  })

  const contextStore = ArticleContextStore.of({
    insert: (id, context) =>
      Effect.sync(() => {
        const stored: ArticleContext = { ...context, id, createdAt: new Date() }
        contexts.set(id, stored)
        return stored
      }),
    get: (accountId, id) =>
      Effect.sync(() => Option.fromNullable(contexts.get(id)).pipe(Option.filter((c) => c.accountId === accountId))),
    remove: (accountId, id) =>
      Effect.sync(() => {
        const c = contexts.get(id)
        if (!c || c.accountId !== accountId) return false
        contexts.delete(id)
        return true
      }),
    list: (accountId) =>
      Effect.sync(() =>
        [...contexts.values()]
          .filter((c) => c.accountId === accountId)
          .map((c) => ({ id: c.id, title: c.title, sourceUrl: c.sourceUrl, textLength: c.text.length, createdAt: c.createdAt }))
      )
  })

  const suggestionStore = SuggestionStore.of({
    insert: (s) =>
      Effect.sync(() => {
        const stored: ScoreSuggestion = { ...s, id: suggestions.length + 1, email: byId(s.accountId).email, createdAt: new Date() }
        suggestions.push(stored)
        return stored
      }),
    list: ({ email, since }) =>
      Effect.sync(() =>
        suggestions.filter((s) => (since === undefined || s.createdAt >= since) && (email === undefined || s.email === email.toLowerCase()))
      )
  })

  // Per account: the last fit's highest suggestion id, and who claims its refit until when.
  const fits = new Map<AccountId, { through: number; owner: string | null; until: number }>()
  // Append-only, as in SQL: a reset is a row without params; the rows of a fit after its first
  // carry the first's id (`fitId`).
  const adapterRows: Array<
    { id: number; accountId: AccountId; attribute: Perspective.Attribute; params: StoredAdapter["params"] | null; fitId: number | null; createdAt: Date }
  > = []
  const adapterStore = AdapterStore.of({
    save: ({ accountId, attribute, params, fallback }) =>
      Effect.sync(() => {
        const id = adapterRows.length + 1
        const createdAt = new Date()
        adapterRows.push({ id, accountId, attribute, params, fitId: null, createdAt })
        if (fallback !== undefined) adapterRows.push({ id: id + 1, accountId, attribute, params: fallback, fitId: id, createdAt })
        return id
      }),
    reset: (accountId, attribute) =>
      Effect.sync(() => {
        const attributes = attribute !== undefined ? [attribute] : [...new Set(adapterRows.filter((r) => r.accountId === accountId).map((r) => r.attribute))]
        for (const a of attributes) adapterRows.push({ id: adapterRows.length + 1, accountId, attribute: a, params: null, fitId: null, createdAt: new Date() })
      }),
    active: Effect.sync(() => {
      const latest = new Map<string, (typeof adapterRows)[number]>()
      for (const r of adapterRows) latest.set(`${r.accountId} ${r.attribute}`, r)
      // The latest row and the rows of its fit.
      const fits = new Set([...latest.values()].map((r) => r.fitId ?? r.id))
      return adapterRows.flatMap(({ fitId, ...r }) => (r.params === null || !fits.has(fitId ?? r.id) ? [] : [{ ...r, params: r.params }]))
    }),
    version: Effect.sync(() => adapterRows.length),
    pending: (accountId) =>
      Effect.sync(() => {
        const through = fits.get(accountId)?.through ?? 0
        return suggestions.filter((s) => s.accountId === accountId && s.id > through).length
      }),
    recordFit: (accountId, through) =>
      Effect.sync(() => {
        const row = fits.get(accountId) ?? { through: 0, owner: null, until: 0 }
        fits.set(accountId, { ...row, through: Math.max(row.through, through) })
      }),
    claim: (accountId, owner, leaseMillis) =>
      Effect.sync(() => {
        const row = fits.get(accountId) ?? { through: 0, owner: null, until: 0 }
        const now = Date.now()
        if (row.owner !== null && row.owner !== owner && row.until >= now) return false
        fits.set(accountId, { ...row, owner, until: now + leaseMillis })
        return true
      }),
    release: (accountId, owner) =>
      Effect.sync(() => {
        const row = fits.get(accountId)
        if (row !== undefined && row.owner === owner) fits.set(accountId, { ...row, owner: null, until: 0 })
      })
  })

  return { accountStore, contextStore, suggestionStore, adapterStore }
})

/** All store ports, in memory. */
export const layer: Layer.Layer<AccountStore | ArticleContextStore | SuggestionStore | StoreHealth | AdapterStore> = Layer.effectContext(
  Effect.map(make, ({ accountStore, contextStore, suggestionStore, adapterStore }) =>
    Context.empty().pipe(
      Context.add(AccountStore, accountStore),
      Context.add(ArticleContextStore, contextStore),
      Context.add(SuggestionStore, suggestionStore),
      Context.add(AdapterStore, adapterStore),
      Context.add(StoreHealth, StoreHealth.of({ ping: Effect.void }))
    )
  )
)
