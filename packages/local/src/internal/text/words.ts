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

// Letters and digits, with inner apostrophes and the usual obfuscation symbols (`id!ot` is not handled).
const WORD = /[\p{L}\p{N}]+(?:['\u2019*$@][\p{L}\p{N}*$@]+)*/gu
const NEEDS_KEY = /[0-9*$@]|(\p{L})\1\1/u
const LEET: Readonly<Record<string, string>> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i" }
const LEET_CHARS = /[013457@$!]/g
const RUNS = /(\p{L})\1{2,}/gu

const keyOf = (lower: string): string => {
  if (!NEEDS_KEY.test(lower)) return lower
  // Pure numbers stay numbers ("2024" is not "zoza").
  if (/^[0-9]+$/.test(lower)) return lower
  return lower.replace(LEET_CHARS, (c) => LEET[c] ?? c).replace(/\*/g, "").replace(RUNS, "$1")
}

/** Word tokens of `text`, in order. */
export const tokenize = (text: string): ReadonlyArray<Token> => {
  const out: Array<Token> = []
  WORD.lastIndex = 0
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const lower = m[0].toLowerCase().replace(/\u2019/g, "'")
    out.push({ begin: m.index, end: m.index + m[0].length, lower, key: keyOf(lower) })
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
