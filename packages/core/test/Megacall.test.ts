/**
 * The combined call analyses its comment once: every section's evaluator gets the same
 * `AnalysedComment`, and the comment's languages are identified once for all of them.
 */
import { AttributeScorer, LanguageIdentifier, Megacall, MemoryStores, SpamChecker } from "@decorum/core"
import { TestProviders } from "@decorum/core/testing"
import { type AnalysedComment, AccountId, type Account } from "@decorum/domain"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"

const account: Account = { id: AccountId.make(1), email: "a@example.com", createdAt: new Date(0) }

/** Providers that record the analysed comment each evaluator was handed, and count identifications. */
const recording = () => {
  const handed: Array<readonly [string, AnalysedComment | undefined]> = []
  const identified: Array<string> = []
  // The other ports as the test doubles answer them; these three record.
  const layer = Layer.mergeAll(
    TestProviders.layer(),
    MemoryStores.layer,
    Layer.succeed(SpamChecker, {
      check: (input) =>
        Effect.sync(() => {
          handed.push(["spam_check", input.analysed])
          return { value: { reasoning: "fine", confidence: 0.9, is_spam: false }, provenance: { model: "m" } }
        })
    }),
    Layer.succeed(AttributeScorer, {
      analyze: (input) =>
        Effect.sync(() => {
          handed.push(["perspective", input.analysed])
          return { value: { TOXICITY: { summary: 0.1, spans: [] } }, provenance: { model: "m" } }
        }),
      analyzeNow: () => undefined
    }),
    Layer.succeed(LanguageIdentifier, {
      detect: (text) => {
        identified.push(text)
        return ["en"]
      }
    })
  )
  return { handed, identified, layer }
}

describe("Megacall", () => {
  it.effect("hands every section the one analysed comment, and identifies its languages once", () => {
    const { handed, identified, layer } = recording()
    return Effect.gen(function*() {
      const comment = "The plan is a waste of money."
      const result = yield* Megacall.megacall(account, { comment, run_spam_check: true, run_perspective: true })
      assert.isDefined(result.spam_check)
      assert.isDefined(result.perspective)
      assert.deepStrictEqual(handed.map(([section]) => section), ["spam_check", "perspective"])
      const [first, second] = handed.map(([, analysed]) => analysed)
      assert.isDefined(first)
      assert.strictEqual(first, second)
      assert.strictEqual(first!.text, comment)
      assert.deepStrictEqual(identified, [comment])
    }).pipe(Effect.provide(layer))
  })

  it.effect("the perspective section, which scores the text as sent, does not share the analysis of a comment judged without its author header", () => {
    const { handed, identified, layer } = recording()
    return Effect.gen(function*() {
      const sent = "Author: Jane\n\nThe plan is a waste of money."
      yield* Megacall.megacall(account, { comment: sent, run_spam_check: true, run_perspective: true })
      const byName = new Map(handed)
      assert.strictEqual(byName.get("spam_check")?.text, "The plan is a waste of money.")
      assert.isUndefined(byName.get("perspective"))
      assert.deepStrictEqual(identified, ["The plan is a waste of money.", sent])
    }).pipe(Effect.provide(layer))
  })
})
