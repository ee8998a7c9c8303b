/**
 * The local dog-whistle checker and LLM-text detector map their model ports' analyses onto the
 * wire shapes the hosted original's official client parses: verbatim quotes only (a hit or signal
 * whose offsets do not hold is dropped), `details` null when nothing is detected, numbers in range,
 * the thread passed to the model as context, the model's version as provenance.
 */
import { DogWhistleChecker, LlmDetector } from "@decorum/core"
import { type DogWhistleCheckInput, Native } from "@decorum/domain"
import { LocalDogWhistleChecker, LocalLlmDetector, MAX_SIGNALS, NO_AITEXT_MODEL, NO_DOGWHISTLE_MODEL } from "@decorum/local"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { AI_VERSION, aiTextDouble, DOG_VERSION, dogWhistleDouble, hitOn } from "./portDoubles.js"

const decodeDog = Schema.decodeUnknownSync(Native.DogwhistleCheck)
const decodeLlm = Schema.decodeUnknownSync(Native.LlmDetection)

const input = (comment: string, more: Partial<DogWhistleCheckInput> = {}): DogWhistleCheckInput => ({
  comment,
  article: null,
  sensitiveTopics: [],
  examples: [],
  replyTo: null,
  contextComments: [],
  ...more
})

describe("LocalDogWhistleChecker", () => {
  it.effect("quotes each coded term verbatim, names its categories once, and passes the thread and site lists to the model", () => {
    const comment = "The globalists and their globalist banks run it all, if you know what I mean."
    const double = dogWhistleDouble((i) => ({
      detected: true,
      confidence: 0.87654,
      hits: [
        hitOn(i.comment, "globalists", "antisemitic"),
        hitOn(i.comment, "globalist", "antisemitic"),
        // A hit whose offsets do not hold (a model bug) is never sent.
        { ...hitOn(i.comment, "banks", "antisemitic"), term: "bankers" }
      ],
      subtlety: 0.7,
      harm: 1.3,
      reasoning: "\"globalists\" is used in its antisemitic coded sense."
    }))
    return Effect.gen(function*() {
      const result = yield* (yield* DogWhistleChecker).check(
        input(comment, { sensitiveTopics: ["finance"], examples: ["shadow money"], replyTo: "Who runs the banks?", contextComments: ["", "Earlier comment"] })
      )
      const value = decodeDog(result.value)
      assert.strictEqual(result.provenance.model, DOG_VERSION)
      assert.isTrue(value.detection.dogwhistles_detected)
      assert.strictEqual(value.detection.confidence, 0.8765)
      assert.deepStrictEqual(value.details?.dogwhistle_terms, ["globalists", "globalist"])
      for (const term of value.details!.dogwhistle_terms) assert.isTrue(comment.includes(term))
      assert.deepStrictEqual(value.details?.categories, ["antisemitic"])
      assert.strictEqual(value.details?.harm_potential, 1)
      assert.deepStrictEqual(double.inputs, [{
        comment,
        sensitiveTopics: ["finance"],
        examples: ["shadow money"],
        context: ["Who runs the banks?", "Earlier comment"]
      }])
    }).pipe(Effect.provide(LocalDogWhistleChecker.pipe(Layer.provide(double.layer))))
  })

  it.effect("answers details: null when nothing is detected", () => {
    const double = dogWhistleDouble(() => ({ detected: false, confidence: 0.9, hits: [], subtlety: 0, harm: 0, reasoning: "No coded language." }))
    return Effect.gen(function*() {
      const value = decodeDog((yield* (yield* DogWhistleChecker).check(input("An echo in the hall at the Christmas party."))).value)
      assert.deepStrictEqual(value, { detection: { reasoning: "No coded language.", dogwhistles_detected: false, confidence: 0.9 }, details: null })
    }).pipe(Effect.provide(LocalDogWhistleChecker.pipe(Layer.provide(double.layer))))
  })

  it.effect("turns a model that throws into a ProviderFailure naming the model", () => {
    const double = dogWhistleDouble(() => {
      throw new Error("boom")
    })
    return Effect.gen(function*() {
      const failure = yield* Effect.flip((yield* DogWhistleChecker).check(input("text")))
      assert.strictEqual(failure._tag, "ProviderFailure")
      assert.strictEqual(failure.provider, DOG_VERSION)
      assert.include(failure.message, "boom")
    }).pipe(Effect.provide(LocalDogWhistleChecker.pipe(Layer.provide(double.layer))))
  })
})

describe("without a model (its files left out of the models directory)", () => {
  it.effect("each fails as the provider's failure, saying what is missing", () =>
    Effect.gen(function*() {
      const dog = yield* Effect.flip((yield* DogWhistleChecker).check(input("text")))
      const llm = yield* Effect.flip((yield* LlmDetector).detect({ comment: "text" }))
      assert.deepStrictEqual([dog._tag, dog.provider, dog.evaluation], ["ProviderFailure", NO_DOGWHISTLE_MODEL, "dogwhistle_check"])
      assert.deepStrictEqual([llm._tag, llm.provider, llm.evaluation], ["ProviderFailure", NO_AITEXT_MODEL, "llm_detection"])
      assert.include(dog.message, "dog-whistle detector")
    }).pipe(Effect.provide(Layer.merge(LocalDogWhistleChecker, LocalLlmDetector))))
})

describe("LocalLlmDetector", () => {
  const text = "Moreover, it is important to delve into the rich tapestry of local history.\n\n## Conclusion\nIn conclusion, history matters."
  const at = (quote: string) => ({ begin: text.indexOf(quote), end: text.indexOf(quote) + quote.length, quote })

  const detector = (script: Parameters<typeof aiTextDouble>[0]) => LocalLlmDetector.pipe(Layer.provide(aiTextDouble(script)))

  it.effect("maps the signals with verbatim quotes, drops broken ones, keeps numbers in range", () =>
    Effect.gen(function*() {
      const result = yield* (yield* LlmDetector).detect({ comment: text })
      const value = decodeLlm(result.value)
      assert.strictEqual(result.provenance.model, AI_VERSION)
      assert.deepStrictEqual(value.signals_detected.map((s) => [s.signal_type, s.quoted_text]), [
        ["word_frequency", "delve"],
        ["structural", "## Conclusion"],
        ["epistemic", "it is important to"]
      ])
      for (const s of value.signals_detected) assert.isTrue(text.includes(s.quoted_text))
      assert.strictEqual(value.llm_likelihood, 0.9123)
      assert.strictEqual(value.confidence, 0)
    }).pipe(Effect.provide(detector((t) => {
      assert.strictEqual(t, text)
      return {
        likelihood: 0.91234,
        confidence: -0.2,
        signals: [
          { type: "word_frequency", description: "\"delve\" is far more common in LLM text.", ...at("delve") },
          { type: "word_frequency", description: "duplicate", ...at("delve") },
          { type: "structural", description: "A Markdown heading in a comment.", ...at("## Conclusion") },
          // Offsets that do not hold: dropped.
          { type: "stylistic", description: "broken", begin: 0, end: 4, quote: "Nope" },
          { type: "epistemic", description: "Hedged importance claim.", ...at("it is important to") }
        ],
        reasoning: "Reads as machine-written."
      }
    }))))

  it.effect(`lists at most ${MAX_SIGNALS} signals`, () =>
    Effect.gen(function*() {
      const value = (yield* (yield* LlmDetector).detect({ comment: text })).value
      assert.strictEqual(value.signals_detected.length, MAX_SIGNALS)
    }).pipe(Effect.provide(detector(() => ({
      likelihood: 0.5,
      confidence: 0.5,
      signals: Array.from({ length: 40 }, (_, i) => ({ type: "stylistic" as const, description: `s${i}`, begin: i, end: i + 1, quote: text[i]! })),
      reasoning: "many"
    })))))
})
