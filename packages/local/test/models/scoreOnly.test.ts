/**
 * `ModelSet.score` (the score-only path of batch scoring and attribute scores) must give the
 * probabilities of the full analysis bit for bit: the golden fixture holds 100+ texts to recorded
 * outputs; this holds the two paths to each other on a few hundred more varied texts (Unicode
 * folding, obfuscations, URLs, numbers, long and empty texts) and several label lists, including
 * texts scored between an analysis and its reading, since both paths share scratch buffers.
 */
import { assert, describe, it } from "@effect/vitest"
import type { ModelLabel } from "../../src/AttributeModel.js"
import { analyzeAttributes } from "../../src/evaluators/LocalAttributeScorer.js"
import { fromModelSet, loadModelSet } from "../../src/models/TrainedModel.js"
import { GOLDEN_TEXTS } from "./goldenTexts.js"
import { variedTexts } from "./variedTexts.js"

const TEXTS = [...GOLDEN_TEXTS, ...variedTexts(300)]

describe("ModelSet.score", () => {
  const set = loadModelSet()
  const all = set.labels
  const lists: ReadonlyArray<ReadonlyArray<ModelLabel>> = [
    all,
    ["TOXICITY", "INSULT", "PROFANITY"],
    ["THREAT"],
    ["IDENTITY_ATTACK", "SEXUALLY_EXPLICIT"],
    ["LIKELY_TO_REJECT", "OBSCENE"],
    ["SPAM", "CONSTRUCTIVE", "FLIRTATION"]
  ]

  it("gives the full analysis's probabilities bit for bit, for every label list", () => {
    assert.isAbove(TEXTS.length, 350)
    for (const labels of lists) {
      for (const text of TEXTS) {
        const fast = set.score(text, labels)
        const full = set.predict(set.analyse(text), labels)
        assert.deepStrictEqual(Object.keys(fast), Object.keys(full))
        for (const label of Object.keys(full) as Array<ModelLabel>) {
          if (!Object.is(fast[label], full[label])) assert.deepStrictEqual({ text, label, fast: fast[label] }, { text, label, fast: full[label] })
        }
      }
    }
  })

  it("sums an analysis' heads when a prediction first reads them: the same bits in any order, with other texts analysed between", () => {
    const trained = all.filter((l) => set.entry(l)?.kind === "trained")
    for (const [i, text] of TEXTS.entries()) {
      const expected = set.score(text, all)
      const a = set.analyse(text)
      set.analyse(TEXTS[(i + 1) % TEXTS.length]!) // the featuriser's buffers are reused: the analysis must not read them
      // one label, then a few more, then everything; the order changes with the text
      const first = trained[i % trained.length]!
      const some = lists[1 + (i % (lists.length - 1))]!
      const got = { ...set.predict(a, [first]), ...set.predict(a, some), ...set.predict(a, all) }
      for (const label of all) {
        if (!Object.is(got[label], expected[label])) assert.deepStrictEqual({ text, label, got: got[label] }, { text, label, got: expected[label] })
      }
      // each head summed alone, on an analysis of its own, gives the bits of the heads summed together above
      for (const label of trained) assert.isTrue(Object.is(set.raw(set.analyse(text), label), set.raw(a, label)), label)
    }
  })

  it("gives the same numbers past the gathered tables' limit (every trained label alone, then in pairs)", () => {
    const trained = all.filter((l) => set.entry(l)?.kind === "trained")
    const pairs = trained.map((l, i) => [l, trained[(i + 3) % trained.length]!] as const)
    for (const labels of [...trained.map((l) => [l]), ...pairs]) {
      for (const text of TEXTS.slice(0, 60)) {
        const fast = set.score(text, labels)
        const full = set.predict(set.analyse(text), labels)
        for (const label of labels) assert.isTrue(Object.is(fast[label], full[label]), `${label} of ${JSON.stringify(text)}`)
      }
    }
  })

  it("never gathers a label set's weight table inside score: it is gathered in the background, and reading it gives the same bits", async () => {
    const fresh = loadModelSet()
    const labels: ReadonlyArray<ModelLabel> = ["TOXICITY", "INSULT", "PROFANITY", "THREAT", "IDENTITY_ATTACK", "SEVERE_TOXICITY"]
    const texts = TEXTS.slice(0, 80)
    const before = texts.map((text) => fresh.score(text, labels))
    // Scored from the set's own table: nothing was gathered while the calls ran.
    assert.strictEqual(fresh.gatheredTables, 0)
    await fresh.whenGathered()
    assert.strictEqual(fresh.gatheredTables, 1)
    texts.forEach((text, i) => {
      const after = fresh.score(text, labels)
      for (const label of labels) assert.isTrue(Object.is(after[label], before[i]![label]), `${label} of ${JSON.stringify(text)}`)
    })
  })

  it("leaves an analysis made before it untouched (shared scratch buffers)", () => {
    const first = set.analyse(TEXTS[5]!)
    const before = set.predict(first, all)
    const explained = set.explain(first, "TOXICITY", 5)
    for (const text of TEXTS.slice(0, 50)) set.score(text, all)
    assert.deepStrictEqual(set.predict(first, all), before)
    assert.deepStrictEqual(set.explain(first, "TOXICITY", 5), explained)
  })

  it("explains each limit as a fresh analysis does, whatever limits the analysis was explained with before", () => {
    // an analysis keeps each head's ranked spans: a smaller or larger limit read later is the
    // prefix a fresh analysis gives (the comment scorer reads TOXICITY with 6, then with 3)
    const labels: ReadonlyArray<ModelLabel> = ["TOXICITY", "INSULT", "THREAT", "LIKELY_TO_REJECT", "OBSCENE"]
    let nonEmpty = 0
    for (const [i, text] of TEXTS.entries()) {
      const a = set.analyse(text)
      const limits = i % 2 === 0 ? [6, 3, 10, 1] : [1, 6, 3]
      for (const label of labels) {
        for (const limit of limits) {
          const got = set.explain(a, label, limit)
          if (got.length > 0) nonEmpty++
          assert.deepStrictEqual({ text, label, limit, got }, { text, label, limit, got: set.explain(set.analyse(text), label, limit) })
        }
      }
    }
    assert.isAbove(nonEmpty, TEXTS.length)
  })

  it("is what the attribute scorer answers with, with or without spans", () => {
    const model = fromModelSet(set)
    const { score: _score, ...slow } = model
    const attributes = ["TOXICITY", "THREAT", "IDENTITY_ATTACK"] as const
    for (const text of TEXTS.slice(0, 120)) {
      const input = { text, attributes, spans: text.length > 4 ? [{ begin: 0, end: text.length }, { begin: 1, end: text.length - 2 }] : [], context: { article: null, parent: null, entries: [] } }
      assert.deepStrictEqual(analyzeAttributes(model, input), analyzeAttributes(slow, input))
    }
  })
})
