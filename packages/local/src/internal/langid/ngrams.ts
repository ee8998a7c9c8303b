/**
 * Character n-gram language identification (issue 28): the features and the scorer, shared by the
 * runtime (`language/LanguageIdentification.ts`) and its training (`training/langid.ts`), so both
 * read a comment the same way.
 *
 * A comment is lower-cased; links, @mentions and e-mail addresses are left out (they say nothing
 * about the language); every run of letters is a word, padded with a space on each side, and each
 * word gives its 1-, 2- and 3-grams of code points, hashed into `BUCKETS` buckets. No strings are
 * made per n-gram: the cost is one multiply-add per code point and gram length, and one table row
 * per gram. At most `MAX_LETTERS` letters are read (the start of a long comment says its language).
 */

/** Buckets of the hashed n-gram table (a power of two). */
export const BUCKETS = 1 << 16
/** Letters read per comment at most. */
export const MAX_LETTERS = 480
/** Quantisation of the log-probabilities: `logp = -(byte / STEPS_PER_NAT)`, so 0..255 covers 0..-16 nats. */
export const STEPS_PER_NAT = 16

const SKIP = /(?:https?:\/\/|www\.)\S+|\S+@\S+\.\S+|[@#]\w+/giu
const LETTER = /[\p{L}\p{M}]/u

/** Letters (and combining marks) outside ASCII, memoised per code point. */
const letterCache = new Map<number, boolean>()
const isLetter = (code: number): boolean => {
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90)
  let known = letterCache.get(code)
  if (known === undefined) {
    known = LETTER.test(String.fromCodePoint(code))
    if (letterCache.size < 65_536) letterCache.set(code, known)
  }
  return known
}

/** The writing systems the identifier tells apart before any n-gram (counts of letters per script). */
export interface Scripts {
  latin: number
  cyrillic: number
  arabic: number
  devanagari: number
  hangul: number
  kana: number
  han: number
  other: number
}

const script = (code: number, s: Scripts): void => {
  if (code < 0x250) s.latin++
  else if (code >= 0x400 && code < 0x530) s.cyrillic++
  else if ((code >= 0x600 && code < 0x700) || (code >= 0x750 && code < 0x780) || (code >= 0xfb50 && code < 0xff00)) s.arabic++
  else if (code >= 0x900 && code < 0x980) s.devanagari++
  else if ((code >= 0xac00 && code < 0xd7b0) || (code >= 0x1100 && code < 0x1200) || (code >= 0x3130 && code < 0x3190)) s.hangul++
  else if (code >= 0x3040 && code < 0x3100) s.kana++
  else if ((code >= 0x4e00 && code < 0xa000) || (code >= 0x3400 && code < 0x4dc0)) s.han++
  else if (code >= 0x1e00 && code < 0x1f00) s.latin++
  else s.other++
}

/**
 * Calls `gram` with the bucket of every 1-, 2- and 3-gram of the comment, and returns how many
 * letters were read and in which scripts.
 */
export const forEachGram = (text: string, gram: (bucket: number) => void): Scripts => {
  const scripts: Scripts = { latin: 0, cyrillic: 0, arabic: 0, devanagari: 0, hangul: 0, kana: 0, han: 0, other: 0 }
  const clean = text.replace(SKIP, " ").toLowerCase()
  // The last two code points, so that 2- and 3-grams hash without keeping a word.
  let p1 = 32
  let p2 = -1
  let inWord = false
  let letters = 0
  const emit = (code: number) => {
    gram(hash1(code))
    gram(hash2(p1, code))
    if (p2 >= 0) gram(hash3(p2, p1, code))
    p2 = p1
    p1 = code
  }
  for (let i = 0; i < clean.length && letters < MAX_LETTERS; i++) {
    let code = clean.charCodeAt(i)
    if (code >= 0xd800 && code < 0xdc00 && i + 1 < clean.length) {
      code = clean.codePointAt(i)!
      i++
    }
    if (isLetter(code)) {
      if (!inWord) {
        p1 = 32
        p2 = -1
        inWord = true
      }
      letters++
      script(code, scripts)
      emit(code)
    } else if (inWord) {
      emit(32)
      inWord = false
    }
  }
  if (inWord) emit(32)
  return scripts
}

const hash1 = (a: number) => Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) >>> 16
const hash2 = (a: number, b: number) => (Math.imul(Math.imul(a, 0x27d4eb2d) ^ b ^ 0x165667b1, 0xc2b2ae35) >>> 16)
const hash3 = (a: number, b: number, c: number) =>
  (Math.imul(Math.imul(Math.imul(a, 0x27d4eb2d) ^ b, 0x9e3779b1) ^ c ^ 0x7f4a7c15, 0x85ebca6b) >>> 16)

/** A trained model: per bucket, one quantised log-probability per language. */
export interface NgramModel {
  /** Language codes as Perspective writes them, in table order. */
  readonly languages: ReadonlyArray<string>
  /** `BUCKETS * languages.length` bytes: `-logp * STEPS_PER_NAT`, clipped to 255. */
  readonly table: Uint8Array
  /**
   * Per language (table order): above this mean cost per gram (in table steps) a comment the model
   * calls that language reads unlike the language's training comments (95% of them fall below it):
   * the identifier asks its fallback.
   */
  readonly unfamiliar: ReadonlyArray<number>
  /**
   * English wins when its mean cost per gram is within this many table steps of the best
   * language's: a short English comment with a typo or a name reads a little like many languages,
   * and most comments sent to a moderation API are English (chosen on the training rows).
   */
  readonly englishMargin: number
}

/** What the model makes of a comment: languages by score (best first), the best's mean cost per gram, and the scripts. */
export interface NgramReading {
  readonly ranked: ReadonlyArray<{ readonly language: string; readonly index: number; readonly cost: number }>
  /** The best language's cost per gram, in table steps (lower is more familiar). */
  readonly meanCost: number
  readonly grams: number
  readonly scripts: Scripts
}

/** Scores a comment against every language of the model (sums of quantised costs; lower wins). */
export const read = (model: NgramModel, text: string, totals?: Float64Array): NgramReading => {
  const n = model.languages.length
  const sums = totals ?? new Float64Array(n)
  sums.fill(0)
  const table = model.table
  let grams = 0
  const scripts = forEachGram(text, (bucket) => {
    const base = bucket * n
    for (let l = 0; l < n; l++) sums[l]! += table[base + l]!
    grams++
  })
  const ranked = model.languages.map((language, l) => ({ language, index: l, cost: sums[l]! })).sort((a, b) => a.cost - b.cost)
  return { ranked, meanCost: grams === 0 ? Infinity : ranked[0]!.cost / grams, grams, scripts }
}

/** The model file: a JSON header line, then the table. */
export const encodeModel = (model: NgramModel): Uint8Array => {
  const header = new TextEncoder().encode(JSON.stringify({ languages: model.languages, buckets: BUCKETS, unfamiliar: model.unfamiliar, englishMargin: model.englishMargin }) + "\n")
  const out = new Uint8Array(header.length + model.table.length)
  out.set(header, 0)
  out.set(model.table, header.length)
  return out
}

export const decodeModel = (bytes: Uint8Array): NgramModel => {
  const newline = bytes.indexOf(10)
  if (newline < 0) throw new Error("language-ID model: no header")
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, newline))) as { languages: Array<string>; buckets: number; unfamiliar: Array<number>; englishMargin?: number }
  if (header.buckets !== BUCKETS) throw new Error(`language-ID model: ${header.buckets} buckets, this code reads ${BUCKETS}`)
  const table = bytes.subarray(newline + 1)
  if (header.unfamiliar.length !== header.languages.length) throw new Error("language-ID model: one unfamiliar line per language expected")
  if (table.length !== BUCKETS * header.languages.length) throw new Error("language-ID model: table size does not match its header")
  return { languages: header.languages, table, unfamiliar: header.unfamiliar, englishMargin: header.englishMargin ?? 0 }
}
