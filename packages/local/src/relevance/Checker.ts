/**
 * The local relevance checker.
 *
 * On-topic: the comment's content words (stopwords and reaction words removed, stemmed) are
 * compared with the article's topic profile. Evidence is the squared-idf mass of the words it shares
 * with the profile (and, for a reply, at a discount, with its parent comment) over that of all its
 * content words, or else the sum of the profile weights of the shared terms. A comment with few or common
 * content words says too little to be judged, and its confidence says so.
 *
 * Banned topics: see `BannedTopics.ts`.
 *
 * In reasonings, double quotes always quote the comment verbatim; names of topics and articles are
 * set in « » so that no reader mistakes them for quotes.
 */
import type { ArticleContext, Evaluated, RelevanceCheck, RelevanceInput } from "@decorum/domain"
import { RelevanceChecker } from "@decorum/core"
import { Effect, Layer } from "effect"
import { analyseBannedTopics, allInVocabulary, type BannedTopicAnalysis } from "./BannedTopics.js"
import { buildProfile, idf, PROFILE_VERSION } from "./Profiler.js"
import { isContentWord, topicTokens } from "../internal/relevance/topicWords.js"

export const RELEVANCE_MODEL = `local-relevance-${PROFILE_VERSION}`

/** Decision thresholds, tuned on the dev part of the evaluation set (docs/relevance.md). */
export const Thresholds = {
  /** Share of the comment's idf² mass found in the article (or parent) to call it on-topic. */
  coverage: 0.2,
  /** Or: sum of the profile weights of the shared terms. */
  strength: 0.2,
  /** For a reply to an on-topic parent, the thresholds above are multiplied by this. */
  replyFactor: 0.5,
  /**
   * Below this informativeness a comment without shared terms is "too little to judge". At 0.55 a
   * single content word, however rare, is never enough to call a comment off-topic.
   */
  minInfo: 0.55,
  /** Weight of words shared only with the parent comment. */
  parentDiscount: 0.7,
  /** Scale of informativeness: info = 1 - exp(-idfMass / scale). */
  infoScale: 12
}

export type RelevanceThresholds = typeof Thresholds

export interface ArticleModel {
  readonly weights: ReadonlyMap<string, number>
  readonly entityStems: ReadonlySet<string>
  readonly about: string
}

const MODEL_CACHE = 512

/** An article's model, built from its stored profile (deterministic: the same article, the same model). */
const buildArticleModel = (article: ArticleContext): ArticleModel => {
  // A profile built by an older version of the profiler is rebuilt from the stored text.
  const profile = article.profile.version === PROFILE_VERSION
    ? article.profile
    : buildProfile({ text: article.text, title: article.title, topicDescription: article.topicDescription })
  const weights = new Map(profile.terms.map((t) => [t.term, t.weight]))
  const entityStems = new Set<string>()
  for (const e of profile.entities) for (const t of topicTokens(e)) if (isContentWord(t.lower)) entityStems.add(t.stem)
  const title = article.title?.trim()
  const about = title !== undefined && title.length > 0
    ? `«${clip(title, 80)}»`
    : profile.entities.length > 0
    ? profile.entities.slice(0, 3).join(", ")
    : `«${clip(profile.summary, 80)}»`
  return { weights, entityStems, about }
}

/** How a judge finds an article's model: built anew, or from a cache of its own (`articleModels`). */
export type ArticleModels = (article: ArticleContext) => ArticleModel

/**
 * A bounded cache of article models (the last 512 articles), for one checker: the layer makes one,
 * so models built from one store's articles are never handed to another engine's.
 */
export const articleModels = (): ArticleModels => {
  const models = new Map<string, ArticleModel>()
  return (article) => {
    const key = `${article.id}:${article.profile.version}:${article.createdAt.getTime()}`
    const hit = models.get(key)
    if (hit !== undefined) return hit
    const model = buildArticleModel(article)
    if (models.size >= MODEL_CACHE) models.delete(models.keys().next().value!)
    models.set(key, model)
    return model
  }
}

const clip = (s: string, n: number) => (s.length <= n ? s : s.slice(0, n - 1).trimEnd() + "…")
const clamp01 = (x: number) => Math.min(1, Math.max(0, x))
const r2 = (x: number) => Math.round(x * 100) / 100

interface ContentWord {
  readonly stem: string
  readonly raw: string
  readonly idf: number
}

const contentWords = (text: string): Array<ContentWord> => {
  const seen = new Map<string, ContentWord>()
  for (const t of topicTokens(text)) {
    if (!isContentWord(t.lower) || seen.has(t.stem)) continue
    seen.set(t.stem, { stem: t.stem, raw: t.raw, idf: idf(t.stem) })
  }
  return [...seen.values()]
}

const quoteList = (words: ReadonlyArray<ContentWord>, max = 5) =>
  words.slice(0, max).map((w) => `"${w.raw}"`).join(", ") + (words.length > max ? ` and ${words.length - max} more` : "")

export interface OnTopicResult {
  readonly on_topic: boolean
  readonly confidence: number
  readonly reasoning: string
  /** Diagnostics for the evaluation command. */
  readonly coverage: number
  readonly strength: number
  readonly info: number
}

interface Evidence {
  readonly words: ReadonlyArray<ContentWord>
  readonly shared: Array<ContentWord>
  readonly viaParent: Array<ContentWord>
  readonly coverage: number
  readonly strength: number
  readonly info: number
}

const evidence = (model: ArticleModel, words: ReadonlyArray<ContentWord>, parentStems: ReadonlySet<string> | null, th: RelevanceThresholds): Evidence => {
  let mass = 0
  let infoMass = 0
  let sharedMass = 0
  let strength = 0
  const shared: Array<ContentWord> = []
  const viaParent: Array<ContentWord> = []
  for (const w of words) {
    // Squared idf: a shared rare word says much more than a shared common one.
    const w2 = w.idf * w.idf
    mass += w2
    infoMass += w.idf
    const weight = model.weights.get(w.stem)
    if (weight !== undefined || model.entityStems.has(w.stem)) {
      shared.push(w)
      sharedMass += w2
      strength += weight ?? 0.05
    } else if (parentStems !== null && parentStems.has(w.stem)) {
      viaParent.push(w)
      sharedMass += th.parentDiscount * w2
    }
  }
  return { words, shared, viaParent, coverage: mass > 0 ? sharedMass / mass : 0, strength, info: 1 - Math.exp(-infoMass / th.infoScale) }
}

export const judgeOnTopic = (
  comment: string,
  article: ArticleContext,
  replyTo: string | null,
  th: RelevanceThresholds = Thresholds,
  models: ArticleModels = buildArticleModel
): OnTopicResult => {
  const model = models(article)
  const words = contentWords(comment)
  const parentWords = replyTo === null ? null : contentWords(replyTo)
  const parentStems = parentWords === null ? null : new Set(parentWords.map((w) => w.stem))
  const { shared, viaParent, coverage, strength, info } = evidence(model, words, parentStems, th)
  // A reply to an on-topic comment follows its thread: it needs less evidence of its own.
  let factor = 1
  if (parentWords !== null) {
    const parent = evidence(model, parentWords, null, th)
    if (parent.coverage >= th.coverage || parent.strength >= th.strength) factor = th.replyFactor
  }
  // Most telling words first in the reasoning.
  shared.sort((a, b) => (model.weights.get(b.stem) ?? 0) - (model.weights.get(a.stem) ?? 0) || b.idf - a.idf)
  viaParent.sort((a, b) => b.idf - a.idf)
  const quoted = clip(comment.trim(), 60)
  const quotable = comment.includes(quoted) && !quoted.endsWith("…")

  if (words.length === 0 || (shared.length === 0 && viaParent.length === 0 && info < th.minInfo)) {
    const confidence = r2(0.5 + 0.1 * info)
    return {
      on_topic: true,
      confidence,
      coverage,
      strength,
      info,
      reasoning: `${quotable ? `"${quoted}" is` : "The comment is"} too short or generic to judge against the article ${
        words.length === 0 ? "(no topical words)" : `(only ${quoteList(words)})`
      }; treated as on-topic with low confidence.`
    }
  }

  const onTopic = coverage >= th.coverage * factor || strength >= th.strength * factor
  if (onTopic) {
    const evidence = Math.max(coverage / 0.6, strength / 0.3)
    const confidence = r2(clamp01(0.55 + 0.4 * Math.min(1, evidence) * (0.5 + 0.5 * info)))
    const parts: Array<string> = []
    if (shared.length > 0) parts.push(`shares key terms with the article: ${quoteList(shared)}`)
    if (viaParent.length > 0) parts.push(`follows the comment it replies to on ${quoteList(viaParent)}`)
    return { on_topic: true, confidence, coverage, strength, info, reasoning: `On-topic: it ${parts.join(" and ")}.` }
  }

  // Off-topic: informative enough, yet little or nothing in common with the article.
  const margin = 1 - Math.max(coverage / (th.coverage * factor), strength / (th.strength * factor))
  let confidence = 0.5 + 0.42 * info * (0.4 + 0.6 * clamp01(margin))
  // A reply may legitimately drift with its thread: be less sure.
  if (replyTo !== null) confidence = 0.5 + (confidence - 0.5) * 0.7
  const unrelated = words.filter((w) => !shared.includes(w) && !viaParent.includes(w)).sort((a, b) => b.idf - a.idf)
  const weakShared = shared.length > 0 ? ` It shares only ${quoteList(shared, 3)}, which is not enough.` : ""
  return {
    on_topic: false,
    confidence: r2(clamp01(confidence)),
    coverage,
    strength,
    info,
    reasoning: `Off-topic: its topical words (${quoteList(unrelated)}) do not appear in the article about ${model.about}.${weakShared}`
  }
}

export interface BannedResult {
  readonly reasoning: string
  readonly banned_topics: ReadonlyArray<string>
  readonly quantity_on_banned_topics: number
  readonly confidence: number
}

const quoteSentence = (sentence: string, hitText: string): string => {
  if (sentence.length <= 140) return sentence
  const at = sentence.indexOf(hitText)
  const from = Math.max(0, at - 60)
  return sentence.slice(from, Math.min(sentence.length, from + 140)).trim()
}

export const judgeBannedTopics = (comment: string, requested: ReadonlyArray<string>): BannedResult => {
  const topics = requested.map((t) => t.trim()).filter((t) => t.length > 0)
  if (topics.length === 0) {
    return { reasoning: "No banned topics were given to check.", banned_topics: [], quantity_on_banned_topics: 0, confidence: 1 }
  }
  const analysis: BannedTopicAnalysis = analyseBannedTopics(comment, topics)
  if (analysis.topics.length === 0) {
    const known = allInVocabulary(topics)
    return {
      reasoning: `No sentence mentions ${topics.map((t) => `«${t}»`).join(", ")} or the terms that signal ${topics.length > 1 ? "them" : "it"}${
        known ? "" : " (a topic outside the shipped vocabulary is matched on its own words only)"
      }.`,
      banned_topics: [],
      quantity_on_banned_topics: 0,
      confidence: known ? 0.85 : 0.7
    }
  }
  const quantity = r2(analysis.bannedSentences.size / analysis.sentenceCount)
  const parts = analysis.topics.map((result) => {
    const first = result.sentences[0]!
    const hitWords = [...new Set(result.sentences.flatMap((s) => s.hits.map((h) => h.text)))]
    const quote = quoteSentence(first.sentence, first.hits[0]?.text ?? "")
    const more = result.sentences.length > 1 ? ` (and ${result.sentences.length - 1} more sentence${result.sentences.length > 2 ? "s" : ""})` : ""
    return `«${result.topic.requested}»: "${quote}"${more}, matched on ${hitWords.slice(0, 5).map((w) => `"${w}"`).join(", ")}`
  })
  const confidence = Math.max(
    ...analysis.topics.map((r) => {
      const hits = new Set(r.sentences.flatMap((s) => s.hits.map((h) => h.text.toLowerCase()))).size
      return r.strong ? Math.min(0.95, 0.8 + 0.05 * (hits - 1)) : 0.65
    })
  )
  return {
    reasoning: `On banned topics: ${parts.join("; ")}. ${analysis.bannedSentences.size} of ${analysis.sentenceCount} sentence${
      analysis.sentenceCount > 1 ? "s" : ""
    } on banned topics.`,
    banned_topics: analysis.topics.map((r) => r.topic.requested),
    quantity_on_banned_topics: quantity,
    confidence: r2(confidence)
  }
}

/** The relevance check of one comment; `models` caches article models (the layer passes its own). */
export const checkRelevance = (input: RelevanceInput, models: ArticleModels = buildArticleModel): RelevanceCheck => {
  const on = judgeOnTopic(input.comment, input.article, input.replyTo, Thresholds, models)
  const banned = judgeBannedTopics(input.comment, input.bannedTopics)
  return {
    on_topic: { reasoning: on.reasoning, on_topic: on.on_topic, confidence: on.confidence },
    banned_topics: {
      reasoning: banned.reasoning,
      banned_topics: [...banned.banned_topics],
      quantity_on_banned_topics: banned.quantity_on_banned_topics,
      confidence: banned.confidence
    }
  }
}

export interface LocalRelevanceOptions {
  /** The model name reported in provenance (`X-Model-Version`). */
  readonly model?: string
}

/** The `RelevanceChecker` port on the local checker. */
export const LocalRelevanceChecker = {
  layer: (options: LocalRelevanceOptions = {}) =>
    Layer.sync(RelevanceChecker, () => {
      const models = articleModels()
      return {
        check: (input) =>
          Effect.sync((): Evaluated<RelevanceCheck> => ({ value: checkRelevance(input, models), provenance: { model: options.model ?? RELEVANCE_MODEL } }))
      }
    })
}
