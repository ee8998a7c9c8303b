/**
 * Text primitives of the heuristic evaluators: word tokens with UTF-16 offsets into the text as
 * given, lookup keys that undo simple obfuscation, and range helpers.
 *
 * Offsets are never computed on a transformed copy of the text: every span a heuristic reports is
 * `text.slice(begin, end)` of the original, so quotes stay verbatim.
 */

export interface Token {
  /** UTF-16 offset of the first code unit. */
  readonly begin: number
  /** UTF-16 offset after the last code unit. */
  readonly end: number
  /** Lowercase form, curly apostrophes folded to `'`. */
  readonly lower: string
  /** Lookup key with leetspeak undone and letter runs collapsed; equal to `lower` when nothing changed. */
  readonly key: string
}

// A word: letters and digits, with inner apostrophes and the usual obfuscation symbols (`id!ot`
// is not handled), i.e. /[\p{L}\p{N}]+(?:['\u2019*$@][\p{L}\p{N}*$@]+)*/gu. `tokenize` scans
// for it by hand, the same matches (tested against that expression): every comment is tokenized
// once per score, and the expression's matches and their arrays cost more than the scan.
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/uy
const LETTER = /^\p{L}$/u
const LEET: Readonly<Record<string, string>> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i" }
const LEET_CHARS = /[013457@$!]/g
const RUNS = /(\p{L})\1{2,}/gu

/** ASCII letters and digits (1), by code. */
const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, c) => ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) ? 1 : 0))

/** UTF-16 length (1 or 2) of the letter or digit (`[\p{L}\p{N}]`) starting at `i`, or 0. `i` is a code point boundary. */
const letterOrDigitAt = (text: string, i: number): number => {
  const c = text.charCodeAt(i)
  if (c < 0x80) return ASCII_WORD[c]!
  LETTER_OR_DIGIT.lastIndex = i
  return LETTER_OR_DIGIT.test(text) ? LETTER_OR_DIGIT.lastIndex - i : 0
}

/** `*`, `$` or `@`: obfuscation symbols inside a word. */
const isSymbol = (c: number): boolean => c === 0x2a || c === 0x24 || c === 0x40

/** Whether a key differs from the word: /[0-9*$@]|(\p{L})\1\1/u (a digit or symbol, or one letter three times running). */
const needsKey = (lower: string): boolean => {
  let prev = -1
  let run = 0
  for (let i = 0; i < lower.length; ) {
    const cp = lower.codePointAt(i)!
    if ((cp >= 0x30 && cp <= 0x39) || isSymbol(cp)) return true
    run = cp === prev ? run + 1 : 1
    prev = cp
    if (run === 3 && LETTER.test(String.fromCodePoint(cp))) return true
    i += cp > 0xffff ? 2 : 1
  }
  return false
}

const keyOf = (lower: string): string => {
  if (!needsKey(lower)) return lower
  // Pure numbers stay numbers ("2024" is not "zoza").
  if (/^[0-9]+$/.test(lower)) return lower
  return lower.replace(LEET_CHARS, (c) => LEET[c] ?? c).replace(/\*/g, "").replace(RUNS, "$1")
}

/** Word tokens of `text`, in order. */
export const tokenize = (text: string): ReadonlyArray<Token> => {
  const out: Array<Token> = []
  const n = text.length
  for (let i = 0; i < n; ) {
    const first = letterOrDigitAt(text, i)
    if (first === 0) {
      // step over one code point (a surrogate pair is one)
      const c = text.charCodeAt(i)
      i += c >= 0xd800 && c <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1
      continue
    }
    // [\p{L}\p{N}]+ (ASCII ones read inline)
    let end = i + first
    for (;;) {
      if (end >= n) break
      const c = text.charCodeAt(end)
      if (c < 0x80) {
        if (ASCII_WORD[c] === 0) break
        end++
        continue
      }
      const l = letterOrDigitAt(text, end)
      if (l === 0) break
      end += l
    }
    // (?:['’*$@][\p{L}\p{N}*$@]+)*
    while (end < n) {
      const c = text.charCodeAt(end)
      if (!(c === 0x27 || c === 0x2019 || isSymbol(c))) break
      let f = end + 1
      while (f < n) {
        if (isSymbol(text.charCodeAt(f))) f++
        else {
          const l = letterOrDigitAt(text, f)
          if (l === 0) break
          f += l
        }
      }
      if (f === end + 1) break
      end = f
    }
    const cased = text.slice(i, end).toLowerCase()
    const lower = cased.includes("\u2019") ? cased.replace(/\u2019/g, "'") : cased
    out.push({ begin: i, end, lower, key: keyOf(lower) })
    i = end
  }
  return out
}

export const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0)

/** Rounds to 4 decimals: stable output, no spurious precision. */
export const round4 = (x: number): number => Math.round(x * 10_000) / 10_000

/** A half-open range of the text. */
export interface Range {
  readonly begin: number
  readonly end: number
}

/** Shrinks a range so that it neither starts nor ends with whitespace or light punctuation. */
export const trimRange = (text: string, begin: number, end: number): Range => {
  let b = begin
  let e = end
  while (b < e && /[\s,;:–—-]/.test(text[b] ?? "")) b++
  while (e > b && /[\s,;:–—-]/.test(text[e - 1] ?? "")) e--
  return { begin: b, end: e }
}

/** The sentence (from `sentences`) that contains offset `at`, or the whole text. */
export const sentenceAt = (sentences: ReadonlyArray<Range>, at: number, text: string): Range => {
  for (const s of sentences) if (at >= s.begin && at < s.end) return s
  return { begin: 0, end: text.length }
}

/** Keeps only phrases that are verbatim, non-empty substrings of `text`; drops repeats. */
export const verbatimOnly = <A>(text: string, items: ReadonlyArray<A>, quote: (a: A) => string): Array<A> => {
  const seen = new Set<string>()
  const out: Array<A> = []
  for (const item of items) {
    const q = quote(item)
    if (q.trim().length === 0 || !text.includes(q) || seen.has(q)) continue
    seen.add(q)
    out.push(item)
  }
  return out
}
