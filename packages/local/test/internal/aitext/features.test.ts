/**
 * The AI-text featuriser on small texts of its own: what each feature measures, the quotes it
 * records (verbatim ranges), and what it ignores.
 */
import { assert, describe, it } from "@effect/vitest"
import { EMPTY_LEXICON, FEATURE_NAMES, featureIndex, featurise, type Lexicon, lowerSameLength, sentencesOf } from "../../../src/internal/aitext/features.js"

const value = (text: string, name: string, lexicon: Lexicon = EMPTY_LEXICON) => featurise(text, lexicon).dense[featureIndex(name)]!
const quotes = (text: string, name: string, lexicon: Lexicon = EMPTY_LEXICON) =>
  featurise(text, lexicon).cues.filter((c) => c.feature === featureIndex(name)).map((c) => text.slice(c.begin, c.end))

describe("AI-text features", () => {
  it("measures burstiness: even sentences vary less than a mix of short and long ones", () => {
    const even = "The park opens at nine today. The café serves lunch until three. The museum closes at five tonight."
    const bursty = "No. The park, which used to open at nine before the new manager changed everything last spring, now opens whenever. Great."
    assert.isBelow(value(even, "sent_len_cv"), 0.15)
    assert.isAbove(value(bursty, "sent_len_cv"), 0.8)
    assert.strictEqual(value("One sentence only", "single_sentence"), 1)
  })

  it("splits sentences at terminal punctuation and line breaks, keeping ranges inside the text", () => {
    const text = "First one. Second one!\nThird line\n\nFourth?"
    assert.deepStrictEqual(sentencesOf(text).map((r) => text.slice(r.begin, r.end)), ["First one.", "Second one!", "Third line", "Fourth?"])
  })

  it("finds balanced enumerations, connectives, hedges and list layout, quoting each verbatim", () => {
    const text = "Additionally, it is important to weigh the economic, social, and environmental costs.\n\n- Plan ahead\n- Stay flexible\n\nThis may help."
    assert.deepStrictEqual(quotes(text, "enumerations"), ["weigh the economic, social, and environmental costs"])
    assert.deepStrictEqual(quotes(text, "connectives"), ["Additionally"])
    assert.include(quotes(text, "epistemic"), "it is important to")
    assert.include(quotes(text, "hedges"), "may")
    assert.deepStrictEqual(quotes(text, "bullet_lines"), ["- Plan ahead", "- Stay flexible"])
  })

  it("matches lexicon phrases and words on whole words only, case-insensitively", () => {
    const lexicon: Lexicon = { llmWords: { delve: 2 }, humanWords: { lol: 2 }, llmPhrases: ["in general"], humanPhrases: [] }
    const text = "In general, we delve. Generalising in generality is not in general-purpose delved."
    assert.deepStrictEqual(quotes(text, "llm_phrases", lexicon), ["In general", "in general"])
    assert.deepStrictEqual(quotes(text, "llm_words", lexicon), ["delve"])
    assert.closeTo(value("lol that is lol", "human_words", lexicon), (2 + 2) / 4, 0.005)
  })

  it("counts informal markers and contractions, and ignores links and handles", () => {
    assert.closeTo(value("lol i dont know tbh", "informal"), 3 / 5, 0.005)
    assert.closeTo(value("I can't and won't", "contractions"), 2 / 4, 0.005)
    const plain = featurise("see the plan now", EMPTY_LEXICON)
    const linked = featurise("see https://t.co/AbCdEf the plan @someone now #tag", EMPTY_LEXICON)
    assert.strictEqual(linked.words, plain.words)
    assert.deepStrictEqual(Array.from(linked.dense), Array.from(plain.dense))
  })

  it("keeps offsets on the original text when lower-casing would change a length", () => {
    const text = "İstanbul’s tram — and then İzmir’s, furthermore."
    assert.strictEqual(lowerSameLength(text).length, text.length)
    for (const c of featurise(text, EMPTY_LEXICON).cues) assert.strictEqual(text.slice(c.begin, c.end).length, c.end - c.begin)
    assert.deepStrictEqual(quotes(text, "em_dash"), ["tram — and"])
  })

  it("hashes words, word pairs and shape trigrams into the slots after the named features, each block L2-normalised", () => {
    const text = "the cat saw the other cat, sadly"
    const f = featurise(text, EMPTY_LEXICON, 20)
    // 5 distinct words, 5 pairs (none across the comma), 6 shape trigrams of "the _ _ the other _ , _"
    assert.strictEqual(f.slots.length, 5 + 5 + 6)
    for (const s of f.slots) assert.isAtLeast(s, 256)
    assert.closeTo(Array.from(f.values).reduce((a, v) => a + v * v, 0), 3, 0.00005)
    assert.include(f.slotRanges.filter((r) => r !== undefined).map((r) => text.slice(r!.begin, r!.end)), "other cat")
    assert.strictEqual(featurise("the cat", EMPTY_LEXICON, 8).slots.length, 0)
    assert.isAtMost(FEATURE_NAMES.length, 256)
  })
})
