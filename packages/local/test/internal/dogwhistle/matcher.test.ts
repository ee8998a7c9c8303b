/**
 * The dog-whistle term matcher: word boundaries, multi-word phrases, symbols and numbers, the
 * obvious variants of a form, acronym case, hashtags, obfuscations, and verbatim offsets.
 */
import { describe, expect, it } from "vitest"
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
    expect(h.end).toBeGreaterThan(h.begin)
    return [text.slice(h.begin, h.end), h.term] as const
  })

describe("matchTokens", () => {
  it("folds case, diacritics and leet inside mixed words, and keeps symbols as tokens", () => {
    expect(matchTokens("Z0G ŽOG $oros (((x))) 14/88 let's").map((t) => t.key)).toEqual(["zog", "zog", "soros", "(", "(", "(", "x", ")", ")", ")", "14", "/", "88", "lets"])
    // a number stays a number
    expect(matchTokens("1488 2014").map((t) => t.key)).toEqual(["1488", "2014"])
  })
  it("records offsets into the text as given, in any script", () => {
    const text = "Ünïcode 🐻 ZOG"
    for (const t of matchTokens(text)) expect(text.slice(t.begin, t.end).length).toBeGreaterThan(0)
    expect(matchTokens(text).map((t) => text.slice(t.begin, t.end))).toEqual(["Ünïcode", "🐻", "ZOG"])
  })
})

describe("numberVariants", () => {
  it("gives the plural and the singular of a word", () => {
    expect(numberVariants("groomer").sort()).toEqual(["groomer", "groomers"])
    expect(numberVariants("babies").sort()).toEqual(["babies", "baby"])
    expect(numberVariants("quotas").sort()).toEqual(["quota", "quotas"])
    expect(numberVariants("bugman").sort()).toEqual(["bugman", "bugmans", "bugmen"])
    expect(numberVariants("88")).toEqual(["88"])
  })
})

describe("TermMatcher", () => {
  it("matches whole tokens only: 14 and 88 never inside another number or word", () => {
    expect(hits("In 2014 there were 1889 votes and 880 seats")).toEqual([])
    expect(hits("88 people came")).toEqual([["88", 0]])
    expect(hits("He wrote 14/88 and 1488")).toEqual([["14/88", 0], ["1488", 0]])
    expect(hits("the 14 words of the headline")).toEqual([["14 words", 0]])
  })
  it("matches multi-word phrases across hyphens, spacing, case and number, and as one word", () => {
    expect(hits("Black on Black crimes")).toEqual([["Black on Black crimes", 5]])
    expect(hits("black-on-black crime")).toEqual([["black-on-black crime", 5]])
    expect(hits("#BlackOnBlackCrime")).toEqual([["#BlackOnBlackCrime", 5]])
    expect(hits("anchor babies")).toEqual([["anchor babies", 7]])
    expect(hits("Trans Rights Activist")).toEqual([["Trans Rights Activist", 1]])
    expect(hits("a black crime")).toEqual([])
  })
  it("keeps the longest of overlapping hits", () => {
    expect(hits("George Soros again")).toEqual([["George Soros", 12]])
    expect(hits("Soros again")).toEqual([["Soros", 12]])
  })
  it("matches acronyms in upper or lower case but not title case, and short or name-like ones in upper case only", () => {
    expect(hits("the TRAs and TRA's and tras")).toEqual([["TRAs", 1], ["TRA's", 1]])
    expect(hits("ZOG, zog and Z0G but not Zog")).toEqual([["ZOG", 3], ["zog", 3], ["Z0G", 3]])
    expect(hits("CRT and C.R.T. and crt")).toEqual([["CRT", 9], ["C.R.T", 9], ["crt", 9]])
    expect(hits("Tim and tim")).toEqual([])
    expect(hits("TIM")).toEqual([["TIM", 11]])
    expect(hits("hh, HH")).toEqual([["HH", 0]])
  })
  it("matches a hashtag-only form after # only, quoting the #", () => {
    expect(hits("a glass of milk")).toEqual([])
    expect(hits("proud #milk drinker")).toEqual([["#milk", 2]])
  })
  it("reads obfuscations: leet digits, look-alike letters, emoji letters, variation selectors", () => {
    expect(hits("Z0G")).toEqual([["Z0G", 3]])
    expect(hits("ni🅱🅱as")).toEqual([["ni🅱🅱as", 4]])
    expect(hits("⬛🟧")).toEqual([["⬛🟧", 8]])
    expect(hits("let’s go brandon!")).toEqual([["let’s go brandon", 11]])
  })
  it("does not add the other number of an exact form", () => {
    expect(hits("I use Google")).toEqual([])
    expect(hits("the Googles")).toEqual([["Googles", 10]])
  })
  it("matches triple parentheses around a name, and not ordinary parentheses", () => {
    expect(hits("the (((globalists))) again and ((( them )))")).toEqual([["(((globalists)))", 6], ["((( them )))", 6]])
    expect(hits("(see (note (a)))")).toEqual([])
    expect(hits("an echo in the hall")).toEqual([])
  })
  it("quotes every hit verbatim", () => {
    const text = "Those TRAs, the (((bankers))), 14/88 and #BlackOnBlackCrime — ni🅱️🅱️as"
    const found = matcher.match(text)
    expect(found.length).toBe(5)
    for (const h of found) expect(text.includes(text.slice(h.begin, h.end))).toBe(true)
    expect(found.map((h) => text.slice(h.begin, h.end))).toEqual(["TRAs", "(((bankers)))", "14/88", "#BlackOnBlackCrime", "ni🅱️🅱️as"])
  })
})
