/**
 * The AI-written-text detector's featuriser: a fixed list of named style features (length,
 * sentence-length burstiness, punctuation and function-word profile, hedging and epistemic
 * markers, connectives, balanced enumerations, headings and lists, informal markers, and the
 * model's mined "LLM words" and stock phrases) plus, optionally, hashed lower-cased words.
 *
 * Every feature is a number measured on the text as given; each feature that can be pointed at
 * also records where (`Cue`: a UTF-16 range of the text, so `text.slice(begin, end)` is the quote).
 * Links, @handles and curly vs straight quotes are not features: they mark the sources of the
 * training sets (tweets with links, typographic quotes of one generator) rather than who wrote.
 *
 * Slot layout of the weight table (see `model.ts`): slots `0 .. DENSE_SLOTS - 1` hold the named
 * features (standardised with the manifest's means and deviations); with a table of more than
 * 2^8 slots, three hashed blocks fill the rest (`Hashing.hashString` of `@decorum/core`, the
 * package's one hashing scheme): words, adjacent word pairs, and trigrams of the text's shape
 * (function words as themselves, other words as `_`, punctuation marks and line breaks as marks);
 * optionally a fourth, character 3- and 4-grams of each word (manifest `chars`).
 */
import { Hashing } from "@decorum/core"
import { type Range, tokenize } from "../text/words.js"

export type CueKind = "word_frequency" | "structural" | "stylistic" | "epistemic"

/** Where a feature was seen: `text.slice(begin, end)` is the quote. */
export interface Cue extends Range {
  /** Index into `FEATURE_NAMES`. */
  readonly feature: number
  /** How much of the feature this occurrence carries (for ranking quotes of one feature). */
  readonly weight: number
}

/** What the model learns from the training data besides its weights. */
export interface Lexicon {
  /** Words far more frequent in LLM text than in the human texts they rewrite: word -> log-ratio (> 0). */
  readonly llmWords: Readonly<Record<string, number>>
  /** Words far more frequent in human text: word -> log-ratio (> 0). */
  readonly humanWords: Readonly<Record<string, number>>
  /** Stock phrases of LLM answers, lower case (HC3's ChatGPT list and mined ones). */
  readonly llmPhrases: ReadonlyArray<string>
  /** Phrases of human answers, lower case (HC3's human list). */
  readonly humanPhrases: ReadonlyArray<string>
}

export const EMPTY_LEXICON: Lexicon = { llmWords: {}, humanWords: {}, llmPhrases: [], humanPhrases: [] }

/** Function words whose rates form the profile (part of the feature definition). */
export const FUNCTION_WORDS: ReadonlyArray<string> = [
  "the", "a", "an", "and", "but", "or", "so", "because", "if", "then", "than", "that", "this", "these", "those",
  "which", "who", "what", "when", "where", "why", "how", "of", "in", "on", "at", "by", "for", "with", "about",
  "from", "to", "into", "through", "over", "between", "as", "is", "are", "was", "were", "be", "been", "being",
  "am", "have", "has", "had", "do", "does", "did", "will", "would", "can", "could", "should", "may", "might",
  "must", "not", "no", "it", "its", "they", "them", "their", "he", "she", "his", "her", "we", "our", "you",
  "your", "i", "me", "my", "there", "here", "just", "very", "really", "also", "only", "even", "still", "all",
  "some", "any", "each", "every", "more", "most", "such", "both", "other", "while", "although", "however",
  "like", "well", "too", "much", "many", "one", "up", "out", "now", "never", "always", "often", "actually",
  "probably", "maybe", "pretty", "lot", "thing", "get", "got", "overall", "various", "additionally", "ensure"
]

/** Hedges: words and phrases that qualify a claim (matched on whole words, lower case). */
export const HEDGES: ReadonlyArray<string> = [
  "may", "might", "could potentially", "potentially", "generally", "typically", "often", "usually", "likely",
  "possibly", "perhaps", "somewhat", "tend to", "tends to", "can be", "can help", "it is possible", "to some extent",
  "in some cases", "arguably", "it depends", "depending on", "in many cases", "may be", "it seems", "relatively"
]

/** Epistemic framing typical of assistant prose: importance, balance, caveats. */
export const EPISTEMIC: ReadonlyArray<string> = [
  "it is important to", "it's important to", "it is essential to", "it's essential to", "it is worth noting",
  "it's worth noting", "it is crucial", "it's crucial", "keep in mind", "it is important", "it's important",
  "crucial", "essential", "vital", "significant", "significantly", "ultimately", "various factors",
  "a variety of", "a range of", "on the other hand", "overall", "in conclusion", "in summary", "remember that",
  "while it", "however, it", "nuanced", "complex", "multifaceted", "it is clear", "undoubtedly"
]

/** Sentence-initial connectives (matched at a sentence start, followed by a comma or a word). */
export const CONNECTIVES: ReadonlyArray<string> = [
  "additionally", "furthermore", "moreover", "however", "overall", "in conclusion", "ultimately", "in summary",
  "therefore", "thus", "consequently", "finally", "firstly", "secondly", "lastly", "in addition", "in essence",
  "as a result", "notably", "importantly", "meanwhile", "nevertheless", "instead", "similarly", "to summarize"
]

/** Informal markers (chat slang, missing apostrophes, interjections). */
export const INFORMAL: ReadonlyArray<string> = [
  "lol", "lmao", "omg", "gonna", "wanna", "gotta", "kinda", "sorta", "u", "ur", "im", "dont", "cant", "thats",
  "idk", "tbh", "btw", "imo", "imho", "yeah", "yep", "nope", "ok", "okay", "haha", "hmm", "ugh", "wtf", "dude",
  "stuff", "damn", "crap", "shit", "fuck", "yea", "nah", "cuz", "coz", "bc", "pls", "plz", "thx", "ya"
]

/** Uncontracted forms, quoted when a long text never contracts. */
const UNCONTRACTED = /\b(?:it is|do not|does not|did not|is not|are not|was not|cannot|can not|will not|would not|should not|I am|they are|we are|you are|that is|there is|I have|I will)\b/i

/** Oxford-comma lists of three or more ("fast, cheap, and reliable"): words of up to three per item. */
const ENUMERATION = /\b[\p{L}'-]+(?: [\p{L}'-]+){0,2}, [\p{L}'-]+(?: [\p{L}'-]+){0,2},? (?:and|or) [\p{L}'-]+(?: [\p{L}'-]+){0,2}/gu
const NOT_ONLY = /\bnot only\b[^.!?\n]{1,80}\bbut also\b/gi
const EM_DASH = /\s?(?:\u2014|--)\s?/g
const ELLIPSIS = /\.{3,}|\u2026/g
const MULTI_PUNCT = /[!?]{2,}/g
const REPEATED_LETTERS = /(\p{L})\1{2,}/gu
const EMOJI = /\p{Extended_Pictographic}/gu
const URL = /\bhttps?:\/\/\S+|\bwww\.\S+/gi
const HANDLE = /(?:^|\s)[@#][\w_]+/g
const BULLET = /^[ \t]*(?:[-*\u2022\u25CF\u25AA]|\d{1,2}[.)])[ \t]+\S/
const HEADING = /^[ \t]*(?:#{1,6}[ \t]+\S|\*\*[^*\n]{2,80}\*\*:?[ \t]*$)/
const BOLD = /\*\*[^*\n]{1,80}\*\*/g

/** The named features, in slot order (part of the feature definition). */
export const FEATURE_NAMES: ReadonlyArray<string> = [
  "len_log", "word_len_mean", "word_len_sd", "long_word_rate", "short_word_rate", "ttr", "hapax",
  "sent_count_log", "sent_len_mean", "sent_len_cv", "sent_len_range", "short_sent_rate", "long_sent_rate", "single_sentence",
  "para_count_log", "newline_rate", "bullet_lines", "heading_lines", "bold",
  "comma", "semicolon", "colon", "exclam", "question", "dquote", "paren", "em_dash", "spaced_hyphen", "ellipsis",
  "multi_punct", "digit_tokens", "contractions", "caps_start", "lower_i", "allcaps", "emoji", "informal",
  "repeated_letters", "pron_1s", "pron_1p", "pron_2", "hedges", "epistemic", "connectives", "enumerations",
  "not_only", "no_contractions", "llm_words", "human_words", "llm_phrases", "human_phrases", "no_final_punct",
  ...FUNCTION_WORDS.map((w) => `fw:${w}`)
]

export const DENSE = FEATURE_NAMES.length
/** Slots reserved for named features at the start of the weight table. */
export const DENSE_SLOTS = 256
const SEED_AI_WORD = 0x7a1e47
const SEED_AI_PAIR = 0x7a1e48
const SEED_AI_SHAPE = 0x7a1e49
const SEED_AI_CHAR = 0x7a1e4a
/** Marks kept in the shape sequence. */
const SHAPE_MARKS = new Set([",", ".", ";", ":", "!", "?", "(", ")", "\"", "\u2014", "-", "\n", "*", "#"])

const INDEX = new Map(FEATURE_NAMES.map((n, i) => [n, i]))

export const featureIndex = (name: string): number => {
  const i = INDEX.get(name) ?? -1
  if (i < 0) throw new Error(`unknown feature ${name}`)
  return i
}

/** The signal type and a one-sentence description of each feature that is reported as a signal. */
export const REPORTED: Readonly<Record<string, { readonly kind: CueKind; readonly say: (quote: string) => string }>> = {
  llm_words: { kind: "word_frequency", say: (q) => `"${q}" is a word LLM rewrites use far more often than the human texts they rewrite.` },
  llm_phrases: { kind: "word_frequency", say: (q) => `"${q}" is a stock phrase of chat-assistant answers.` },
  hashed: { kind: "word_frequency", say: (q) => `"${q}" is more frequent in the machine-written training texts than in the human ones.` },
  connectives: { kind: "stylistic", say: (q) => `The sentence opens with the connective "${q}", a habit of LLM prose.` },
  em_dash: { kind: "stylistic", say: (q) => `An em dash ("${q.trim()}") joins clauses, far more frequent in LLM text than in comments people type.` },
  no_contractions: { kind: "stylistic", say: (q) => `A long text that never contracts ("${q}" rather than the contracted form) reads as formal generated prose.` },
  word_len_mean: { kind: "stylistic", say: (q) => `Long, formal vocabulary ("${q}") raises the average word length above that of typed comments.` },
  enumerations: { kind: "structural", say: (q) => `A balanced enumeration ("${q}"), a common shape of LLM sentences.` },
  not_only: { kind: "structural", say: (q) => `The "not only ... but also" construction ("${q}") is a favourite of LLM prose.` },
  bullet_lines: { kind: "structural", say: (q) => `The text is laid out as list items ("${q}"), as chat models format answers.` },
  heading_lines: { kind: "structural", say: (q) => `The text has headings ("${q}"), as chat models format answers.` },
  bold: { kind: "structural", say: (q) => `Bold markdown ("${q}") of the kind chat models emit.` },
  sent_len_cv: { kind: "structural", say: () => `Sentences are of very even length (low burstiness), where people's sentence lengths vary more.` },
  hedges: { kind: "epistemic", say: (q) => `Hedging ("${q}") qualifies the claim in the cautious register of LLM answers.` },
  epistemic: { kind: "epistemic", say: (q) => `"${q}" frames the point as important or balanced, a stock move of assistant answers.` }
}

export interface AiFeatures {
  /** Word tokens (the shared tokenizer's). */
  readonly words: number
  /** Raw named feature values, `DENSE` of them. */
  readonly dense: Float64Array
  /** Where reportable features were seen. */
  readonly cues: ReadonlyArray<Cue>
  /** Hashed word slots (in `[DENSE_SLOTS, 2^bits)`) and values, when words are on. */
  readonly slots: Int32Array
  readonly values: Float32Array
  /** Where each hashed slot's word or word pair first occurs (undefined for shape features), for quoting. */
  readonly slotRanges: ReadonlyArray<Range | undefined>
}

/** Lower case with the same UTF-16 length as the text (a character whose lower case is longer stays as it is), curly apostrophes folded. */
export const lowerSameLength = (text: string): string => {
  const l = text.toLowerCase()
  const folded = l.length === text.length ? l : Array.from(text, (c) => (c.toLowerCase().length === c.length ? c.toLowerCase() : c)).join("")
  return folded.replace(/\u2019/g, "'")
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}']/u.test(c)

/** Whole-word occurrences of `phrase` (lower case) in `lower`. */
const findPhrase = (lower: string, phrase: string, each: (begin: number, end: number) => void): number => {
  let count = 0
  for (let at = lower.indexOf(phrase); at >= 0; at = lower.indexOf(phrase, at + 1)) {
    const end = at + phrase.length
    const startsWord = isWordChar(phrase[0])
    const endsWord = isWordChar(phrase[phrase.length - 1])
    if (startsWord && isWordChar(lower[at - 1])) continue
    if (endsWord && isWordChar(lower[end])) continue
    count++
    each(at, end)
  }
  return count
}

/** Sentence ranges: ends at `.`, `!`, `?`, `…` followed by space, or at a line break (enough for length statistics). */
export const sentencesOf = (text: string): Array<Range> => {
  const out: Array<Range> = []
  const re = /[^\n.!?\u2026]+(?:[.!?\u2026]+["')\]\u201d\u2019]*|$|(?=\n))/g
  for (const m of text.matchAll(re)) {
    let b = m.index
    let e = b + m[0].length
    while (b < e && /\s/.test(text[b]!)) b++
    while (e > b && /\s/.test(text[e - 1]!)) e--
    if (e > b && /[\p{L}\p{N}]/u.test(text.slice(b, e))) out.push({ begin: b, end: e })
  }
  return out
}

const mean = (xs: ReadonlyArray<number>): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length)
const sd = (xs: ReadonlyArray<number>): number => {
  if (xs.length < 2) return 0
  const m = mean(xs)
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length)
}

/** Moving-average type-token ratio over windows of 40 tokens (the plain ratio below that). */
const mattr = (words: ReadonlyArray<string>, window = 40): number => {
  if (words.length === 0) return 0
  if (words.length <= window) return new Set(words).size / words.length
  const counts = new Map<string, number>()
  let distinct = 0
  let total = 0
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    const c = counts.get(w) ?? 0
    counts.set(w, c + 1)
    if (c === 0) distinct++
    if (i >= window) {
      const old = words[i - window]!
      const d = counts.get(old)! - 1
      counts.set(old, d)
      if (d === 0) distinct--
    }
    if (i >= window - 1) total += distinct / window
  }
  return total / (words.length - window + 1)
}

const FUNCTION_SET = new Set(FUNCTION_WORDS)
const FUNCTION_INDEX = new Map(FUNCTION_WORDS.map((w) => [w, FEATURE_NAMES.indexOf(`fw:${w}`)]))
const INFORMAL_SET = new Set(INFORMAL)
const PRON_1S = new Set(["i", "me", "my", "mine", "myself", "i'm", "i've", "i'd", "i'll"])
const PRON_1P = new Set(["we", "us", "our", "ours", "ourselves", "we're", "we've"])
const PRON_2 = new Set(["you", "your", "yours", "yourself", "you're", "you've", "you'll"])

/** The text with links, @handles and #tags blanked out (spaces, so every offset stays that of the text). */
export const masked = (text: string): string => {
  if (!/[@#]|http|www\./i.test(text)) return text
  const blank = (m: string) => m.replace(/\S/g, " ")
  return text.replace(URL, blank).replace(HANDLE, blank)
}

/**
 * The hashed blocks' slots and sums for one table size: words' and character n-grams' slots are
 * cached (a comment's words mostly recur), and the per-block counts live in reused arrays.
 */
class Hashed {
  private readonly span: number
  private readonly counts: Float64Array
  private readonly sums: Float64Array
  private readonly touched: Array<number> = []
  private readonly words = new Map<string, number>()
  private readonly gramCache = new Map<string, Int32Array>()

  constructor(readonly size: number) {
    this.span = size - DENSE_SLOTS
    this.counts = new Float64Array(size)
    this.sums = new Float64Array(size)
  }

  slot(key: string, seed: number): number {
    return DENSE_SLOTS + (Hashing.hashString(key, seed) % this.span)
  }

  word(w: string): number {
    let s = this.words.get(w)
    if (s === undefined) {
      if (this.words.size >= CACHE_WORDS) this.words.clear()
      s = this.slot(w, SEED_AI_WORD)
      this.words.set(w, s)
    }
    return s
  }

  /** Slots of the character 3- and 4-grams of `<word>`. */
  grams(w: string): Int32Array {
    let g = this.gramCache.get(w)
    if (g === undefined) {
      if (this.gramCache.size >= CACHE_WORDS) this.gramCache.clear()
      const b = `<${w}>`
      const out: Array<number> = []
      for (let len = 3; len <= 4; len++) for (let k = 0; k + len <= b.length; k++) out.push(this.slot(b.slice(k, k + len), SEED_AI_CHAR))
      g = Int32Array.from(out)
      this.gramCache.set(w, g)
    }
    return g
  }

  /** Add one block: sublinear counts of `slots`, L2-normalised. */
  block(slots: ReadonlyArray<number>): void {
    const distinct: Array<number> = []
    for (const s of slots) {
      if (this.counts[s] === 0) distinct.push(s)
      this.counts[s]! += 1
    }
    let norm = 0
    for (const s of distinct) norm += (1 + Math.log(this.counts[s]!)) ** 2
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0
    for (const s of distinct) {
      if (this.sums[s] === 0) this.touched.push(s)
      this.sums[s]! += (1 + Math.log(this.counts[s]!)) * inv
      this.counts[s] = 0
    }
  }

  /** Append (slot, value) pairs of every block added since the last call, and reset. */
  collect(into: Array<number>): void {
    for (const s of this.touched) {
      into.push(s, this.sums[s]!)
      this.sums[s] = 0
    }
    this.touched.length = 0
  }
}

const CACHE_WORDS = 50_000
const hashedBySize = new Map<number, Hashed>()
const hashed = (size: number): Hashed => {
  let h = hashedBySize.get(size)
  if (h === undefined) hashedBySize.set(size, (h = new Hashed(size)))
  return h
}

/**
 * Measure a text. `bits` is the weight table's size (log2); 8 or less: no hashed blocks. `chars`
 * adds a fourth block: character 3- and 4-grams of each word.
 */
export const featurise = (original: string, lexicon: Lexicon, bits = 0, chars = false): AiFeatures => {
  const text = masked(original)
  const F = new Float64Array(DENSE)
  const cues: Array<Cue> = []
  const set = (name: string, v: number) => {
    F[featureIndex(name)] = v
  }
  const cue = (name: string, begin: number, end: number, weight = 1) => {
    if (end > begin) cues.push({ feature: featureIndex(name), begin, end, weight })
  }
  const tokens = tokenize(text)
  const n = tokens.length
  const N = Math.max(n, 1)
  const lower = lowerSameLength(text)
  const words = tokens.map((t) => t.lower)

  // length and vocabulary
  set("len_log", Math.log1p(n))
  const lengths = tokens.map((t) => t.end - t.begin)
  set("word_len_mean", mean(lengths))
  set("word_len_sd", sd(lengths))
  set("long_word_rate", lengths.filter((l) => l >= 9).length / N)
  set("short_word_rate", lengths.filter((l) => l <= 3).length / N)
  set("ttr", mattr(words))
  {
    const counts = new Map<string, number>()
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1)
    let hapax = 0
    for (const c of counts.values()) if (c === 1) hapax++
    set("hapax", counts.size === 0 ? 0 : hapax / counts.size)
  }
  // the longest words, as quotes of the word-length feature
  {
    const longest = tokens.filter((t) => t.end - t.begin >= 11 && !/\d/.test(t.lower)).sort((a, b) => b.end - b.begin - (a.end - a.begin)).slice(0, 2)
    for (const t of longest) cue("word_len_mean", t.begin, t.end, t.end - t.begin)
  }

  // sentences
  const sentences = sentencesOf(text)
  const S = Math.max(sentences.length, 1)
  // words per sentence (both lists in text order)
  const sentLens: Array<number> = []
  {
    let k = 0
    for (const r of sentences) {
      while (k < tokens.length && tokens[k]!.begin < r.begin) k++
      let c = 0
      while (k < tokens.length && tokens[k]!.end <= r.end) {
        c++
        k++
      }
      if (c > 0) sentLens.push(c)
    }
  }
  const sm = mean(sentLens)
  set("sent_count_log", Math.log1p(sentLens.length))
  set("sent_len_mean", sm)
  set("sent_len_cv", sentLens.length >= 2 && sm > 0 ? sd(sentLens) / sm : 0)
  set("sent_len_range", sentLens.length >= 2 && sm > 0 ? (Math.max(...sentLens) - Math.min(...sentLens)) / sm : 0)
  set("short_sent_rate", sentLens.filter((l) => l <= 5).length / S)
  set("long_sent_rate", sentLens.filter((l) => l > 35).length / S)
  set("single_sentence", sentLens.length < 2 ? 1 : 0)
  if (sentences.length >= 3) {
    const s = sentences[0]!
    const cut = Math.min(s.end, s.begin + 100)
    cue("sent_len_cv", s.begin, cut < s.end ? text.lastIndexOf(" ", cut) > s.begin ? text.lastIndexOf(" ", cut) : cut : s.end)
  }
  {
    const last = text.trimEnd()
    set("no_final_punct", n > 0 && !/[.!?\u2026"')\]\u201d]$/.test(last) ? 1 : 0)
  }
  let starts = 0
  let capital = 0
  for (const s of sentences) {
    const ch = text.slice(s.begin).match(/\p{L}/u)
    if (ch === null) continue
    starts++
    if (ch[0] !== ch[0].toLowerCase()) capital++
    // connectives at the sentence start
    const head = lower.slice(s.begin, s.begin + 24)
    for (const c of CONNECTIVES) {
      if (head.startsWith(c) && !isWordChar(head[c.length])) {
        F[featureIndex("connectives")]! += 1
        cue("connectives", s.begin, s.begin + c.length)
        break
      }
    }
  }
  set("caps_start", starts === 0 ? 0 : capital / starts)
  F[featureIndex("connectives")] = F[featureIndex("connectives")]! / S

  // lines and layout
  const lines = text.split("\n")
  const nonEmpty = lines.filter((l) => l.trim() !== "")
  const L = Math.max(nonEmpty.length, 1)
  set("para_count_log", Math.log1p(text.split(/\n\s*\n/).filter((p) => p.trim() !== "").length))
  set("newline_rate", (lines.length - 1) / N)
  {
    let offset = 0
    let bullets = 0
    let headings = 0
    for (const line of lines) {
      if (BULLET.test(line)) {
        bullets++
        const b = offset + line.search(/\S/)
        cue("bullet_lines", b, offset + Math.min(line.trimEnd().length, line.search(/\S/) + 60))
      } else if (HEADING.test(line)) {
        headings++
        const b = offset + line.search(/\S/)
        cue("heading_lines", b, offset + line.trimEnd().length)
      }
      offset += line.length + 1
    }
    set("bullet_lines", bullets / L)
    set("heading_lines", headings / L)
  }
  {
    let bold = 0
    for (const m of text.matchAll(BOLD)) {
      bold++
      cue("bold", m.index, m.index + m[0].length)
    }
    set("bold", bold / S)
  }

  // punctuation, per word
  const countChar = (re: RegExp) => (text.match(re) ?? []).length
  set("comma", countChar(/,/g) / N)
  set("semicolon", countChar(/;/g) / N)
  set("colon", countChar(/:(?!\/\/)/g) / N)
  set("exclam", countChar(/!/g) / N)
  set("question", countChar(/\?/g) / N)
  set("dquote", countChar(/["\u201c\u201d]/g) / N)
  set("paren", countChar(/\(/g) / N)
  {
    let dashes = 0
    for (const m of text.matchAll(EM_DASH)) {
      dashes++
      // the dash with a word either side
      const before = text.slice(0, m.index).match(/[\p{L}\p{N}']+$/u)
      const after = text.slice(m.index + m[0].length).match(/^[\p{L}\p{N}']+/u)
      cue("em_dash", m.index - (before?.[0].length ?? 0), m.index + m[0].length + (after?.[0].length ?? 0))
    }
    set("em_dash", dashes / N)
  }
  set("spaced_hyphen", countChar(/ - /g) / N)
  set("ellipsis", countChar(ELLIPSIS) / N)
  set("multi_punct", countChar(MULTI_PUNCT) / N)
  set("repeated_letters", countChar(REPEATED_LETTERS) / N)
  set("emoji", countChar(EMOJI) / N)

  // words
  let contractions = 0
  let lowerI = 0
  let allcaps = 0
  let informal = 0
  let digits = 0
  let p1s = 0
  let p1p = 0
  let p2 = 0
  let llm = 0
  let human = 0
  for (const t of tokens) {
    const w = t.lower
    if (w.includes("'")) contractions++
    if (text[t.begin] === "i" && t.end - t.begin === 1) lowerI++
    const raw = text.slice(t.begin, t.end)
    if (raw.length >= 2 && /\p{Lu}/u.test(raw) && raw === raw.toUpperCase() && !/\d/.test(raw)) allcaps++
    if (INFORMAL_SET.has(w)) informal++
    if (/^\d/.test(w)) digits++
    if (PRON_1S.has(w)) p1s++
    if (PRON_1P.has(w)) p1p++
    if (PRON_2.has(w)) p2++
    const fi = FUNCTION_INDEX.get(w)
    if (fi !== undefined) F[fi]! += 1 / N
    const r = lexicon.llmWords[w]
    if (r !== undefined) {
      llm += r
      cue("llm_words", t.begin, t.end, r)
    }
    const h = lexicon.humanWords[w]
    if (h !== undefined) human += h
  }
  set("contractions", contractions / N)
  set("lower_i", lowerI / N)
  set("allcaps", allcaps / N)
  set("informal", informal / N)
  set("digit_tokens", digits / N)
  set("pron_1s", p1s / N)
  set("pron_1p", p1p / N)
  set("pron_2", p2 / N)
  set("llm_words", llm / N)
  set("human_words", human / N)
  if (n >= 40 && contractions === 0) {
    const m = UNCONTRACTED.exec(text)
    set("no_contractions", 1)
    if (m !== null) cue("no_contractions", m.index, m.index + m[0].length)
  }

  // phrases
  const phrases = (name: string, list: ReadonlyArray<string>, perWord: boolean) => {
    let c = 0
    for (const p of list) c += findPhrase(lower, p, (b, e) => cue(name, b, e, p.length))
    set(name, perWord ? c / N : c)
  }
  phrases("hedges", HEDGES, true)
  phrases("epistemic", EPISTEMIC, true)
  phrases("llm_phrases", lexicon.llmPhrases, false)
  {
    let c = 0
    for (const p of lexicon.humanPhrases) c += findPhrase(lower, p, () => {})
    set("human_phrases", c)
  }
  {
    let c = 0
    for (const m of text.matchAll(ENUMERATION)) {
      c++
      cue("enumerations", m.index, m.index + m[0].length)
    }
    set("enumerations", c / S)
    let no = 0
    for (const m of text.matchAll(NOT_ONLY)) {
      no++
      cue("not_only", m.index, m.index + m[0].length)
    }
    set("not_only", no / S)
  }

  // hashed blocks (each sublinear counts, L2-normalised on its own): words, word pairs, the text's
  // shape (function words kept, other words as "_", punctuation and line breaks as marks) in
  // threes, and optionally character 3- and 4-grams of each word
  const size = bits > 8 ? 1 << bits : 0
  const ranges = new Map<number, Range>()
  const out: Array<number> = []
  if (size > DENSE_SLOTS) {
    const h = hashed(size)
    const kept = tokens.filter((t) => !/^\d+$/.test(t.lower))
    const words: Array<number> = []
    for (const t of kept) {
      const slot = h.word(t.lower)
      words.push(slot)
      if (!ranges.has(slot)) ranges.set(slot, t)
    }
    h.block(words)
    const pairs: Array<number> = []
    for (let k = 1; k < kept.length; k++) {
      const a = kept[k - 1]!
      const b = kept[k]!
      if (/^[ \t]+$/.test(text.slice(a.end, b.begin))) {
        const slot = h.slot(`${a.lower} ${b.lower}`, SEED_AI_PAIR)
        pairs.push(slot)
        if (!ranges.has(slot)) ranges.set(slot, { begin: a.begin, end: b.end })
      }
    }
    h.block(pairs)
    const shape: Array<string> = []
    let at = 0
    for (const t of tokens) {
      for (let c = at; c < t.begin; c++) {
        const ch = text[c]!
        if (SHAPE_MARKS.has(ch)) shape.push(ch === "\u2014" ? "--" : ch)
      }
      shape.push(FUNCTION_SET.has(t.lower) ? t.lower : "_")
      at = t.end
    }
    for (let c = at; c < text.length; c++) if (SHAPE_MARKS.has(text[c]!)) shape.push(text[c]!)
    const threes: Array<number> = []
    for (let k = 2; k < shape.length; k++) threes.push(h.slot(`${shape[k - 2]} ${shape[k - 1]} ${shape[k]}`, SEED_AI_SHAPE))
    h.block(threes)
    if (chars) {
      const grams: Array<number> = []
      for (const t of kept) for (const slot of h.grams(t.lower)) grams.push(slot)
      h.block(grams)
    }
    h.collect(out)
  }
  const slots = new Int32Array(out.length / 2)
  const values = new Float32Array(out.length / 2)
  const slotRanges: Array<Range | undefined> = []
  for (let k = 0; k < slots.length; k++) {
    slots[k] = out[2 * k]!
    values[k] = out[2 * k + 1]!
    slotRanges.push(ranges.get(slots[k]!))
  }
  return { words: n, dense: F, cues, slots, values, slotRanges }
}
