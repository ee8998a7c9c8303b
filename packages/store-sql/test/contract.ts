/**
 * The store contract: what every implementation of the core's store ports must do. Run against the
 * in-memory reference (`MemoryStores`), SQLite and PostgreSQL.
 *
 * The suite shares one store between its tests (like a server does), so every test works with
 * accounts of its own (random emails) and never assumes the store is empty.
 */
import { randomUUID } from "node:crypto"
import { AccountStore, Adaptation, ArticleContextStore, Auth, StoreHealth, SuggestionStore } from "@decorum/core"
import { type AccountId, ArticleContextId, type NewScoreSuggestion, type TopicProfile } from "@decorum/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { Stores } from "../src/index.js"

/** A fresh, mixed-case email (the stores keep emails lowercased). */
export const freshEmail = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@Example.COM`

/** Waits (without sleeping) until the wall clock has moved past `date`, so the next write is later. */
export const clockPast = (date: Date) =>
  Effect.gen(function*() {
    while (Date.now() <= date.getTime()) yield* Effect.yieldNow()
  })

export const profile: TopicProfile = {
  version: 1,
  terms: [{ term: "climat", weight: 0.7071067811865476 }, { term: "polici", weight: 0.7071067811865475 }],
  entities: ["Paris", "Zoë"],
  summary: "Climate policy — “quoted”, with an emoji 🌍."
}

export const newKey = (accountId: AccountId, label: string | null) =>
  Effect.map(Auth.generateKey, (generated) => ({ accountId, keyId: generated.keyId, hash: generated.hash, label }))

export const suggestion = (accountId: AccountId, commentText: string, overrides: Partial<NewScoreSuggestion> = {}): NewScoreSuggestion => ({
  accountId,
  commentText,
  contextJson: null,
  attributeScores: { TOXICITY: 0.25 },
  languages: ["en"],
  clientToken: null,
  sessionId: null,
  communityId: null,
  keyId: null,
  ...overrides
})

export const storeContract = (name: string, storeLayer: Layer.Layer<Stores, unknown>) =>
  // Real clock: the stores stamp rows with the time, and the `since` case needs it to move.
  layer(storeLayer, { excludeTestServices: true, timeout: "60 seconds" })(name, (it) => {
    it.effect("ensureAccount is idempotent and case-insensitive", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountStore
        const email = freshEmail("Idem")
        const before = yield* accounts.countAccounts

        const first = yield* accounts.ensureAccount(email)
        expect(first.email).toBe(email.toLowerCase())
        expect(first.createdAt).toBeInstanceOf(Date)
        expect(yield* accounts.countAccounts).toBe(before + 1)

        const again = yield* accounts.ensureAccount(`  ${email.toUpperCase()} `)
        expect(again).toEqual(first)
        expect(yield* accounts.countAccounts).toBe(before + 1)

        expect(yield* accounts.findAccount(email.toUpperCase())).toEqual(Option.some(first))
        expect(yield* accounts.findAccount(freshEmail("nobody"))).toEqual(Option.none())

        const other = yield* accounts.ensureAccount(freshEmail("Other"))
        expect(other.id).not.toBe(first.id)
      }))

    it.effect("keys are inserted, found, listed per email and overall, and revoked once", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountStore
        const alice = yield* accounts.ensureAccount(freshEmail("Alice"))
        const bob = yield* accounts.ensureAccount(freshEmail("Bob"))
        const k1 = yield* newKey(alice.id, "laptop")
        const k2 = yield* newKey(alice.id, null)
        const k3 = yield* newKey(bob.id, "ci")
        for (const k of [k1, k2, k3]) yield* accounts.insertKey(k)

        const found = yield* accounts.findKey(k1.keyId)
        expect(found).toEqual(Option.some({ keyId: k1.keyId, hash: k1.hash, account: alice, revoked: false }))
        expect(yield* accounts.findKey("zzzzzzzzzz")).toEqual(Option.none())

        const aliceKeys = yield* accounts.listKeys(alice.email.toUpperCase())
        expect(aliceKeys.map((k) => k.keyId).sort()).toEqual([k1.keyId, k2.keyId].sort())
        const listed1 = aliceKeys.find((k) => k.keyId === k1.keyId)!
        expect(listed1).toMatchObject({ email: alice.email, label: "laptop", revokedAt: null, lastUsedAt: null })
        expect(listed1.createdAt).toBeInstanceOf(Date)
        expect(aliceKeys.find((k) => k.keyId === k2.keyId)?.label).toBeNull()

        const all = yield* accounts.listKeys()
        const ours = all.filter((k) => [k1.keyId, k2.keyId, k3.keyId].includes(k.keyId))
        expect(ours).toHaveLength(3)
        expect(ours.find((k) => k.keyId === k3.keyId)?.email).toBe(bob.email)

        expect(yield* accounts.revokeKey(k1.keyId)).toBe(true)
        expect(Option.map(yield* accounts.findKey(k1.keyId), (k) => k.revoked)).toEqual(Option.some(true))
        const revoked = (yield* accounts.listKeys(alice.email)).find((k) => k.keyId === k1.keyId)!
        expect(revoked.revokedAt).toBeInstanceOf(Date)
        expect(yield* accounts.revokeKey(k1.keyId)).toBe(false)
        expect(yield* accounts.revokeKey("zzzzzzzzzz")).toBe(false)
        // The other keys are untouched.
        expect(Option.map(yield* accounts.findKey(k2.keyId), (k) => k.revoked)).toEqual(Option.some(false))
      }))

    it.effect("a created key authenticates through the store", () =>
      Effect.gen(function*() {
        const email = freshEmail("Auth")
        const created = yield* Auth.createKey(email, "cli")
        const account = yield* Auth.authenticate(email.toUpperCase(), created.key)
        expect(account.id).toBe(created.account.id)
        yield* (yield* AccountStore).revokeKey(created.keyId)
        const denied = yield* Effect.flip(Auth.authenticate(email, created.key))
        expect(denied._tag).toBe("Unauthorized")
      }))

    it.effect("article contexts belong to their account; profiles round-trip", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountStore
        const contexts = yield* ArticleContextStore
        const owner = yield* accounts.ensureAccount(freshEmail("Owner"))
        const stranger = yield* accounts.ensureAccount(freshEmail("Stranger"))
        const id = ArticleContextId.make(randomUUID())
        const text = "An article about climate policy in Paris. 🌍 Ünïcode."

        const inserted = yield* contexts.insert(id, {
          accountId: owner.id,
          text,
          title: "Climate",
          topicDescription: null,
          sourceUrl: "https://example.com/a",
          profile
        })
        expect(inserted).toMatchObject({ id, accountId: owner.id, text, title: "Climate", profile })
        expect(inserted.createdAt).toBeInstanceOf(Date)

        expect(yield* contexts.get(owner.id, id)).toEqual(Option.some(inserted))
        expect(yield* contexts.get(stranger.id, id)).toEqual(Option.none())
        expect(yield* contexts.get(owner.id, ArticleContextId.make(randomUUID()))).toEqual(Option.none())

        const second = yield* contexts.insert(ArticleContextId.make(randomUUID()), {
          accountId: owner.id,
          text: "short",
          title: null,
          topicDescription: "a topic",
          sourceUrl: null,
          profile: { ...profile, terms: [] }
        })
        expect(yield* contexts.list(owner.id)).toEqual([
          { id, title: "Climate", sourceUrl: "https://example.com/a", textLength: text.length, createdAt: inserted.createdAt },
          { id: second.id, title: null, sourceUrl: null, textLength: 5, createdAt: second.createdAt }
        ])
        expect(yield* contexts.list(stranger.id)).toEqual([])

        expect(yield* contexts.remove(stranger.id, id)).toBe(false)
        expect(Option.isSome(yield* contexts.get(owner.id, id))).toBe(true)
        expect(yield* contexts.remove(owner.id, id)).toBe(true)
        expect(yield* contexts.get(owner.id, id)).toEqual(Option.none())
        expect(yield* contexts.remove(owner.id, id)).toBe(false)
        expect((yield* contexts.list(owner.id)).map((c) => c.id)).toEqual([second.id])
      }))

    it.effect("suggestions are listed oldest first, filtered by since (inclusive) and email", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountStore
        const suggestions = yield* SuggestionStore
        const alice = yield* accounts.ensureAccount(freshEmail("Sugg-A"))
        const bob = yield* accounts.ensureAccount(freshEmail("Sugg-B"))

        const s1 = yield* suggestions.insert(
          suggestion(alice.id, "first", {
            contextJson: JSON.stringify({ entries: [{ text: "parent" }] }),
            attributeScores: { TOXICITY: 0.9, INSULT: 0 },
            languages: ["en", "fr"],
            clientToken: "tok",
            sessionId: "sess",
            communityId: "comm"
          })
        )
        expect(s1).toMatchObject({ accountId: alice.id, email: alice.email, commentText: "first", clientToken: "tok" })
        expect(s1.createdAt).toBeInstanceOf(Date)
        yield* clockPast(s1.createdAt)
        const s2 = yield* suggestions.insert(suggestion(bob.id, "second"))
        yield* clockPast(s2.createdAt)
        const s3 = yield* suggestions.insert(suggestion(alice.id, "third", { languages: [] }))
        const ids = new Set([s1.id, s2.id, s3.id])
        expect(ids.size).toBe(3)
        const ours = <A extends { readonly id: number }>(list: ReadonlyArray<A>) => list.filter((s) => ids.has(s.id))

        const everything = yield* suggestions.list({})
        expect(ours(everything)).toEqual([s1, s2, s3])
        const times = everything.map((s) => s.createdAt.getTime())
        expect(times).toEqual([...times].sort((a, b) => a - b))

        expect(yield* suggestions.list({ email: alice.email.toUpperCase() })).toEqual([s1, s3])
        expect(yield* suggestions.list({ email: freshEmail("nobody") })).toEqual([])
        expect(ours(yield* suggestions.list({ since: s2.createdAt }))).toEqual([s2, s3])
        expect(yield* suggestions.list({ since: s2.createdAt, email: alice.email })).toEqual([s3])
        expect(ours(yield* suggestions.list({ since: new Date(s3.createdAt.getTime() + 1) }))).toEqual([])
      }))

    it.effect("a suggestion keeps the id of the key that sent it (null for none)", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountStore
        const suggestions = yield* SuggestionStore
        const account = yield* accounts.ensureAccount(freshEmail("Keyed"))
        const key = yield* newKey(account.id, "moderation tool")
        yield* accounts.insertKey(key)
        const keyed = yield* suggestions.insert(suggestion(account.id, "from a key", { keyId: key.keyId }))
        const imported = yield* suggestions.insert(suggestion(account.id, "imported"))
        expect(keyed.keyId).toBe(key.keyId)
        expect(imported.keyId).toBeNull()
        expect(yield* suggestions.list({ email: account.email })).toEqual([keyed, imported])
      }))

    it.effect("adapter fits: corrections pending since the last fit, and one claim per account at a time", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountStore
        const suggestions = yield* SuggestionStore
        const fits = yield* Adaptation.AdapterStore
        const account = yield* accounts.ensureAccount(freshEmail("Fits"))
        const other = yield* accounts.ensureAccount(freshEmail("Fits-other"))
        expect(yield* fits.pending(account.id)).toBe(0)
        const first = yield* suggestions.insert(suggestion(account.id, "one"))
        yield* suggestions.insert(suggestion(account.id, "two"))
        yield* suggestions.insert(suggestion(other.id, "elsewhere"))
        expect(yield* fits.pending(account.id)).toBe(2)

        // A fit that read up to `first` leaves the second pending; the mark never moves back.
        yield* fits.recordFit(account.id, first.id)
        expect(yield* fits.pending(account.id)).toBe(1)
        yield* fits.recordFit(account.id, 0)
        expect(yield* fits.pending(account.id)).toBe(1)
        expect(yield* fits.pending(other.id)).toBe(1)

        // Claims: one owner at a time; the owner may renew; released, another may claim.
        expect(yield* fits.claim(account.id, "a", 60_000)).toBe(true)
        expect(yield* fits.claim(account.id, "b", 60_000)).toBe(false)
        expect(yield* fits.claim(account.id, "a", 60_000)).toBe(true)
        expect(yield* fits.claim(other.id, "b", 60_000)).toBe(true)
        yield* fits.release(account.id, "b")
        expect(yield* fits.claim(account.id, "b", 60_000)).toBe(false)
        yield* fits.release(account.id, "a")
        expect(yield* fits.claim(account.id, "b", 60_000)).toBe(true)
        // The claim keeps the mark.
        expect(yield* fits.pending(account.id)).toBe(1)
        yield* fits.release(account.id, "b")
        yield* fits.release(other.id, "b")
      }))

    it.effect("an expired claim can be taken over (an instance that died while fitting)", () =>
      Effect.gen(function*() {
        const fits = yield* Adaptation.AdapterStore
        const account = yield* (yield* AccountStore).ensureAccount(freshEmail("Lease"))
        expect(yield* fits.claim(account.id, "dead", 1)).toBe(true)
        const claimedAt = new Date()
        yield* clockPast(new Date(claimedAt.getTime() + 1))
        expect(yield* fits.claim(account.id, "alive", 60_000)).toBe(true)
        expect(yield* fits.claim(account.id, "dead", 60_000)).toBe(false)
      }))

    it.effect("the store answers its health check", () => Effect.flatMap(StoreHealth, (health) => health.ping))
  })
