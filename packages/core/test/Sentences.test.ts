import { splitSentences } from "@decorum/core"
import { assert, describe, it } from "@effect/vitest"

const texts = (text: string) => splitSentences(text).map((s) => text.slice(s.begin, s.end))

describe("splitSentences", () => {
  it("splits on terminal punctuation and keeps whitespace out of spans", () => {
    const text = "First one.  Second one!\n\nThird?"
    assert.deepStrictEqual(texts(text), ["First one.", "Second one!", "Third?"])
  })

  it("keeps a last sentence with no final punctuation", () => {
    assert.deepStrictEqual(texts("Hello there. no period here"), ["Hello there.", "no period here"])
  })

  it("does not split abbreviations, initials or decimals", () => {
    assert.deepStrictEqual(texts("Dr. Smith paid 3.5 dollars, e.g. cash. J. Doe agreed."), [
      "Dr. Smith paid 3.5 dollars, e.g. cash.",
      "J. Doe agreed."
    ])
  })

  it("uses UTF-16 offsets with astral characters", () => {
    const text = "I love it 😀. You too!"
    const spans = splitSentences(text)
    assert.deepStrictEqual(spans[0], { begin: 0, end: 13 })
    assert.strictEqual(text.slice(spans[1]!.begin, spans[1]!.end), "You too!")
  })

  it("keeps closing quotes with their sentence", () => {
    assert.deepStrictEqual(texts("He said \"stop.\" Then left."), ["He said \"stop.\"", "Then left."])
  })

  it("returns nothing for blank text", () => {
    assert.deepStrictEqual(splitSentences("   \n "), [])
  })
})

describe("splitSentences: the span rows of interface.md §4", () => {
  it("handles combining marks, ZWJ emoji sequences and astral characters without splitting them", () => {
    const text = "Cafe\u0301 is great. 👩‍👩‍👧 family 😀! Done"
    assert.deepStrictEqual(texts(text), ["Cafe\u0301 is great.", "👩‍👩‍👧 family 😀!", "Done"])
  })

  it("treats runs of spaces, tabs and blank lines between sentences as in no span", () => {
    const text = "One.   \t Two!\n\n\n  Three?\r\nFour"
    const spans = splitSentences(text)
    assert.deepStrictEqual(spans.map((s) => text.slice(s.begin, s.end)), ["One.", "Two!", "Three?", "Four"])
    for (let i = 1; i < spans.length; i++) assert.strictEqual(text.slice(spans[i - 1]!.end, spans[i]!.begin).trim(), "")
  })

  it("ends a sentence at a line break even without punctuation", () => {
    assert.deepStrictEqual(texts("first line\nsecond line"), ["first line", "second line"])
  })

  it("keeps & and < inside their sentence and does not split on ?! inside words", () => {
    assert.deepStrictEqual(texts("Tom & Jerry < 3 cats. Really?! Yes"), ["Tom & Jerry < 3 cats.", "Really?!", "Yes"])
  })

  it("keeps curly quotes and brackets with their sentence", () => {
    assert.deepStrictEqual(texts("“Stop.” (Then he left.) ‘Okay!’ Done"), ["“Stop.”", "(Then he left.)", "‘Okay!’", "Done"])
  })
})

/** The splitter as first written (characters read as strings, tested with expressions), to hold the code-reading one to. */
const reference = (text: string): Array<{ begin: number; end: number }> => {
  const ABBREVIATIONS = new Set([
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "eg", "ie", "inc", "ltd",
    "co", "no", "fig", "approx", "dept", "est", "u.s", "u.k", "a.m", "p.m", "jan", "feb", "mar", "apr",
    "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"
  ])
  const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c)
  const isTerminal = (c: string | undefined) => c === "." || c === "!" || c === "?" || c === "…" || c === "。" || c === "！" || c === "？"
  const isCloser = (c: string | undefined) => c !== undefined && /["'”’)\]»」』]/.test(c)
  const isAbbreviation = (sentenceBegin: number, dot: number): boolean => {
    let k = dot
    while (k > sentenceBegin && /[A-Za-z.]/.test(text[k - 1]!)) k--
    const word = text.slice(k, dot).toLowerCase()
    if (word.length === 0) return false
    if (ABBREVIATIONS.has(word)) return true
    return /^[a-z]$/.test(word) && /[A-Z]/.test(text[dot - 1]!)
  }
  const spans: Array<{ begin: number; end: number }> = []
  const n = text.length
  let i = 0
  while (i < n) {
    while (i < n && isSpace(text[i])) i++
    if (i >= n) break
    const begin = i
    let end = n
    while (i < n) {
      const c = text[i]
      if (c === "\n") {
        end = i
        break
      }
      if (isTerminal(c)) {
        let j = i + 1
        while (j < n && (isTerminal(text[j]) || isCloser(text[j]))) j++
        if (j >= n) {
          end = j
          i = j
          break
        }
        if (isSpace(text[j]) && !(c === "." && isAbbreviation(begin, i))) {
          end = j
          i = j
          break
        }
        i = j
        continue
      }
      i++
    }
    if (i >= n && end === n) i = n
    let trimmedEnd = end
    while (trimmedEnd > begin && isSpace(text[trimmedEnd - 1])) trimmedEnd--
    if (trimmedEnd > begin) spans.push({ begin, end: trimmedEnd })
    if (text[i] === "\n") i++
  }
  return spans
}

/** Deterministic texts dense in what the splitter decides on: terminals, closers, every kind of space, abbreviations. */
const mixed = (count: number): Array<string> => {
  let seed = 7
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  const pieces = [
    "word", "Dr.", "e.g.", "J.", "u.s.", "3.5", "no.", ".", "!", "?", "…", "。", "！", "？", "\"", "'", "”", "’", ")", "]", "»", "」", "』",
    " ", "  ", "\n", "\r\n", "\t", "\u000b", "\f", "\u00a0", "\u2028", "\u3000", "\ufeff", "\u200b", "😀", "\ud800", "x", "Ab", "("
  ]
  const out: Array<string> = []
  for (let k = 0; k < count; k++) {
    const parts = 1 + Math.floor(next() * 40)
    let text = ""
    for (let p = 0; p < parts; p++) text += pieces[Math.floor(next() * pieces.length)]!
    out.push(text)
  }
  return out
}

describe("splitSentences, reading UTF-16 codes", () => {
  it("gives the spans the string-reading splitter gave", () => {
    for (const text of [...mixed(4000), "", "a", ".", "a.\n", "Mr. X. Y!\u00a0Z"]) assert.deepStrictEqual(splitSentences(text), reference(text), JSON.stringify(text))
  })
})
