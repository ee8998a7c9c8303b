import { describe, expect, it } from "vitest"
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
    expect([...x.entries()]).toEqual([...y.entries()])
    for (const k of x.keys()) expect(k).toBeGreaterThanOrEqual(0), expect(k).toBeLessThan(1 << 16)
    expect(hashString("idiot", 1)).not.toBe(hashString("idiot", 2))
  })

  it("L2-normalises the word and character blocks separately; globals are 1", () => {
    const f = new Featurizer(config)
    const n = f.run("the cat sat on the mat")
    const sums = [0, 0, 0]
    for (let p = 0; p < n; p++) sums[f.block(p)]! += f.val[p]! ** 2
    expect(sums[BLOCK_WORD]).toBeCloseTo(1, 5)
    expect(sums[BLOCK_CHAR]).toBeCloseTo(1, 5)
    for (let p = 0; p < n; p++) if (f.block(p) === BLOCK_GLOBAL) expect(f.val[p]).toBe(1)
  })

  it("hashes negated words into their own namespace, for three tokens, stopping at punctuation", () => {
    const f = new Featurizer(config)
    const plain = features(f, "you are an idiot")
    const negated = features(f, "you are not an idiot")
    const shared = [...negated.keys()].filter((k) => plain.has(k))
    // "an" and "idiot" (words and character n-grams) are negated; "you", "are" stay shared
    const idiotOnly = features(f, "idiot")
    const idiotKeys = [...idiotOnly.keys()].filter((k) => !negated.has(k))
    expect(idiotKeys.length).toBeGreaterThan(5)
    expect(shared.length).toBeGreaterThan(0)
    f.run("you are not nice, idiot")
    const tokens = f.normalizer.tokens
    expect(tokens.slice(0, 5)).toEqual(["you", "are", "not", "nice", "idiot"])
    expect([0, 1, 2, 3, 4].map((i) => f.isNegated(i))).toEqual([false, false, false, true, false])
    f.run("I don't hate immigrants but they are loud")
    expect(f.isNegated(2)).toBe(true) // hate
    expect(f.isNegated(3)).toBe(true) // immigrants
    expect(f.isNegated(5)).toBe(false) // after "but"
  })

  it("tracks which tokens each feature occurrence came from", () => {
    const f = new Featurizer(config)
    f.run("hello world", true)
    // "<hello>" has 5 + 4 + 3 character n-grams of 3-5 letters, "<world>" too; "world" also has a bigram
    expect([f.tokenStart[0], f.tokenStart[1], f.tokenStart[2]]).toEqual([0, 13, 27])
    expect(f.hasBigram(0)).toBe(false)
    expect(f.hasBigram(1)).toBe(true)
    expect(f.occ).toBeGreaterThan(27) // then the globals
    for (let o = 0; o < f.occ; o++) expect(f.occSlot[o]!).toBeLessThan(f.nnz)
    // a clause break stops the bigram
    f.run("hello. world", true)
    expect(f.hasBigram(1)).toBe(false)
    expect(f.tokenStart[2]! - f.tokenStart[1]!).toBe(13)
  })

  it("stays usable after the stamp generation wraps and for long texts", () => {
    const f = new Featurizer(config)
    const long = "word ".repeat(5000) + "end"
    expect(f.run(long)).toBeGreaterThan(0)
    expect(f.run("short text")).toBeGreaterThan(0)
  })
})
