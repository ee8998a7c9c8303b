import type { TextSpan } from "@decorum/domain"

/**
 * Splits text into sentence spans: UTF-16 offsets, `end` exclusive, whitespace between sentences
 * in no span. A sentence ends after `.`, `!`, `?` or `…` (with any closing quotes or brackets),
 * followed by whitespace, or at a line break; the last sentence needs no final punctuation.
 * Common abbreviations (`e.g.`, `Mr.`) and decimals (`3.5`) do not end a sentence.
 */
const ABBREVIATIONS = new Set([
  "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "eg", "ie", "inc", "ltd",
  "co", "no", "fig", "approx", "dept", "est", "u.s", "u.k", "a.m", "p.m", "jan", "feb", "mar", "apr",
  "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"
])

// Characters are read as UTF-16 codes (every comment is split once per score; reading them as
// one-character strings and testing those against expressions cost several times more).
const SPACE = /\s/
/** `/\s/` of one UTF-16 unit. */
const isSpace = (c: number): boolean => (c < 0x80 ? c === 0x20 || (c >= 0x09 && c <= 0x0d) : SPACE.test(String.fromCharCode(c)))
/** . ! ? … 。 ！ ？ */
const isTerminal = (c: number): boolean => c === 0x2e || c === 0x21 || c === 0x3f || c === 0x2026 || c === 0x3002 || c === 0xff01 || c === 0xff1f
/** " ' ” ’ ) ] » 」 』 */
const isCloser = (c: number): boolean =>
  c === 0x22 || c === 0x27 || c === 0x201d || c === 0x2019 || c === 0x29 || c === 0x5d || c === 0xbb || c === 0x300d || c === 0x300f

export const splitSentences = (text: string): ReadonlyArray<TextSpan> => {
  const spans: Array<TextSpan> = []
  const n = text.length
  let i = 0
  while (i < n) {
    while (i < n && isSpace(text.charCodeAt(i))) i++
    if (i >= n) break
    const begin = i
    let end = n
    while (i < n) {
      const c = text.charCodeAt(i)
      if (c === 0x0a) {
        end = i
        break
      }
      if (isTerminal(c)) {
        let j = i + 1
        while (j < n && (isTerminal(text.charCodeAt(j)) || isCloser(text.charCodeAt(j)))) j++
        if (j >= n) {
          end = j
          i = j
          break
        }
        if (isSpace(text.charCodeAt(j)) && !(c === 0x2e && isAbbreviation(text, begin, i))) {
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
    while (trimmedEnd > begin && isSpace(text.charCodeAt(trimmedEnd - 1))) trimmedEnd--
    if (trimmedEnd > begin) spans.push({ begin, end: trimmedEnd })
    if (i < n && text.charCodeAt(i) === 0x0a) i++
  }
  return spans
}

const isAbbreviation = (text: string, sentenceBegin: number, dot: number): boolean => {
  let k = dot
  while (k > sentenceBegin && /[A-Za-z.]/.test(text[k - 1]!)) k--
  const word = text.slice(k, dot).toLowerCase()
  if (word.length === 0) return false
  if (ABBREVIATIONS.has(word)) return true
  // Single capital initials ("J. Smith").
  return /^[a-z]$/.test(word) && /[A-Z]/.test(text[dot - 1]!)
}
