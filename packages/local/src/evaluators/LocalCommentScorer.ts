/**
 * Comment scoring on the local model (`AttributeModel`) plus phrase heuristics:
 * objectionable phrases from the model's explanations, negative tone from dismissive phrases and
 * strongly negative words, fallacies from the trained detector (`FallacyModel`, when provided;
 * otherwise from phrase patterns), low effort, a 1-5 quality score and the toxicity probability
 * with a sentence naming its drivers.
 */
import { CommentScorer } from "@decorum/core"
import { analysedOf, type CommentScoreInput, type Evaluated, Fallacies, Native, ProviderFailure } from "@decorum/domain"
import { Effect, Layer, Option } from "effect"
import { AttributeModel, type AttributeModelService, type ModelLabel, type TextAnalysis } from "../AttributeModel.js"
import { FallacyModel, type FallacyModelService } from "../FallacyModel.js"
import { LanguageModels, type LanguageModelsService } from "../LanguageModels.js"
import { SpanModel, type SpanModelService } from "../SpanModel.js"
import { fallacyItems, fallacyName } from "./FallacyItems.js"
import { ModelAnalysis, Sentences, Tokens } from "../internal/analyses.js"
import { findFallacies } from "../internal/cues/fallacies.js"
import { qualityScore, QualityWeights } from "./Quality.js"
import { PhraseMatcher } from "../internal/cues/phrases.js"
import { EVIDENCE_PHRASES, MILD_PROFANITY, SECOND_PERSON } from "../internal/cues/wordLists.js"
import { lowEffortForm } from "../internal/cues/patterns.js"
import { sigmoid } from "../internal/calibration.js"
import { findDismissive, findNegativeWords } from "../internal/cues/tone.js"
import { clamp01, type Range, round4, type Token, verbatimOnly } from "../internal/text/words.js"

const evidencePhrases = new PhraseMatcher(EVIDENCE_PHRASES)

/** Labels whose explanations become objectionable phrases, most serious first. */
const OBJECTIONABLE: ReadonlyArray<ModelLabel> = ["THREAT", "IDENTITY_ATTACK", "INSULT", "PROFANITY", "TOXICITY"]
/** The labels the scorer reads (a head no output reads, SEVERE_TOXICITY, is not scored: it cost a pass for nothing). */
const SCORED: ReadonlyArray<ModelLabel> = [...OBJECTIONABLE, "CONSTRUCTIVE", "LOW_EFFORT"]

/**
 * How objectionable phrases are cut from the toxicity heads' explanations when no toxic-span
 * tagger (`SpanModel`) is provided; with one, the defaults still decide whether the heads find a
 * comment objectionable. Chosen on the toxic-spans train split before the tagger existed.
 */
export interface SpanOptions {
  /** Minimum contribution (log-odds) for a span to count as objectionable. */
  readonly spanThreshold: number
  /** Minimum label probability for its spans to count (PROFANITY: `profanityThreshold`). */
  readonly labelThreshold: number
  readonly profanityThreshold: number
  /** Spans read per label. */
  readonly perLabel: number
  /** Nested spans: keep the outer one ("You are an idiot") or the inner ones ("idiot"). */
  readonly nested: "outer" | "inner"
  /**
   * Word-level evidence: a span is cut down to the run from its first to its last word that the
   * span's heads score at least this on its own ("you are an idiot" -> "idiot"; "stupid lying
   * idiot" stays whole); 0 keeps spans as explained.
   */
  readonly wordLevel: number
  /** A span none of whose words reaches `wordLevel` on its own: kept whole (true) or dropped. */
  readonly keepUnsupported: boolean
}

export const SPAN_DEFAULTS: SpanOptions = { spanThreshold: 1.8, labelThreshold: 0.3, profanityThreshold: 0.15, perLabel: 6, nested: "outer", wordLevel: 0, keepUnsupported: true }

/**
 * With the toxic-span tagger, the head probabilities from which the heads' explanations decide
 * that a comment is objectionable (so the tagger quotes its spans, and the 1-5 grade counts the
 * explained spans); below them only the tagger's confident words are quoted.
 *
 * Kept at `SPAN_DEFAULTS`' values for local-2026.12.7: on dev (`run.mjs qualitydev`, the toxic-spans
 * dev posts against the 4,791 constructive C3 comments of the training articles) no gate brings the
 * quotes back to 11.3's share (9.35%) without giving up dev F1 that 12.7's heads gained (0.6111 ->
 * 0.6221 at 13.02%): spanThreshold 2.4 quotes 9.20% at 0.6162, TOXICITY at 0.6 9.64% at 0.5890,
 * every label at 0.55 9.23% at 0.5939.
 */
export interface QuoteGate {
  readonly labelThreshold: number
  /** TOXICITY's own level (the head that reads the others). */
  readonly toxicityThreshold: number
  readonly profanityThreshold: number
  /** Minimum contribution (log-odds) of an explained span. */
  readonly spanThreshold: number
}

export const QUOTE_GATE: QuoteGate = {
  labelThreshold: SPAN_DEFAULTS.labelThreshold,
  toxicityThreshold: SPAN_DEFAULTS.labelThreshold,
  profanityThreshold: SPAN_DEFAULTS.profanityThreshold,
  spanThreshold: SPAN_DEFAULTS.spanThreshold
}

const gateOf = (label: ModelLabel, gate: QuoteGate): number =>
  label === "PROFANITY" ? gate.profanityThreshold : label === "TOXICITY" ? gate.toxicityThreshold : gate.labelThreshold

/** A word's probability under a label on its own, remembered in `scores` (one comment's: words repeat within it). */
const wordProbability = (model: AttributeModelService, scores: Map<string, number>, label: ModelLabel, word: string): number => {
  const key = `${label}\u0000${word}`
  let p = scores.get(key)
  if (p === undefined) {
    p = model.predict(model.analyse(word), [label])[label] ?? 0
    scores.set(key, p)
  }
  return p
}

/** The span cut to the words that carry it (see `SpanOptions.wordLevel`), or null to drop it. */
const wordLevelCut = (
  model: AttributeModelService,
  scores: Map<string, number>,
  text: string,
  tokens: ReadonlyArray<Token>,
  span: Span,
  o: SpanOptions
): Span | null => {
  if (o.wordLevel <= 0) return span
  let first = -1
  let last = -1
  for (const t of tokens) {
    if (t.begin < span.begin) continue
    if (t.end > span.end) break
    const word = text.slice(t.begin, t.end).toLowerCase()
    let p = 0
    for (const l of span.labels) p = Math.max(p, wordProbability(model, scores, l, word))
    if (p >= o.wordLevel) {
      if (first < 0) first = t.begin
      last = t.end
    }
  }
  if (first < 0) return o.keepUnsupported ? span : null
  return { begin: first, end: last, labels: span.labels, weight: span.weight }
}
const MAX_ITEMS = 10

/** Words after an intensifying profanity that make "drop the profanity" a wrong rewrite. */
const NOT_A_HEAD = new Set([
  "around", "with", "up", "off", "me", "you", "him", "her", "them", "it", "us", "the", "a", "an", "that", "this", "over",
  "about", "everything", "everyone", "out", "on", "in", "to", "and", "or", "of", "is", "are", "was", "at", "for"
])
const INTENSIFIER_PROFANITY = /^(?:\S*(?:ing|in['’]?)|damn|goddamn|bloody|freaking|effing|fkn|fking|frigging)$/iu

interface Span extends Range {
  readonly labels: Set<ModelLabel>
  weight: number
}

const describe = (labels: ReadonlySet<ModelLabel>, directed: boolean, replying: boolean): string => {
  const reasons: Array<string> = []
  if (labels.has("THREAT")) reasons.push("threatening language")
  if (labels.has("IDENTITY_ATTACK")) reasons.push("attacks people for their identity (a slur or a group term with demeaning words)")
  if (labels.has("INSULT")) {
    reasons.push(directed ? (replying ? "insult directed at the person being replied to" : "insult directed at a person") : "insulting language")
  }
  if (labels.has("PROFANITY")) reasons.push("profanity")
  if (reasons.length === 0) reasons.push("hostile or rude wording")
  const sentence = reasons.join("; ")
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`
}

const hasSecondPerson = (tokens: ReadonlyArray<Token>, range: Range): boolean =>
  tokens.some((t) => t.begin >= range.begin && t.end <= range.end && SECOND_PERSON.has(t.lower))

/** Objectionable spans from the model's explanations, nested spans folded into the outer one. */
const objectionableSpans = (
  model: AttributeModelService,
  analysis: TextAnalysis,
  probabilities: Readonly<Partial<Record<ModelLabel, number>>>,
  o: SpanOptions,
  gate?: QuoteGate
): Array<Span> => {
  const spans: Array<Span> = []
  for (const label of OBJECTIONABLE) {
    if (!model.labels.includes(label)) continue
    const p = probabilities[label] ?? 0
    if (gate !== undefined) {
      if (p < gateOf(label, gate)) continue
    } else {
      if (label !== "PROFANITY" && p < o.labelThreshold) continue
      if (label === "PROFANITY" && p < o.profanityThreshold) continue
    }
    for (const c of model.explain(analysis, label, o.perLabel)) {
      if (c.weight < o.spanThreshold || c.end <= c.begin) continue
      const same = spans.find((s) => s.begin === c.begin && s.end === c.end)
      if (same) {
        same.labels.add(label)
        same.weight = Math.max(same.weight, c.weight)
      } else spans.push({ begin: c.begin, end: c.end, labels: new Set([label]), weight: c.weight })
    }
  }
  // Fold nested spans ("idiot" inside "You are an idiot") into one: the outer or the inner ones.
  const inside = (s: Span, o: Span) => o !== s && o.begin <= s.begin && o.end >= s.end && (o.begin < s.begin || o.end > s.end)
  const folded = spans.filter((s) => {
    if (o.nested === "inner") {
      const inner = spans.filter((i) => inside(i, s))
      if (inner.length === 0) return true
      for (const i of inner) {
        for (const l of s.labels) i.labels.add(l)
        i.weight = Math.max(i.weight, s.weight)
      }
      return false
    }
    const outer = spans.find((x) => inside(s, x))
    if (!outer) return true
    for (const l of s.labels) outer.labels.add(l)
    outer.weight = Math.max(outer.weight, s.weight)
    return false
  })
  return folded.sort((a, b) => b.weight - a.weight).slice(0, MAX_ITEMS)
}

/** Objectionable spans cut to their words, without duplicates. */
const objectionableWords = (
  model: AttributeModelService,
  text: string,
  tokens: ReadonlyArray<Token>,
  analysis: TextAnalysis,
  probabilities: Readonly<Partial<Record<ModelLabel, number>>>,
  o: SpanOptions
): Array<Span> => {
  const out: Array<Span> = []
  const scores = new Map<string, number>()
  for (const s of objectionableSpans(model, analysis, probabilities, o)) {
    const cut = wordLevelCut(model, scores, text, tokens, s, o)
    if (cut === null) continue
    const same = out.find((x) => x.begin === cut.begin && x.end === cut.end)
    if (same) for (const l of cut.labels) same.labels.add(l)
    else out.push(cut)
  }
  return out
}

/**
 * Objectionable spans from the trained tagger (`SpanModel`): its spans, in text order, each named
 * by the heads whose explanations overlap it, or else by the comment's most likely objectionable
 * label (among the heads whose comment-level probability counts).
 *
 * The tagger only ever saw toxic posts (every toxic-spans post was judged toxic), so it says
 * WHERE the offence is, not WHETHER there is one: that stays the heads' decision, as before (their
 * explanations cut with `SPAN_DEFAULTS` find something). Otherwise only the words the tagger is
 * confident about are quoted, each alone: mostly none (on C3's constructive comments of its
 * training articles this rule quotes in 9.4% of them with spans-2026.11.3, the heads' cuts alone
 * in 5.0%).
 */
const taggedSpans = (
  model: AttributeModelService,
  tagger: SpanModelService,
  text: string,
  tokens: ReadonlyArray<Token>,
  analysis: TextAnalysis,
  probabilities: Readonly<Partial<Record<ModelLabel, number>>>,
  gate: QuoteGate
): { readonly spans: Array<Span>; readonly explained: number } => {
  const counted = OBJECTIONABLE.filter((l) =>
    model.labels.includes(l) && (probabilities[l] ?? 0) >= gateOf(l, gate)
  )
  const explained = counted.length === 0 ? [] : objectionableSpans(model, analysis, probabilities, { ...SPAN_DEFAULTS, spanThreshold: gate.spanThreshold }, gate)
  const ranges = explained.length > 0 ? tagger.spans(text, tokens) : tagger.confidentSpans(text, tokens)
  if (ranges.length === 0) return { spans: [], explained: explained.length }
  const spans = ranges.slice(0, MAX_ITEMS).map((r) => {
    const labels = new Set<ModelLabel>()
    let weight = 0
    for (const e of explained) {
      if (e.begin >= r.end || e.end <= r.begin) continue
      for (const l of e.labels) labels.add(l)
      weight = Math.max(weight, e.weight)
    }
    // a span the heads' explanations missed is named by the comment's most likely objectionable label
    if (labels.size === 0 && counted.length > 0) labels.add(counted.reduce((a, b) => ((probabilities[b] ?? 0) > (probabilities[a] ?? 0) ? b : a)))
    return { begin: r.begin, end: r.end, labels, weight }
  })
  return { spans, explained: explained.length }
}

/** How objectionable phrases are found: the trained tagger when given, else the heads' explanations cut by `options`. */
export interface SpanChoice {
  readonly spans?: SpanModelService | undefined
  readonly options?: SpanOptions | undefined
  /** With `spans`: when the heads decide a comment is objectionable (default `QUOTE_GATE`). */
  readonly gate?: QuoteGate | undefined
}

/** A rewrite only when it is trivially clear: an intensifying profanity dropped ("fucking article" -> "article"). */
const intensifierRewrite = (text: string, tokens: ReadonlyArray<Token>, span: Span): { quote: Range; rewrite: string } | null => {
  if (!span.labels.has("PROFANITY") || [...span.labels].some((l) => l !== "PROFANITY" && l !== "TOXICITY")) return null
  const inside = tokens.filter((t) => t.begin >= span.begin && t.end <= span.end)
  const word = inside[0]
  if (inside.length !== 1 || word === undefined) return null
  const raw = text.slice(word.begin, word.end)
  if (!INTENSIFIER_PROFANITY.test(raw) && !MILD_PROFANITY.has(word.lower)) return null
  const at = tokens.indexOf(word)
  const next = tokens[at + 1]
  if (next === undefined || !/^ $/u.test(text.slice(word.end, next.begin)) || NOT_A_HEAD.has(next.lower)) return null
  if (!/^[\p{L}]+$/u.test(text.slice(next.begin, next.end))) return null
  return { quote: { begin: span.begin, end: next.end }, rewrite: text.slice(next.begin, next.end) }
}

const list = (quotes: ReadonlyArray<string>): string => quotes.map((q) => `"${q.length > 60 ? `${q.slice(0, 57)}...` : q}"`).join(", ")

/**
 * Scores one comment. Synchronous; throws only if a model does. Fallacies come from `fallacies`
 * (the trained detector) when given, otherwise from the phrase patterns.
 */
export const scoreComment = (
  model: AttributeModelService,
  input: CommentScoreInput,
  fallacyModel?: FallacyModelService,
  spanChoice: SpanChoice = {}
): Native.CommentScore => {
  const text = input.comment
  // the request's analysed comment: what another evaluator derived from it is not derived again
  const analysed = analysedOf(text, input.analysed)
  const tokens = analysed.get(Tokens)
  const sentences = analysed.get(Sentences)
  const labels = SCORED.filter((l) => model.labels.includes(l))
  // one analysis of the comment: every score and explanation below reads it
  const analysis = analysed.get(ModelAnalysis, model)
  const p = model.predict(analysis, labels)
  const toxicity = clamp01(p.TOXICITY ?? 0)
  const replying = input.replyTo !== null && input.replyTo.trim().length > 0

  // ---- objectionable phrases
  // the 1-5 grade counts the heads' evidence (their explained spans), however the quotes are cut
  const tagged = spanChoice.spans === undefined ? undefined : taggedSpans(model, spanChoice.spans, text, tokens, analysis, p, spanChoice.gate ?? QUOTE_GATE)
  const spans = tagged?.spans ?? objectionableWords(model, text, tokens, analysis, p, spanChoice.options ?? SPAN_DEFAULTS)
  const objectionable: Array<Native.ObjectionablePhrase & { readonly range: Range }> = spans.map((s) => {
    const directed = s.labels.has("INSULT") && (hasSecondPerson(tokens, s) || (s.end - s.begin < 40 && hasSecondPerson(tokens, sentenceOf(sentences, s))))
    const rewrite = intensifierRewrite(text, tokens, s)
    const explanation = describe(s.labels, directed, replying)
    return rewrite
      ? { range: rewrite.quote, quoted_objectionable_phrase: text.slice(rewrite.quote.begin, rewrite.quote.end), explanation: `${explanation} The sentence reads the same without it.`, suggested_rewrite: rewrite.rewrite }
      : { range: s, quoted_objectionable_phrase: text.slice(s.begin, s.end), explanation, suggested_rewrite: "" }
  })
  const objectionableRanges = objectionable.map((o) => o.range)

  // ---- negative tone
  const tone = [...findDismissive(text, tokens), ...findNegativeWords(text, tokens)]
    .filter((t) => !objectionableRanges.some((r) => t.begin < r.end && t.end > r.begin))
    .sort((a, b) => b.strength - a.strength || a.begin - b.begin)
    .slice(0, MAX_ITEMS)
    .sort((a, b) => a.begin - b.begin)
  const negative: Array<Native.NegativeTonePhrase> = tone.map((t) => ({
    quoted_negative_tone_phrase: text.slice(t.begin, t.end),
    explanation: t.explanation,
    suggested_rewrite: ""
  }))

  // ---- fallacies
  const fallacyAnalysis = fallacyModel?.analyse(text, { sentences, words: tokens })
  const fallacies: Array<Native.LogicalFallacy> =
    fallacyAnalysis === undefined
      ? findFallacies(text, tokens, sentences)
        .slice(0, MAX_ITEMS)
        .map((f) => Native.logicalFallacy({ fallacy_name: f.name, quoted_logical_fallacy_example: text.slice(f.begin, f.end), explanation: f.explanation }))
      : fallacyItems(fallacyAnalysis).map((f) =>
        Native.logicalFallacy({
          fallacy_name: fallacyName(f.type),
          quoted_logical_fallacy_example: text.slice(f.begin, f.end),
          explanation: Fallacies.explainFallacy(f.type)
        })
      )
  // the fallacies the 1-5 grade counts (see QualityWeights.fallacies.detectorAt)
  const countedFallacies = fallacyAnalysis === undefined || sigmoid(fallacyAnalysis.score) >= QualityWeights.fallacies.detectorAt ? fallacies.length : 0

  // ---- low effort
  const form = lowEffortForm(text)
  const copiesParent = replying && normalise(text) === normalise(input.replyTo ?? "")
  const lowEffortP = clamp01(p.LOW_EFFORT ?? (form !== null ? 0.9 : tokens.length <= 3 ? 0.6 : 0.1))
  const lowEffort = form !== null || copiesParent || lowEffortP >= 0.5

  // ---- overall quality
  const { overall } = qualityScore({
    constructive: clamp01(p.CONSTRUCTIVE ?? QualityWeights.constructive.neutral),
    toxicity,
    threat: p.THREAT ?? 0,
    identityAttack: p.IDENTITY_ATTACK ?? 0,
    lowEffort: lowEffortP,
    appearsLowEffort: lowEffort,
    fallacies: countedFallacies,
    objectionable: tagged?.explained ?? objectionable.length,
    reasons: new Set(evidencePhrases.match(tokens).map((m) => m.phrase)).size
  })

  // ---- toxicity explanation
  const toxicityExplanation = explainToxicity(model, analysis, toxicity, objectionable)

  return {
    logical_fallacies: verbatimOnly(text, fallacies, (f) => f.quoted_logical_fallacy_example),
    objectionable_phrases: verbatimOnly(
      text,
      objectionable.map(({ range: _range, ...o }) => o),
      (o) => o.quoted_objectionable_phrase
    ),
    negative_tone_phrases: verbatimOnly(text, negative, (n) => n.quoted_negative_tone_phrase),
    appears_low_effort: lowEffort,
    overall_score: overall,
    toxicity_score: round4(toxicity),
    toxicity_explanation: toxicityExplanation
  }
}

const sentenceOf = (sentences: ReadonlyArray<Range>, r: Range): Range =>
  sentences.find((s) => r.begin >= s.begin && r.begin < s.end) ?? r

const normalise = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()

const explainToxicity = (
  model: AttributeModelService,
  analysis: TextAnalysis,
  toxicity: number,
  objectionable: ReadonlyArray<Native.ObjectionablePhrase>
): string => {
  const level = toxicity.toFixed(2)
  if (objectionable.length > 0) {
    // Group the quotes by reason: "profanity ("fuck", "shit") and insult directed at a person ("idiot")".
    const byReason = new Map<string, Array<string>>()
    for (const o of objectionable) {
      const why = (o.explanation ?? "").replace(/\..*$/su, "").toLowerCase()
      const quotes = byReason.get(why) ?? []
      if (quotes.length < 3) quotes.push(o.quoted_objectionable_phrase)
      byReason.set(why, quotes)
    }
    const drivers = [...byReason].slice(0, 3).map(([why, quotes]) => `${why} (${list(quotes)})`)
    const joined = drivers.length > 1 ? `${drivers.slice(0, -1).join(", ")} and ${drivers[drivers.length - 1]}` : drivers[0]
    return `Toxicity ${level}, driven by ${joined}.`
  }
  if (toxicity >= 0.3 && model.labels.includes("TOXICITY")) {
    const spans = model.explain(analysis, "TOXICITY", 3).filter((c) => c.end > c.begin && c.weight > 0.3)
    if (spans.length > 0) return `Toxicity ${level}, driven by negative or dismissive wording: ${list(spans.map((c) => analysis.text.slice(c.begin, c.end)))}.`
    return `Toxicity ${level}; no single phrase stands out.`
  }
  return `No toxic language found (toxicity ${level}).`
}

/**
 * The parts of a comment score judged by English-only methods whatever the comment's language: the
 * fallacy detector, the objectionable-phrase and tone cues, low effort and the 1-5 grade are
 * trained on (or written for) English text. Only the toxicity part has per-language models.
 */
export const ENGLISH_ONLY_FIELDS: ReadonlyArray<string> = ["logical_fallacies", "objectionable_phrases", "negative_tone_phrases", "appears_low_effort", "overall_score"]

/**
 * A comment score in the comment's language (issue 28): the toxicity part from the language's own
 * model set when it has a TOXICITY model (`toxicity_language` names it), else from the English
 * one, and then the answer says so (`toxicity_language: "en"`, listed in `english_only_fields`).
 * Returns the answer and the language set's version when one was used.
 */
export const inLanguage = (
  english: Native.CommentScore,
  languages: LanguageModelsService | undefined,
  input: CommentScoreInput
): { readonly value: Native.CommentScore; readonly languageModel?: string } => {
  const language = input.language ?? "en"
  if (language === "en") return { value: { ...english, toxicity_language: "en", english_only_fields: [] } }
  const set = languages?.languages.get(language)?.includes("TOXICITY") ? languages.forLanguage(language) : undefined
  if (set === undefined) {
    return { value: { ...english, toxicity_language: "en", english_only_fields: [...ENGLISH_ONLY_FIELDS, "toxicity_score", "toxicity_explanation"] } }
  }
  const analysis = analysedOf(input.comment, input.analysed).get(ModelAnalysis, set)
  const toxicity = clamp01(set.predict(analysis, ["TOXICITY"]).TOXICITY ?? 0)
  return {
    value: {
      ...english,
      toxicity_score: round4(toxicity),
      toxicity_explanation: explainToxicity(set, analysis, toxicity, []),
      toxicity_language: language,
      english_only_fields: ENGLISH_ONLY_FIELDS
    },
    languageModel: set.version
  }
}

/**
 * The comment scorer on whatever `AttributeModel` is provided, the `FallacyModel` when one is, and
 * the per-language sets (`LanguageModels`) for the toxicity part of a non-English comment.
 */
export const LocalCommentScorer: Layer.Layer<CommentScorer, never, AttributeModel> = Layer.effect(
  CommentScorer,
  Effect.gen(function*() {
    const model = yield* AttributeModel
    const fallacyModel = Option.getOrUndefined(yield* Effect.serviceOption(FallacyModel))
    const spans = Option.getOrUndefined(yield* Effect.serviceOption(SpanModel))
    const languages = Option.getOrUndefined(yield* Effect.serviceOption(LanguageModels))
    const version = model.version
    return CommentScorer.of({
      score: (input) =>
        Effect.try({
          try: (): Evaluated<Native.CommentScore> => {
            const judged = inLanguage(scoreComment(model, input, fallacyModel, { spans }), languages, input)
            return { value: judged.value, provenance: { model: judged.languageModel === undefined ? version : `${version}+${judged.languageModel}` } }
          },
          catch: (cause) =>
            new ProviderFailure({ provider: version, evaluation: "comment_score", message: `Local comment scoring failed: ${String(cause)}` })
        })
    })
  })
)
