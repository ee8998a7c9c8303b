/**
 * The one hashing of every featuriser computes exactly what each featuriser computed before it
 * shared it (the shipped weights were trained on those values): the reference implementations
 * below are the featurisers' own former copies, compared on many strings and seeds.
 */
import { Hashing } from "@decorum/core"
import { assert, describe, it } from "@effect/vitest"

// The former copies, verbatim.
const modelFmix = (h: number): number => {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}
const modelHashString = (s: string, seed: number): number => {
  let h = (0x811c9dc5 ^ seed) >>> 0
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return modelFmix(h)
}
const fallacyFnv = (h: number, code: number) => Math.imul(h ^ code, 0x01000193) >>> 0
const fallacyFinish = (h: number) => {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  return h >>> 0
}
const fallacyHashString = (h: number, s: string): number => {
  for (let i = 0; i < s.length; i++) h = fallacyFnv(h, s.charCodeAt(i))
  return h
}
const fallacyStart = (seed: number) => (0x811c9dc5 ^ seed) >>> 0
const spansFnv = (h: number, s: string): number => {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h
}
const adapterFnv1a = (s: string) => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** Deterministic strings: ASCII, accents, astral characters, empty. */
const strings = (): Array<string> => {
  const out = ["", "a", "foobar", "w|idiot", "c|<id", "len|3", "Ünïcödé", "😀 emoji", "日本語のテキスト"]
  let x = 12345
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0)
  for (let n = 0; n < 500; n++) {
    const len = next() % 24
    let s = ""
    for (let i = 0; i < len; i++) s += String.fromCharCode(next() % 3 === 0 ? 0x20 + (next() % 0x5f) : next() % 0xffff)
    out.push(s)
  }
  return out
}
const SEEDS = [0, 1, 0x3c0ffee, 0x4f00d42, 0x5eed5ed, 0x6a11a11, 0x7fffffff, -1, 0xdeadbeef]

describe("Hashing", () => {
  it("is FNV-1a: the published 32-bit test vectors", () => {
    assert.strictEqual(Hashing.fnv1a(""), 0x811c9dc5)
    assert.strictEqual(Hashing.fnv1a("a"), 0xe40c292c)
    assert.strictEqual(Hashing.fnv1a("foobar"), 0xbf9cf968)
  })

  it("computes what every featuriser computed with its own copy", () => {
    for (const s of strings()) {
      assert.strictEqual(Hashing.fnv1a(s), adapterFnv1a(s))
      for (const seed of SEEDS) {
        assert.strictEqual(Hashing.hashString(s, seed), modelHashString(s, seed))
        assert.strictEqual(Hashing.fnvBasis(seed), fallacyStart(seed))
        assert.strictEqual(Hashing.fnvString(Hashing.fnvBasis(seed), s), fallacyHashString(fallacyStart(seed), s))
        assert.strictEqual(Hashing.fmixHalf(Hashing.fnvString(Hashing.fnvBasis(seed), s)), fallacyFinish(fallacyHashString(fallacyStart(seed), s)))
        // the span tagger's states are signed: the same bits
        assert.strictEqual(Hashing.fnvString(Hashing.fnvBasis(seed), s), spansFnv(fallacyStart(seed), s) >>> 0)
        assert.strictEqual(Hashing.fmix(Hashing.fnvString(Hashing.fnvBasis(seed), s)), modelFmix(spansFnv(fallacyStart(seed), s)))
        let h = Hashing.fnvBasis(seed)
        let old = fallacyStart(seed)
        for (let i = 0; i < s.length; i++) {
          h = Hashing.fnvStep(h, s.charCodeAt(i))
          old = fallacyFnv(old, s.charCodeAt(i))
          assert.strictEqual(h, old)
        }
      }
    }
  })
})
