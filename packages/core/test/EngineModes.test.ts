/**
 * The engine modes over the evaluation ports, with the core's test providers as the local side and
 * a scripted LLM port: who answers, when the LLM is asked, and what provenance says.
 */
import { AttributeScorer, CommentScorer, DogWhistleChecker, EngineModes, LlmDetector, LlmEvaluation, SpamChecker } from "@decorum/core"
import { TestProviders } from "@decorum/core/testing"
import { type ArticleContext, type Evaluated, ProviderFailure } from "@decorum/domain"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"

const LLM = "llm-1"

/** An LLM port answering what the local providers answer, under its own name; `down` makes it fail. */
const scriptedLlm = () => {
  const state = { calls: [] as Array<string>, down: false }
  const answer = <A>(section: string, local: Effect.Effect<Evaluated<A>, ProviderFailure>) =>
    Effect.suspend(() => {
      state.calls.push(section)
      if (state.down) return Effect.fail(new ProviderFailure({ provider: `${LLM}@${section}`, evaluation: section, message: "down", transient: true }))
      return Effect.map(local, (r): Evaluated<A> => ({ value: r.value, provenance: { model: `${LLM}@${section}` } }))
    })
  const layer = Layer.effect(
    LlmEvaluation,
    Effect.gen(function*() {
      const scorer = yield* CommentScorer
      const spam = yield* SpamChecker
      const attributes = yield* AttributeScorer
      const dogwhistle = yield* DogWhistleChecker
      const llmText = yield* LlmDetector
      return LlmEvaluation.of({
        checkDogwhistle: (input) => answer("dogwhistle", dogwhistle.check(input)),
        detectLlm: (input) => answer("llmdetect", llmText.detect(input)),
        scoreComment: (input) => answer("comment", scorer.score(input)),
        checkSpam: (input) => answer("spam", spam.check(input)),
        checkRelevance: () => Effect.die("not used here"),
        analyzeAttributes: (input) => answer("attributes", attributes.analyze(input))
      })
    })
  ).pipe(Layer.provide(TestProviders.layer()))
  return { state, layer }
}

const modes = (options: EngineModes.ModeOptions, llm: ReturnType<typeof scriptedLlm>) =>
  EngineModes.layer(options).pipe(Layer.provide(Layer.merge(llm.layer, TestProviders.layer())))

// The test providers never read the article, so none is made up here.
const noArticle = null as unknown as ArticleContext
const score = (comment: string, detail?: "full") =>
  Effect.flatMap(CommentScorer, (s) => s.score({ comment, article: noArticle, replyTo: null, ...(detail ? { detail } : {}) }))
const attributes = (text: string, language?: string) =>
  Effect.flatMap(AttributeScorer, (s) =>
    s.analyze({ text, attributes: ["TOXICITY"], spans: [], context: { article: null, parent: null, entries: [] }, ...(language ? { language } : {}) }))

describe("EngineModes", () => {
  it.effect("local passes the local ports through and never asks the LLM", () =>
    Effect.gen(function*() {
      const llm = scriptedLlm()
      const result = yield* score("you idiot").pipe(Effect.provide(modes({ mode: "local", llmAttributes: true }, llm)))
      assert.deepStrictEqual(result.provenance, { model: TestProviders.MODEL })
      yield* attributes("you idiot").pipe(Effect.provide(modes({ mode: "local", llmAttributes: true }, llm)))
      assert.deepStrictEqual(llm.state.calls, [])
    }))

  it.effect("llm asks the LLM, and the local model answers (marked) when it fails", () =>
    Effect.gen(function*() {
      const llm = scriptedLlm()
      const layer = modes({ mode: "llm" }, llm)
      assert.deepStrictEqual((yield* score("fine").pipe(Effect.provide(layer))).provenance, { model: `${LLM}@comment` })
      llm.state.down = true
      assert.deepStrictEqual((yield* score("fine").pipe(Effect.provide(layer))).provenance, { model: TestProviders.MODEL, fallbackFrom: `${LLM}@comment` })
      // Attributes stay local unless asked for.
      assert.deepStrictEqual((yield* attributes("fine").pipe(Effect.provide(layer))).provenance, { model: TestProviders.MODEL })
      assert.deepStrictEqual(llm.state.calls, ["comment", "comment"])
    }))

  it.effect("cascade asks the LLM only inside the band or for full detail; a failing LLM leaves the local answer", () =>
    Effect.gen(function*() {
      const llm = scriptedLlm()
      const layer = modes({ mode: "cascade", cascadeBand: [0.3, 0.7] }, llm)
      // Test providers: toxicity 0.05 for a clean comment, 0.5 with one insult, 0.95 with two.
      assert.deepStrictEqual((yield* score("fine").pipe(Effect.provide(layer))).provenance, { model: TestProviders.MODEL })
      assert.deepStrictEqual((yield* score("idiot moron").pipe(Effect.provide(layer))).provenance, { model: TestProviders.MODEL })
      assert.deepStrictEqual(llm.state.calls, [])
      assert.deepStrictEqual((yield* score("you idiot").pipe(Effect.provide(layer))).provenance, { model: `${LLM}@comment` })
      assert.deepStrictEqual((yield* score("fine", "full").pipe(Effect.provide(layer))).provenance, { model: `${LLM}@comment` })
      llm.state.down = true
      assert.deepStrictEqual((yield* score("you idiot").pipe(Effect.provide(layer))).provenance, { model: TestProviders.MODEL, fallbackFrom: `${LLM}@comment` })
      assert.deepStrictEqual(llm.state.calls, ["comment", "comment", "comment"])
    }))

  it.effect("dog whistles and machine-written text go through the modes as well: llm with the local fallback, cascade inside the band", () =>
    Effect.gen(function*() {
      const dogInput = { comment: "a globalist plot", article: null, sensitiveTopics: [], examples: [], replyTo: null, contextComments: [] }
      const dog = Effect.flatMap(DogWhistleChecker, (s) => s.check(dogInput))
      const llmText = (comment: string) => Effect.flatMap(LlmDetector, (s) => s.detect({ comment }))
      const llm = scriptedLlm()
      const llmMode = modes({ mode: "llm" }, llm)
      assert.deepStrictEqual((yield* dog.pipe(Effect.provide(llmMode))).provenance, { model: `${LLM}@dogwhistle` })
      assert.deepStrictEqual((yield* llmText("hello").pipe(Effect.provide(llmMode))).provenance, { model: `${LLM}@llmdetect` })
      llm.state.down = true
      assert.deepStrictEqual((yield* dog.pipe(Effect.provide(llmMode))).provenance, { model: TestProviders.MODEL, fallbackFrom: `${LLM}@dogwhistle` })
      llm.state.down = false
      llm.state.calls.length = 0

      const cascade = modes({ mode: "cascade", cascadeBand: [0.3, 0.7] }, llm)
      // Test providers: likelihood 0.1 without LLM words (certain: local), 0.4 with one (in the band: the LLM).
      assert.deepStrictEqual((yield* llmText("plain words here").pipe(Effect.provide(cascade))).provenance, { model: TestProviders.MODEL })
      assert.deepStrictEqual((yield* llmText("let us delve").pipe(Effect.provide(cascade))).provenance, { model: `${LLM}@llmdetect` })
      // A detected dog whistle with confidence 0.85 is certain: local.
      assert.deepStrictEqual((yield* dog.pipe(Effect.provide(cascade))).provenance, { model: TestProviders.MODEL })
      assert.deepStrictEqual(llm.state.calls, ["llmdetect"])
    }))

  it("the band of each new evaluation: the probability of the class the verdict names", () => {
    const u = EngineModes.uncertainty([0.25, 0.75])
    const dog = (detected: boolean, confidence: number) => ({ detection: { reasoning: "", dogwhistles_detected: detected, confidence }, details: null })
    assert.isTrue(u.dogwhistle(dog(true, 0.6)))
    assert.isTrue(u.dogwhistle(dog(false, 0.6)))
    assert.isFalse(u.dogwhistle(dog(false, 0.9)))
    assert.isFalse(u.dogwhistle(dog(true, 0.9)))
    const text = (llm_likelihood: number) => ({ llm_likelihood, confidence: 0.9, signals_detected: [], reasoning: "" })
    assert.isTrue(u.llmText(text(0.5)))
    assert.isFalse(u.llmText(text(0.1)))
    assert.isFalse(u.llmText(text(0.9)))
  })

  it.effect("llmAttributes sends attribute analysis through the mode as well", () =>
    Effect.gen(function*() {
      const llm = scriptedLlm()
      const result = yield* attributes("fine").pipe(Effect.provide(modes({ mode: "llm", llmAttributes: true }, llm)))
      assert.deepStrictEqual(result.provenance, { model: `${LLM}@attributes` })
    }))

  it.effect("llmAttributes: the LLM scores any language; the local models only take part in a language they serve (issue 28)", () =>
    Effect.gen(function*() {
      const llm = scriptedLlm()
      // Swedish: the test providers' local scorer serves it in no attribute.
      const layer = modes({ mode: "cascade", cascadeBand: [0, 1], llmAttributes: true }, llm)
      const scorer = yield* AttributeScorer.pipe(Effect.provide(layer))
      assert.strictEqual(scorer.attributesIn, undefined)
      const swedish = yield* attributes("du är en idiot", "sv").pipe(Effect.provide(layer))
      assert.deepStrictEqual(swedish.provenance, { model: `${LLM}@attributes` })
      assert.deepStrictEqual(llm.state.calls, ["attributes"])
      // The LLM down: no local fallback in a language without a local model, the call fails.
      llm.state.down = true
      const failed = yield* Effect.flip(attributes("du är en idiot", "sv").pipe(Effect.provide(modes({ mode: "llm", llmAttributes: true }, llm))))
      assert.strictEqual(failed._tag, "ProviderFailure")
      // German is served locally: the fallback answers, with the German "model".
      const german = yield* attributes("du Idiot", "de").pipe(Effect.provide(modes({ mode: "llm", llmAttributes: true }, llm)))
      assert.strictEqual(german.provenance.model, "test-model-1-de")
      assert.strictEqual(german.provenance.fallbackFrom, `${LLM}@attributes`)
    }))

  it("names the model set of each mode", () => {
    assert.strictEqual(EngineModes.modelSet("local", "local-3", "openai:m"), "local-3")
    assert.strictEqual(EngineModes.modelSet("llm", "local-3", "openai:m"), "openai:m")
    assert.strictEqual(EngineModes.modelSet("cascade", "local-3", "openai:m"), "local-3+openai:m")
  })
})
