/**
 * The dog-whistle detector: the curated term resource (`dogwhistle.json`), the in-context model
 * (`dogwhistle.bin`, one logistic head in the weight-file format of `model/format.ts`) and the
 * analysis of a comment.
 *
 * For every term hit the matcher finds, the head scores whether the term is used in its coded sense
 * from (a) the words of the whole comment with the term itself replaced by a placeholder, (b) the
 * words within `window` tokens of it (a separate feature namespace), and (c) what the resource says
 * of the term: its glossary type, register and in-group, and an identity feature for the root and
 * one for the surface form (a learned per-term prior; a term never seen in training falls back to
 * its type/register/in-group). The term's own words are never context features, so the model
 * cannot learn the term alone, and the community a comment came from is not an input.
 *
 * Request inputs shift the log-odds (each shift is a manifest number, documented in
 * docs/dogwhistles.md):
 * - a site example (`examples`) is watched for in its surface form and obvious variants; its hits
 *   have no glossary features and get `shifts.site` (the site says it is used as code there);
 * - `sensitiveTopics`: a hit whose root, in-group, covert meaning or in-group's subjects
 *   (`topicWords`) share a word stem (first five letters) with a sensitive topic gets `shifts.topic`; any hit in a comment that itself mentions a topic gets
 *   `shifts.topicInComment`;
 * - `context` (what the comment replies to): when the context has a term judged coded, every hit
 *   of the comment gets `shifts.context`; a hit of the same root as one in the context gets it twice.
 * - symbol forms (numbers such as `88`, emoji) get `shifts.symbol` (a number or an emoji is mostly
 *   literal; the context has to carry it).
 */
import { sigmoid } from "../calibration.js"
import { Hashing } from "@decorum/core"
import { Featurizer, type FeatureConfig } from "../model/features.js"
import { decodeWeights } from "../model/format.js"
import { type FormSpec, type MatchToken, matchTokens, type TermHit, TermMatcher } from "./matcher.js"

export const DOGWHISTLE_FORMAT = 1

export interface DogWhistleTerm {
  /** The glossary's canonical term (`Dogwhistle`). */
  readonly root: string
  /** `term_key`: the root lower-cased with everything but [a-z0-9] removed. */
  readonly key: string
  /** The glossary's `Persona/In-Group` (e.g. `antisemitic`). */
  readonly category: string
  /** The glossary's `Type` (e.g. `concept (policy)`). */
  readonly type: string
  /** `Formal/Offline` or `Informal/Online`. */
  readonly register: string
  /** The covert (in-group) meaning, one sentence. */
  readonly meaning: string
  /** 0-1, from type and register. */
  readonly subtlety: number
  /** 0-1, from type and in-group. */
  readonly harm: number
  /** The surface forms watched for (curated from the glossary's `Surface Forms`). */
  readonly forms: ReadonlyArray<FormSpec>
  /** Triple parentheses around a name belong to this term. */
  readonly echo?: boolean | undefined
}

export interface DogWhistleShifts {
  readonly symbol: number
  readonly site: number
  readonly topic: number
  readonly topicInComment: number
  readonly context: number
}

export interface DogWhistleManifest {
  readonly format: number
  readonly version: string
  /** The weight file (one head) and its sha256. */
  readonly file: string
  readonly sha256: string
  readonly features: FeatureConfig
  /** Tokens on each side of a hit read as its near context. */
  readonly window: number
  /**
   * Weight of the block of the matched text's own words and character n-grams (0 or absent: no
   * such block). Lets a term never trained on borrow from similar spellings (`cuckservative`).
   */
  readonly termBlock?: number | undefined
  /** Probability from which a hit is reported as coded (chosen on dev). */
  readonly threshold: number
  readonly shifts: DogWhistleShifts
  readonly terms: ReadonlyArray<DogWhistleTerm>
  /**
   * Words of the subjects each in-group's coded language is about (`anti-Latino`: immigration,
   * border, ...), matched against a request's sensitive topics besides the term's own words.
   */
  readonly topicWords?: Readonly<Record<string, ReadonlyArray<string>>> | undefined
  readonly sources: ReadonlyArray<{ readonly dataset: string; readonly license: string; readonly use: string }>
  /** Free-form notes (how it was trained, dev figures). */
  readonly notes?: Readonly<Record<string, unknown>>
}

const SALT_WINDOW = 0x5a5a5a5
const SALT_TERM = 0x7e77e77
const SEED_META = 0x0d09e11
const PLACEHOLDER = " dwterm "

/** A term hit in feature terms: what the featuriser needs besides the text. */
export interface HitFeatures {
  readonly begin: number
  readonly end: number
  readonly firstToken: number
  readonly lastToken: number
  /** Glossary metadata (absent for a site example). */
  readonly term?: DogWhistleTerm | undefined
  /** The matched surface form's text (`forms[i].text`), or the site example. */
  readonly form: string
  readonly symbol: boolean
}

/**
 * Whether a surface form is a bare number or symbol, mostly used literally: one token without
 * letters of at most three characters (`88`, `🐻`), a percentage (`41%`), or a number and a word
 * (`14 words`, `41 percent`). `14/88`, `1488` and `(((...)))` are not.
 */
export const isSymbolForm = (form: string): boolean => {
  const f = form.trim()
  if (/^\d{1,3}\s*%$/.test(f) || /^\d{1,3} [a-z]+$/i.test(f)) return true
  if (/\p{L}/u.test(f)) return false
  const tokens = matchTokens(f)
  return tokens.length === 1 && tokens[0]!.key.length <= 3
}

const metaKey = (s: string) => s.toLowerCase().replace(/[^a-z0-9%/]+/g, " ").trim()

/**
 * The feature row of one hit: idx/val arrays (slots before masking). Shared by training and runtime,
 * so the weights always see the same features.
 */
export class HitFeaturizer {
  readonly featurizer: Featurizer
  idx: Array<number> = []
  val: Array<number> = []

  constructor(readonly config: FeatureConfig, readonly window: number, readonly termBlock: number = 0) {
    this.featurizer = new Featurizer(config)
  }

  private commentText: string | undefined
  private commentSpans = ""
  private commentIdx: Array<number> = []
  private commentVal: Array<number> = []

  /**
   * The whole-comment block, computed once per comment: the text with every hit replaced by the
   * placeholder (no term's own words are context, for any of them).
   */
  private comment(text: string, spans: ReadonlyArray<{ readonly begin: number; readonly end: number }>) {
    const key = spans.map((s) => `${s.begin}-${s.end}`).join(",")
    if (this.commentText === text && this.commentSpans === key) return
    let masked = ""
    let at = 0
    for (const s of [...spans].sort((a, b) => a.begin - b.begin)) {
      if (s.begin < at) continue
      masked += text.slice(at, s.begin) + PLACEHOLDER
      at = s.end
    }
    masked += text.slice(at)
    const f = this.featurizer
    f.run(masked)
    this.commentIdx = Array.from(f.idx.subarray(0, f.nnz))
    this.commentVal = Array.from(f.val.subarray(0, f.nnz))
    this.commentText = text
    this.commentSpans = key
  }

  /** The features of `hit`; `spans` are every hit of the comment (masked in the whole-comment block). */
  run(text: string, tokens: ReadonlyArray<MatchToken>, hit: HitFeatures, spans: ReadonlyArray<{ readonly begin: number; readonly end: number }> = [hit]): number {
    const idx = this.idx
    const val = this.val
    idx.length = 0
    val.length = 0
    const f = this.featurizer
    // (a) the whole comment, every hit replaced by a placeholder
    this.comment(text, spans)
    for (let k = 0; k < this.commentIdx.length; k++) {
      idx.push(this.commentIdx[k]!)
      val.push(this.commentVal[k]!)
    }
    // (b) the near context, its own namespace
    const a = Math.max(0, hit.firstToken - this.window)
    const b = Math.min(tokens.length - 1, hit.lastToken + this.window)
    const left = tokens.length > 0 && a < hit.firstToken ? text.slice(tokens[a]!.begin, hit.begin) : ""
    const right = tokens.length > 0 && b > hit.lastToken ? text.slice(hit.end, tokens[b]!.end) : ""
    f.run(left + PLACEHOLDER + right)
    for (let k = 0; k < f.nnz; k++) {
      idx.push((f.idx[k]! ^ SALT_WINDOW) >>> 0)
      val.push(f.val[k]! * 0.7)
    }
    // the matched text itself
    if (this.termBlock > 0) {
      f.run(text.slice(hit.begin, hit.end))
      for (let k = 0; k < f.nnz; k++) {
        idx.push((f.idx[k]! ^ SALT_TERM) >>> 0)
        val.push(f.val[k]! * this.termBlock)
      }
    }
    // (c) what the resource says of the term (the per-term / per-type prior)
    const meta = (s: string) => {
      idx.push(Hashing.hashString(s, SEED_META))
      val.push(1)
    }
    meta(hit.symbol ? "kind:symbol" : "kind:word")
    if (hit.term === undefined) meta("site")
    else {
      meta(`type:${hit.term.type}`)
      meta(`register:${hit.term.register}`)
      meta(`ingroup:${hit.term.category}`)
      meta(`type-register:${hit.term.type}|${hit.term.register}`)
      meta(`root:${hit.term.key}`)
      meta(`form:${metaKey(hit.form)}`)
    }
    return idx.length
  }
}

/** A hit with its score, before the request's shifts. */
export interface ScoredHit {
  readonly hit: TermHit
  readonly term: DogWhistleTerm | undefined
  readonly form: string
  readonly symbol: boolean
  /** Head log-odds (bias included), without the request's shifts. */
  readonly z: number
}

/** One input of `analyse` (the port's `DogWhistleInput`). */
export interface AnalyseInput {
  readonly comment: string
  readonly sensitiveTopics: ReadonlyArray<string>
  readonly examples: ReadonlyArray<string>
  readonly context: ReadonlyArray<string>
}

export interface DogWhistleHit {
  /** Verbatim slice of `comment`: comment.slice(begin, end) === term. */
  readonly term: string
  readonly begin: number
  readonly end: number
  /** The glossary term (or the site's example) this surface form belongs to. */
  readonly root: string
  /** Category label for `categories[]`, e.g. the glossary in-group ("antisemitic", "racist", ...). */
  readonly category: string
  /** One sentence on the covert meaning, used in `reasoning`. */
  readonly meaning: string
  /** Probability the term is used in its coded sense here (0-1). */
  readonly probability: number
  readonly source: "glossary" | "site"
}

/** A hit as the port reports it, with what the scorer knows besides. */
export interface AnalysedHit extends DogWhistleHit {
  readonly type: string
  readonly subtlety: number
  readonly harm: number
}

export interface Analysis {
  readonly detected: boolean
  readonly confidence: number
  readonly hits: ReadonlyArray<AnalysedHit>
  /** Every hit found, coded or not, strongest first. */
  readonly candidates: ReadonlyArray<AnalysedHit>
  readonly subtlety: number
  readonly harm: number
  readonly reasoning: string
}

/** Word stems (first five letters) of a text, for topic overlap. */
const stems = (s: string): Set<string> => {
  const out = new Set<string>()
  for (const t of matchTokens(s)) if (t.word && t.key.length >= 4 && !STOP.has(t.key)) out.add(t.key.slice(0, 5))
  return out
}
const STOP = new Set(["that", "this", "with", "from", "they", "them", "their", "there", "about", "which", "signal", "reference", "people", "used", "term", "word", "code", "coded", "refers", "referring", "when", "where", "have", "been", "being", "against", "other", "into", "some", "more", "most", "like", "also", "than", "then", "only", "over", "such", "what", "were"])

/** The site examples as extra terms (no glossary metadata). */
const SITE_PRIOR_NOTE = "a term this site has seen used as coded language"

export class DogWhistleScorer {
  readonly weights: Float32Array
  readonly bias: number
  readonly mask: number
  private readonly matcher: TermMatcher
  private readonly hf: HitFeaturizer
  private readonly termStems: ReadonlyArray<Set<string>>
  private readonly siteCache = new Map<string, TermMatcher>()

  constructor(readonly manifest: DogWhistleManifest, weightBytes: Uint8Array) {
    if (manifest.format !== DOGWHISTLE_FORMAT) throw new Error(`dogwhistle manifest format ${manifest.format} is not supported`)
    const table = decodeWeights(weightBytes)
    if (table.labels !== 1) throw new Error("dogwhistle weight file must hold one head")
    if (table.bits !== manifest.features.bits) throw new Error(`dogwhistle weight file has 2^${table.bits} slots, manifest says 2^${manifest.features.bits}`)
    this.weights = table.weights
    this.bias = table.bias[0]!
    this.mask = (1 << table.bits) - 1
    const echo = manifest.terms.findIndex((t) => t.echo === true)
    this.matcher = new TermMatcher(manifest.terms.map((t) => t.forms), echo >= 0 ? echo : undefined)
    this.hf = new HitFeaturizer(manifest.features, manifest.window, manifest.termBlock ?? 0)
    this.termStems = manifest.terms.map((t) => stems(`${t.root} ${t.category} ${t.meaning} ${(manifest.topicWords?.[t.category] ?? []).join(" ")}`))
  }

  /** Log-odds of one hit from its features (bias included). */
  scoreFeatures(): number {
    let z = this.bias
    const { idx, val } = this.hf
    for (let k = 0; k < idx.length; k++) z += this.weights[idx[k]! & this.mask]! * val[k]!
    return z
  }

  private siteMatcher(examples: ReadonlyArray<string>): TermMatcher | undefined {
    const clean = examples.map((e) => e.trim()).filter((e) => e.length > 0 && e.length <= 200).slice(0, 200)
    if (clean.length === 0) return undefined
    const key = clean.join("\u0000")
    let m = this.siteCache.get(key)
    if (m === undefined) {
      m = new TermMatcher(clean.map((e) => [{ text: e }]))
      if (this.siteCache.size > 256) this.siteCache.clear()
      this.siteCache.set(key, m)
    }
    return m
  }

  /** Every hit of the glossary terms (and of `examples`) in `text`, scored without shifts. */
  scoreHits(text: string, examples: ReadonlyArray<string> = []): Array<ScoredHit> {
    const tokens = matchTokens(text)
    const out: Array<ScoredHit> = []
    const glossary = this.matcher.match(text, tokens)
    const site = this.siteMatcher(examples)
    const siteHits = site === undefined ? [] : site.match(text, tokens)
    const spans = [...glossary, ...siteHits]
    for (const hit of glossary) {
      const term = this.manifest.terms[hit.term]!
      const form = hit.form >= 0 ? term.forms[hit.form]!.text : text.slice(hit.begin, hit.end)
      const symbol = hit.form >= 0 ? isSymbolForm(form) : true
      this.hf.run(text, tokens, { ...hit, term, form, symbol }, spans)
      out.push({ hit, term, form, symbol, z: this.scoreFeatures() + (symbol ? this.manifest.shifts.symbol : 0) })
    }
    if (siteHits.length > 0) {
      const clean = examples.map((e) => e.trim()).filter((e) => e.length > 0 && e.length <= 200).slice(0, 200)
      for (const hit of siteHits) {
        // a site example that is also a glossary hit is reported once, as the site's
        const form = clean[hit.term]!
        const symbol = isSymbolForm(form)
        this.hf.run(text, tokens, { ...hit, term: undefined, form, symbol }, spans)
        const z = this.scoreFeatures() + this.manifest.shifts.site
        const overlapping = out.findIndex((o) => o.hit.begin < hit.end && hit.begin < o.hit.end)
        if (overlapping >= 0) out.splice(overlapping, 1)
        out.push({ hit, term: undefined, form, symbol, z })
      }
    }
    return out.sort((a, b) => a.hit.begin - b.hit.begin)
  }

  analyse(input: AnalyseInput): Analysis {
    const { comment } = input
    const threshold = this.manifest.threshold
    const shifts = this.manifest.shifts
    const scored = this.scoreHits(comment, input.examples)
    // the thread: coded language in what the comment replies to
    let contextCoded = false
    const contextRoots = new Set<string>()
    if (scored.length > 0) {
      for (const c of input.context.slice(0, 5)) {
        for (const s of this.scoreHits(c.slice(0, 5000), input.examples)) {
          if (sigmoid(s.z) >= threshold) {
            contextCoded = true
            contextRoots.add(s.term?.key ?? s.form.toLowerCase())
          }
        }
      }
    }
    const topicStems = input.sensitiveTopics.map(stems)
    const commentStems = topicStems.length > 0 ? stems(comment) : new Set<string>()
    const topicInComment = topicStems.some((t) => [...t].some((s) => commentStems.has(s)))
    const candidates: Array<AnalysedHit> = scored.map((s) => {
      let z = s.z
      const tStems = s.term === undefined ? stems(s.form) : this.termStems[this.manifest.terms.indexOf(s.term)]!
      if (topicStems.some((t) => [...t].some((x) => tStems.has(x)))) z += shifts.topic
      if (topicInComment) z += shifts.topicInComment
      if (contextCoded) z += shifts.context
      if (contextRoots.has(s.term?.key ?? s.form.toLowerCase())) z += shifts.context
      const t = s.term
      return {
        term: comment.slice(s.hit.begin, s.hit.end),
        begin: s.hit.begin,
        end: s.hit.end,
        root: t?.root ?? s.form,
        category: t?.category ?? "site example",
        meaning: t?.meaning ?? SITE_PRIOR_NOTE,
        probability: sigmoid(z),
        source: t === undefined ? "site" : "glossary",
        type: t?.type ?? "site example",
        subtlety: t?.subtlety ?? 0.6,
        harm: t?.harm ?? 0.6
      }
    })
    candidates.sort((a, b) => b.probability - a.probability || a.begin - b.begin)
    const hits = candidates.filter((h) => h.probability >= threshold)
    const detected = hits.length > 0
    const top = candidates[0]
    // a short comment gives the model little context beyond the term itself: the verdict's
    // confidence is drawn toward 0.5 below 15 words
    const words = matchTokens(comment).filter((t) => t.word).length
    const lengthFactor = Math.min(1, 0.5 + words / 30)
    const raw = detected ? hits[0]!.probability : top !== undefined ? 1 - top.probability : 0.8
    const confidence = 0.5 + (raw - 0.5) * lengthFactor
    const subtlety = detected ? Math.max(...hits.map((h) => h.subtlety)) : 0
    const harm = detected ? Math.max(...hits.map((h) => h.harm * Math.min(1, 0.5 + h.probability / 2))) : 0
    return { detected, confidence: round(confidence), hits, candidates, subtlety: round(subtlety), harm: round(harm), reasoning: reasoningOf(hits, candidates, contextCoded) }
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000

const reasoningOf = (hits: ReadonlyArray<AnalysedHit>, candidates: ReadonlyArray<AnalysedHit>, contextCoded: boolean): string => {
  if (hits.length > 0) {
    const parts = hits.slice(0, 5).map((h) =>
      h.source === "site"
        ? `"${h.term}" is a term this site has listed as coded language, and its use here reads as coded (${pct(h.probability)}).`
        : `"${h.term}" (${h.root}) is ${article(h.category)} ${h.category} dog whistle (${h.type}): ${stripDot(h.meaning)}. Read in context as coded (${pct(h.probability)}).`
    )
    if (contextCoded) parts.push("The comment replies to a thread that already uses coded language.")
    return parts.join(" ")
  }
  if (candidates.length > 0) {
    const names = candidates.slice(0, 3).map((c) => `"${c.term}"`).join(", ")
    return `${names} can be coded language (${candidates[0]!.category}), but here ${candidates.length === 1 ? "it reads" : "they read"} as the literal sense (coded: ${pct(candidates[0]!.probability)}), so nothing was flagged.`
  }
  return "No term from the dog-whistle glossary or the site's examples appears in the comment. Coded terms not in the glossary (or coined after it) cannot be recognised offline."
}

const pct = (p: number) => `${Math.round(p * 100)}%`
const stripDot = (s: string) => s.trim().replace(/[.\s]+$/, "")
const article = (w: string) => (/^[aeiou]/i.test(w) ? "an" : "a")
