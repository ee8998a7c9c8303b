/**
 * The normaliser's per-script handling for the per-language model sets (`script`, issue 28):
 * letters of each script kept, look-alike and masked obfuscation undone, every token's range a
 * verbatim UTF-16 slice of the original, and English untouched (featureFingerprint.test.ts holds
 * English's features bit for bit).
 */
import { assert, describe, it } from "@effect/vitest"
import { Featurizer } from "../../src/internal/model/features.js"
import { FLAG_IDEOGRAPH, FLAG_OBFUSCATED, Normalizer, type ScriptOptions } from "../../src/internal/model/normalize.js"

const run = (text: string, script: ScriptOptions | undefined) => {
  const n = new Normalizer({ script })
  const count = n.run(text)
  return Array.from({ length: count }, (_, i) => ({ token: n.tokens[i]!, quote: text.slice(n.begins[i]!, n.ends[i]!), flags: n.flags[i]! }))
}

describe("Normalizer with a script", () => {
  it("keeps Cyrillic and reads Latin and digit look-alikes inside a Cyrillic word as Cyrillic (flagged obfuscated)", () => {
    const out = run("ТЫ xуй пид0р, ёлка", { cyrillic: true })
    assert.deepStrictEqual(out.map((t) => t.token), ["ты", "хуй", "пидор", "елка"])
    assert.deepStrictEqual(out.map((t) => t.quote), ["ТЫ", "xуй", "пид0р", "ёлка"])
    assert.strictEqual(out[1]!.flags & FLAG_OBFUSCATED, FLAG_OBFUSCATED)
    // English folds Cyrillic to Latin look-alikes instead
    assert.notStrictEqual(run("хуй", undefined)[0]!.token, "хуй")
  })

  it("restores a masked word against the language's own words", () => {
    const out = run("ну ты бл*ть", { cyrillic: true, maskWords: ["блять"] })
    assert.strictEqual(out[2]!.token, "блять")
    assert.strictEqual(out[2]!.quote, "бл*ть")
    const de = run("du Ar*chloch", { maskWords: ["arschloch"] })
    assert.strictEqual(de[1]!.token, "arschloch")
  })

  it("drops Arabic vowel marks and tatweel and unifies letter variants, quoting the original", () => {
    const out = run("أنتَ غبيٌّ جداً، مــــرة", {})
    assert.deepStrictEqual(out.map((t) => t.token), ["انت", "غبي", "جدا", "مره"])
    assert.deepStrictEqual(out.map((t) => t.quote), ["أنتَ", "غبيٌّ", "جداً", "مــــرة"])
  })

  it("keeps Devanagari words whole (vowel signs included) and reads the danda as a break", () => {
    const out = run("तुम बेवकूफ़ हो। चुप", {})
    assert.deepStrictEqual(out.map((t) => t.quote), ["तुम", "बेवकूफ़", "हो", "चुप"])
    // English drops letters of other scripts: no token at all
    assert.deepStrictEqual(run("तुम बेवकूफ़ हो", undefined), [])
  })

  it("splits words at an apostrophe (l'articolo), where English joins them (dont)", () => {
    assert.deepStrictEqual(run("Grazie per l'articolo", {}).map((t) => t.token), ["grazie", "per", "l", "articolo"])
    assert.deepStrictEqual(run("don't", undefined).map((t) => t.token), ["dont"])
  })

  it("keeps Latin letters with diacritics when asked (Turkish şık is not sik), folds them otherwise", () => {
    assert.deepStrictEqual(run("Şık ve güzel, İstanbul", { accents: true }).map((t) => t.token), ["şık", "ve", "güzel", "istanbul"])
    assert.deepStrictEqual(run("Şık ve güzel", {}).map((t) => t.token), ["sik", "ve", "guzel"])
  })

  it("keeps Hangul syllables and compatibility jamo", () => {
    assert.deepStrictEqual(run("이 새끼야 ㅅㅂ", {}).map((t) => t.token), ["이", "새끼야", "ㅅㅂ"])
  })

  it("with ideographs, makes every Han or kana character a token whose range is that character", () => {
    const text = "你是个傻逼，SB滚！"
    const out = run(text, { ideographs: true })
    assert.deepStrictEqual(out.map((t) => t.quote), ["你", "是", "个", "傻", "逼", "SB", "滚"])
    assert.strictEqual(out.filter((t) => (t.flags & FLAG_IDEOGRAPH) !== 0).length, 6)
    // a supplementary-plane character outside the Han blocks keeps both of its UTF-16 units
    const emoji = run("傻🖕逼", { ideographs: true })
    assert.deepStrictEqual(emoji.map((t) => t.quote), ["傻", "🖕", "逼"])
  })

  it("gives a Han character the character n-grams ending on it over the characters directly before it", () => {
    const f = new Featurizer({ bits: 20, charMin: 3, charMax: 4, negationScope: 3, script: { ideographs: true } })
    const joined = f.run("你是傻逼")
    const spaced = f.run("你 是 傻 逼")
    // joined: 4 unigrams + 3 bigrams + 2 trigrams + 1 four-gram; spaced: no character n-grams across spaces
    assert.strictEqual(joined, 4 + 3 + 3 + 1)
    assert.strictEqual(spaced, 4 + 3 + 1)
  })
})
