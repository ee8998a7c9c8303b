import { splitSentences } from "@decorum/core"
import { describe, expect, it } from "vitest"

const texts = (text: string) => splitSentences(text).map((s) => text.slice(s.begin, s.end))

describe("splitSentences", () => {
  it("splits on terminal punctuation and keeps whitespace out of spans", () => {
    const text = "First one.  Second one!\n\nThird?"
    expect(texts(text)).toEqual(["First one.", "Second one!", "Third?"])
  })

  it("keeps a last sentence with no final punctuation", () => {
    expect(texts("Hello there. no period here")).toEqual(["Hello there.", "no period here"])
  })

  it("does not split abbreviations, initials or decimals", () => {
    expect(texts("Dr. Smith paid 3.5 dollars, e.g. cash. J. Doe agreed.")).toEqual([
      "Dr. Smith paid 3.5 dollars, e.g. cash.",
      "J. Doe agreed."
    ])
  })

  it("uses UTF-16 offsets with astral characters", () => {
    const text = "I love it 😀. You too!"
    const spans = splitSentences(text)
    expect(spans[0]).toEqual({ begin: 0, end: 13 })
    expect(text.slice(spans[1]!.begin, spans[1]!.end)).toBe("You too!")
  })

  it("keeps closing quotes with their sentence", () => {
    expect(texts("He said \"stop.\" Then left.")).toEqual(["He said \"stop.\"", "Then left."])
  })

  it("returns nothing for blank text", () => {
    expect(splitSentences("   \n ")).toEqual([])
  })
})

describe("splitSentences: the span rows of interface.md §4", () => {
  it("handles combining marks, ZWJ emoji sequences and astral characters without splitting them", () => {
    const text = "Cafe\u0301 is great. 👩‍👩‍👧 family 😀! Done"
    expect(texts(text)).toEqual(["Cafe\u0301 is great.", "👩‍👩‍👧 family 😀!", "Done"])
  })

  it("treats runs of spaces, tabs and blank lines between sentences as in no span", () => {
    const text = "One.   \t Two!\n\n\n  Three?\r\nFour"
    const spans = splitSentences(text)
    expect(spans.map((s) => text.slice(s.begin, s.end))).toEqual(["One.", "Two!", "Three?", "Four"])
    for (let i = 1; i < spans.length; i++) expect(text.slice(spans[i - 1]!.end, spans[i]!.begin).trim()).toBe("")
  })

  it("ends a sentence at a line break even without punctuation", () => {
    expect(texts("first line\nsecond line")).toEqual(["first line", "second line"])
  })

  it("keeps & and < inside their sentence and does not split on ?! inside words", () => {
    expect(texts("Tom & Jerry < 3 cats. Really?! Yes")).toEqual(["Tom & Jerry < 3 cats.", "Really?!", "Yes"])
  })

  it("keeps curly quotes and brackets with their sentence", () => {
    expect(texts("“Stop.” (Then he left.) ‘Okay!’ Done")).toEqual(["“Stop.”", "(Then he left.)", "‘Okay!’", "Done"])
  })
})
