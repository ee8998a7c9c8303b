/**
 * The local engine as hosts build it (`LocalEngine.layer()`) serves dog whistles and
 * machine-written text on the shipped detectors: the wire shapes the official client parses,
 * verbatim quotes, the site's examples watched for at once, literal uses left alone.
 */
import { DogWhistleChecker, LlmDetector } from "@decorum/core"
import { type DogWhistleCheckInput, Native } from "@decorum/domain"
import { AITEXT_MANIFEST, defaultModelDirectory, LocalEngine } from "@decorum/local"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { existsSync } from "node:fs"
import { join } from "node:path"

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
const check = (comment: string, more: Partial<DogWhistleCheckInput> = {}) =>
  Effect.flatMap(DogWhistleChecker, (c) => c.check(input(comment, more)))

const aiTextShipped = existsSync(join(defaultModelDirectory(), AITEXT_MANIFEST))

layer(LocalEngine.layer())("the shipped detectors behind the local engine", (it) => {
  describe("dog whistles", () => {
    it.effect("flags coded uses, quoting each term verbatim with its category", () =>
      Effect.gen(function*() {
        const comment = "Those urban thugs from the inner city again, you know the type."
        const result = yield* check(comment)
        const value = decodeDog(result.value)
        assert.match(result.provenance.model, /^dogwhistle-/)
        assert.isTrue(value.detection.dogwhistles_detected)
        assert.isNotNull(value.details)
        assert.isAbove(value.details!.dogwhistle_terms.length, 0)
        for (const term of value.details!.dogwhistle_terms) assert.isTrue(comment.includes(term), term)
        assert.include(value.details!.categories, "racist")
        for (const term of value.details!.dogwhistle_terms) assert.include(value.detection.reasoning, term)
      }))

    it.effect("leaves clean comments and literal uses clean (details: null)", () =>
      Effect.gen(function*() {
        for (const comment of ["The Christmas party at the office was fun.", "There was an echo in the hall.", "Great article, thanks for the reporting."]) {
          const value = decodeDog((yield* check(comment)).value)
          assert.isFalse(value.detection.dogwhistles_detected, comment)
          assert.isNull(value.details, comment)
        }
      }))

    it.effect("watches for a site's example at once", () =>
      Effect.gen(function*() {
        const comment = "Our town is run by the lizard council, as everyone here knows."
        assert.isNull(decodeDog((yield* check(comment)).value).details)
        const value = decodeDog((yield* check(comment, { examples: ["lizard council"], sensitiveTopics: ["local politics"] })).value)
        assert.isTrue(value.detection.dogwhistles_detected)
        for (const term of value.details!.dogwhistle_terms) assert.isTrue(comment.includes(term), term)
      }))
  })

  describe("machine-written text", () => {
    it.effect.skipIf(!aiTextShipped)("answers with verbatim quotes and a low confidence for a short comment", () =>
      Effect.gen(function*() {
        const long =
          "Furthermore, it is important to note that the proposed tram extension represents a multifaceted opportunity. " +
          "Firstly, it enhances connectivity. Secondly, it fosters sustainable growth. Ultimately, it is a testament to forward-thinking governance."
        const detect = (comment: string) => Effect.flatMap(LlmDetector, (d) => d.detect({ comment }))
        const result = yield* detect(long)
        const value = decodeLlm(result.value)
        assert.match(result.provenance.model, /^aitext-/)
        for (const s of value.signals_detected) assert.isTrue(long.includes(s.quoted_text), s.quoted_text)
        const short = decodeLlm((yield* detect("me too lol")).value)
        assert.isBelow(short.confidence, value.confidence)
      }))

    it.effect.skipIf(aiTextShipped)("without the shipped AI-text files, fails as the provider, saying so", () =>
      Effect.gen(function*() {
        const failure = yield* Effect.flip(Effect.flatMap(LlmDetector, (d) => d.detect({ comment: "hello" })))
        assert.strictEqual(failure._tag, "ProviderFailure")
        assert.include(failure.message, "AI-text detector")
      }))
  })
})
