/**
 * Character n-gram language identification (issue 28): the features and the scorer, shared by the
 * runtime (`language/LanguageIdentification.ts`) and its training (`training/langid.ts`), so both
 * read a comment the same way.
 *
 * A comment is lower-cased; links, @mentions and e-mail addresses are left out (they say nothing
 * about the language); every run of letters is a word, padded with a space on each side, and each
 * word gives its 1-, 2- and 3-grams of code points, hashed into `BUCKETS` buckets. No strings are
 * made per n-gram: the cost is one multiply-add per code point and gram length, and one table row
 * per gram. At most `MAX_LETTERS` letters are read (the start of a long comment says its language, and the cost per comment stays bounded).
 */

/** Buckets of the hashed n-gram table (a power of two). */
export const BUCKETS = 1 << 16
/** Letters read per comment at most. */
export const MAX_LETTERS = 100
/** Quantisation of the log-probabilities: `logp = -(byte / STEPS_PER_NAT)`, so 0..255 covers 0..-16 nats. */
export const STEPS_PER_NAT = 16

const SKIP = /(?:https?:\/\/|www\.)\S+|\S+@\S+\.\S+|[@#]\w+/giu
const LETTER = /[\p{L}\p{M}]/u

/** Letters (and combining marks) outside ASCII, memoised per code point. Module cache, a documented constant (a pure function of the code point). */
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

/** The most grams a comment gives: three per letter and per word end (a word end per letter at most). */
export const MAX_GRAMS = 6 * MAX_LETTERS + 3

/** Whether the SKIP pattern can match at all (most comments have no link, mention or address): saves the regex. */
const mayHaveSkips = (text: string) => text.includes("@") || text.includes("#") || text.includes("://") || text.includes("www.") || text.includes("WWW.")

/**
 * Writes the bucket of every 1-, 2- and 3-gram of the comment into `out` (at least `MAX_GRAMS`
 * long), and returns how many, with the letters read per script. No closure and no allocation per
 * gram: this runs on every analyze call.
 */
export const gramsOf = (text: string, out: Int32Array): { readonly count: number; readonly scripts: Scripts } => {
  const scripts: Scripts = { latin: 0, cyrillic: 0, arabic: 0, devanagari: 0, hangul: 0, kana: 0, han: 0, other: 0 }
  const clean = (mayHaveSkips(text) ? text.replace(SKIP, " ") : text).toLowerCase()
  // The last two code points, so that 2- and 3-grams hash without keeping a word.
  let p1 = 32
  let p2 = -1
  let inWord = false
  let letters = 0
  let n = 0
  const length = clean.length
  for (let i = 0; i <= length; i++) {
    let code = 32
    let letter = false
    if (i < length) {
      if (letters >= MAX_LETTERS) break
      code = clean.charCodeAt(i)
      if (code >= 0xd800 && code < 0xdc00 && i + 1 < length) {
        code = clean.codePointAt(i)!
        i++
      }
      letter = isLetter(code)
    }
    if (letter) {
      if (!inWord) {
        p1 = 32
        p2 = -1
        inWord = true
      }
      letters++
      script(code, scripts)
    } else if (inWord) {
      code = 32
      inWord = false
    } else continue
    out[n++] = hash1(code)
    out[n++] = hash2(p1, code)
    if (p2 >= 0) out[n++] = hash3(p2, p1, code)
    p2 = p1
    p1 = code
  }
  if (inWord) {
    // (only when reading stopped at MAX_LETTERS inside a word)
    out[n++] = hash1(32)
    out[n++] = hash2(p1, 32)
    if (p2 >= 0) out[n++] = hash3(p2, p1, 32)
  }
  return { count: n, scripts }
}

/** Calls `gram` with the bucket of every gram of the comment (`gramsOf`, for training). */
export const forEachGram = (text: string, gram: (bucket: number) => void): Scripts => {
  const buffer = new Int32Array(MAX_GRAMS)
  const { count, scripts } = gramsOf(text, buffer)
  for (let i = 0; i < count; i++) gram(buffer[i]!)
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
  /**
   * English's log-prior over any other language, in table steps (16 a nat), added once per
   * comment whatever its length: Bayes with a prior, for a Latin-script comment only (most
   * comments sent to a moderation API are English; a two-word comment's few grams are weak
   * evidence against that). 0 in a file without it.
   */
  readonly englishPrior: number
  /**
   * A Latin-script comment with fewer letters than this is English (when the model has English):
   * too little evidence to give it to another language. 0 in a file without it.
   */
  readonly latinEvidence: number
}

/** What the model makes of a comment: languages by score (best first), the best's mean cost per gram, and the scripts. */
export interface NgramReading {
  readonly ranked: ReadonlyArray<{ readonly language: string; readonly index: number; readonly cost: number }>
  /** The best language's cost per gram, in table steps (lower is more familiar). */
  readonly meanCost: number
  readonly grams: number
  readonly scripts: Scripts
}

/** Reusable buffers of one caller (one per identifier: the runtime is single-threaded). */
export interface Scratch {
  readonly grams: Int32Array
  readonly sums: Int32Array
  /** The table as 32-bit words (four languages a word), when the languages fill whole words. */
  readonly words: Uint32Array | undefined
  readonly even: Uint32Array
  readonly odd: Uint32Array
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1
/** Each model's table as aligned 32-bit words, made once (the file's bytes start at any offset). Module cache, a documented constant: a pure function of the model, held weakly by it. */
const wordsOf = new WeakMap<NgramModel, Uint32Array>()

export const scratchFor = (model: NgramModel): Scratch => {
  const n = model.languages.length
  let words: Uint32Array | undefined
  if (n % 4 === 0 && LITTLE_ENDIAN) {
    words = wordsOf.get(model)
    if (words === undefined) {
      words = new Uint32Array(new Uint8Array(model.table).buffer)
      wordsOf.set(model, words)
    }
  }
  return { grams: new Int32Array(MAX_GRAMS), sums: new Int32Array(n), words, even: new Uint32Array(n >> 2), odd: new Uint32Array(n >> 2) }
}

/** Grams summed in 16-bit lanes before they are moved to the sums (255 * 256 < 65536). */
const LANE_GRAMS = 256

/**
 * Adds the table rows of `grams` to `sums`. Four languages are one 32-bit word of the table; the
 * even and odd bytes of a word are added in two 16-bit lanes each (`even`, `odd`), moved to
 * `sums` every `LANE_GRAMS` grams: the same integer sums as one add per language, about twice as
 * fast (this is most of the identifier's cost).
 */
export const addRows = (model: NgramModel, scratch: Scratch, count: number): void => {
  const n = model.languages.length
  const { grams, sums, words, even, odd } = scratch
  sums.fill(0)
  if (words === undefined) {
    const table = model.table
    for (let g = 0; g < count; g++) {
      const base = grams[g]! * n
      for (let l = 0; l < n; l++) sums[l]! += table[base + l]!
    }
    return
  }
  const W = n >> 2
  const flush = () => {
    for (let w = 0; w < W; w++) {
      const e = even[w]!
      const o = odd[w]!
      sums[4 * w]! += e & 0xffff
      sums[4 * w + 1]! += o & 0xffff
      sums[4 * w + 2]! += e >>> 16
      sums[4 * w + 3]! += o >>> 16
    }
    even.fill(0)
    odd.fill(0)
  }
  even.fill(0)
  odd.fill(0)
  for (let g = 0; g < count; g++) {
    const base = grams[g]! * W
    for (let w = 0; w < W; w++) {
      const v = words[base + w]!
      even[w] = (even[w]! + (v & 0x00ff00ff)) >>> 0
      odd[w] = (odd[w]! + ((v >>> 8) & 0x00ff00ff)) >>> 0
    }
    if ((g + 1) % LANE_GRAMS === 0) flush()
  }
  flush()
}

/**
 * Scratch buffers for callers that bring none (training and evaluation scripts), one per model, held
 * weakly by it; overwritten by every `read`, never read across calls. The served identifier owns its
 * scratch in its layer (`LanguageIdentification`).
 */
const defaultScratch = new WeakMap<NgramModel, Scratch>()

/** Scores a comment against every language of the model (sums of quantised costs; lower wins). */
export const read = (model: NgramModel, text: string, given?: Scratch): NgramReading => {
  let scratch = given ?? defaultScratch.get(model)
  if (scratch === undefined) {
    scratch = scratchFor(model)
    defaultScratch.set(model, scratch)
  }
  const { count, scripts } = gramsOf(text, scratch.grams)
  addRows(model, scratch, count)
  const sums = scratch.sums
  const ranked = model.languages.map((language, l) => ({ language, index: l, cost: sums[l]! })).sort((a, b) => a.cost - b.cost)
  return { ranked, meanCost: count === 0 ? Infinity : ranked[0]!.cost / count, grams: count, scripts }
}

/** The model file: a JSON header line, then the table. */
export const encodeModel = (model: NgramModel): Uint8Array => {
  const header = new TextEncoder().encode(JSON.stringify({ languages: model.languages, buckets: BUCKETS, unfamiliar: model.unfamiliar, englishMargin: model.englishMargin, englishPrior: model.englishPrior, latinEvidence: model.latinEvidence }) + "\n")
  const out = new Uint8Array(header.length + model.table.length)
  out.set(header, 0)
  out.set(model.table, header.length)
  return out
}

export const decodeModel = (bytes: Uint8Array): NgramModel => {
  const newline = bytes.indexOf(10)
  if (newline < 0) throw new Error("language-ID model: no header")
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, newline))) as { languages: Array<string>; buckets: number; unfamiliar: Array<number>; englishMargin?: number; englishPrior?: number; latinEvidence?: number }
  if (header.buckets !== BUCKETS) throw new Error(`language-ID model: ${header.buckets} buckets, this code reads ${BUCKETS}`)
  const table = bytes.subarray(newline + 1)
  if (header.unfamiliar.length !== header.languages.length) throw new Error("language-ID model: one unfamiliar line per language expected")
  if (table.length !== BUCKETS * header.languages.length) throw new Error("language-ID model: table size does not match its header")
  return { languages: header.languages, table, unfamiliar: header.unfamiliar, englishMargin: header.englishMargin ?? 0, englishPrior: header.englishPrior ?? 0, latinEvidence: header.latinEvidence ?? 0 }
}
