/**
 * Fallacies in the comment score: which items the detector's analysis yields (`fallacyItems`, on
 * hand-built analyses), and the shipped detector through the comment scorer: typed from the
 * catalogue, quoting the one sentence that carries the fallacy, verbatim in any script or markup.
 */
import { CommentScorer } from "@decorum/core"
import { Fallacies, Native } from "@decorum/domain"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer, Logger, Option, Schema } from "effect"
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fallacyItems } from "../../src/evaluators/FallacyItems.js"
import { LocalEvaluators } from "../../src/evaluators/index.js"
import type { FallacyAnalysis, FallacyUnit } from "../../src/FallacyModel.js"
import * as LocalEngine from "../../src/LocalEngine.js"
import { FallacyDetector, fallacyModelIn } from "../../src/models/FallacyDetector.js"
import { defaultModelDirectory, TrainedModel } from "../../src/models/TrainedModel.js"
import { article } from "./fixtures.js"
import { scratchDir } from "../scratch.js"

const unit = (begin: number, end: number, drive: number, score: number, type: Fallacies.FallacyType): FallacyUnit => ({ begin, end, drive, score, type })
const analysis = (score: number, type: Fallacies.FallacyType, units: ReadonlyArray<FallacyUnit>): FallacyAnalysis => ({
  text: "x".repeat(100),
  score,
  threshold: 0,
  type,
  units
})

describe("fallacyItems", () => {
  it("reports nothing below the threshold, however strong one sentence looks", () => {
    assert.deepStrictEqual(fallacyItems(analysis(-0.1, "slippery_slope", [unit(0, 10, 3, 5, "slippery_slope")])), [])
  })

  it("quotes the unit that drives the comment's score, named by the comment's type", () => {
    const items = fallacyItems(analysis(1, "false_dilemma", [unit(0, 10, 0.2, -1, "ad_hominem"), unit(11, 30, 0.9, -0.5, "slippery_slope"), unit(31, 40, 0.1, -2, "ad_hominem")]))
    assert.deepStrictEqual(items, [{ type: "false_dilemma", begin: 11, end: 30 }])
  })

  it("adds a fallacy only for another sentence that passes on its own with another type", () => {
    const units = [unit(0, 10, 0.9, 2, "slippery_slope"), unit(11, 20, 0.5, 1.5, "slippery_slope"), unit(21, 30, 0.4, 1, "appeal_to_majority"), unit(31, 40, 0.3, -1, "ad_hominem")]
    // below even odds on its own, a sentence adds nothing even when the threshold is lower
    const low = { ...analysis(2, "slippery_slope", [...units.slice(0, 3), unit(31, 40, 0.3, -0.5, "ad_hominem")]), threshold: -1 }
    assert.deepStrictEqual(fallacyItems(low).map((i) => i.type), ["slippery_slope", "appeal_to_majority"])
    assert.deepStrictEqual(fallacyItems(analysis(2, "slippery_slope", units)), [
      { type: "slippery_slope", begin: 0, end: 10 },
      { type: "appeal_to_majority", begin: 21, end: 30 }
    ])
  })
})

const decode = Schema.decodeUnknownSync(Native.CommentScore)
const score = (comment: string) => Effect.flatMap(CommentScorer, (s) => s.score({ comment, article, replyTo: null }))
const NAMES = new Set(Fallacies.fallacyNames)

const SLOPE = "If we allow this bike lane, next they will close every road to cars and then nobody will be able to drive anywhere."
const FACTS = "The council met on Tuesday. The minutes are online. The vote is next month."

layer(LocalEvaluators.evaluators.pipe(Layer.provideMerge(Layer.merge(TrainedModel.layer, FallacyDetector.layerIn()))))("comment scoring with the shipped fallacy detector", (it) => {
  it.effect("reports a slippery slope from the catalogue, quoting only its sentence", () =>
    Effect.gen(function*() {
      const text = `I read the plan last night. ${SLOPE} The map is on page four.`
      const r = decode((yield* score(text)).value)
      assert.isAtLeast(r.logical_fallacies.length, 1)
      const f = r.logical_fallacies[0]!
      assert.strictEqual(f.fallacy_name, "Slippery slope")
      assert.strictEqual(f.quoted_logical_fallacy_example, SLOPE)
      assert.strictEqual(f.explanation, Fallacies.explainFallacy("slippery_slope"))
      assert.strictEqual(f.explanation_and_suggestions, f.explanation)
    }))

  it.effect("reports nothing for plain statements of fact", () =>
    Effect.gen(function*() {
      const r = (yield* score(FACTS)).value
      assert.deepStrictEqual(r.logical_fallacies, [])
    }))

  it.effect("quotes verbatim, one sentence at most, in any script and in markup", () =>
    Effect.gen(function*() {
      const comments = [
        `Café crème ☕️ is lovely 😀👍🏽. ${SLOPE} 東京の地図は四ページにあります。`,
        `Noe\u0308l said so. ${SLOPE.replace("bike", "bïke")} 🚲🚲 e\u0301te\u0301.`,
        `<p>Read <a href="https://example.org/plan?a=1&amp;b=2">the plan</a>.</p>\n<p>${SLOPE}</p>\n<b>Everyone agrees</b> &mdash; so it must be right.`,
        `我认为这个计划很好。 ${SLOPE}`,
        `Family first 👨‍👩‍👧‍👦! ${SLOPE}`
      ]
      for (const text of comments) {
        const r = decode((yield* score(text)).value)
        assert.isAtLeast(r.logical_fallacies.length, 1, text)
        const sentences = new Set<string>()
        for (const f of r.logical_fallacies) {
          const q = f.quoted_logical_fallacy_example
          assert.isTrue(text.includes(q), q)
          assert.isBelow(q.length, text.length)
          assert.isTrue(NAMES.has(f.fallacy_name))
          // lone surrogates would mean a quote cut inside a character
          assert.isFalse(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u.test(q))
          sentences.add(q)
        }
        // more than one fallacy only from separate sentences
        assert.strictEqual(sentences.size, r.logical_fallacies.length)
        for (const q of [...r.objectionable_phrases.map((o) => o.quoted_objectionable_phrase), ...r.negative_tone_phrases.map((n) => n.quoted_negative_tone_phrase)]) {
          assert.isTrue(text.includes(q), q)
        }
      }
    }))
})

const NATURE = "Herbal remedies are natural, so they are safer and better for you than any pill made in a lab."

describe("the local engine's comment scorer", () => {
  const scoreWith = (options: Parameters<typeof LocalEngine.layer>[0]) =>
    Effect.runPromise(Effect.provide(score(`My aunt swears by them. ${NATURE}`), LocalEngine.layer(options)))

  it("reports fallacies from the shipped detector, which finds what no pattern names", async () => {
    const r = (await scoreWith({})).value
    assert.deepInclude(r.logical_fallacies.map((f) => [f.fallacy_name, f.quoted_logical_fallacy_example]), ["Appeal to nature", NATURE])
  })

  it("falls back to the patterns on the cue model, and for a models directory without fallacy.json", async () => {
    const r = (await scoreWith({ model: "lexicon" })).value
    assert.notInclude(r.logical_fallacies.map((f) => f.fallacy_name), "Appeal to nature")
    const empty = scratchDir("decorum-no-fallacy-")
    assert.isTrue(Option.isNone(Effect.runSync(fallacyModelIn(empty))))
  })

  // A models directory holding the shipped set, with the fallacy files as given (undefined: absent).
  const modelsWith = (fallacyJson: string | undefined, fallacyBin: Uint8Array | undefined): string => {
    const dir = scratchDir("decorum-fallacy-files-")
    for (const f of readdirSync(MODELS)) if (!f.startsWith("fallacy")) symlinkSync(join(MODELS, f), join(dir, f))
    if (fallacyJson !== undefined) writeFileSync(join(dir, "fallacy.json"), fallacyJson)
    if (fallacyBin !== undefined) writeFileSync(join(dir, "fallacy.bin"), fallacyBin)
    return dir
  }
  const MODELS = defaultModelDirectory()
  const manifest = readFileSync(join(MODELS, "fallacy.json"), "utf8")
  const weights = readFileSync(join(MODELS, "fallacy.bin"))
  const TEXTS = [
    `My aunt swears by them, you idiot. ${NATURE}`,
    "My grandfather farmed this way and his grandfather before him, so there is no reason to change now.",
    "Why worry about plastic straws when children are starving? What a stupid debate.",
    "Millions of people already bought this phone, so it has to be the best one."
  ]
  // run on its own (Effect.runPromise), as a host does: nothing of the test's context leaks into the engine
  const scoreIn = (directory: string) =>
    Effect.runPromise(Effect.gen(function*() {
      const lines: Array<string> = []
      const logger = Logger.replace(Logger.defaultLogger, Logger.make(({ logLevel, message }) => lines.push(`${logLevel.label} ${String(message)}`)))
      const r = yield* Effect.forEach(TEXTS, score).pipe(Effect.provide(LocalEngine.layer({ model: { directory } })), Effect.provide(logger))
      return { value: r.map((e) => e.value), lines }
    }))

  it("falls back to the patterns, with one warning, when the fallacy files are damaged or half missing", async () => {
      const patterns = await scoreIn(modelsWith(undefined, undefined))
      assert.deepStrictEqual(patterns.lines, [])
      const shipped = await scoreIn(modelsWith(manifest, weights))
      assert.deepStrictEqual(shipped.lines, [])
      // the detector finds what no pattern names; the rest of the score is served either way
      assert.notDeepEqual(shipped.value.map((v) => v.logical_fallacies), patterns.value.map((v) => v.logical_fallacies))
      assert.isAbove(patterns.value[0]!.objectionable_phrases.length, 0)
      const flipped = Uint8Array.from(weights)
      flipped[flipped.length - 1] = flipped[flipped.length - 1]! ^ 0xff
      const damaged: ReadonlyArray<readonly [string, string | undefined, Uint8Array | undefined]> = [
        ["weight file missing", manifest, undefined],
        ["weight file damaged", manifest, flipped],
        ["weight file truncated", manifest, weights.subarray(0, 1000)],
        ["manifest unreadable", manifest.slice(0, 200), weights],
        ["manifest of another format", manifest.replace('"format": 1', '"format": 99'), weights]
      ]
      for (const [what, json, bin] of damaged) {
        const r = await scoreIn(modelsWith(json, bin))
        // every score served, and exactly what the scorer says without the detector
        assert.deepStrictEqual(r.value, patterns.value, what)
        assert.strictEqual(r.lines.length, 1, what)
        assert.match(r.lines[0]!, /^WARN fallacy detector in .* not loaded \(.+\): fallacies are reported from the patterns/, what)
      }
  })
})
