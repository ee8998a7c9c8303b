/**
 * The dog-whistle term matcher: word boundaries, multi-word phrases, symbols and numbers, the
 * obvious variants of a form, acronym case, hashtags, obfuscations, and verbatim offsets.
 */
import { assert, describe, it } from "@effect/vitest"
import { type FormSpec, matchTokens, numberVariants, TermMatcher } from "../../../src/internal/dogwhistle/matcher.js"

const TERMS: ReadonlyArray<ReadonlyArray<FormSpec>> = [
  [{ text: "14/88" }, { text: "1488" }, { text: "88" }, { text: "HH" }, { text: "14 words" }],
  [{ text: "TRAs" }, { text: "trans rights activists" }],
  [{ text: "#Milk", hashOnly: true }],
  [{ text: "Zionist Occupation Government" }, { text: "ZOG" }],
  [{ text: "ni🅱️🅱️a" }],
  [{ text: "black-on-black crime" }],
  [{ text: "triple parentheses" }],
  [{ text: "anchor baby" }],
  [{ text: "⬛️🟧" }],
  [{ text: "critical race theory" }, { text: "CRT" }],
  [{ text: "Googles", exact: true }],
  [{ text: "Let's Go Brandon" }, { text: "TIM" }],
  [{ text: "George Soros" }, { text: "Soros" }]
]
const matcher = new TermMatcher(TERMS, 6)
/** [verbatim text, term index] of every hit. */
const hits = (text: string) =>
  matcher.match(text).map((h) => {
    assert.isAbove(h.end, h.begin)
    return [text.slice(h.begin, h.end), h.term] as const
  })

describe("matchTokens", () => {
  it("folds case, diacritics and leet inside mixed words, and keeps symbols as tokens", () => {
    assert.deepStrictEqual(matchTokens("Z0G ŽOG $oros (((x))) 14/88 let's").map((t) => t.key), ["zog", "zog", "soros", "(", "(", "(", "x", ")", ")", ")", "14", "/", "88", "lets"])
    // a number stays a number
    assert.deepStrictEqual(matchTokens("1488 2014").map((t) => t.key), ["1488", "2014"])
  })
  it("records offsets into the text as given, in any script", () => {
    const text = "Ünïcode 🐻 ZOG"
    for (const t of matchTokens(text)) assert.isAbove(text.slice(t.begin, t.end).length, 0)
    assert.deepStrictEqual(matchTokens(text).map((t) => text.slice(t.begin, t.end)), ["Ünïcode", "🐻", "ZOG"])
  })
})

describe("numberVariants", () => {
  it("gives the plural and the singular of a word", () => {
    assert.deepStrictEqual(numberVariants("groomer").sort(), ["groomer", "groomers"])
    assert.deepStrictEqual(numberVariants("babies").sort(), ["babies", "baby"])
    assert.deepStrictEqual(numberVariants("quotas").sort(), ["quota", "quotas"])
    assert.deepStrictEqual(numberVariants("bugman").sort(), ["bugman", "bugmans", "bugmen"])
    assert.deepStrictEqual(numberVariants("88"), ["88"])
  })
})

describe("TermMatcher", () => {
  it("matches whole tokens only: 14 and 88 never inside another number or word", () => {
    assert.deepStrictEqual(hits("In 2014 there were 1889 votes and 880 seats"), [])
    assert.deepStrictEqual<unknown>(hits("88 people came"), [["88", 0]])
    assert.deepStrictEqual<unknown>(hits("He wrote 14/88 and 1488"), [["14/88", 0], ["1488", 0]])
    assert.deepStrictEqual<unknown>(hits("the 14 words of the headline"), [["14 words", 0]])
  })
  it("matches multi-word phrases across hyphens, spacing, case and number, and as one word", () => {
    assert.deepStrictEqual<unknown>(hits("Black on Black crimes"), [["Black on Black crimes", 5]])
    assert.deepStrictEqual<unknown>(hits("black-on-black crime"), [["black-on-black crime", 5]])
    assert.deepStrictEqual<unknown>(hits("#BlackOnBlackCrime"), [["#BlackOnBlackCrime", 5]])
    assert.deepStrictEqual<unknown>(hits("anchor babies"), [["anchor babies", 7]])
    assert.deepStrictEqual<unknown>(hits("Trans Rights Activist"), [["Trans Rights Activist", 1]])
    assert.deepStrictEqual(hits("a black crime"), [])
  })
  it("keeps the longest of overlapping hits", () => {
    assert.deepStrictEqual<unknown>(hits("George Soros again"), [["George Soros", 12]])
    assert.deepStrictEqual<unknown>(hits("Soros again"), [["Soros", 12]])
  })
  it("matches acronyms in upper or lower case but not title case, and short or name-like ones in upper case only", () => {
    assert.deepStrictEqual<unknown>(hits("the TRAs and TRA's and tras"), [["TRAs", 1], ["TRA's", 1]])
    assert.deepStrictEqual<unknown>(hits("ZOG, zog and Z0G but not Zog"), [["ZOG", 3], ["zog", 3], ["Z0G", 3]])
    assert.deepStrictEqual<unknown>(hits("CRT and C.R.T. and crt"), [["CRT", 9], ["C.R.T", 9], ["crt", 9]])
    assert.deepStrictEqual(hits("Tim and tim"), [])
    assert.deepStrictEqual<unknown>(hits("TIM"), [["TIM", 11]])
    assert.deepStrictEqual<unknown>(hits("hh, HH"), [["HH", 0]])
  })
  it("matches a hashtag-only form after # only, quoting the #", () => {
    assert.deepStrictEqual(hits("a glass of milk"), [])
    assert.deepStrictEqual<unknown>(hits("proud #milk drinker"), [["#milk", 2]])
  })
  it("reads obfuscations: leet digits, look-alike letters, emoji letters, variation selectors", () => {
    assert.deepStrictEqual<unknown>(hits("Z0G"), [["Z0G", 3]])
    assert.deepStrictEqual<unknown>(hits("ni🅱🅱as"), [["ni🅱🅱as", 4]])
    assert.deepStrictEqual<unknown>(hits("⬛🟧"), [["⬛🟧", 8]])
    assert.deepStrictEqual<unknown>(hits("let’s go brandon!"), [["let’s go brandon", 11]])
  })
  it("does not add the other number of an exact form", () => {
    assert.deepStrictEqual(hits("I use Google"), [])
    assert.deepStrictEqual<unknown>(hits("the Googles"), [["Googles", 10]])
  })
  it("matches triple parentheses around a name, and not ordinary parentheses", () => {
    assert.deepStrictEqual<unknown>(hits("the (((globalists))) again and ((( them )))"), [["(((globalists)))", 6], ["((( them )))", 6]])
    assert.deepStrictEqual(hits("(see (note (a)))"), [])
    assert.deepStrictEqual(hits("an echo in the hall"), [])
  })
  it("quotes every hit verbatim", () => {
    const text = "Those TRAs, the (((bankers))), 14/88 and #BlackOnBlackCrime — ni🅱️🅱️as"
    const found = matcher.match(text)
    assert.strictEqual(found.length, 5)
    for (const h of found) assert.isTrue(text.includes(text.slice(h.begin, h.end)))
    assert.deepStrictEqual(found.map((h) => text.slice(h.begin, h.end)), ["TRAs", "(((bankers)))", "14/88", "#BlackOnBlackCrime", "ni🅱️🅱️as"])
  })
})
