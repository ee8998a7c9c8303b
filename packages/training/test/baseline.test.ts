import { assert, describe, it } from "@effect/vitest"
import { charWbGrams, fitLogistic, loadBaseline, ngramCounts, saveBaseline, Tfidf, trainPlainBaseline, wordTokens } from "../baseline.js"
import { rocAuc } from "../fit.js"

const POSITIVE = ["you are a stupid idiot", "shut up moron", "what an idiot you are", "stupid moron go away", "idiot idiot idiot", "you moron"]
const NEGATIVE = ["thanks for the helpful edit", "the article cites two sources", "i agree with the change", "good point about the sources", "see the talk page", "nice work on the edit"]

describe("plain baseline featurisation (scikit-learn's analysers)", () => {
  it("tokenises words like token_pattern \\b\\w\\w+\\b, lower-cased, dropping one-letter tokens", () => {
    assert.deepStrictEqual(wordTokens("I am A Dog, don't you-know? café_2"), ["am", "dog", "don", "you", "know", "café_2"])
  })

  it("builds char_wb n-grams inside padded words, a short word once", () => {
    assert.deepStrictEqual(charWbGrams("ab", 2, 5), [" a", "ab", "b ", " ab", "ab ", " ab "])
    assert.deepStrictEqual(charWbGrams("a  b", 2, 3), [" a", "a ", " a ", " b", "b ", " b "])
  })

  it("counts exactly the word 1-2-grams and char_wb 2-5-grams of the text", () => {
    const text = "You idiot you"
    const words = wordTokens(text)
    const distinct = new Set([...words, ...words.slice(1).map((w, i) => `${words[i]} ${w}`)].map((w) => `w:${w}`))
    for (const g of charWbGrams(text)) distinct.add(`c:${g}`)
    const counts = ngramCounts(text)
    assert.strictEqual(counts.size, distinct.size)
    // "you" twice as a word, " yo" twice as a character gram
    assert.isAbove([...counts.values()].filter((c) => c === 2).length, 0)
  })

  it("weights by sublinear tf and smooth idf and L2-normalises each block", () => {
    const docs = ["red red red blue", "blue green", "green"]
    const t = Tfidf.fit(docs)
    const X = t.transform(["red red red blue"])
    let sw = 0
    let sc = 0
    for (let k = 0; k < X.val.length; k++) {
      const v = X.val[k]!
      if (X.col[k]! < t.wordColumns) sw += v * v
      else sc += v * v
    }
    assert.closeTo(sw, 1, 0.000005)
    assert.closeTo(sc, 1, 0.000005)
    // idf of a term in one of three documents: ln(4/2) + 1; in two: ln(4/3) + 1
    const idfs = [...t.idf.subarray(0, t.wordColumns)].map((v) => v.toFixed(4)).sort()
    assert.include(idfs, (Math.log(2) + 1).toFixed(4))
    assert.include(idfs, (Math.log(4 / 3) + 1).toFixed(4))
    // word block of "red red red blue": red (tf 3, df 1), blue (tf 1, df 2), "red red" (tf 2, df 1), "red blue" (tf 1, df 1)
    const i1 = Math.log(2) + 1
    const i2 = Math.log(4 / 3) + 1
    const raw = [(1 + Math.log(3)) * i1, i2, (1 + Math.log(2)) * i1, i1]
    const norm = Math.sqrt(raw.reduce((a, v) => a + v * v, 0))
    const want = raw.map((v) => v / norm).sort((a, b) => b - a)
    const got = [...X.val].filter((_, k) => X.col[k]! < t.wordColumns).sort((a, b) => b - a)
    assert.strictEqual(got.length, 4)
    got.forEach((v, k) => assert.closeTo(v, want[k]!, 5e-6))
    // unseen n-grams are dropped
    assert.strictEqual(t.transform(["qqqq"]).val.length, 0)
  })
})

describe("plain baseline logistic regression", () => {
  it("reaches the optimum of the regularised objective (gradient ~ 0) and ranks an unseen insult above a neutral text", () => {
    const rows = [...POSITIVE.map((text) => ({ text, labels: { TOXICITY: 1 } })), ...NEGATIVE.map((text) => ({ text, labels: { TOXICITY: 0 } }))]
    const b = trainPlainBaseline(rows, ["TOXICITY"])
    const fit = b.heads.get("TOXICITY")!
    assert.isTrue(fit.converged)
    assert.isBelow(fit.gradient, 1e-5)
    const train = b.score(rows.map((r) => r.text)).get("TOXICITY")!
    assert.strictEqual(rocAuc([...train], rows.map((r) => r.labels.TOXICITY)), 1)
    const [insult, neutral] = b.score(["what a stupid moron", "helpful sources on the talk page"]).get("TOXICITY")!
    assert.isAbove(insult!, neutral!)
  })

  it("stronger regularisation (smaller C) shrinks the weights", () => {
    const texts = [...POSITIVE, ...NEGATIVE]
    const t = Tfidf.fit(texts)
    const X = t.transform(texts)
    const y = texts.map((_, i) => (i < POSITIVE.length ? 1 : 0))
    const rows = texts.map((_, i) => i)
    const norm = (C: number) => {
      const w = fitLogistic(X, rows, y, { C }).weights
      return Math.sqrt(w.reduce((a, v) => a + v * v, 0))
    }
    assert.isBelow(norm(0.1), norm(4))
  })

  it("skips rows that do not carry the head's label (label masking)", () => {
    const rows = [
      ...POSITIVE.map((text) => ({ text, labels: { TOXICITY: 1, THREAT: Number.NaN } })),
      ...NEGATIVE.map((text) => ({ text, labels: { TOXICITY: 0 } })),
      { text: "i will hurt you", labels: { THREAT: 1 } },
      { text: "i will help you", labels: { THREAT: 0 } }
    ]
    const b = trainPlainBaseline(rows, ["TOXICITY", "THREAT"])
    assert.isDefined(b.heads.get("THREAT"))
    const s = b.score(["i will hurt you", "i will help you"]).get("THREAT")!
    assert.isAbove(s[0]!, s[1]!)
  })
})

describe("plain baseline persistence", () => {
  it("a saved and reloaded baseline scores exactly as the trained one", () => {
    const rows = [...POSITIVE.map((text) => ({ text, labels: { TOXICITY: 1 } })), ...NEGATIVE.map((text) => ({ text, labels: { TOXICITY: 0 } }))]
    const b = trainPlainBaseline(rows, ["TOXICITY"])
    const again = loadBaseline(saveBaseline(b))
    const texts = ["you idiot", "thanks for the sources", "zzz unseen"]
    const s1 = b.score(texts).get("TOXICITY")!
    const s2 = again.score(texts).get("TOXICITY")!
    texts.forEach((_, i) => assert.closeTo(s2[i]!, s1[i]!, 5e-6))
  })
})
