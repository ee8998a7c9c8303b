/**
 * The fallacy detector's training code on small fixtures of its own (no ../shared): the label
 * mapping onto the catalogue, CoCoLoFa's split by article, the F1 threshold, and a detector
 * trained, quantised and read back by the runtime exactly as shipped.
 */
import { splitSentences } from "@decorum/core"
import { assert, describe, it } from "@effect/vitest"
import { commentVector, FallacyFeaturizer, MAX_UNIT, units } from "@decorum/local/FallacyFormat"
import { decodeWeights } from "@decorum/local/ModelFormat"
import { bestF1Threshold, detection, FALLACY_DEFAULTS, splitOf, trainFallacy, typerWeights, weightsOf } from "../fallacy.js"
import { type FallacyRow, typeOfLabel } from "../fallacyData.js"

/** Every label the training corpora use (their SOURCE.md), with the catalogue type it must map to. */
const CORPUS_LABELS: ReadonlyArray<readonly [string, string | undefined]> = [
  // CoCoLoFa
  ["appeal to authority", "appeal_to_authority"], ["appeal to majority", "appeal_to_majority"], ["appeal to nature", "appeal_to_nature"],
  ["appeal to tradition", "appeal_to_tradition"], ["appeal to worse problems", "appeal_to_worse_problems"], ["false dilemma", "false_dilemma"],
  ["hasty generalization", "hasty_generalization"], ["slippery slope", "slippery_slope"],
  // Argotario
  ["Appeal to Emotion", "appeal_to_emotion"], ["Red Herring", "red_herring"], ["Ad Hominem", "ad_hominem"],
  ["Irrelevant Authority", "appeal_to_authority"], ["Hasty Generalization", "hasty_generalization"],
  // LOGIC / LogicClimate
  ["faulty generalization", "hasty_generalization"], ["ad hominem", "ad_hominem"], ["false causality", "false_cause"], ["ad populum", "appeal_to_majority"],
  ["circular reasoning", "circular_reasoning"], ["appeal to emotion", "appeal_to_emotion"], ["fallacy of logic", undefined],
  ["fallacy of relevance", "red_herring"], ["intentional", undefined], ["fallacy of credibility", "appeal_to_authority"],
  ["fallacy of extension", "straw_man"], ["equivocation", "equivocation"],
  // ElecDeb60to20 (categories and subcategories)
  ["Appeal to Authority", "appeal_to_authority"], ["False Cause", "false_cause"], ["Slippery Slope", "slippery_slope"], ["Slogans", "appeal_to_emotion"],
  ["Loaded Language", "appeal_to_emotion"], ["Flag waving", "appeal_to_emotion"], ["Appeal to pity", "appeal_to_emotion"], ["Without Evidence", undefined],
  ["Appeal to fear", "appeal_to_emotion"], ["Popular Opinion", "appeal_to_majority"], ["Circumstantial Ad Hominem", "ad_hominem"],
  ["False Authority", "appeal_to_authority"], ["Name-Calling/Labeling", "ad_hominem"], ["Tu quoque", "ad_hominem"],
  // MAFALDA (evaluation)
  ["causal oversimplification", "false_cause"], ["Appeal to Ridicule", "appeal_to_emotion"], ["straw man", "straw_man"], ["false analogy", "false_analogy"],
  ["appeal to (false) authority", "appeal_to_authority"], ["guilt by association", "ad_hominem"], ["appeal to anger", "appeal_to_emotion"]
]

describe("fallacy labels", () => {
  it("maps every corpus label onto the catalogue (or marks it untyped)", () => {
    for (const [label, type] of CORPUS_LABELS) assert.deepStrictEqual({ label, type: typeOfLabel(label) }, { label, type })
  })

  it("refuses a label nobody mapped instead of dropping it silently", () => {
    assert.throws(() => typeOfLabel("moving the goalposts"), /not mapped/)
  })
})

const row = (text: string, fallacy: number, type?: FallacyRow["type"], source = "fixture", group = text): FallacyRow => ({
  text, source, group, fallacy, label: type ?? "none", ...(type ? { type } : {})
})

describe("splits", () => {
  it("keeps every comment of a CoCoLoFa article in one split, and other corpora in training", () => {
    const groups = Array.from({ length: 60 }, (_, i) => `cocolofa:${i}`)
    const seen = new Set<string>()
    for (const g of groups) {
      const a = splitOf(row("one", 0, undefined, "cocolofa", g))
      const b = splitOf(row("another comment", 1, "slippery_slope", "cocolofa", g))
      assert.strictEqual(a, b)
      seen.add(a)
    }
    assert.deepStrictEqual([...seen].sort(), ["dev", "test", "train"])
    assert.strictEqual(splitOf(row("x", 1, "ad_hominem", "argotario", "cocolofa:1")), "train")
  })
})

describe("bestF1Threshold", () => {
  it("cuts where F1 is highest, between distinct scores", () => {
    // positives at 0.9, 0.8, 0.3; negatives at 0.7, 0.1: best is all three positives (cut below 0.3)
    const t = bestF1Threshold([0.9, 0.8, 0.7, 0.3, 0.1], [1, 1, 0, 1, 0])
    assert.closeTo(t.f1, (2 * 3) / (4 + 3), 5e-11)
    assert.closeTo(t.threshold, 0.2, 5e-11)
    const d = detection([row("a", 1), row("b", 1), row("c", 0), row("d", 1), row("e", 0)], [0.9, 0.8, 0.7, 0.3, 0.1], [], t.threshold)
    assert.deepStrictEqual([d.precision, d.recall], [0.75, 1])
  })
})

const SLOPES = [
  "If we let them build one tower, next they will cover the whole city in towers and nobody will see the sky.",
  "Allow this fee today and tomorrow every service will cost double, then we will pay for breathing.",
  "Once they ban plastic straws, next they will ban cars, then they will ban everything.",
  "If students skip one class, soon they will skip school and then they will end up with no future."
]
const MAJORITY = [
  "Everyone I know agrees with it, so it must be right.",
  "Millions of people use this product, so it has to be good.",
  "Most people believe the tax is fair, which proves it is fair.",
  "The majority voted for it, so it cannot be a bad idea."
]
const PLAIN = [
  "The council published the budget on Monday and the vote is next week.",
  "The report lists three bus routes that will change in March.",
  "I read the article and the figures on page two match last year's.",
  "The library opens at nine and closes at six on weekdays.",
  "Tickets cost four euros and children under six travel free.",
  "The minister answered two questions about the hospital budget."
]

describe("trainFallacy", () => {
  const rows = [
    ...SLOPES.map((t) => row(t, 1, "slippery_slope")),
    ...MAJORITY.map((t) => row(t, 1, "appeal_to_majority")),
    ...PLAIN.map((t) => row(t, 0))
  ]
  const trained = trainFallacy(rows, { ...FALLACY_DEFAULTS, bits: 14, minTypeRows: 2 })
  const w = weightsOf(trained, 0)
  const analyse = (text: string) => w.analyse(text, splitSentences(text), undefined, true)

  it("gives the detector and a head per type with enough rows, in one weight file", () => {
    assert.deepStrictEqual<unknown>(trained.heads, ["fallacy", "appeal_to_majority", "slippery_slope"])
    assert.deepStrictEqual<unknown>(w.types, ["appeal_to_majority", "slippery_slope"])
  })

  it("separates and types its training rows after quantisation", () => {
    for (const t of SLOPES) assert.deepInclude(analyse(t), { type: "slippery_slope" })
    for (const t of MAJORITY) assert.deepInclude(analyse(t), { type: "appeal_to_majority" })
    const low = Math.max(...PLAIN.map((t) => analyse(t).score))
    const high = Math.min(...[...SLOPES, ...MAJORITY].map((t) => analyse(t).score))
    assert.isAbove(high, low)
  })

  it("finds the sentence that drives the score in a longer comment", () => {
    const text = `${PLAIN[0]} ${SLOPES[2]} ${PLAIN[3]}`
    const a = analyse(text)
    assert.lengthOf(a.units, 3)
    const lead = a.units.reduce((x, y) => (y.drive > x.drive ? y : x))
    assert.strictEqual(text.slice(lead.begin, lead.end), SLOPES[2])
    // shares add up to the comment's score above the bias
    const sum = a.units.reduce((s, u) => s + u.drive, 0)
    const bias = w.analyse("", []).score
    assert.closeTo(sum, a.score - bias, 0.0005)
  })
})

describe("typerWeights", () => {
  // 4 slippery slopes from a debate corpus, 2 appeals to majority from Reddit, 1 from CoCoLoFa; an untyped fallacy and a negative
  const rows = [
    ...SLOPES.map((t) => row(t, 1, "slippery_slope", "elecdeb")),
    ...MAJORITY.slice(0, 2).map((t) => row(t, 1, "appeal_to_majority", "reddit-informal-fallacies")),
    row(MAJORITY[2]!, 1, "appeal_to_majority", "cocolofa"),
    row("Without evidence, this is all wrong.", 1, undefined, "elecdeb"),
    row(PLAIN[0]!, 0)
  ]
  const options = { inDomainWeight: 10, minTypeRows: 2, sourceWeights: { "reddit-informal-fallacies": 2 } }
  const mass = (weight: Float64Array, type: string) => rows.reduce((m, r, i) => m + (r.type === type ? weight[i]! : 0), 0)

  it("weights typed fallacious rows by corpus, and reads no other row", () => {
    const { types, weight } = typerWeights(rows, { ...options, typerBalance: "none" })
    assert.deepStrictEqual<unknown>(types, ["appeal_to_majority", "slippery_slope"])
    assert.deepStrictEqual([...weight], [1, 1, 1, 1, 2, 2, 10, 0, 0])
  })

  it("with balance by type, gives every type the same total weight, keeping the corpus weights within a type", () => {
    const { weight } = typerWeights(rows, { ...options, typerBalance: "type" })
    assert.closeTo(mass(weight, "slippery_slope"), mass(weight, "appeal_to_majority"), 5e-10)
    // the total is kept: 4 + 2 + 2 + 10
    assert.closeTo(mass(weight, "slippery_slope") + mass(weight, "appeal_to_majority"), 18, 5e-10)
    assert.closeTo(weight[6]! / weight[4]!, 5, 5e-10)
    assert.closeTo(weight[0]!, 9 / 4, 5e-10)
    assert.deepStrictEqual([weight[7], weight[8]], [0, 0])
  })
})

describe("fallacy features", () => {
  it("cut a very long sentence into verbatim clauses and keep short sentences whole", () => {
    const long = `${"The plan, which the council published after months of consultation with residents, ".repeat(3)}will cost more than anyone said; and if we let it pass, next they will raise every fee in town.`
    const text = `Short one. ${long}`
    const parts = units(text, splitSentences(text))
    assert.strictEqual(text.slice(parts[0]!.begin, parts[0]!.end), "Short one.")
    assert.isAbove(parts.length, 2)
    for (const p of parts.slice(1)) {
      assert.isAtMost(p.end - p.begin, MAX_UNIT)
      assert.isTrue(long.includes(text.slice(p.begin, p.end)))
    }
  })

  it("score at runtime exactly what training fitted: the comment's vector times the weights", () => {
    const rows = [...SLOPES.map((t) => row(t, 1, "slippery_slope")), ...MAJORITY.map((t) => row(t, 1, "appeal_to_majority")), ...PLAIN.map((t) => row(t, 0))]
    const trained = trainFallacy(rows, { ...FALLACY_DEFAULTS, bits: 12, minTypeRows: 2 })
    const table = decodeWeights(trained.bytes)
    const f = new FallacyFeaturizer({ bits: 12, chars: FALLACY_DEFAULTS.chars })
    const w = weightsOf(trained)
    for (const text of [`${PLAIN[1]} ${SLOPES[0]} Everyone agrees.`, MAJORITY[2]!, "Ünïcödé 😀 test, 東京!"]) {
      const v = commentVector(f.run(text, splitSentences(text)))
      let z = table.bias[0]!
      for (let k = 0; k < v.slots.length; k++) z += table.weights[v.slots[k]! * table.labels]! * v.values[k]!
      assert.closeTo(w.analyse(text, splitSentences(text)).score, z, 0.00005)
    }
  })
})
