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

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c)
const isTerminal = (c: string | undefined) => c === "." || c === "!" || c === "?" || c === "…" || c === "。" || c === "！" || c === "？"
const isCloser = (c: string | undefined) => c !== undefined && /["'”’)\]»」』]/.test(c)

export const splitSentences = (text: string): ReadonlyArray<TextSpan> => {
  const spans: Array<TextSpan> = []
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
        if (isSpace(text[j]) && !(c === "." && isAbbreviation(text, begin, i))) {
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

const isAbbreviation = (text: string, sentenceBegin: number, dot: number): boolean => {
  let k = dot
  while (k > sentenceBegin && /[A-Za-z.]/.test(text[k - 1]!)) k--
  const word = text.slice(k, dot).toLowerCase()
  if (word.length === 0) return false
  if (ABBREVIATIONS.has(word)) return true
  // Single capital initials ("J. Smith").
  return /^[a-z]$/.test(word) && /[A-Z]/.test(text[dot - 1]!)
}
