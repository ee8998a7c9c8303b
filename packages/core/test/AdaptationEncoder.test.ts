/**
 * Encoder adapters (issue 27 item 4): with an `Adaptation.Embedder` (here `FakeEmbedder`, whose
 * embedding has a direction the tests choose), a fit adds the sentence embedding to the hashed words
 * and keeps the better adapter, storing the hashed one beside it as the fallback.
 */
import { Adaptation, Auth, MemoryStores, Suggest } from "@decorum/core"
import { AdaptationCorpus, FakeEmbedder, TestProviders } from "@decorum/core/testing"
import type { Account, Perspective } from "@decorum/domain"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"

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
