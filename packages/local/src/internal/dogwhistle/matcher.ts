/**
 * The dog-whistle term matcher: finds the surface forms of coded terms (glossary terms and a site's
 * own examples) in a comment, with the offsets of the verbatim text.
 *
 * Text and patterns go through one tokenizer (`matchTokens`):
 * - a word is a run of letters and digits (apostrophes inside it dropped: `let's` = `lets`), folded
 *   to lower-case ASCII (`foldCodePoint`: diacritics, Cyrillic/Greek look-alikes, small capitals);
 *   a word that mixes letters and digits is read with the digits as letters (`z0g` = `zog`), and
 *   `$`/`@` followed by a letter count as `s`/`a` (`$oros`); 🅱 reads as `b` (`ni🅱️🅱️a`);
 * - every other symbol (`(`, `%`, `/`, emoji) is a token of its own; variation selectors, joiners
 *   and zero-width characters are skipped;
 * - white space and the rest of the punctuation (`-`, `_`, `#`, `.`, quotes, ...) only separate
 *   tokens, so `black-on-black` = `black on black` and `#WhiteLivesMatter` = `whitelivesmatter`.
 *
 * A surface form matches a run of consecutive tokens, never part of a word (`14` does not match
 * `2014`). Its obvious variants are matched too (`variantsOf`): the last word in the plural or the
 * singular (`groomer`/`groomers`, `quota`/`quotas`, `baby`/`babies`), a phrase written as one word
 * (a hashtag or `blackonblack`), a short upper-case acronym spelled out with dots or spaces
 * (`C.R.T.`). Acronyms (`ZOG`, `MAGA`, `TRAs`) match in upper or lower case but not title case
 * (`Zog`), and those of two letters or that are also a name or word (`GC`, `HH`, `TIM`, `EST`) in
 * upper case only; a form
 * the glossary lists only as a hashtag (`#Milk`) or a hashtag of three letters or fewer matches
 * only after `#`. Triple parentheses around a name (`(((Soros)))`) are matched by a pattern of
 * their own.
 */
import { foldCodePoint } from "../model/normalize.js"

export interface MatchToken {
  /** Folded key (lower-case, apostrophes removed, leet read as letters in mixed words). */
  readonly key: string
  readonly begin: number
  readonly end: number
  /** Every letter of the original token is upper-case but for a plural `s` (and it has at least one letter). */
  readonly upper: boolean
  /** No letter of the original token is upper-case. */
  readonly lower: boolean
  /** The token is directly preceded by `#`. */
  readonly hashed: boolean
  /** A word (letters/digits) rather than a symbol token. */
  readonly word: boolean
}

const LETTER_DIGIT = /[\p{L}\p{N}]/u
const LETTER = /\p{L}/u
const UPPER = /\p{Lu}/u
const LOWER = /\p{Ll}/u
const SYMBOL = /[\p{S}()[\]{}%/]/u
/** Skipped entirely: variation selectors, joiners, zero-width marks, combining marks, skin tones. */
const SKIP = /[\uFE00-\uFE0F\u200B-\u200D\u2060\uFEFF\u00AD\u{1F3FB}-\u{1F3FF}\p{M}]/u
const APOSTROPHES = new Set(["'", "\u2019", "\u2018", "\u02BC", "`"])
const LEET: Readonly<Record<string, string>> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t" }
/** Symbols read as letters inside words. */
const SYMBOL_LETTERS: Readonly<Record<string, string>> = { "\u{1F171}": "b", "\u{1F17E}": "o", "$": "s", "@": "a" }

/** Tokenize for matching (see the module comment). */
export const matchTokens = (text: string): Array<MatchToken> => {
  const out: Array<MatchToken> = []
  const chars: Array<{ ch: string; at: number }> = []
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!
    const ch = String.fromCodePoint(cp)
    chars.push({ ch, at: i })
    i += ch.length
  }
  let i = 0
  const n = chars.length
  const isWordChar = (k: number): boolean => {
    if (k >= n) return false
    const c = chars[k]!.ch
    if (LETTER_DIGIT.test(c)) return true
    const s = SYMBOL_LETTERS[c]
    if (s === undefined) return false
    // `$`/`@` only before a letter; 🅱/🅾 always
    if (c === "$" || c === "@") {
      let j = k + 1
      while (j < n && SKIP.test(chars[j]!.ch)) j++
      return j < n && LETTER.test(chars[j]!.ch)
    }
    return true
  }
  while (i < n) {
    const c = chars[i]!.ch
    if (SKIP.test(c)) {
      i++
      continue
    }
    if (isWordChar(i)) {
      const begin = chars[i]!.at
      let raw = ""
      let end = begin
      let j = i
      for (;;) {
        if (j < n && SKIP.test(chars[j]!.ch)) {
          j++
          continue
        }
        if (isWordChar(j)) {
          raw += chars[j]!.ch
          end = chars[j]!.at + chars[j]!.ch.length
          j++
          continue
        }
        // an apostrophe between two word characters stays inside the word (and is dropped)
        if (j < n && APOSTROPHES.has(chars[j]!.ch) && isWordChar(j + 1) && raw.length > 0) {
          j++
          continue
        }
        break
      }
      const hashed = i > 0 && (chars[i - 1]!.ch === "#" || chars[i - 1]!.ch === "\uFF03")
      out.push(wordToken(raw, begin, end, hashed))
      i = j
      continue
    }
    if (SYMBOL.test(c) && c !== "#" && c !== "\uFF03") {
      out.push({ key: c, begin: chars[i]!.at, end: chars[i]!.at + c.length, upper: false, lower: false, hashed: false, word: false })
    }
    i++
  }
  return out
}

const wordToken = (raw: string, begin: number, end: number, hashed: boolean): MatchToken => {
  let hasLetter = false
  let hasDigit = false
  for (const c of raw) {
    if (LETTER.test(c) || (SYMBOL_LETTERS[c] !== undefined)) hasLetter = true
    else if (/\p{N}/u.test(c)) hasDigit = true
  }
  let key = ""
  for (const c of raw) {
    const s = SYMBOL_LETTERS[c]
    if (s !== undefined) key += s
    else if (hasLetter && hasDigit && LEET[c] !== undefined) key += LEET[c]
    else key += foldCodePoint(c.codePointAt(0)!)
  }
  const letters = [...raw].filter((c) => LETTER.test(c))
  const body = letters.length > 1 && letters[letters.length - 1] === "s" && UPPER.test(letters[letters.length - 2]!) ? letters.slice(0, -1) : letters
  const upper = body.length > 0 && body.every((c) => !LOWER.test(c)) && body.some((c) => UPPER.test(c))
  const lower = !anyUpper(raw)
  return { key, begin, end, upper, lower, hashed, word: true }
}

const anyUpper = (s: string) => [...s].some((c) => UPPER.test(c))

/**
 * Acronyms matched in upper case only: two letters, and those that are also a name or a word in
 * lower or title case (Tim, est).
 */
const UPPER_ONLY = new Set(["tim", "est", "alm", "lgb", "tra", "is", "xx", "hh", "gc", "coin"])

/** One way of writing a surface form: token keys, and the conditions the text must meet. */
export interface Variant {
  readonly keys: ReadonlyArray<string>
  /**
   * Acronym case: `upper` (every word token upper-case in the text), `upperOrLower` (upper case
   * or all lower case, never title case), `false` (any case).
   */
  readonly upper: false | "upper" | "upperOrLower"
  /** The first token must follow `#`. */
  readonly hashed: boolean
}

export interface FormSpec {
  /** The surface form as written (e.g. `#WhiteLivesMatter`, `TRAs`, `14/88`). */
  readonly text: string
  /** Match only after `#`. */
  readonly hashOnly?: boolean | undefined
  /** No plural/singular variant (its other number is an everyday word, e.g. `Googles` but not `google`). */
  readonly exact?: boolean | undefined
}

const isAcronym = (word: string): boolean => /^[A-Z]{2,4}s?$/.test(word) && !/^[A-Z][a-z]/.test(word)

/** Plural and singular spellings of a folded word (letters only, three or more). */
export const numberVariants = (key: string): Array<string> => {
  if (!/^[a-z]{3,}$/.test(key)) return [key]
  const out = new Set([key])
  if (key.endsWith("ies") && key.length > 4) out.add(key.slice(0, -3) + "y")
  else if (key.endsWith("es") && /(s|x|z|ch|sh)es$/.test(key)) out.add(key.slice(0, -2))
  else if (key.endsWith("s") && !key.endsWith("ss") && key.length > 3) out.add(key.slice(0, -1))
  else {
    if (/[^aeiou]y$/.test(key)) out.add(key.slice(0, -1) + "ies")
    else if (/(s|x|z|ch|sh)$/.test(key)) out.add(key + "es")
    else out.add(key + "s")
  }
  if (key.endsWith("man")) out.add(key.slice(0, -3) + "men")
  if (key.endsWith("men")) out.add(key.slice(0, -3) + "man")
  return [...out]
}

/** The variants a surface form is matched in (see the module comment). */
export const variantsOf = (form: FormSpec): Array<Variant> => {
  const text = form.text.trim()
  const tokens = matchTokens(text)
  if (tokens.length === 0) return []
  const startsWithHash = /^[#\uFF03]/.test(text)
  const words = tokens.filter((t) => t.word)
  // a short upper-case acronym (GC, HH, TRAs, ZOG) is matched in upper case only
  const raw = text.replace(/^[#\uFF03]/, "")
  const acronym = tokens.length === 1 && isAcronym(raw)
  const body = tokens.map((t) => t.key).join("")
  const hashed = form.hashOnly === true || (startsWithHash && body.length <= 3)
  const out = new Map<string, Variant>()
  const add = (keys: ReadonlyArray<string>, upper: Variant["upper"], h: boolean) => {
    const id = `${keys.join(" ")}|${upper}|${h}`
    if (!out.has(id)) out.set(id, { keys, upper, hashed: h })
  }
  const keys = tokens.map((t) => t.key)
  if (acronym) {
    const base = raw.endsWith("s") && raw.length > 2 ? keys[0]!.slice(0, -1) : keys[0]!
    const rule = UPPER_ONLY.has(base) || base.length <= 2 ? "upper" : "upperOrLower"
    add([base], rule, hashed)
    if (!hashed) add([base + "s"], rule, false)
    // spelled out: C.R.T. / C R T
    if (!hashed && base.length >= 2) add([...base], "upper", false)
    return [...out.values()]
  }
  const last = keys.length - 1
  const lastToken = tokens[last]!
  const endings = lastToken.word && form.exact !== true ? numberVariants(lastToken.key) : [lastToken.key]
  for (const e of endings) {
    const ks = [...keys.slice(0, last), e]
    add(ks, false, hashed)
    // a phrase written as one word (a hashtag, `blackonblack`), when it is long enough to be unambiguous
    if (words.length > 1 && words.length === tokens.length && ks.join("").length >= 8) add([ks.join("")], false, hashed)
  }
  return [...out.values()]
}

export interface MatchEntry {
  /** Index of the term (or site example) this variant belongs to. */
  readonly term: number
  /** Index of the surface form within the term. */
  readonly form: number
  readonly variant: Variant
}

export interface TermHit {
  readonly term: number
  readonly form: number
  /** UTF-16 offsets of the verbatim text, `end` exclusive. */
  readonly begin: number
  readonly end: number
  /** Token range of the hit in the comment's `matchTokens`. */
  readonly firstToken: number
  readonly lastToken: number
}

/** Triple parentheses (echo) around a name, or empty: `(((Soros)))`, `((( them )))`, `((()))`. */
const ECHO = /\({3}[^()\n]{0,60}\){3}/gu

/**
 * Surface forms of many terms, matched in one pass over a comment's tokens. Overlapping hits keep
 * the longest (then the earliest); `echoTerm` (when set) is the term triple parentheses belong to.
 */
export class TermMatcher {
  private readonly byFirst = new Map<string, Array<MatchEntry>>()
  private longest = 1

  constructor(forms: ReadonlyArray<ReadonlyArray<FormSpec>>, private readonly echoTerm: number | undefined = undefined) {
    forms.forEach((list, term) =>
      list.forEach((spec, form) => {
        for (const variant of variantsOf(spec)) this.addEntry({ term, form, variant })
      })
    )
  }

  private addEntry(e: MatchEntry) {
    const first = e.variant.keys[0]!
    const list = this.byFirst.get(first) ?? []
    list.push(e)
    this.byFirst.set(first, list)
    this.longest = Math.max(this.longest, e.variant.keys.length)
  }

  /** Every hit in `text` (or in its precomputed tokens), in text order, without overlaps. */
  match(text: string, tokens: ReadonlyArray<MatchToken> = matchTokens(text)): Array<TermHit> {
    const found: Array<TermHit> = []
    for (let i = 0; i < tokens.length; i++) {
      const candidates = this.byFirst.get(tokens[i]!.key)
      if (candidates === undefined) continue
      for (const c of candidates) {
        const v = c.variant
        if (i + v.keys.length > tokens.length) continue
        if (v.hashed && !tokens[i]!.hashed) continue
        let ok = true
        for (let k = 0; k < v.keys.length && ok; k++) {
          const t = tokens[i + k]!
          if (t.key !== v.keys[k]) ok = false
          else if (v.upper === "upper" && t.word && !t.upper) ok = false
          else if (v.upper === "upperOrLower" && t.word && !t.upper && !t.lower) ok = false
        }
        if (!ok) continue
        const last = tokens[i + v.keys.length - 1]!
        // a hashtag is quoted with its `#`
        const begin = tokens[i]!.hashed ? tokens[i]!.begin - 1 : tokens[i]!.begin
        found.push({ term: c.term, form: c.form, begin, end: last.end, firstToken: i, lastToken: i + v.keys.length - 1 })
      }
    }
    if (this.echoTerm !== undefined) {
      for (const m of text.matchAll(ECHO)) {
        const begin = m.index
        const end = begin + m[0].length
        let first = tokens.findIndex((t) => t.begin >= begin)
        if (first < 0) first = tokens.length - 1
        let lastT = first
        while (lastT + 1 < tokens.length && tokens[lastT + 1]!.end <= end) lastT++
        found.push({ term: this.echoTerm, form: -1, begin, end, firstToken: first, lastToken: lastT })
      }
    }
    // longest first, then earliest; drop any hit overlapping a kept one
    found.sort((a, b) => (b.end - b.begin) - (a.end - a.begin) || a.begin - b.begin || a.term - b.term)
    const kept: Array<TermHit> = []
    for (const h of found) if (!kept.some((k) => h.begin < k.end && k.begin < h.end)) kept.push(h)
    return kept.sort((a, b) => a.begin - b.begin)
  }
}
