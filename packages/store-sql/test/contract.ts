/**
 * The store contract: what every implementation of the core's store ports must do. Run against the
 * in-memory reference (`MemoryStores`), SQLite and PostgreSQL.
 *
 * The suite shares one store between its tests (like a server does), so every test works with
 * accounts of its own (random emails) and never assumes the store is empty.
 */
import { randomUUID } from "node:crypto"
import { AccountStore, Adaptation, ArticleContextStore, Auth, StoreHealth, SuggestionStore } from "@decorum/core"
import { type AccountId, ArticleContextId, type NewScoreSuggestion, type Perspective, type TopicProfile } from "@decorum/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { assert, layer } from "@effect/vitest"
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

const TOXICITY = "TOXICITY" as Perspective.Attribute

/** Adapter params of a kind (`future`: one no release knows yet). */
const adapterParams = (kind: string, scale: number): Adaptation.AdapterParams =>
  ({ kind, scale, bias: 0, weights: {}, maxShift: 3, maxShiftUnfamiliar: 1 }) as unknown as Adaptation.AdapterParams

const adapterReport: Adaptation.AttributeReport = {
  attribute: TOXICITY,
  corrections: 100,
  positives: 50,
  kind: "logistic",
  cvAucBefore: 0.6,
  cvAucAfter: 0.7,
  adopted: true,
  adapterId: null,
  reason: "adopted",
  leftOutRevokedKey: 0
}

/** Saves an adapter of `kind` (and a fallback) for a fresh account of the store. */
const saveFit = (kind: string, fallback?: Adaptation.AdapterParams | null) =>
  Effect.gen(function*() {
    const account = yield* (yield* AccountStore).ensureAccount(freshEmail("Adapters"))
    const store = yield* Adaptation.AdapterStore
    const id = yield* store.save({
      accountId: account.id,
      attribute: TOXICITY,
      params: adapterParams(kind, 2),
      ...(fallback === undefined ? {} : { fallback }),
      report: adapterReport
    })
    return { account, id, store }
  })

/**
 * What a release before fits of several rows read (`AdapterStore.active` then, on migration 3): the
 * latest row per account and attribute. A fit with a fallback must look like the fallback to it.
 */
const readAsBeforeFits = (accountId: AccountId) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ readonly params: string }>`select s.params from site_adapters s
        where s.params is not null and s.account_id = ${accountId}
          and s.id = (select max(l.id) from site_adapters l where l.account_id = s.account_id and l.attribute = s.attribute)`
    return rows.map((r) => (JSON.parse(r.params) as Adaptation.AdapterParams).kind)
  })

/** The case for SQL stores: a fit with a fallback reads as its fallback to a release before fits of several rows. */
export const fitsReadAsBefore = Effect.gen(function*() {
  const withHashed = yield* saveFit("encoder", adapterParams("logistic", 1.5))
  assert.deepStrictEqual(yield* readAsBeforeFits(withHashed.account.id), ["logistic"])
  const withShipped = yield* saveFit("encoder", null)
  assert.deepStrictEqual(yield* readAsBeforeFits(withShipped.account.id), [])
  const single = yield* saveFit("logistic")
  assert.deepStrictEqual(yield* readAsBeforeFits(single.account.id), ["logistic"])
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
        assert.strictEqual(first.email, email.toLowerCase())
        assert.instanceOf(first.createdAt, Date)
        assert.strictEqual(yield* accounts.countAccounts, before + 1)

        const again = yield* accounts.ensureAccount(`  ${email.toUpperCase()} `)
        assert.deepStrictEqual(again, first)
        assert.strictEqual(yield* accounts.countAccounts, before + 1)

        assert.deepStrictEqual(yield* accounts.findAccount(email.toUpperCase()), Option.some(first))
        assert.deepStrictEqual(yield* accounts.findAccount(freshEmail("nobody")), Option.none())

        const other = yield* accounts.ensureAccount(freshEmail("Other"))
        assert.notStrictEqual(other.id, first.id)
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
        assert.deepStrictEqual(found, Option.some({ keyId: k1.keyId, hash: k1.hash, account: alice, revoked: false }))
        assert.deepStrictEqual(yield* accounts.findKey("zzzzzzzzzz"), Option.none())

        const aliceKeys = yield* accounts.listKeys(alice.email.toUpperCase())
        assert.deepStrictEqual(aliceKeys.map((k) => k.keyId).sort(), [k1.keyId, k2.keyId].sort())
        const listed1 = aliceKeys.find((k) => k.keyId === k1.keyId)!
        assert.deepInclude(listed1, { email: alice.email, label: "laptop", revokedAt: null, lastUsedAt: null })
        assert.instanceOf(listed1.createdAt, Date)
        assert.isNull(aliceKeys.find((k) => k.keyId === k2.keyId)?.label)

        const all = yield* accounts.listKeys()
        const ours = all.filter((k) => [k1.keyId, k2.keyId, k3.keyId].includes(k.keyId))
        assert.lengthOf(ours, 3)
        assert.strictEqual(ours.find((k) => k.keyId === k3.keyId)?.email, bob.email)

        assert.isTrue(yield* accounts.revokeKey(k1.keyId))
        assert.deepStrictEqual(Option.map(yield* accounts.findKey(k1.keyId), (k) => k.revoked), Option.some(true))
        const revoked = (yield* accounts.listKeys(alice.email)).find((k) => k.keyId === k1.keyId)!
        assert.instanceOf(revoked.revokedAt, Date)
        assert.isFalse(yield* accounts.revokeKey(k1.keyId))
        assert.isFalse(yield* accounts.revokeKey("zzzzzzzzzz"))
        // The other keys are untouched.
        assert.deepStrictEqual(Option.map(yield* accounts.findKey(k2.keyId), (k) => k.revoked), Option.some(false))
      }))

    it.effect("a created key authenticates through the store", () =>
      Effect.gen(function*() {
        const email = freshEmail("Auth")
        const created = yield* Auth.createKey(email, "cli")
        const account = yield* Auth.authenticate(email.toUpperCase(), created.key)
        assert.strictEqual(account.id, created.account.id)
        yield* (yield* AccountStore).revokeKey(created.keyId)
        const denied = yield* Effect.flip(Auth.authenticate(email, created.key))
        assert.strictEqual(denied._tag, "Unauthorized")
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
        assert.deepInclude(inserted, { id, accountId: owner.id, text, title: "Climate", profile })
        assert.instanceOf(inserted.createdAt, Date)

        assert.deepStrictEqual(yield* contexts.get(owner.id, id), Option.some(inserted))
        assert.deepStrictEqual(yield* contexts.get(stranger.id, id), Option.none())
        assert.deepStrictEqual(yield* contexts.get(owner.id, ArticleContextId.make(randomUUID())), Option.none())

        const second = yield* contexts.insert(ArticleContextId.make(randomUUID()), {
          accountId: owner.id,
          text: "short",
          title: null,
          topicDescription: "a topic",
          sourceUrl: null,
          profile: { ...profile, terms: [] }
        })
        assert.deepStrictEqual(yield* contexts.list(owner.id), [
          { id, title: "Climate", sourceUrl: "https://example.com/a", textLength: text.length, createdAt: inserted.createdAt },
          { id: second.id, title: null, sourceUrl: null, textLength: 5, createdAt: second.createdAt }
        ])
        assert.deepStrictEqual(yield* contexts.list(stranger.id), [])

        assert.isFalse(yield* contexts.remove(stranger.id, id))
        assert.isTrue(Option.isSome(yield* contexts.get(owner.id, id)))
        assert.isTrue(yield* contexts.remove(owner.id, id))
        assert.deepStrictEqual(yield* contexts.get(owner.id, id), Option.none())
        assert.isFalse(yield* contexts.remove(owner.id, id))
        assert.deepStrictEqual((yield* contexts.list(owner.id)).map((c) => c.id), [second.id])
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
        assert.deepInclude(s1, { accountId: alice.id, email: alice.email, commentText: "first", clientToken: "tok" })
        assert.instanceOf(s1.createdAt, Date)
        yield* clockPast(s1.createdAt)
        const s2 = yield* suggestions.insert(suggestion(bob.id, "second"))
        yield* clockPast(s2.createdAt)
        const s3 = yield* suggestions.insert(suggestion(alice.id, "third", { languages: [] }))
        const ids = new Set([s1.id, s2.id, s3.id])
        assert.strictEqual(ids.size, 3)
        const ours = <A extends { readonly id: number }>(list: ReadonlyArray<A>) => list.filter((s) => ids.has(s.id))

        const everything = yield* suggestions.list({})
        assert.deepStrictEqual(ours(everything), [s1, s2, s3])
        const times = everything.map((s) => s.createdAt.getTime())
        assert.deepStrictEqual(times, [...times].sort((a, b) => a - b))

        assert.deepStrictEqual(yield* suggestions.list({ email: alice.email.toUpperCase() }), [s1, s3])
        assert.deepStrictEqual(yield* suggestions.list({ email: freshEmail("nobody") }), [])
        assert.deepStrictEqual(ours(yield* suggestions.list({ since: s2.createdAt })), [s2, s3])
        assert.deepStrictEqual(yield* suggestions.list({ since: s2.createdAt, email: alice.email }), [s3])
        assert.deepStrictEqual(ours(yield* suggestions.list({ since: new Date(s3.createdAt.getTime() + 1) })), [])
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
        assert.strictEqual(keyed.keyId, key.keyId)
        assert.isNull(imported.keyId)
        assert.deepStrictEqual(yield* suggestions.list({ email: account.email }), [keyed, imported])
      }))

    it.effect("adapter fits: corrections pending since the last fit, and one claim per account at a time", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountStore
        const suggestions = yield* SuggestionStore
        const fits = yield* Adaptation.AdapterStore
        const account = yield* accounts.ensureAccount(freshEmail("Fits"))
        const other = yield* accounts.ensureAccount(freshEmail("Fits-other"))
        assert.strictEqual(yield* fits.pending(account.id), 0)
        const first = yield* suggestions.insert(suggestion(account.id, "one"))
        yield* suggestions.insert(suggestion(account.id, "two"))
        yield* suggestions.insert(suggestion(other.id, "elsewhere"))
        assert.strictEqual(yield* fits.pending(account.id), 2)

        // A fit that read up to `first` leaves the second pending; the mark never moves back.
        yield* fits.recordFit(account.id, first.id)
        assert.strictEqual(yield* fits.pending(account.id), 1)
        yield* fits.recordFit(account.id, 0)
        assert.strictEqual(yield* fits.pending(account.id), 1)
        assert.strictEqual(yield* fits.pending(other.id), 1)

        // Claims: one owner at a time; the owner may renew; released, another may claim.
        assert.isTrue(yield* fits.claim(account.id, "a", 60_000))
        assert.isFalse(yield* fits.claim(account.id, "b", 60_000))
        assert.isTrue(yield* fits.claim(account.id, "a", 60_000))
        assert.isTrue(yield* fits.claim(other.id, "b", 60_000))
        yield* fits.release(account.id, "b")
        assert.isFalse(yield* fits.claim(account.id, "b", 60_000))
        yield* fits.release(account.id, "a")
        assert.isTrue(yield* fits.claim(account.id, "b", 60_000))
        // The claim keeps the mark.
        assert.strictEqual(yield* fits.pending(account.id), 1)
        yield* fits.release(account.id, "b")
        yield* fits.release(other.id, "b")
      }))

    it.effect("an expired claim can be taken over (an instance that died while fitting)", () =>
      Effect.gen(function*() {
        const fits = yield* Adaptation.AdapterStore
        const account = yield* (yield* AccountStore).ensureAccount(freshEmail("Lease"))
        assert.isTrue(yield* fits.claim(account.id, "dead", 1))
        const claimedAt = new Date()
        yield* clockPast(new Date(claimedAt.getTime() + 1))
        assert.isTrue(yield* fits.claim(account.id, "alive", 60_000))
        assert.isFalse(yield* fits.claim(account.id, "dead", 60_000))
      }))

    it.effect("adapters: the rows of the latest fit are active; SiteAdapters keeps the kinds it knows; a refit or reset retires them all", () =>
      Effect.gen(function*() {
        const { account, id, store } = yield* saveFit("future", adapterParams("logistic", 1.5))
        const mine = (rows: ReadonlyArray<Adaptation.StoredAdapter>) =>
          rows.filter((r) => r.accountId === account.id).map((r) => [r.params.kind, r.params.scale]).sort()
        // Both rows of the fit, the first one's id returned.
        const both = yield* store.active
        assert.deepStrictEqual(mine(both), [["future", 2], ["logistic", 1.5]])
        assert.strictEqual(both.find((r) => r.accountId === account.id && r.params.kind === ("future" as string))?.id, id)
        // This release applies the logistic row only: a kind it does not know is skipped.
        assert.deepStrictEqual(Adaptation.index(both).get(account.id)?.get(TOXICITY)?.hashed?.params.scale, 1.5)

        // A refit of one row replaces the fit: the unknown kind goes with it.
        yield* store.save({ accountId: account.id, attribute: TOXICITY, params: adapterParams("platt", 1.25), report: adapterReport })
        assert.deepStrictEqual(mine(yield* store.active), [["platt", 1.25]])

        // A fit whose fallback is the shipped model: only the unknown kind is active, and nothing applies.
        yield* store.save({ accountId: account.id, attribute: TOXICITY, params: adapterParams("future", 3), fallback: null, report: adapterReport })
        const unknownOnly = yield* store.active
        assert.deepStrictEqual(mine(unknownOnly), [["future", 3]])
        assert.isUndefined(Adaptation.index(unknownOnly).get(account.id))

        // A reset retires every row.
        yield* store.save({ accountId: account.id, attribute: TOXICITY, params: adapterParams("future", 4), fallback: adapterParams("logistic", 1), report: adapterReport })
        yield* store.reset(account.id)
        assert.deepStrictEqual(mine(yield* store.active), [])
      }))

    it.effect("the store answers its health check", () => Effect.flatMap(StoreHealth, (health) => health.ping))
  })
