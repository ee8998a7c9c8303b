/**
 * The AI-written-text detector's weights and scoring: one logistic head over the features of
 * `features.ts` (named style features, standardised, then hashed words), in one weight file
 * written with `internal/model/format.ts`'s codec (one label, `2^bits` slots, the first
 * `DENSE_SLOTS` for the named features).
 *
 * `aitext.json` (its own manifest):
 *
 * ```
 * { format: 1, version, file, sha256, bits, chars?, features[], mean[], scale[], calibration,
 *   threshold, prior?, confidence: { halfWords }, lexicon, sources[], metrics? }
 * ```
 *
 * `likelihood = calibration(z * min(1, words / fullWords))`, `z = bias + sum w_f * clip((x_f - mean_f) / scale_f) + sum w_s * v_s`.
 * `confidence = words / (words + halfWords) * (0.5 + 0.5 * |2 likelihood - 1|)`: under 0.43 below
 * 15 words whatever the score, since the training sets' short texts are where the detector is
 * least often right (the eval prints the figures by length).
 */
import { applyCalibration, type Calibration } from "../calibration.js"
import { decodeQuantised, type SourceRef } from "../model/format.js"
import { type AiFeatures, type Cue, type CueKind, DENSE, DENSE_SLOTS, FEATURE_NAMES, featurise, FUNCTION_WORDS, type Lexicon, REPORTED } from "./features.js"

export const AITEXT_FORMAT = 1

export interface AiTextManifest {
  readonly format: number
  readonly version: string
  readonly file: string
  readonly sha256: string
  readonly bits: number
  /** Whether the character n-gram block is on (absent: off). */
  readonly chars?: boolean
  /** `FEATURE_NAMES` when trained: a model trained on another feature list is refused. */
  readonly features: ReadonlyArray<string>
  readonly mean: ReadonlyArray<number>
  readonly scale: ReadonlyArray<number>
  readonly calibration: Calibration
  /** Likelihood from which a text is called machine-written (0.5: the calibration is moved so, see `prior`). */
  readonly threshold: number
  /** Share of machine-written texts the calibration assumes (the one at which dev's threshold is 0.5). */
  readonly prior?: number
  readonly confidence: { readonly halfWords: number }
  /**
   * Texts shorter than this many words have their log-odds scaled by `words / fullWords` before
   * calibration (absent: no scaling): a short text's rates are noisy, so its likelihood stays near
   * the prior unless the evidence is strong.
   */
  readonly fullWords?: number
  readonly lexicon: Lexicon
  readonly sources: ReadonlyArray<SourceRef>
  readonly metrics?: Readonly<Record<string, unknown>>
}

export interface AiSignalOut {
  readonly type: CueKind
  readonly description: string
  readonly quote: string
  readonly begin: number
  readonly end: number
}

export interface AiScore {
  readonly z: number
  readonly likelihood: number
  readonly confidence: number
  readonly words: number
  readonly signals: ReadonlyArray<AiSignalOut>
  readonly reasoning: string
}

/** Standardised values are clipped to this many deviations (a one-word text has extreme rates). */
const CLIP = 4
/** At most this many signals. */
const MAX_SIGNALS = 8
/** A feature is reported when it adds at least this much to the log-odds. */
const MIN_DRIVE = 0.05

/** A hashed word or word pair is quoted when it adds at least this much. */
const MIN_WORD_DRIVE = 0.15
/** Words and pairs worth quoting: not only function words, and each word of 4+ letters or a pair. */
const quotableWords = (quote: string): boolean => {
  const words = quote.toLowerCase().replace(/\u2019/g, "'").split(/\s+/)
  return words.some((w) => !FUNCTION_SET.has(w)) && (words.length > 1 || /^\p{L}{4,}$/u.test(words[0]!))
}
const FUNCTION_SET = new Set(FUNCTION_WORDS)

/** Plain names of the named features, for the reasoning. */
const DISPLAY: Readonly<Record<string, string>> = {
  contractions: "contractions", informal: "informal words", pron_1s: "first-person voice", lower_i: "a lower-case \"i\"",
  repeated_letters: "stretched words", multi_punct: "repeated punctuation", ellipsis: "trailing dots", emoji: "emoji",
  sent_len_cv: "uneven sentence lengths", exclam: "exclamation marks", question: "questions", allcaps: "capitals",
  human_words: "words people use more than LLMs", human_phrases: "phrases of human answers", no_final_punct: "no final punctuation",
  caps_start: "sentence capitalisation", llm_words: "LLM-typical words", llm_phrases: "assistant stock phrases",
  hedges: "hedging", epistemic: "importance and balance framing", connectives: "sentence-initial connectives",
  enumerations: "balanced enumerations", word_len_mean: "long words", em_dash: "em dashes", bullet_lines: "list layout",
  heading_lines: "headings", comma: "comma rate", len_log: "length", ttr: "vocabulary variety", paren: "parentheses",
  digit_tokens: "numbers", spaced_hyphen: "spaced hyphens", short_sent_rate: "very short sentences", semicolon: "semicolons",
  colon: "colons", dquote: "quotation marks", long_word_rate: "long words", sent_len_mean: "sentence length",
  sent_count_log: "number of sentences", word_len_sd: "spread of word lengths", hapax: "words used once",
  pron_2: "second-person voice", pron_1p: "first-person plural", newline_rate: "line breaks", short_word_rate: "short words"
}
/** A feature that pulled towards human text, said plainly: what it is and which way it differs from the usual. */
const humanLike = (name: string, z: number): string | undefined => {
  const plain = DISPLAY[name] ?? (name.startsWith("fw:") ? `"${name.slice(3)}"` : undefined)
  return plain === undefined ? undefined : `${plain} (${z > 0 ? "more" : "less"} than usual)`
}

export class AiTextWeights {
  readonly manifest: AiTextManifest
  private readonly weights: Float32Array
  private readonly bias: number
  private readonly mean: Float64Array
  private readonly inv: Float64Array

  constructor(manifest: AiTextManifest, bytes: Uint8Array) {
    if (manifest.format !== AITEXT_FORMAT) throw new Error(`aitext manifest format ${manifest.format} is not ${AITEXT_FORMAT}`)
    if (manifest.features.length !== DENSE || manifest.features.some((f, i) => f !== FEATURE_NAMES[i])) {
      throw new Error("aitext manifest was trained on another feature list")
    }
    if (manifest.mean.length !== DENSE || manifest.scale.length !== DENSE) throw new Error("aitext manifest: mean/scale do not match the features")
    const t = decodeQuantised(bytes)
    if (t.labels !== 1 || t.bits !== manifest.bits) throw new Error("aitext weight file does not match its manifest")
    if (1 << t.bits < DENSE_SLOTS) throw new Error("aitext weight file too small")
    this.manifest = manifest
    this.weights = new Float32Array(t.q.length)
    for (let i = 0; i < t.q.length; i++) this.weights[i] = t.q[i]! * t.scales[0]!
    this.bias = t.bias[0]!
    this.mean = Float64Array.from(manifest.mean)
    this.inv = Float64Array.from(manifest.scale, (s) => (s > 0 ? 1 / s : 0))
  }

  /** Standardised, clipped named features. */
  standardise(dense: Float64Array): Float64Array {
    const z = new Float64Array(DENSE)
    for (let i = 0; i < DENSE; i++) z[i] = Math.max(-CLIP, Math.min(CLIP, (dense[i]! - this.mean[i]!) * this.inv[i]!))
    return z
  }

  /** The log-odds the calibration reads: scaled down for texts under `fullWords` words. */
  damp(z: number, words: number): number {
    const full = this.manifest.fullWords
    return full === undefined || words >= full ? z : (z * words) / full
  }

  /** Raw log-odds of featurised text. */
  logOdds(f: AiFeatures): number {
    const z = this.standardise(f.dense)
    let s = this.bias
    for (let i = 0; i < DENSE; i++) s += this.weights[i]! * z[i]!
    for (let k = 0; k < f.slots.length; k++) s += this.weights[f.slots[k]!]! * f.values[k]!
    return s
  }

  analyse(text: string): AiScore {
    const f = featurise(text, this.manifest.lexicon, this.manifest.bits, this.manifest.chars === true)
    if (f.words === 0) {
      return { z: 0, likelihood: 0, confidence: 0, words: 0, signals: [], reasoning: "The text has no words to judge, so nothing suggests it was machine-written." }
    }
    const zs = this.standardise(f.dense)
    let z = this.bias
    const drive = new Float64Array(DENSE)
    for (let i = 0; i < DENSE; i++) {
      drive[i] = this.weights[i]! * zs[i]!
      z += drive[i]!
    }
    const wordDrive: Array<{ token: { begin: number; end: number }; d: number }> = []
    for (let k = 0; k < f.slots.length; k++) {
      const d = this.weights[f.slots[k]!]! * f.values[k]!
      z += d
      const range = f.slotRanges[k]
      if (d > MIN_WORD_DRIVE && range !== undefined && quotableWords(text.slice(range.begin, range.end))) wordDrive.push({ token: range, d })
    }
    const likelihood = applyCalibration(this.manifest.calibration, this.damp(z, f.words))
    const lengthFactor = f.words / (f.words + this.manifest.confidence.halfWords)
    const confidence = lengthFactor * (0.5 + 0.5 * Math.abs(2 * likelihood - 1))
    const signals = this.signals(text, f.cues, drive, wordDrive)
    const reasoning = this.reason(f.words, likelihood, confidence, signals, drive, zs)
    return { z, likelihood, confidence, words: f.words, signals, reasoning }
  }

  private signals(
    text: string,
    cues: ReadonlyArray<Cue>,
    drive: Float64Array,
    wordDrive: ReadonlyArray<{ token: { begin: number; end: number }; d: number }>
  ): Array<AiSignalOut> {
    const byFeature = new Map<number, Array<Cue>>()
    for (const c of cues) {
      const list = byFeature.get(c.feature) ?? []
      list.push(c)
      byFeature.set(c.feature, list)
    }
    const candidates: Array<{ strength: number; signal: AiSignalOut }> = []
    const taken: Array<{ begin: number; end: number }> = []
    const overlaps = (b: number, e: number) => taken.some((t) => b < t.end && t.begin < e)
    for (const [feature, list] of byFeature) {
      const name = FEATURE_NAMES[feature]!
      const report = REPORTED[name]
      const d = drive[feature]!
      if (report === undefined || d < MIN_DRIVE) continue
      const sorted = [...list].sort((a, b) => b.weight - a.weight || a.begin - b.begin)
      const seen = new Set<string>()
      let k = 0
      for (const c of sorted) {
        const quote = text.slice(c.begin, c.end)
        if (seen.has(quote.toLowerCase())) continue
        seen.add(quote.toLowerCase())
        candidates.push({ strength: d / (1 + k), signal: { type: report.kind, description: report.say(quote), quote, begin: c.begin, end: c.end } })
        if (++k >= 2) break
      }
    }
    const hashed = REPORTED["hashed"]!
    for (const w of [...wordDrive].sort((a, b) => b.d - a.d).slice(0, 3)) {
      const quote = text.slice(w.token.begin, w.token.end)
      candidates.push({ strength: w.d, signal: { type: hashed.kind, description: hashed.say(quote), quote, begin: w.token.begin, end: w.token.end } })
    }
    candidates.sort((a, b) => b.strength - a.strength || a.signal.begin - b.signal.begin)
    const out: Array<AiSignalOut> = []
    for (const c of candidates) {
      if (out.length >= MAX_SIGNALS) break
      if (overlaps(c.signal.begin, c.signal.end)) continue
      taken.push({ begin: c.signal.begin, end: c.signal.end })
      out.push(c.signal)
    }
    return out
  }

  private reason(words: number, likelihood: number, confidence: number, signals: ReadonlyArray<AiSignalOut>, drive: Float64Array, zs: Float64Array): string {
    const pct = Math.round(likelihood * 100)
    const parts: Array<string> = []
    const verdict = likelihood >= this.manifest.threshold ? "reads as machine-written" : likelihood >= 0.35 ? "is hard to call" : "reads as human-written"
    parts.push(`The text ${verdict} (likelihood ${pct}%, ${words} word${words === 1 ? "" : "s"}).`)
    if (signals.length > 0) {
      parts.push(`Machine-like signs: ${signals.slice(0, 4).map((s) => `"${s.quote.length > 40 ? s.quote.slice(0, 40) + "..." : s.quote}" (${s.type.replace("_", " ")})`).join(", ")}.`)
    }
    const pulls: Array<{ d: number; i: number }> = []
    for (let i = 0; i < drive.length; i++) if (drive[i]! < -0.15) pulls.push({ d: drive[i]!, i })
    const human = pulls
      .sort((a, b) => a.d - b.d)
      .map((x) => humanLike(FEATURE_NAMES[x.i]!, zs[x.i]!))
      .filter((say) => say !== undefined)
      .slice(0, 3)
    if (human.length > 0) parts.push(`Human-like: ${human.join(", ")}.`)
    if (words < 15) parts.push(`With only ${words} words the evidence is thin, so confidence is low (${confidence.toFixed(2)}).`)
    return parts.join(" ")
  }
}
