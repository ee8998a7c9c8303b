import { describe, expect, it } from "vitest"
import { buildRespellMap, FLAG_BREAK, FLAG_OBFUSCATED, Normalizer, normalizeTokens, unmask } from "../../src/internal/model/normalize.js"

describe("Normalizer", () => {
  it("folds case, accents, full-width, math alphanumerics and Cyrillic look-alikes", () => {
    expect(normalizeTokens("Café NAÏVE")).toEqual(["cafe", "naive"])
    expect(normalizeTokens("ｆｕｃｋ 𝐟𝐮𝐜𝐤")).toEqual(["fuck", "fuck"])
    expect(normalizeTokens("іdіоt")).toEqual(["idiot"]) // Cyrillic і and о
    expect(normalizeTokens("i\u200Bd\u200Ci\u00ADot")).toEqual(["idiot"]) // zero-width and soft hyphen
  })

  it("undoes leetspeak inside words but leaves ordinals and numbers", () => {
    expect(normalizeTokens("you 1d10t sh1t $hit @ss")).toEqual(["you", "idiot", "shit", "shit", "ass"])
    expect(normalizeTokens("1st place in the 80s")).toEqual(["1st", "place", "in", "the", "80s"])
    expect(normalizeTokens("call 08452810075 or 123")).toEqual(["call", "xlongnum", "or", "xnum"])
  })

  it("restores masked words by shape against the abuse lexicon", () => {
    expect(normalizeTokens("f*ck f**k b***h a**hole")).toEqual(["fuck", "fuck", "bitch", "asshole"])
    expect(unmask("f*ck")).toBe("fuck")
    expect(unmask("x*yz")).toBeUndefined()
  })

  it("collapses stretched letters, keeping double letters a word needs", () => {
    expect(normalizeTokens("sooooo stuuuupid")).toEqual(["so", "stupid"])
    expect(normalizeTokens("asssss gooood")).toEqual(["ass", "good"])
    expect(normalizeTokens("good book")).toEqual(["good", "book"]) // untouched when not stretched
  })

  it("joins spaced, dotted and dashed single letters", () => {
    expect(normalizeTokens("f u c k you")).toEqual(["fuck", "you"])
    expect(normalizeTokens("i.d.i.o.t")).toEqual(["idiot"])
    expect(normalizeTokens("m-o-r-o-n")).toEqual(["moron"])
    expect(normalizeTokens("I am a b")).toEqual(["i", "am", "a", "b"]) // only two single letters in a row: not joined
  })

  it("applies the respelling map (explicit and one-edit variants)", () => {
    const respell = buildRespellMap(new Set(["moon"]))
    expect(respell["idoit"]).toBe("idiot")
    expect(respell["moon"]).toBeUndefined() // protected: a common word
    expect(normalizeTokens("you idoit, fcuk off", { respell })).toEqual(["you", "idiot", "fuck", "off"])
    expect(normalizeTokens("stfu")).toEqual(["shut", "the", "fuck", "up"])
  })

  it("replaces links, e-mails and mentions with placeholders", () => {
    expect(normalizeTokens("check http://www.example.com/x now")).toEqual(["check", "xurl", "xurl_example", "now"])
    expect(normalizeTokens("mail me@spam.net")).toEqual(["mail", "xemail"])
    expect(normalizeTokens("@USER hello")).toEqual(["xmention", "hello"])
  })

  it("maps every token back to a verbatim span of the original text", () => {
    const text = "Hey Ｆ u c k you, 1d10t!!! 😀 sooo bad"
    const n = new Normalizer()
    const count = n.run(text)
    const spans = Array.from({ length: count }, (_, i) => [n.tokens[i], text.slice(n.begins[i], n.ends[i])])
    expect(spans).toEqual([
      ["hey", "Hey"],
      ["fuck", "Ｆ u c k"],
      ["you", "you"],
      ["idiot", "1d10t"],
      ["so", "sooo"],
      ["bad", "bad"]
    ])
    expect(n.flags[1]! & FLAG_OBFUSCATED).toBe(FLAG_OBFUSCATED)
    expect(n.flags[3]! & FLAG_BREAK).toBe(FLAG_BREAK) // after the comma
    expect(n.flags[2]! & FLAG_BREAK).toBe(0)
  })

  it("reuses its buffers: a shorter second text does not leak tokens of the first", () => {
    const n = new Normalizer()
    n.run("one two three four")
    expect(n.run("five")).toBe(1)
    expect(n.tokens.slice(0, n.count)).toEqual(["five"])
  })
})

describe("Normalizer on words that are also object keys", () => {
  it("treats constructor, __proto__ and toString as plain words", () => {
    // underscores separate words; nothing resolves to an Object.prototype member
    expect(normalizeTokens("constructor __proto__ toString hasOwnProperty")).toEqual(["constructor", "proto", "tostring", "hasownproperty"])
  })
})
