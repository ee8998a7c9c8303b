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
