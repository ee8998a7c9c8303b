import { assert, describe, it } from "@effect/vitest"
import { buildRespellMap, FLAG_BREAK, FLAG_OBFUSCATED, Normalizer, normalizeTokens, unmask } from "../../src/internal/model/normalize.js"

describe("Normalizer", () => {
  it("folds case, accents, full-width, math alphanumerics and Cyrillic look-alikes", () => {
    assert.deepStrictEqual(normalizeTokens("Café NAÏVE"), ["cafe", "naive"])
    assert.deepStrictEqual(normalizeTokens("ｆｕｃｋ 𝐟𝐮𝐜𝐤"), ["fuck", "fuck"])
    assert.deepStrictEqual(normalizeTokens("іdіоt"), ["idiot"]) // Cyrillic і and о
    assert.deepStrictEqual(normalizeTokens("i\u200Bd\u200Ci\u00ADot"), ["idiot"]) // zero-width and soft hyphen
  })

  it("undoes leetspeak inside words but leaves ordinals and numbers", () => {
    assert.deepStrictEqual(normalizeTokens("you 1d10t sh1t $hit @ss"), ["you", "idiot", "shit", "shit", "ass"])
    assert.deepStrictEqual(normalizeTokens("1st place in the 80s"), ["1st", "place", "in", "the", "80s"])
    assert.deepStrictEqual(normalizeTokens("call 08452810075 or 123"), ["call", "xlongnum", "or", "xnum"])
  })

  it("restores masked words by shape against the abuse lexicon", () => {
    assert.deepStrictEqual(normalizeTokens("f*ck f**k b***h a**hole"), ["fuck", "fuck", "bitch", "asshole"])
    assert.strictEqual(unmask("f*ck"), "fuck")
    assert.isUndefined(unmask("x*yz"))
  })

  it("collapses stretched letters, keeping double letters a word needs", () => {
    assert.deepStrictEqual(normalizeTokens("sooooo stuuuupid"), ["so", "stupid"])
    assert.deepStrictEqual(normalizeTokens("asssss gooood"), ["ass", "good"])
    assert.deepStrictEqual(normalizeTokens("good book"), ["good", "book"]) // untouched when not stretched
  })

  it("joins spaced, dotted and dashed single letters", () => {
    assert.deepStrictEqual(normalizeTokens("f u c k you"), ["fuck", "you"])
    assert.deepStrictEqual(normalizeTokens("i.d.i.o.t"), ["idiot"])
    assert.deepStrictEqual(normalizeTokens("m-o-r-o-n"), ["moron"])
    assert.deepStrictEqual(normalizeTokens("I am a b"), ["i", "am", "a", "b"]) // only two single letters in a row: not joined
  })

  it("applies the respelling map (explicit and one-edit variants)", () => {
    const respell = buildRespellMap(new Set(["moon"]))
    assert.strictEqual(respell["idoit"], "idiot")
    assert.isUndefined(respell["moon"]) // protected: a common word
    assert.deepStrictEqual(normalizeTokens("you idoit, fcuk off", { respell }), ["you", "idiot", "fuck", "off"])
    assert.deepStrictEqual(normalizeTokens("stfu"), ["shut", "the", "fuck", "up"])
  })

  it("replaces links, e-mails and mentions with placeholders", () => {
    assert.deepStrictEqual(normalizeTokens("check http://www.example.com/x now"), ["check", "xurl", "xurl_example", "now"])
    assert.deepStrictEqual(normalizeTokens("mail me@spam.net"), ["mail", "xemail"])
    assert.deepStrictEqual(normalizeTokens("@USER hello"), ["xmention", "hello"])
  })

  it("maps every token back to a verbatim span of the original text", () => {
    const text = "Hey Ｆ u c k you, 1d10t!!! 😀 sooo bad"
    const n = new Normalizer()
    const count = n.run(text)
    const spans = Array.from({ length: count }, (_, i) => [n.tokens[i], text.slice(n.begins[i], n.ends[i])])
    assert.deepStrictEqual(spans, [
      ["hey", "Hey"],
      ["fuck", "Ｆ u c k"],
      ["you", "you"],
      ["idiot", "1d10t"],
      ["so", "sooo"],
      ["bad", "bad"]
    ])
    assert.strictEqual(n.flags[1]! & FLAG_OBFUSCATED, FLAG_OBFUSCATED)
    assert.strictEqual(n.flags[3]! & FLAG_BREAK, FLAG_BREAK) // after the comma
    assert.strictEqual(n.flags[2]! & FLAG_BREAK, 0)
  })

  it("reuses its buffers: a shorter second text does not leak tokens of the first", () => {
    const n = new Normalizer()
    n.run("one two three four")
    assert.strictEqual(n.run("five"), 1)
    assert.deepStrictEqual(n.tokens.slice(0, n.count), ["five"])
  })
})

describe("Normalizer on words that are also object keys", () => {
  it("treats constructor, __proto__ and toString as plain words", () => {
    // underscores separate words; nothing resolves to an Object.prototype member
    assert.deepStrictEqual(normalizeTokens("constructor __proto__ toString hasOwnProperty"), ["constructor", "proto", "tostring", "hasownproperty"])
  })
})
