/**
 * Adaptation on the in-memory store with the test scorer (which scores every text below without
 * an insulting word alike, so only an adapter can tell the site's norm apart): corrections of a
 * revoked key are left out, and `Refits` refits in the background after every N corrections
 * without a correction's answer waiting for the fit.
 */
import { AccountStore, Adaptation, AttributeScorer, Auth, MemoryStores, Suggest, SuggestionStore } from "@decorum/core"
import { AdaptationCorpus, TestProviders } from "@decorum/core/testing"
import type { Account, Perspective } from "@decorum/domain"
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Layer, Option, Queue, Schedule, TestClock } from "effect"

const { corpus, PROBE } = AdaptationCorpus
const BASE = 0.05 // the test scorer's score of a text with no insulting word

const correct = (account: Account, keyId: string | null, text: string, value: number) =>
  Suggest.suggestScore(account, { comment: { text }, attributeScores: { TOXICITY: { summaryScore: { value } } } }, keyId)

const MUSHROOM = PROBE.replace("pineapple", "mushroom")

/** The score the account's adapter in force gives a probe (the shipped score without one). */
const probeScore = (account: Account, text = PROBE) =>
  Effect.map(Adaptation.AdapterStore, (store) => store.active).pipe(
    Effect.flatten,
    Effect.map((active) => {
      const adapter = active.find((a) => a.accountId === account.id && a.attribute === ("TOXICITY" as Perspective.Attribute))
      return adapter === undefined ? BASE : Adaptation.adaptScore(adapter, BASE, text)
    })
  )

describe("Adaptation: corrections of a revoked key", () => {
  it.effect("are left out of the fit and counted in the report; the adapter follows the keys still valid", () =>
    Effect.gen(function*() {
      const moderator = yield* Auth.createKey("site@example.com", "moderation tool")
      const intruder = yield* Auth.createKey("site@example.com", "leaked")
      const account = moderator.account
      const corrections = corpus()
      // The moderators' norm: pineapple is unacceptable.
      for (const c of corrections) yield* correct(account, moderator.keyId, c.text, c.score)
      // Then someone with a leaked key of the same account corrects every text the other way.
      for (const c of corrections) yield* correct(account, intruder.keyId, c.text, 1 - c.score)
      // An operator's import (no key) always counts.
      yield* correct(account, null, "Imported decision about pineapple pizza.", 1)

      const poisoned = yield* Adaptation.adapt(account)
      const before = poisoned.attributes.find((a) => a.attribute === "TOXICITY")!
      assert.strictEqual(poisoned.leftOutRevokedKey, 0)
      assert.deepInclude(before, { corrections: corrections.length + 1, leftOutRevokedKey: 0, adopted: true })
      // The latest corrections (the intruder's) won: pineapple now scores below mushroom.
      assert.isBelow(yield* probeScore(account), yield* probeScore(account, MUSHROOM))

      assert.isTrue(yield* Effect.flatMap(AccountStore, (s) => s.revokeKey(intruder.keyId)))
      const cleaned = yield* Adaptation.adapt(account)
      const after = cleaned.attributes.find((a) => a.attribute === "TOXICITY")!
      assert.strictEqual(cleaned.leftOutRevokedKey, corrections.length)
      assert.deepInclude(after, { corrections: corrections.length + 1, leftOutRevokedKey: corrections.length, adopted: true })
      assert.strictEqual(after.positives, corrections.filter((c) => c.score === 1).length + 1)
      assert.notStrictEqual(after.adapterId, before.adapterId)
      // The moderators' norm again.
      assert.isAbove(yield* probeScore(account), 0.5)
      assert.isBelow(yield* probeScore(account, MUSHROOM), yield* probeScore(account))
    }).pipe(Effect.provide(Layer.merge(MemoryStores.layer, TestProviders.layer()))))

  it.effect("when only a revoked key corrected an attribute, its adapter is retired and the report says why", () =>
    Effect.gen(function*() {
      const intruder = yield* Auth.createKey("alone@example.com", "leaked")
      const account = intruder.account
      for (const c of corpus()) yield* correct(account, intruder.keyId, c.text, c.score)
      const fitted = yield* Adaptation.adapt(account)
      assert.deepInclude(fitted.attributes[0], { attribute: "TOXICITY", adopted: true })
      assert.isAbove(yield* probeScore(account), 0.5)

      yield* Effect.flatMap(AccountStore, (s) => s.revokeKey(intruder.keyId))
      const report = yield* Adaptation.adapt(account)
      assert.strictEqual(report.leftOutRevokedKey, corpus().length)
      assert.deepInclude(report.attributes[0], { attribute: "TOXICITY", corrections: 0, leftOutRevokedKey: corpus().length, adopted: false, adapterId: null })
      assert.include(report.attributes[0]!.reason, "too few corrections")
      assert.include(report.attributes[0]!.reason, `${corpus().length} corrections left out: sent with a key since revoked`)
      // Back to the shipped score exactly.
      assert.strictEqual(yield* probeScore(account), BASE)
    }).pipe(Effect.provide(Layer.merge(MemoryStores.layer, TestProviders.layer()))))
})

describe("Adaptation: reproducible reports", () => {
  it.effect("the same corrections stored in another order give the same report and the same adapter", () =>
    Effect.gen(function*() {
      // A noisy norm (pineapple is mostly unacceptable, with exceptions), so that how the
      // cross-validation folds fall changes the figures.
      const words = ["pineapple", "mushroom", "olive", "anchovy", "basil", "garlic", "onion"]
      const noisy = Array.from({ length: 160 }, (_, i) => {
        const a = words[i % words.length]!
        const b = words[(i * 3 + 1) % words.length]!
        const text = `Comment ${i}: ${a} and ${b} on the pizza.`
        const pineapple = a === "pineapple" || b === "pineapple"
        return { text, score: (pineapple ? i % 5 !== 0 : i % 6 === 0) ? 1 : 0 }
      })
      const first = yield* Auth.createKey("forward@example.com", null)
      const second = yield* Auth.createKey("backward@example.com", null)
      for (const c of noisy) yield* correct(first.account, first.keyId, c.text, c.score)
      for (const c of [...noisy].reverse()) yield* correct(second.account, second.keyId, c.text, c.score)
      const forward = yield* Adaptation.adapt(first.account)
      const backward = yield* Adaptation.adapt(second.account)
      const { adapterId: _a, ...f } = forward.attributes[0]!
      const { adapterId: _b, ...b } = backward.attributes[0]!
      assert.strictEqual(f.corrections, noisy.length)
      assert.deepStrictEqual(b, f)
      const active = yield* Effect.flatten(Effect.map(Adaptation.AdapterStore, (store) => store.active))
      const params = (account: Account) => active.find((x) => x.accountId === account.id)?.params
      assert.deepStrictEqual(params(second.account), params(first.account))
    }).pipe(Effect.provide(Layer.merge(MemoryStores.layer, TestProviders.layer()))))
})

describe("Adaptation.Refits (DECORUM_ADAPT_EVERY)", () => {
  it.live("refits after every N corrections in the background: no answer waits for the fit", () =>
    Effect.gen(function*() {
      const corrections = corpus()
      // The fit's scoring waits on this latch; corrections are answered meanwhile.
      const latch = yield* Deferred.make<void>()
      const started = yield* Deferred.make<void>()
      const providers = TestProviders.layer({
        hook: (section) => (section === "perspective" ? Effect.zipRight(Deferred.succeed(started, undefined), Deferred.await(latch)) : Effect.void)
      })
      const stores = MemoryStores.layer
      const layer = Adaptation.layerRefits({ every: corrections.length }).pipe(Layer.provideMerge(Layer.merge(stores, providers)))

      yield* Effect.gen(function*() {
        const { account, keyId } = yield* Auth.createKey("auto@example.com", "tool")
        const other = yield* Auth.createKey("quiet@example.com", "tool")
        // One correction short of N: nothing is fitted.
        for (const c of corrections.slice(1)) yield* correct(account, keyId, c.text, c.score)
        for (const c of corrections.slice(0, 5)) yield* correct(other.account, other.keyId, c.text, c.score)
        // The Nth correction is answered although the fit it starts cannot finish yet.
        yield* correct(account, keyId, corrections[0]!.text, corrections[0]!.score)
        yield* Deferred.await(started).pipe(
          Effect.timeoutFail({ duration: Duration.seconds(10), onTimeout: () => new Error("no refit started") })
        )
        assert.strictEqual(yield* probeScore(account), BASE)
        yield* correct(account, keyId, "One more while the fit runs.", 0)

        yield* Deferred.succeed(latch, undefined)
        const store = yield* Adaptation.AdapterStore
        const active = yield* store.active.pipe(
          Effect.filterOrFail((a) => a.some((x) => x.accountId === account.id)),
          Effect.retry({ schedule: Schedule.spaced("20 millis") }),
          Effect.timeoutFail({ duration: Duration.seconds(20), onTimeout: () => new Error("no adapter adopted") })
        )
        assert.lengthOf(active.filter((a) => a.accountId === account.id), 1)
        assert.isAbove(yield* probeScore(account), 0.5)
        // The other account, with fewer than N corrections, was never fitted.
        assert.isFalse(active.some((a) => a.accountId === other.account.id))
        // The fit read every correction stored before it started; the one sent during it is pending.
        assert.strictEqual(yield* store.pending(account.id), 1)
      }).pipe(Effect.provide(layer))
    }))

  it.effect("runs at most one refit per account per interval, on the FitRunner, and stops one past its time limit", () =>
    Effect.gen(function*() {
      // Each fit the runner is asked for is announced here; the second never ends on its own.
      const calls = yield* Queue.unbounded<number>()
      let count = 0
      const runner = Layer.effect(
        Adaptation.FitRunner,
        Effect.map(Effect.context<AccountStore | SuggestionStore | AttributeScorer>(), (context) => ({
          where: "a test runner",
          fitAccount: (account: Account, only: Perspective.Attribute | undefined) =>
            Effect.suspend(() => {
              count++
              if (count === 2) return Effect.zipRight(Queue.offer(calls, -1), Effect.never)
              return Adaptation.fitAccount(account, only, false).pipe(
                Effect.tap((fit) => Queue.offer(calls, fit.attributes.reduce((n, a) => n + a.fitted.report.corrections, 0))),
                Effect.provide(context)
              )
            })
        }))
      )
      const layer = Adaptation.layerRefits({ every: 1, minIntervalMillis: 60_000, timeLimitMillis: 30_000 }).pipe(
        Layer.provideMerge(runner.pipe(Layer.provideMerge(Layer.merge(MemoryStores.layer, TestProviders.layer()))))
      )
      yield* Effect.gen(function*() {
        const { account, keyId } = yield* Auth.createKey("busy@example.com", "tool")
        yield* correct(account, keyId, "first", 1)
        // The first refit runs at once, on the runner, with the one correction.
        assert.strictEqual(yield* Queue.take(calls), 1)
        // Corrections keep coming: the next refit waits out the interval (then reads all three).
        yield* correct(account, keyId, "second", 0)
        yield* correct(account, keyId, "third", 1)
        yield* TestClock.adjust(Duration.seconds(59))
        assert.isTrue(Option.isNone(yield* Queue.poll(calls)))
        yield* TestClock.adjust(Duration.seconds(1))
        assert.strictEqual(yield* Queue.take(calls), -1)
        // That fit never ends: past the time limit it is stopped and the account's claim released.
        yield* TestClock.adjust(Duration.seconds(30))
        const store = yield* Adaptation.AdapterStore
        yield* store.claim(account.id, "another instance", 1_000).pipe(
          Effect.filterOrFail((claimed) => claimed),
          Effect.retry({ schedule: Schedule.recurs(100).pipe(Schedule.addDelay(() => Duration.zero)) })
        )
        assert.strictEqual(count, 2)
      }).pipe(Effect.provide(layer))
    }))
})

describe("Adaptation: feature values", () => {
  // 200 texts the shipped model scores alike (0.2); the site's norm is the first of two dense
  // features (a direction of a sentence embedding), which no hashed word carries.
  const dense = Array.from({ length: 200 }, (_, i) => {
    const x = Math.cos(i * 1.7) // in [-1, 1], deterministic
    return { base: 0.2, target: x > 0.3 ? 1 : 0, features: [1 << 20, (1 << 20) + 1], values: [x, Math.sin(i * 1.7)] }
  })

  it("absent, each feature is worth 1 / sqrt(count): the same adapter as those values given", () => {
    const hashed = dense.map((s, i) => ({ base: 0.1 + (i % 7) / 10, target: s.target, features: Adaptation.features(`word${i % 13} other${i % 5} w${i % 3}`) }))
    const explicit = hashed.map((s) => ({ ...s, values: s.features.map(() => 1 / Math.sqrt(s.features.length)) }))
    assert.deepStrictEqual(Adaptation.fitParams(explicit), Adaptation.fitParams(hashed))
    assert.deepStrictEqual(Adaptation.fitAttribute("TOXICITY" as Perspective.Attribute, explicit), Adaptation.fitAttribute("TOXICITY" as Perspective.Attribute, hashed))
  })

  it("real-valued features are fitted and applied by their value", () => {
    const fitted = Adaptation.fitAttribute("TOXICITY" as Perspective.Attribute, dense)
    assert.strictEqual(fitted.report.cvAucBefore, 0.5)
    assert.isAbove(fitted.report.cvAucAfter!, 0.95)
    assert.isTrue(fitted.report.adopted)
    const params = fitted.params!
    const score = (x: number) => Adaptation.applyParams(params, 0.2, [1 << 20, (1 << 20) + 1], [x, 0])
    assert.isAbove(score(1), score(0))
    assert.isAbove(score(0), score(-1))
  })
})
