/**
 * Text normalisation that survives obfuscation, with an offset map back to the original text.
 *
 * The normaliser turns a comment into canonical lower-case tokens:
 * - Unicode folding: compatibility decomposition (NFKD: full-width, math alphanumerics, circled
 *   letters), accents stripped, Cyrillic and Greek look-alikes mapped to Latin, zero-width and
 *   soft-hyphen characters dropped, curly quotes and dashes straightened.
 * - leetspeak inside words (`1d10t`, `sh1t`, `@ss`, `$hit`);
 * - masked words (`f*ck`, `b***h`, `f#@k`) restored by shape against a small list of abusive words;
 * - stretched words (`sooooo`, `stuuupid`) collapsed;
 * - spaced or dotted letters (`f u c k`, `i.d.i.o.t`) joined;
 * - one-edit misspellings of abusive words (`fcuk`, `idoit`) restored through a map built at
 *   training time, which leaves out variants that are common words of the corpus;
 * - URLs, e-mail addresses and long numbers replaced by placeholder tokens.
 *
 * Every token keeps the UTF-16 range of the original text it came from (`begins`/`ends`), so an
 * explanation can quote the comment verbatim. The normaliser reuses its output arrays between
 * calls: read them before the next `run`.
 *
 * With `script` (the per-language model sets, issue 28; absent for English, whose behaviour does
 * not change by one bit) the folding keeps each script's letters instead of reading them as Latin
 * look-alikes: Arabic loses its vowel marks and tatweel and its letter variants are unified (alef,
 * yaa, taa marbuta), Arabic and Devanagari digits and punctuation become ASCII, Hangul syllables,
 * kana and Han characters are kept (NFKC, so half-width and compatibility forms unify), and, with
 * `cyrillic`, Cyrillic is kept (ё → е) with the Latin letters and digits that look Cyrillic inside a
 * Cyrillic word (`xуй`, `пид0р`) read as Cyrillic. With `ideographs` (zh, ja: no spaces between
 * words) every Han or kana character is a token of its own, so that n-grams of characters carry
 * the words and an explanation quotes characters. A masked word is restored against the
 * language's own `maskWords` (chosen at training).
 */
import { ABUSE_WORDS, DOUBLE_LETTER_WORDS, RESPELLINGS } from "./spellings.js"

/** Token flag: a clause boundary (punctuation or line break) comes right before this token. */
export const FLAG_BREAK = 1
/** Token flag: the token was written in capitals in the original (two letters or more). */
export const FLAG_CAPS = 2
/** Token flag: the token was de-obfuscated (masked, leet, spaced, stretched or respelled). */
export const FLAG_OBFUSCATED = 4
/** Token flag (`ideographs` only): the token is one Han or kana character. */
export const FLAG_IDEOGRAPH = 8

/** How a language model set's normaliser reads its script (see the module comment). */
export interface ScriptOptions {
  /** Keep Cyrillic letters (ru) instead of folding them to Latin look-alikes. */
  readonly cyrillic?: boolean
  /** Han, Hiragana and Katakana characters are tokens of one character each (zh, ja). */
  readonly ideographs?: boolean
  /** Keep Latin letters with diacritics (ş, ł, ä: Turkish `şık` is not `sik`) instead of folding them to their base letters. */
  readonly accents?: boolean
  /** Words a masked token (`*`, `#`, `%` for letters) is restored to by shape, instead of the English list. */
  readonly maskWords?: ReadonlyArray<string>
}

const CONFUSABLES: Readonly<Record<string, string>> = {
  // Cyrillic
  "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
  "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ӏ": "l", "ь": "b",
  "п": "n", "г": "r", "и": "u", "л": "n", "з": "3", "ч": "4",
  // Greek
  "α": "a", "β": "b", "γ": "y", "δ": "d", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
  "ρ": "p", "σ": "o", "ς": "s", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "μ": "u", "λ": "a",
  // Latin extras that NFKD does not decompose
  "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
  "ŀ": "l", "ħ": "h", "ŧ": "t", "ƒ": "f", "ɑ": "a", "ɡ": "g", "ʀ": "r", "ꜱ": "s", "ᴀ": "a",
  "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j", "ᴋ": "k",
  "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
  // punctuation
  "\u2018": "'", "\u2019": "'", "\u201B": "'", "\u2032": "'", "\u00B4": "'", "`": "'",
  "\u201C": "\"", "\u201D": "\"", "\u201E": "\"", "\u00AB": "\"", "\u00BB": "\"",
  "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
  "\u2026": "...", "\u00A0": " ", "\u2022": " ", "\u00B7": ".",
  // invisible
  "\u200B": "", "\u200C": "", "\u200D": "", "\u2060": "", "\uFEFF": "", "\u00AD": "", "\u180E": ""
}

/** Module cache, a documented constant: a code point's folding is a pure function of it (at most 65,536 kept). */
const foldCache = new Map<number, string>()

/** Fold one code point to lower-case ASCII-ish text ("" to drop it). */
export const foldCodePoint = (cp: number): string => {
  if (cp < 128) return cp >= 65 && cp <= 90 ? String.fromCharCode(cp + 32) : String.fromCharCode(cp)
  const cached = foldCache.get(cp)
  if (cached !== undefined) return cached
  const ch = String.fromCodePoint(cp)
  let out = CONFUSABLES[ch] ?? CONFUSABLES[ch.toLowerCase()]
  if (out === undefined) {
    const decomposed = ch.normalize("NFKD").replace(/[\u0300-\u036f\u1ab0-\u1aff\u20d0-\u20ff\ufe20-\ufe2f]/g, "").toLowerCase()
    let mapped = ""
    for (const c of decomposed) mapped += CONFUSABLES[c] ?? c
    out = mapped
    // Combining marks on their own (zalgo text) vanish; whitespace variants become a space.
    if (/^\s+$/.test(out)) out = " "
  }
  if (foldCache.size < 65536) foldCache.set(cp, out)
  return out
}

/** Letters of a script folding does not touch: Arabic letter variants unified, marks dropped. */
const NATIVE_MAP: Readonly<Record<string, string>> = {
  // Arabic: alef variants, alef maksura, taa marbuta, Persian kaf and yeh
  "\u0623": "\u0627", "\u0625": "\u0627", "\u0622": "\u0627", "\u0671": "\u0627", "\u0649": "\u064A", "\u0629": "\u0647",
  "\u06A9": "\u0643", "\u06CC": "\u064A",
  // Arabic and Devanagari punctuation
  "\u060C": ",", "\u061B": ";", "\u061F": "?", "\u06D4": ".", "\u066A": " ", "\u066B": ",", "\u066C": ",", "\u0964": ".", "\u0965": ".",
  // CJK punctuation
  "\u3002": ".", "\u3001": ",", "\uFF61": ".", "\uFF64": ",", "\u300C": "\"", "\u300D": "\"", "\u300E": "\"", "\u300F": "\"",
  "\u3010": "(", "\u3011": ")", "\u3008": "\"", "\u3009": "\"", "\u300A": "\"", "\u300B": "\"",
  // variation selectors, skin tones: dropped
  "\uFE0E": "", "\uFE0F": "", "\u{1F3FB}": "", "\u{1F3FC}": "", "\u{1F3FD}": "", "\u{1F3FE}": "", "\u{1F3FF}": ""
}

/** Code points `foldCodePoint` handles in every mode: Latin, Greek, symbols, full-width Latin, math letters. */
const foldsAsLatin = (cp: number, cyrillic: boolean): boolean =>
  (cp < 0x0530 && !(cyrillic && cp >= 0x0400)) ||
  (cp >= 0x1d00 && cp <= 0x1dbf) ||
  (cp >= 0x1e00 && cp <= 0x1fff) ||
  (cp >= 0x2000 && cp <= 0x2bff && !(cp >= 0x2e80)) ||
  (cp >= 0xff01 && cp <= 0xff5e) ||
  (cp >= 0x1d400 && cp <= 0x1d7ff) ||
  (cp >= 0x1f100 && cp <= 0x1f1ff)

const nativeCaches = [new Map<number, string>(), new Map<number, string>(), new Map<number, string>(), new Map<number, string>()]

/**
 * Fold one code point for a language model set (`script`): Latin and symbols as `foldCodePoint`,
 * other scripts kept (NFKC, lower-cased) with the unifications of `NATIVE_MAP`, Arabic marks and
 * tatweel dropped, Arabic-Indic and Devanagari digits as ASCII; Cyrillic kept with `cyrillic`.
 */
export const foldNative = (cp: number, cyrillic: boolean, accents = false): string => {
  if (cp < 128) return foldCodePoint(cp)
  const cache = nativeCaches[(cyrillic ? 1 : 0) + (accents ? 2 : 0)]!
  const cached = cache.get(cp)
  if (cached !== undefined) return cached
  const ch = String.fromCodePoint(cp)
  let out: string
  const mapped = NATIVE_MAP[ch]
  if (mapped !== undefined) out = mapped
  else if ((cp >= 0x064b && cp <= 0x065f) || cp === 0x0670 || cp === 0x0640) out = ""
  else if (cp >= 0x0660 && cp <= 0x0669) out = String(cp - 0x0660)
  else if (cp >= 0x06f0 && cp <= 0x06f9) out = String(cp - 0x06f0)
  else if (cp >= 0x0966 && cp <= 0x096f) out = String(cp - 0x0966)
  else if (cyrillic && cp >= 0x0400 && cp <= 0x04ff) out = ch.toLowerCase().replace("\u0451", "\u0435")
  else if (accents && cp >= 0x00c0 && cp <= 0x024f && cp !== 0x00d7 && cp !== 0x00f7) out = cp === 0x0130 ? "i" : ch.toLowerCase()
  else if (foldsAsLatin(cp, cyrillic)) out = foldCodePoint(cp)
  else if (cp >= 0x3130 && cp <= 0x318f) out = ch // Hangul compatibility jamo (ㅅㅂ) stay as written
  else {
    out = ""
    for (const c of ch.normalize("NFKC").toLowerCase()) out += NATIVE_MAP[c] ?? c
    if (/^\s+$/.test(out)) out = " "
  }
  if (cache.size < 65536) cache.set(cp, out)
  return out
}

const MARK = /^\p{M}$/u

/** A Han, Hiragana or Katakana code unit (BMP), for `ideographs`. */
export const isIdeograph = (c: number): boolean =>
  (c >= 0x3040 && c <= 0x30ff) || (c >= 0x31f0 && c <= 0x31ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)

/** Latin letters and digits that stand for Cyrillic ones inside a Cyrillic word. */
const CYRILLIC_LOOKALIKES: Readonly<Record<string, string>> = {
  a: "\u0430", b: "\u0432", c: "\u0441", e: "\u0435", h: "\u043D", k: "\u043A", m: "\u043C", o: "\u043E", p: "\u0440", r: "\u0433",
  t: "\u0442", u: "\u0438", x: "\u0445", y: "\u0443", n: "\u043F", "0": "\u043E", "3": "\u0437", "4": "\u0447", "6": "\u0431", "@": "\u0430"
}
const isCyrillic = (c: number) => c >= 0x0400 && c <= 0x04ff

/** A Cyrillic word's Latin and digit look-alikes as Cyrillic; undefined when nothing changed. */
const cyrillicLookalikes = (t: string): string | undefined => {
  let cyr = 0
  let other = 0
  for (let k = 0; k < t.length; k++) {
    const c = t.charCodeAt(k)
    if (isCyrillic(c)) cyr++
    else if (CYRILLIC_LOOKALIKES[t[k]!] !== undefined) other++
  }
  if (cyr === 0 || other === 0) return undefined
  let out = ""
  for (let k = 0; k < t.length; k++) out += isCyrillic(t.charCodeAt(k)) ? t[k]! : (CYRILLIC_LOOKALIKES[t[k]!] ?? t[k]!)
  return out
}

/** A cased letter outside ASCII (its upper case differs), for the native letter and capital counts. */
const isCasedNonAscii = (c: number) => {
  const ch = String.fromCharCode(c)
  return ch.toUpperCase() !== ch || ch.toLowerCase() !== ch
}

const LEET: Readonly<Record<string, string>> = {
  "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "@": "a", "$": "s", "!": "i", "|": "l", "+": "t"
}
const MASK_CHARS = "*#%"
const isAsciiLetter = (c: number) => c >= 97 && c <= 122
const isDigit = (c: number) => c >= 48 && c <= 57
/** Characters that may sit inside an obfuscated word. */
const isInWord = (c: number) =>
  isAsciiLetter(c) || isDigit(c) || c === 42 /* * */ || c === 64 /* @ */ || c === 36 /* $ */ || c === 33 /* ! */ ||
  c === 35 /* # */ || c === 37 /* % */ || c === 39 /* ' */ || c === 124 /* | */ || c === 43 /* + */ || (c >= 128 && !isSpaceOrPunct(c))
const isSpaceOrPunct = (c: number) =>
  c === 0x3000 || (c >= 0x2000 && c <= 0x206f) || (c >= 0x3001 && c <= 0x303f) || (c >= 0xff01 && c <= 0xff0f)
/**
 * With a script, an apostrophe separates words (`l'articolo`, `qu'il`, `Ankara'da`: the English
 * normaliser joins `don't` into `dont`).
 */
const isInNativeWord = (c: number) => c !== 39 && isInWord(c)
/** Separators that may sit between spaced-out letters (`f u c k`, `f.u.c.k`, `f-u-c-k`). */
const isLetterSpacer = (c: number) => c === 32 || c === 46 || c === 45 || c === 95 || c === 9
/** Punctuation that ends a clause (negation scope, bigrams). */
const isClauseBreak = (c: number) =>
  c === 46 || c === 44 || c === 33 || c === 63 || c === 59 || c === 58 || c === 10 || c === 13 || c === 40 || c === 41 || c === 34

const NUMERIC_SUFFIX = /^\d+(st|nd|rd|th|s|am|pm|k|m|x|p|gb|mb|kb|kg|km|cm|mm|ft|lb|lbs|yo|yr|yrs|min|h|hr|hrs|d|g|v|w|fps|hz|mp)$/

const URL_RE = /^(?:https?:\/\/|www\.)|^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|info|biz|ly|io|co|uk|de|ru|tv|me|us|in|gl|be|to|tk|xyz|site|online|html?|php)(?:[/?#:]|$)/
const EMAIL_RE = /^[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/

/** Abusive words grouped by length, for mask matching. */
const abuseByLength = new Map<number, Array<string>>()
for (const w of ABUSE_WORDS) {
  const list = abuseByLength.get(w.length) ?? []
  list.push(w)
  abuseByLength.set(w.length, list)
}
const abuseSet = new Set(ABUSE_WORDS)
const doubleLetterByCollapsed = new Map<string, string>()
for (const w of DOUBLE_LETTER_WORDS) doubleLetterByCollapsed.set(w.replace(/(.)\1+/g, "$1"), w)

/** Words grouped by length, for mask matching. */
const byLength = (words: ReadonlyArray<string>): Map<number, Array<string>> => {
  const out = new Map<number, Array<string>>()
  for (const w of words) {
    const list = out.get(w.length) ?? []
    list.push(w)
    out.set(w.length, list)
  }
  return out
}

/** Restore a masked word (`f*ck`, `f**king`, `b!+ch` after leet) against the abusive words. */
export const unmask = (token: string): string | undefined => unmaskAgainst(token, abuseByLength)

const unmaskAgainst = (token: string, words: ReadonlyMap<number, ReadonlyArray<string>>): string | undefined => {
  const candidates = words.get(token.length)
  if (candidates === undefined) return undefined
  let visible = 0
  for (let i = 0; i < token.length; i++) if (!MASK_CHARS.includes(token[i]!)) visible++
  if (visible === 0) return undefined
  outer: for (const w of candidates) {
    for (let i = 0; i < token.length; i++) {
      const c = token[i]!
      if (MASK_CHARS.includes(c)) continue
      if (c !== w[i]) continue outer
    }
    return w
  }
  return undefined
}

/** Collapse runs of three or more identical characters; undefined when nothing changed. */
const collapseStretch = (token: string): string | undefined => {
  // Most tokens have no run of three: answer without building a string.
  let run = 1
  for (let i = 1; i < token.length && run < 3; i++) run = token.charCodeAt(i) === token.charCodeAt(i - 1) ? run + 1 : 1
  if (run < 3) return undefined
  let changed = false
  let out = ""
  for (let i = 0; i < token.length; ) {
    let j = i + 1
    while (j < token.length && token.charCodeAt(j) === token.charCodeAt(i)) j++
    if (j - i >= 3) changed = true
    out += j - i >= 3 ? token[i]! : token.slice(i, j)
    i = j
  }
  if (!changed) return undefined
  return doubleLetterByCollapsed.get(out.replace(/(.)\1+/g, "$1")) ?? out
}

/**
 * One-edit variants (one deleted, one doubled-letter removed or two adjacent swapped characters)
 * of each abuse word, minus any variant in `protectedWords` (common words of the corpus). Built at
 * training time and shipped with the models so that training and serving normalise alike.
 */
export const buildRespellMap = (protectedWords: ReadonlySet<string>): Record<string, string> => {
  const out: Record<string, string> = {}
  const add = (variant: string, word: string) => {
    if (variant.length < 3 || variant === word || abuseSet.has(variant) || protectedWords.has(variant)) return
    if (out[variant] === undefined) out[variant] = word
  }
  for (const word of ABUSE_WORDS) {
    if (word.length < 4) continue
    for (let i = 0; i + 1 < word.length; i++) {
      add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2), word)
    }
    if (word.length >= 5) for (let i = 0; i < word.length; i++) add(word.slice(0, i) + word.slice(i + 1), word)
  }
  return out
}

export interface NormalizerOptions {
  /** Misspelling → canonical word, usually from the model manifest (`buildRespellMap`). */
  readonly respell?: Readonly<Record<string, string>>
  /** A language model set's script handling (absent: English). */
  readonly script?: ScriptOptions | undefined
}

/**
 * Normalised tokens of one text: `count` tokens, each with its UTF-16 range of the original text
 * (`begins`/`ends`) and `FLAG_*` bits. A `Normalizer` is one (until its next `run`); a
 * `ModelSet`'s text analysis holds an immutable copy.
 */
export interface NormalizedTokens {
  readonly count: number
  readonly tokens: ReadonlyArray<string>
  readonly begins: ReadonlyArray<number>
  readonly ends: ReadonlyArray<number>
  readonly flags: ReadonlyArray<number>
}

/**
 * Reusable normaliser. After `run(text)`, tokens `0..count-1` are in `tokens`, with their UTF-16
 * range of `text` in `begins`/`ends` and `FLAG_*` bits in `flags`.
 */
export class Normalizer implements NormalizedTokens {
  readonly tokens: Array<string> = []
  readonly begins: Array<number> = []
  readonly ends: Array<number> = []
  readonly flags: Array<number> = []
  count = 0
  /** Capital letters and letters seen in the text (for a shouting feature). */
  upper = 0
  letters = 0
  /** Number of `!` and `?` characters. */
  bangs = 0

  private readonly respell: ReadonlyMap<string, string>
  /** `script` given: a language model set's folding (`foldNative`). */
  private readonly native: boolean
  private readonly cyrillic: boolean
  private readonly accents: boolean
  private readonly ideographs: boolean
  private readonly maskWords: ReadonlyMap<number, ReadonlyArray<string>>
  // folded text buffer with origin offsets, reused between calls
  private fold: Array<number> = []
  private orgBegin: Array<number> = []
  private orgEnd: Array<number> = []
  private wasUpper: Array<number> = []

  constructor(options: NormalizerOptions = {}) {
    const script = options.script
    // the English respellings (`fu`, `dik`, ...) are words of other languages: not with a script
    this.respell = new Map(Object.entries(script === undefined ? { ...RESPELLINGS, ...(options.respell ?? {}) } : (options.respell ?? {})))
    this.native = script !== undefined
    this.cyrillic = script?.cyrillic === true
    this.ideographs = script?.ideographs === true
    this.accents = script?.accents === true
    this.maskWords = script?.maskWords !== undefined ? byLength(script.maskWords) : abuseByLength
  }

  /** Normalise `text`; returns the number of tokens. */
  run(text: string): number {
    this.count = 0
    this.upper = 0
    this.letters = 0
    this.bangs = 0
    const fold = this.fold
    const ob = this.orgBegin
    const oe = this.orgEnd
    const up = this.wasUpper
    let n = 0
    let ascii = true
    // 1. fold code points into a char-code buffer that remembers where each char came from
    for (let i = 0; i < text.length; ) {
      const unit = text.charCodeAt(i)
      const cp = unit >= 0xd800 && unit <= 0xdbff ? text.codePointAt(i)! : unit
      const width = cp > 0xffff ? 2 : 1
      if (cp < 128) {
        const lower = cp >= 65 && cp <= 90
        if (lower) this.upper++
        if (lower || (cp >= 97 && cp <= 122)) this.letters++
        if (cp === 33 || cp === 63) this.bangs++
        fold[n] = lower ? cp + 32 : cp
        ob[n] = i
        oe[n] = i + width
        up[n] = lower ? 1 : 0
        n++
      } else if (this.native) {
        ascii = false
        const f = foldNative(cp, this.cyrillic, this.accents)
        // capitals and letters of every cased script count (Cyrillic shouting)
        const cased = f.length > 0 && width === 1 && isCasedNonAscii(unit)
        const upper = cased && text[i] !== text[i]!.toLowerCase()
        if (cased) this.letters++
        if (upper) this.upper++
        // a dropped mark (Arabic vowel signs, tatweel) belongs to the character before it, so a
        // quote ending on that character takes its marks too
        if (f.length === 0 && n > 0 && oe[n - 1] === i && (cp === 0x0640 || MARK.test(String.fromCodePoint(cp)))) oe[n - 1] = i + width
        for (let k = 0; k < f.length; k++) {
          fold[n] = f.charCodeAt(k)
          ob[n] = i
          oe[n] = i + width
          up[n] = upper ? 1 : 0
          n++
        }
      } else {
        ascii = false
        const f = foldCodePoint(cp)
        for (let k = 0; k < f.length; k++) {
          fold[n] = f.charCodeAt(k)
          ob[n] = i
          oe[n] = i + width
          up[n] = 0
          n++
        }
      }
      i += width
    }
    // The folded buffer as a string, so that a token or chunk is a slice of it (for ASCII text,
    // folding only lower-cases letters, so it is the text lower-cased).
    const folded = ascii ? text.toLowerCase() : foldedString(fold, n)
    // 2. scan chunks of in-word characters
    let pendingBreak = true
    const native = this.native
    let i = 0
    while (i < n) {
      const c = fold[i]!
      if (!(native ? isInNativeWord(c) : isInWord(c))) {
        if (isClauseBreak(c)) pendingBreak = true
        // URLs and e-mails: take the whole whitespace-delimited chunk
        i++
        continue
      }
      // whitespace-delimited chunk for URL / e-mail detection
      let chunkEnd = i
      while (chunkEnd < n && fold[chunkEnd] !== 32 && fold[chunkEnd] !== 10 && fold[chunkEnd] !== 9 && fold[chunkEnd] !== 13) chunkEnd++
      const atChunkStart = i === 0 || fold[i - 1] === 32 || fold[i - 1] === 10 || fold[i - 1] === 9 || fold[i - 1] === 13
      if (atChunkStart && chunkEnd - i >= 6 && mayBeLink(fold, i, chunkEnd)) {
        const chunk = folded.slice(i, chunkEnd)
        if (URL_RE.test(chunk) || EMAIL_RE.test(chunk)) {
          const isEmail = EMAIL_RE.test(chunk)
          this.push(isEmail ? "xemail" : "xurl", ob[i]!, oe[chunkEnd - 1]!, pendingBreak ? FLAG_BREAK : 0)
          pendingBreak = false
          if (!isEmail) {
            const host = /^(?:https?:\/\/)?(?:www\.)?([a-z0-9-]+)/.exec(chunk)
            if (host !== null && host[1] !== undefined && host[1].length > 1) this.push("xurl_" + host[1], ob[i]!, oe[chunkEnd - 1]!, 0)
          }
          i = chunkEnd
          continue
        }
      }
      // a token: maximal run of in-word characters
      let j = i
      let caps = 0
      let alpha = 0
      while (j < n && (native ? isInNativeWord(fold[j]!) : isInWord(fold[j]!))) {
        if (up[j] === 1) caps++
        if (isAsciiLetter(fold[j]!) || (this.native && fold[j]! >= 128 && isCasedNonAscii(fold[j]!))) alpha++
        j++
      }
      // zh, ja: every Han or kana character is a token of its own; other runs stay whole
      if (this.ideographs && hasIdeographIn(fold, i, j)) {
        let first = true
        for (let p = i; p < j; ) {
          const ideograph = isIdeograph(fold[p]!)
          let q = p + 1
          if (!ideograph) while (q < j && !isIdeograph(fold[q]!)) q++
          const before = this.count
          this.emitWord(folded.slice(p, q), p, ob[p]!, oe[q - 1]!, pendingBreak && first, false, false, ideograph ? FLAG_IDEOGRAPH : 0)
          if (this.count > before) first = false
          p = q
        }
        if (!first) pendingBreak = false
        i = j
        continue
      }
      // spaced letters: single in-word characters separated by one or two spacers, three or more
      if (j - i === 1) {
        let k = j
        let count = 1
        let end = j
        for (;;) {
          let s = k
          while (s < n && s - k < 2 && isLetterSpacer(fold[s]!)) s++
          if (s === k || s >= n || !(native ? isInNativeWord(fold[s]!) : isInWord(fold[s]!))) break
          if (s + 1 < n && (native ? isInNativeWord(fold[s + 1]!) : isInWord(fold[s + 1]!))) break
          count++
          end = s + 1
          k = s + 1
        }
        if (count >= 3) {
          let joined = ""
          for (let p = i; p < end; p++) if (isInWord(fold[p]!)) joined += String.fromCharCode(fold[p]!)
          this.emitWord(joined, -1, ob[i]!, oe[end - 1]!, pendingBreak, false, true)
          pendingBreak = false
          i = end
          continue
        }
      }
      const raw = folded.slice(i, j)
      this.emitWord(raw, i, ob[i]!, oe[j - 1]!, pendingBreak, caps >= 2 && caps === alpha, false)
      pendingBreak = false
      i = j
    }
    return this.count
  }

  private push(token: string, begin: number, end: number, flags: number) {
    const k = this.count++
    this.tokens[k] = token
    this.begins[k] = begin
    this.ends[k] = end
    this.flags[k] = flags
  }

  /** `foldStart` is where `raw` starts in the folded buffer (-1 when it was assembled). */
  private emitWord(raw: string, foldStart: number, begin: number, end: number, brk: boolean, caps: boolean, spaced: boolean, extra = 0) {
    let flags = (brk ? FLAG_BREAK : 0) | (caps ? FLAG_CAPS : 0) | (spaced ? FLAG_OBFUSCATED : 0) | extra
    let t = raw
    // punctuation-like characters at the edges are dropped (and left out of the quoted span)
    let a = 0
    let b = t.length
    while (a < b && (t[a] === "!" || t[a] === "#" || t[a] === "%" || t[a] === "|" || t[a] === "+" || (t[a] === "*" && b - a > 1 && !isAsciiLetter(t.charCodeAt(a + 1)) ))) a++
    while (b > a && (t[b - 1] === "!" || t[b - 1] === "#" || t[b - 1] === "%" || t[b - 1] === "|" || t[b - 1] === "+" || t[b - 1] === "@" || t[b - 1] === "$")) b--
    if (a > 0 || b < t.length) {
      if (b <= a) return
      if (foldStart >= 0) {
        begin = this.orgBegin[foldStart + a]!
        end = this.orgEnd[foldStart + b - 1]!
      }
      t = t.slice(a, b)
    }
    // apostrophes vanish (don't → dont)
    if (t.includes("'")) t = t.replace(/'/g, "")
    if (t.length === 0) return
    // mentions
    if (t.charCodeAt(0) === 64 && t.length > 3 && /^@[a-z_][a-z0-9_]*$/.test(t)) {
      const rest = t.slice(1)
      if (!abuseSet.has(LEETIFY(rest) ?? rest)) {
        this.push("xmention", begin, end, flags)
        return
      }
    }
    // numbers
    let letters = 0
    let digits = 0
    let others = 0
    for (let k = 0; k < t.length; k++) {
      const c = t.charCodeAt(k)
      if (isAsciiLetter(c)) letters++
      else if (isDigit(c)) digits++
      // a language model set's letters of other scripts are letters (English drops such a token)
      else if (this.native && c >= 128) letters++
      else others++
    }
    if (this.cyrillic) {
      const cyr = cyrillicLookalikes(t)
      if (cyr !== undefined) {
        t = cyr
        flags |= FLAG_OBFUSCATED
        if (!/[0-9@$!|+*#%]/.test(t)) digits = 0
      }
    }
    if (letters === 0 && others === 0) {
      this.push(t.length >= 5 ? "xlongnum" : t.length >= 3 ? "xnum" : t, begin, end, flags)
      return
    }
    if (letters === 0 && digits === 0 && !spaced) {
      // only symbols (e.g. "***", "$$$"): a fully masked word, or nothing
      if (/^[*#%@$!]{3,}$/.test(t) && t.includes("*")) this.push("xmasked", begin, end, flags)
      return
    }
    // leetspeak and masks
    if ((digits > 0 || others > 0) && !NUMERIC_SUFFIX.test(t)) {
      const leet = LEETIFY(t)
      if (leet !== undefined && leet !== t) {
        t = leet
        flags |= FLAG_OBFUSCATED
      }
      if (/[*#%]/.test(t)) {
        const restored = unmaskAgainst(t, this.maskWords)
        if (restored !== undefined) t = restored
        else t = t.replace(/[*#%]+/g, "")
        flags |= FLAG_OBFUSCATED
      }
      t = t.replace(/[@$!|+]/g, "")
      if (t.length === 0) return
    }
    // stretched letters
    const collapsed = collapseStretch(t)
    if (collapsed !== undefined) {
      t = collapsed
      flags |= FLAG_OBFUSCATED
    }
    // respellings (explicit and one-edit variants of abuse words)
    const respelled = this.respell.get(t)
    if (respelled !== undefined) {
      flags |= FLAG_OBFUSCATED
      if (respelled.includes(" ")) {
        const parts = respelled.split(" ")
        for (let k = 0; k < parts.length; k++) this.push(parts[k]!, begin, end, k === 0 ? flags : flags & ~FLAG_BREAK)
        return
      }
      t = respelled
    }
    this.push(t, begin, end, flags)
  }
}

/** Whether `fold[a..b)` holds a Han or kana character. */
const hasIdeographIn = (fold: ReadonlyArray<number>, a: number, b: number): boolean => {
  for (let k = a; k < b; k++) if (isIdeograph(fold[k]!)) return true
  return false
}

/** `fold[0..n)` as a string (in pieces, so that a long text stays within `apply`'s argument limit). */
const foldedString = (fold: ReadonlyArray<number>, n: number): string => {
  let out = ""
  for (let k = 0; k < n; k += 8192) out += String.fromCharCode.apply(null, fold.slice(k, Math.min(n, k + 8192)))
  return out
}

/**
 * Whether `URL_RE` or `EMAIL_RE` could match the chunk `fold[a..b)`: both need a `.` somewhere,
 * except a URL that starts with `http` (`http://localhost`). A cheap test that spares the regular
 * expressions (and the chunk's string) for the usual word.
 */
const mayBeLink = (fold: ReadonlyArray<number>, a: number, b: number): boolean => {
  if (fold[a] === 104 /* h */) return true
  for (let k = a; k < b; k++) if (fold[k] === 46 /* . */) return true
  return false
}

/** Map leetspeak characters inside a word that has at least one letter. */
const LEETIFY = (t: string): string | undefined => {
  let hasLetter = false
  for (let k = 0; k < t.length; k++) if (isAsciiLetter(t.charCodeAt(k))) hasLetter = true
  // a word made only of leet characters still counts when it is at least 3 long with a symbol (@$$)
  if (!hasLetter && !/^[0-9@$!|+*]{3,}$/.test(t)) return undefined
  if (!hasLetter && !/[@$!|]/.test(t)) return undefined
  let out = ""
  for (let k = 0; k < t.length; k++) {
    const ch = t[k]!
    out += LEET[ch] ?? ch
  }
  return out
}

/** Convenience: the canonical tokens of a text (allocates; for tests and tooling). */
export const normalizeTokens = (text: string, options: NormalizerOptions = {}): Array<string> => {
  const n = new Normalizer(options)
  const count = n.run(text)
  return n.tokens.slice(0, count)
}
