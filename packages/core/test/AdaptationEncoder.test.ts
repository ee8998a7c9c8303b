/**
 * Encoder adapters (issue 27 item 4): with an `Adaptation.Embedder` (here `FakeEmbedder`, whose
 * embedding has a direction the tests choose), a fit adds the sentence embedding to the hashed words
 * and keeps the better adapter, storing the hashed one beside it as the fallback.
 */
import { Adaptation, Analyze, Auth, MemoryStores, Suggest } from "@decorum/core"
import { AdaptationCorpus, FakeEmbedder, TestProviders } from "@decorum/core/testing"
import type { Account, Perspective } from "@decorum/domain"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"

const { corpus, hidden, hiddenDirection } = AdaptationCorpus
const TOXICITY = "TOXICITY" as Perspective.Attribute

const correct = (account: Account, text: string, value: number) =>
  Suggest.suggestScore(account, { comment: { text }, attributeScores: { TOXICITY: { summaryScore: { value } } } }, null)

/** Sends `corrections` for a new account and fits it. */
const fitted = (email: string, corrections: ReadonlyArray<{ text: string; score: number }>) =>
  Effect.gen(function*() {
    const { account } = yield* Auth.createKey(email, null)
    for (const c of corrections) yield* correct(account, c.text, c.score)
    const report = yield* Adaptation.adapt(account)
    const active = (yield* (yield* Adaptation.AdapterStore).active).filter((a) => a.accountId === account.id)
    return { account, report: report.attributes[0]!, active }
  })

const base = Layer.merge(MemoryStores.layer, TestProviders.layer())
const withEmbedder = (options: FakeEmbedder.Options) => Layer.merge(base, FakeEmbedder.layer(options))

/** Pineapple is unacceptable (in the words), and so are the hidden notes of the first kind (in the embedding only). */
const both = (text: string) => (text.includes("pineapple") ? 0.6 : text.includes("mushroom") ? -0.6 : hiddenDirection(text))

describe("Adaptation with an Embedder: fitting", () => {
  it("an embedding beside hashed words fits and applies exactly as the same features given as values", () => {
    const dimensions = 16
    const samples = hidden().map((c, i) => ({
      base: 0.05 + (i % 7) / 20,
      target: c.score,
      features: Adaptation.features(`${c.text} ${i % 3 === 0 ? "pineapple" : "mushroom"}`),
      embedding: FakeEmbedder.embedding(c.text, hiddenDirection(c.text), dimensions)
    }))
    // The values form: every feature listed, hashed words worth 1 / sqrt(count), then each dimension.
    const asValues = samples.map(({ embedding, features, ...s }) => ({
      ...s,
      features: [...features, ...Array.from({ length: dimensions }, (_, d) => Adaptation.DENSE_OFFSET + d)],
      values: [...features.map(() => 1 / Math.sqrt(features.length)), ...embedding]
    }))
    const fitted = Adaptation.fitAttribute(TOXICITY, samples)
    assert.isTrue(fitted.report.adopted)
    assert.deepStrictEqual(fitted, Adaptation.fitAttribute(TOXICITY, asValues))
    samples.forEach((sample, i) =>
      assert.strictEqual(
        Adaptation.applyParams(fitted.params!, sample.base, sample.features, undefined, sample.embedding),
        Adaptation.applyParams(fitted.params!, sample.base, asValues[i]!.features, asValues[i]!.values)
      )
    )
  })

  it.effect("a norm only the embedding shows is adopted as an encoder adapter, naming the encoder; hashed words alone are not", () =>
    Effect.gen(function*() {
      const dense = yield* fitted("dense@example.com", hidden())
      assert.deepInclude(dense.report, { kind: "encoder", adopted: true, corrections: 150, positives: 50 })
      assert.isAbove(dense.report.cvAucAfter!, dense.report.cvAucBefore! + 0.3)
      assert.deepInclude(dense.report.compared, { kind: "logistic" })
      assert.isBelow(dense.report.compared!.cvAucAfter!, dense.report.cvAucBefore! + Adaptation.MIN_GAIN)
      assert.include(dense.report.reason, "not adopted: where the encoder is unavailable the shipped scores are kept")
      // One row: the fallback is the shipped model (a null row, which is not active).
      assert.lengthOf(dense.active, 1)
      const [row] = dense.active
      assert.strictEqual(row!.id, dense.report.adapterId)
      assert.deepStrictEqual(row!.params.encoder, { sha256: FakeEmbedder.SHA256, dimensions: 16 })
      assert.strictEqual(row!.params.kind, "encoder")
      assert.isDefined(row!.params.weights[String(Adaptation.DENSE_OFFSET)])
    }).pipe(Effect.provide(withEmbedder({ direction: hiddenDirection }))))

  it.effect("without an Embedder the same corrections adopt nothing", () =>
    Effect.gen(function*() {
      const hashed = yield* fitted("hashed@example.com", hidden())
      assert.deepInclude(hashed.report, { kind: "logistic", adopted: false, adapterId: null })
      assert.isUndefined(hashed.report.compared)
      assert.lengthOf(hashed.active, 0)
    }).pipe(Effect.provide(base)))

  it.effect("when hashed words are adopted too and the encoder adapter is better, both are stored: the hashed one is the fallback", () =>
    Effect.gen(function*() {
      const fit = yield* fitted("both@example.com", [...corpus(), ...hidden()])
      assert.deepInclude(fit.report, { kind: "encoder", adopted: true })
      assert.isAbove(fit.report.compared!.cvAucAfter!, fit.report.cvAucBefore! + Adaptation.MIN_GAIN)
      assert.isAbove(fit.report.cvAucAfter!, fit.report.compared!.cvAucAfter!)
      assert.include(fit.report.reason, "adopted: applied where the encoder is unavailable")
      assert.deepStrictEqual(fit.active.map((a) => a.params.kind).sort(), ["encoder", "logistic"])
      assert.strictEqual(fit.active.find((a) => a.params.kind === "encoder")!.id, fit.report.adapterId)
    }).pipe(Effect.provide(withEmbedder({ direction: both }))))

  it.effect("when hashed words do as well, only the hashed adapter is stored, and the report gives the encoder's figure", () =>
    Effect.gen(function*() {
      const fit = yield* fitted("words@example.com", corpus())
      assert.deepInclude(fit.report, { kind: "logistic", adopted: true })
      assert.deepInclude(fit.report.compared, { kind: "encoder" })
      assert.isNumber(fit.report.compared!.cvAucAfter)
      assert.deepStrictEqual(fit.active.map((a) => a.params.kind), ["logistic"])
    }).pipe(Effect.provide(withEmbedder({ direction: both }))))

  it.effect("an encoder that fails leaves the hashed fit standing", () =>
    Effect.gen(function*() {
      const fit = yield* fitted("down@example.com", corpus())
      assert.deepInclude(fit.report, { kind: "logistic", adopted: true })
      assert.isUndefined(fit.report.compared)
      assert.deepStrictEqual(fit.active.map((a) => a.params.kind), ["logistic"])
    }).pipe(Effect.provide(withEmbedder({ direction: both, failing: true }))))

  it.effect("with fewer corrections than word features need, no encoder fit is tried", () =>
    Effect.gen(function*() {
      const embedder = FakeEmbedder.make({ direction: hiddenDirection })
      const fit = yield* fitted("few@example.com", hidden().slice(0, 60)).pipe(Effect.provideService(Adaptation.Embedder, embedder))
      assert.deepInclude(fit.report, { kind: "platt" })
      assert.lengthOf(embedder.embedded, 0)
    }).pipe(Effect.provide(base)))
})

const BASE = 0.05 // the test scorer's score of a text with no insulting word
const { HIDDEN_FINE, HIDDEN_PROBE, PROBE } = AdaptationCorpus

const request = (text: string, spanAnnotations = false) => ({ comment: { text }, requestedAttributes: { TOXICITY: {} }, spanAnnotations })

/** The effect path's answer: TOXICITY's summary, its span scores, and the provenance. */
const served = (account: Account, text: string, spanAnnotations = false) =>
  Effect.map(Analyze.analyze(request(text, spanAnnotations), "google", account), (r) => ({
    summary: r.value.attributeScores!["TOXICITY"]!.summaryScore.value,
    spans: (r.value.attributeScores!["TOXICITY"]!.spanScores ?? []).map((s) => s.score.value),
    model: r.provenance.model
  }))

/** The synchronous path's answer (undefined: the request must take the effect path). */
const servedNow = (account: Account, text: string) =>
  Effect.map(Analyze.nowServices, (services) => {
    const answer = Analyze.analyzeNow(services, request(text), "google", account)
    return answer === undefined ? undefined : Either.getOrThrow(answer)
  })

/** An account fitted on the pineapple corpus and the hidden notes with `fitting` (an encoder adapter with its hashed fallback). */
const denseAccount = (fitting: FakeEmbedder.FakeEmbedder) =>
  Effect.gen(function*() {
    const fit = yield* fitted(`served-${Math.random()}@example.com`, [...corpus(), ...hidden()]).pipe(Effect.provideService(Adaptation.Embedder, fitting))
    const dense = fit.active.find((a) => a.params.kind === "encoder")!
    const hashed = fit.active.find((a) => a.params.kind === "logistic")!
    assert.isDefined(dense)
    assert.isDefined(hashed)
    return { account: fit.account, dense, hashed }
  })

const serving = Layer.merge(base, Adaptation.layer({ poll: "1 hour" }).pipe(Layer.provide(base)))

describe("Adaptation with an Embedder: serving", () => {
  it.effect("the effect path applies the encoder adapter with the comment's embedding and names it; the synchronous path defers", () =>
    Effect.gen(function*() {
      const embedder = FakeEmbedder.make({ direction: both })
      const { account, dense, hashed } = yield* denseAccount(embedder)
      yield* Effect.gen(function*() {
        const probe = yield* served(account, HIDDEN_PROBE)
        const fine = yield* served(account, HIDDEN_FINE)
        // Only the embedding tells these apart: the hashed adapter scores them alike.
        assert.isAbove(probe.summary, 0.5)
        assert.isBelow(fine.summary, 0.5)
        assert.closeTo(probe.summary, Adaptation.adaptScoreDense(dense, BASE, Adaptation.features(HIDDEN_PROBE), FakeEmbedder.embedding(HIDDEN_PROBE, 0.6, 16)), 1e-6)
        assert.strictEqual(probe.model, `${TestProviders.MODEL}+site.${dense.id}`)
        assert.include(embedder.embedded, HIDDEN_PROBE)
        assert.isFalse(Adaptation.adaptScore(hashed, BASE, HIDDEN_PROBE) > 0.5 && Adaptation.adaptScore(hashed, BASE, HIDDEN_FINE) < 0.5)
        // The synchronous path cannot call the encoder: it leaves the request to the effect path.
        assert.isUndefined(yield* servedNow(account, HIDDEN_PROBE))
      }).pipe(Effect.provideService(Adaptation.Embedder, embedder))
    }).pipe(Effect.provide(serving)))

  it.effect("spans keep the hashed adapter of the same fit", () =>
    Effect.gen(function*() {
      const embedder = FakeEmbedder.make({ direction: both })
      const { account, dense, hashed } = yield* denseAccount(embedder)
      const text = `${HIDDEN_PROBE} ${PROBE}`
      const answer = yield* served(account, text, true).pipe(Effect.provideService(Adaptation.Embedder, embedder))
      assert.strictEqual(answer.model, `${TestProviders.MODEL}+site.${dense.id}`)
      assert.deepStrictEqual(answer.spans.map((v) => Math.round(v * 1e6)), [HIDDEN_PROBE, PROBE].map((t) => Math.round(Adaptation.adaptScore(hashed, BASE, t) * 1e6)))
    }).pipe(Effect.provide(serving)))

  it.effect("another encoder served, none, or one that fails: the hashed fallback applies, on either path", () =>
    Effect.gen(function*() {
      const fitting = FakeEmbedder.make({ direction: both })
      const { account, hashed } = yield* denseAccount(fitting)
      const expected = Adaptation.adaptScore(hashed, BASE, PROBE)
      assert.isAbove(expected, 0.5)
      const retrained = FakeEmbedder.make({ direction: both, sha256: "0".repeat(64) })
      const down = FakeEmbedder.make({ direction: both, failing: true })
      for (const embedder of [retrained, down, undefined]) {
        const provide = <A, E, R>(effect: Effect.Effect<A, E, R>) => (embedder === undefined ? effect : Effect.provideService(effect, Adaptation.Embedder, embedder))
        const answer = yield* provide(served(account, PROBE))
        assert.closeTo(answer.summary, expected, 1e-9)
        assert.strictEqual(answer.model, `${TestProviders.MODEL}+site.${hashed.id}`)
        if (embedder !== down) {
          const now = yield* provide(servedNow(account, PROBE))
          assert.strictEqual(now?.provenance.model, `${TestProviders.MODEL}+site.${hashed.id}`)
        }
      }
      assert.lengthOf(retrained.embedded, 0)
    }).pipe(Effect.provide(serving)))

  it.effect("an encoder adapter without a hashed fallback: with no encoder the account gets the shipped scores; other accounts take the synchronous path", () =>
    Effect.gen(function*() {
      const embedder = FakeEmbedder.make({ direction: hiddenDirection })
      const fit = yield* fitted("alone@example.com", hidden()).pipe(Effect.provideService(Adaptation.Embedder, embedder))
      assert.deepStrictEqual(fit.active.map((a) => a.params.kind), ["encoder"])
      const shipped = yield* served(fit.account, HIDDEN_PROBE)
      assert.deepInclude(shipped, { summary: BASE, model: TestProviders.MODEL })
      const adapted = yield* served(fit.account, HIDDEN_PROBE).pipe(Effect.provideService(Adaptation.Embedder, embedder))
      assert.isAbove(adapted.summary, 0.5)
      const other = yield* fitted("words-only@example.com", corpus())
      const now = yield* servedNow(other.account, PROBE).pipe(Effect.provideService(Adaptation.Embedder, embedder))
      assert.strictEqual(now?.provenance.model, `${TestProviders.MODEL}+site.${other.report.adapterId}`)
    }).pipe(Effect.provide(serving)))

  it("SiteAdapters' index keeps an encoder row only when it names its encoder", () => {
    const row = (id: number, params: object) =>
      ({ id, accountId: 1, attribute: TOXICITY, createdAt: new Date(0), params: { scale: 1, bias: 0, weights: {}, maxShift: 3, maxShiftUnfamiliar: 1, ...params } }) as unknown as Adaptation.StoredAdapter
    const kept = Adaptation.index([row(1, { kind: "encoder" }), row(2, { kind: "logistic" }), row(3, { kind: "encoder", encoder: { sha256: "x", dimensions: 16 } })])
    const inForce = kept.get(1 as Account["id"])!.get(TOXICITY)!
    assert.deepStrictEqual([inForce.hashed?.id, inForce.dense?.id], [2, 3])
    assert.isUndefined(Adaptation.index([row(4, { kind: "encoder" })]).get(1 as Account["id"]))
  })
})
