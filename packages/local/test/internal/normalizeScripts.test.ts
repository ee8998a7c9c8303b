/**
 * The normaliser's per-script handling for the per-language model sets (`script`, issue 28):
 * letters of each script kept, look-alike and masked obfuscation undone, every token's range a
 * verbatim UTF-16 slice of the original, and English untouched (featureFingerprint.test.ts holds
 * English's features bit for bit).
 */
import { describe, expect, it } from "vitest"
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
    expect(out.map((t) => t.token)).toEqual(["ты", "хуй", "пидор", "елка"])
    expect(out.map((t) => t.quote)).toEqual(["ТЫ", "xуй", "пид0р", "ёлка"])
    expect(out[1]!.flags & FLAG_OBFUSCATED).toBe(FLAG_OBFUSCATED)
    // English folds Cyrillic to Latin look-alikes instead
    expect(run("хуй", undefined)[0]!.token).not.toBe("хуй")
  })

  it("restores a masked word against the language's own words", () => {
    const out = run("ну ты бл*ть", { cyrillic: true, maskWords: ["блять"] })
    expect(out[2]!.token).toBe("блять")
    expect(out[2]!.quote).toBe("бл*ть")
    const de = run("du Ar*chloch", { maskWords: ["arschloch"] })
    expect(de[1]!.token).toBe("arschloch")
  })

  it("drops Arabic vowel marks and tatweel and unifies letter variants, quoting the original", () => {
    const out = run("أنتَ غبيٌّ جداً، مــــرة", {})
    expect(out.map((t) => t.token)).toEqual(["انت", "غبي", "جدا", "مره"])
    expect(out.map((t) => t.quote)).toEqual(["أنتَ", "غبيٌّ", "جداً", "مــــرة"])
  })

  it("keeps Devanagari words whole (vowel signs included) and reads the danda as a break", () => {
    const out = run("तुम बेवकूफ़ हो। चुप", {})
    expect(out.map((t) => t.quote)).toEqual(["तुम", "बेवकूफ़", "हो", "चुप"])
    // English drops letters of other scripts: no token at all
    expect(run("तुम बेवकूफ़ हो", undefined)).toEqual([])
  })

  it("splits words at an apostrophe (l'articolo), where English joins them (dont)", () => {
    expect(run("Grazie per l'articolo", {}).map((t) => t.token)).toEqual(["grazie", "per", "l", "articolo"])
    expect(run("don't", undefined).map((t) => t.token)).toEqual(["dont"])
  })

  it("keeps Latin letters with diacritics when asked (Turkish şık is not sik), folds them otherwise", () => {
    expect(run("Şık ve güzel, İstanbul", { accents: true }).map((t) => t.token)).toEqual(["şık", "ve", "güzel", "istanbul"])
    expect(run("Şık ve güzel", {}).map((t) => t.token)).toEqual(["sik", "ve", "guzel"])
  })

  it("keeps Hangul syllables and compatibility jamo", () => {
    expect(run("이 새끼야 ㅅㅂ", {}).map((t) => t.token)).toEqual(["이", "새끼야", "ㅅㅂ"])
  })

  it("with ideographs, makes every Han or kana character a token whose range is that character", () => {
    const text = "你是个傻逼，SB滚！"
    const out = run(text, { ideographs: true })
    expect(out.map((t) => t.quote)).toEqual(["你", "是", "个", "傻", "逼", "SB", "滚"])
    expect(out.filter((t) => (t.flags & FLAG_IDEOGRAPH) !== 0).length).toBe(6)
    // a supplementary-plane character outside the Han blocks keeps both of its UTF-16 units
    const emoji = run("傻🖕逼", { ideographs: true })
    expect(emoji.map((t) => t.quote)).toEqual(["傻", "🖕", "逼"])
  })

  it("gives a Han character the character n-grams ending on it over the characters directly before it", () => {
    const f = new Featurizer({ bits: 20, charMin: 3, charMax: 4, negationScope: 3, script: { ideographs: true } })
    const joined = f.run("你是傻逼")
    const spaced = f.run("你 是 傻 逼")
    // joined: 4 unigrams + 3 bigrams + 2 trigrams + 1 four-gram; spaced: no character n-grams across spaces
    expect(joined).toBe(4 + 3 + 3 + 1)
    expect(spaced).toBe(4 + 3 + 1)
  })
})
