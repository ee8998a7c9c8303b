import { assert, describe, it } from "@effect/vitest"
import { BLOCK_CHAR, BLOCK_GLOBAL, BLOCK_WORD, Featurizer, hashString } from "../../src/internal/model/features.js"

const config = { bits: 16, charMin: 3, charMax: 5, negationScope: 3 }
const features = (f: Featurizer, text: string) => {
  const n = f.run(text)
  const m = new Map<number, number>()
  for (let p = 0; p < n; p++) m.set(f.idx[p]!, f.val[p]!)
  return m
}

describe("Featurizer", () => {
  it("is deterministic and keeps indices inside the hashed space", () => {
    const a = new Featurizer(config)
    const b = new Featurizer(config)
    const x = features(a, "You are a complete idiot, honestly.")
    const y = features(b, "You are a complete idiot, honestly.")
    assert.deepStrictEqual([...x.entries()], [...y.entries()])
    for (const k of x.keys()) assert.isAtLeast(k, 0), assert.isBelow(k, 1 << 16)
    assert.notStrictEqual(hashString("idiot", 1), hashString("idiot", 2))
  })

  it("L2-normalises the word and character blocks separately; globals are 1", () => {
    const f = new Featurizer(config)
    const n = f.run("the cat sat on the mat")
    const sums = [0, 0, 0]
    for (let p = 0; p < n; p++) sums[f.block(p)]! += f.val[p]! ** 2
    assert.closeTo(sums[BLOCK_WORD]!, 1, 0.000005)
    assert.closeTo(sums[BLOCK_CHAR]!, 1, 0.000005)
    for (let p = 0; p < n; p++) if (f.block(p) === BLOCK_GLOBAL) assert.strictEqual(f.val[p], 1)
  })

  it("hashes negated words into their own namespace, for three tokens, stopping at punctuation", () => {
    const f = new Featurizer(config)
    const plain = features(f, "you are an idiot")
    const negated = features(f, "you are not an idiot")
    const shared = [...negated.keys()].filter((k) => plain.has(k))
    // "an" and "idiot" (words and character n-grams) are negated; "you", "are" stay shared
    const idiotOnly = features(f, "idiot")
    const idiotKeys = [...idiotOnly.keys()].filter((k) => !negated.has(k))
    assert.isAbove(idiotKeys.length, 5)
    assert.isAbove(shared.length, 0)
    f.run("you are not nice, idiot")
    const tokens = f.normalizer.tokens
    assert.deepStrictEqual(tokens.slice(0, 5), ["you", "are", "not", "nice", "idiot"])
    assert.deepStrictEqual([0, 1, 2, 3, 4].map((i) => f.isNegated(i)), [false, false, false, true, false])
    f.run("I don't hate immigrants but they are loud")
    assert.isTrue(f.isNegated(2)) // hate
    assert.isTrue(f.isNegated(3)) // immigrants
    assert.isFalse(f.isNegated(5)) // after "but"
  })

  it("tracks which tokens each feature occurrence came from", () => {
    const f = new Featurizer(config)
    f.run("hello world", true)
    // "<hello>" has 5 + 4 + 3 character n-grams of 3-5 letters, "<world>" too; "world" also has a bigram
    assert.deepStrictEqual([f.tokenStart[0], f.tokenStart[1], f.tokenStart[2]], [0, 13, 27])
    assert.isFalse(f.hasBigram(0))
    assert.isTrue(f.hasBigram(1))
    assert.isAbove(f.occ, 27) // then the globals
    for (let o = 0; o < f.occ; o++) assert.isBelow(f.occSlot[o]!, f.nnz)
    // a clause break stops the bigram
    f.run("hello. world", true)
    assert.isFalse(f.hasBigram(1))
    assert.strictEqual(f.tokenStart[2]! - f.tokenStart[1]!, 13)
  })

  it("stays usable after the stamp generation wraps and for long texts", () => {
    const f = new Featurizer(config)
    const long = "word ".repeat(5000) + "end"
    assert.isAbove(f.run(long), 0)
    assert.isAbove(f.run("short text"), 0)
  })
})
