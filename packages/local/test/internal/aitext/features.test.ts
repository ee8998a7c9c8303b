/**
 * The AI-text featuriser on small texts of its own: what each feature measures, the quotes it
 * records (verbatim ranges), and what it ignores.
 */
import { describe, expect, it } from "vitest"
import { EMPTY_LEXICON, FEATURE_NAMES, featureIndex, featurise, type Lexicon, lowerSameLength, sentencesOf } from "../../../src/internal/aitext/features.js"

const value = (text: string, name: string, lexicon: Lexicon = EMPTY_LEXICON) => featurise(text, lexicon).dense[featureIndex(name)]!
const quotes = (text: string, name: string, lexicon: Lexicon = EMPTY_LEXICON) =>
  featurise(text, lexicon).cues.filter((c) => c.feature === featureIndex(name)).map((c) => text.slice(c.begin, c.end))

describe("AI-text features", () => {
  it("measures burstiness: even sentences vary less than a mix of short and long ones", () => {
    const even = "The park opens at nine today. The café serves lunch until three. The museum closes at five tonight."
    const bursty = "No. The park, which used to open at nine before the new manager changed everything last spring, now opens whenever. Great."
    expect(value(even, "sent_len_cv")).toBeLessThan(0.15)
    expect(value(bursty, "sent_len_cv")).toBeGreaterThan(0.8)
    expect(value("One sentence only", "single_sentence")).toBe(1)
  })

  it("splits sentences at terminal punctuation and line breaks, keeping ranges inside the text", () => {
    const text = "First one. Second one!\nThird line\n\nFourth?"
    expect(sentencesOf(text).map((r) => text.slice(r.begin, r.end))).toEqual(["First one.", "Second one!", "Third line", "Fourth?"])
  })

  it("finds balanced enumerations, connectives, hedges and list layout, quoting each verbatim", () => {
    const text = "Additionally, it is important to weigh the economic, social, and environmental costs.\n\n- Plan ahead\n- Stay flexible\n\nThis may help."
    expect(quotes(text, "enumerations")).toEqual(["weigh the economic, social, and environmental costs"])
    expect(quotes(text, "connectives")).toEqual(["Additionally"])
    expect(quotes(text, "epistemic")).toContain("it is important to")
    expect(quotes(text, "hedges")).toContain("may")
    expect(quotes(text, "bullet_lines")).toEqual(["- Plan ahead", "- Stay flexible"])
  })

  it("matches lexicon phrases and words on whole words only, case-insensitively", () => {
    const lexicon: Lexicon = { llmWords: { delve: 2 }, humanWords: { lol: 2 }, llmPhrases: ["in general"], humanPhrases: [] }
    const text = "In general, we delve. Generalising in generality is not in general-purpose delved."
    expect(quotes(text, "llm_phrases", lexicon)).toEqual(["In general", "in general"])
    expect(quotes(text, "llm_words", lexicon)).toEqual(["delve"])
    expect(value("lol that is lol", "human_words", lexicon)).toBeCloseTo((2 + 2) / 4)
  })

  it("counts informal markers and contractions, and ignores links and handles", () => {
    expect(value("lol i dont know tbh", "informal")).toBeCloseTo(3 / 5)
    expect(value("I can't and won't", "contractions")).toBeCloseTo(2 / 4)
    const plain = featurise("see the plan now", EMPTY_LEXICON)
    const linked = featurise("see https://t.co/AbCdEf the plan @someone now #tag", EMPTY_LEXICON)
    expect(linked.words).toBe(plain.words)
    expect(Array.from(linked.dense)).toEqual(Array.from(plain.dense))
  })

  it("keeps offsets on the original text when lower-casing would change a length", () => {
    const text = "İstanbul’s tram — and then İzmir’s, furthermore."
    expect(lowerSameLength(text).length).toBe(text.length)
    for (const c of featurise(text, EMPTY_LEXICON).cues) expect(text.slice(c.begin, c.end).length).toBe(c.end - c.begin)
    expect(quotes(text, "em_dash")).toEqual(["tram — and"])
  })

  it("hashes words, word pairs and shape trigrams into the slots after the named features, each block L2-normalised", () => {
    const text = "the cat saw the other cat, sadly"
    const f = featurise(text, EMPTY_LEXICON, 20)
    // 5 distinct words, 5 pairs (none across the comma), 6 shape trigrams of "the _ _ the other _ , _"
    expect(f.slots.length).toBe(5 + 5 + 6)
    for (const s of f.slots) expect(s).toBeGreaterThanOrEqual(256)
    expect(Array.from(f.values).reduce((a, v) => a + v * v, 0)).toBeCloseTo(3, 4)
    expect(f.slotRanges.filter((r) => r !== undefined).map((r) => text.slice(r!.begin, r!.end))).toContain("other cat")
    expect(featurise("the cat", EMPTY_LEXICON, 8).slots.length).toBe(0)
    expect(FEATURE_NAMES.length).toBeLessThanOrEqual(256)
  })
})
