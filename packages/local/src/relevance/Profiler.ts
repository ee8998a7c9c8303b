/**
 * The local topic profiler: what an article is about, computed once when its context is created.
 *
 * - Terms: content-word stems weighted by sublinear tf times an idf from the shipped background
 *   table (`background.ts`), title and topic description counted extra, top `TOP_TERMS`,
 *   L2-normalised.
 * - Entities: capitalised multi-word sequences (not counting a capitalised sentence opener),
 *   acronyms, and capitalised single words seen at least twice away from a sentence start.
 * - Summary: one to three of the article's own sentences, chosen by their share of the key terms.
 */
import type { TopicProfile, WeightedTerm } from "@decorum/domain"
import { splitSentences, TopicProfiler } from "@decorum/core"
import { Effect, Layer } from "effect"
import { BACKGROUND_PER_MILLION } from "../internal/relevance/background.js"
import { GENERIC, isContentWord, isStopword, markdownToText, type TopicToken, topicTokens } from "../internal/relevance/topicWords.js"

/**
 * Bump when tokenising, stemming, weighting or the background table change: old profiles are rebuilt.
 * 2: words come from the package's one word tokenizer (a word may now hold `*`, `$` or `@`).
 */
export const PROFILE_VERSION = 2

export const TOP_TERMS = 100
const TITLE_BOOST = 3
const DESCRIPTION_BOOST = 3
const MAX_ENTITIES = 20
const SUMMARY_MAX_CHARS = 480

/** Module cache, a documented constant: the embedded background frequencies, parsed on first use. */
let background: Map<string, number> | null = null
const backgroundTable = (): Map<string, number> => {
  if (background === null) {
    background = new Map()
    for (const item of BACKGROUND_PER_MILLION.split(" ")) {
      const colon = item.lastIndexOf(":")
      if (colon > 0) background.set(item.slice(0, colon), Number(item.slice(colon + 1)))
    }
  }
  return background
}

/** Parts per million assumed for a stem absent from the table (the table keeps >= 250). */
const UNSEEN_PER_MILLION = 100

/** Inverse document frequency of a stem against the background: ~2.9 for "people", ~9.2 unseen. */
export const idf = (stem: string): number => Math.log(1e6 / ((backgroundTable().get(stem) ?? UNSEEN_PER_MILLION) + 1))

export const MAX_IDF = Math.log(1e6 / (UNSEEN_PER_MILLION + 1))

export interface ProfileInput {
  readonly text: string
  readonly title: string | null
  readonly topicDescription: string | null
}

const contentTokens = (text: string): Array<TopicToken> =>
  topicTokens(text).filter((t) => isContentWord(t.lower) && t.stem.length >= 2)

export const buildProfile = (input: ProfileInput): TopicProfile => {
  const body = markdownToText(input.text)
  const tf = new Map<string, number>()
  const add = (tokens: ReadonlyArray<TopicToken>, weight: number) => {
    for (const t of tokens) tf.set(t.stem, (tf.get(t.stem) ?? 0) + weight)
  }
  add(contentTokens(body), 1)
  if (input.title !== null) add(contentTokens(input.title), TITLE_BOOST)
  if (input.topicDescription !== null) add(contentTokens(input.topicDescription), DESCRIPTION_BOOST)

  const weighted: Array<WeightedTerm> = []
  for (const [term, count] of tf) weighted.push({ term, weight: (1 + Math.log(count)) * idf(term) })
  weighted.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1))
  const top = weighted.slice(0, TOP_TERMS)
  const norm = Math.sqrt(top.reduce((s, t) => s + t.weight * t.weight, 0)) || 1
  const terms = top.map((t) => ({ term: t.term, weight: round(t.weight / norm) }))

  const entities = extractEntities([input.title ?? "", body].join("\n"))
  const summary = summarise(body, new Map(terms.map((t) => [t.term, t.weight])))
  return { version: PROFILE_VERSION, terms, entities, summary }
}

const round = (x: number) => Math.round(x * 1e6) / 1e6

const isCapitalised = (raw: string) => /^\p{Lu}/u.test(raw)
const isAcronym = (raw: string) => /^\p{Lu}{2,6}s?$/u.test(raw) && !/^(I|A|OK|TV|AM|PM)$/.test(raw)
const CONNECTORS = new Set(["of", "de", "du", "da", "van", "von", "the", "for"])

/** Named entities: capitalised sequences, acronyms and recurring capitalised words, most frequent first. */
export const extractEntities = (text: string): Array<string> => {
  // Text in capitals throughout (a shouting page) has no usable capitalisation.
  const letters = text.replace(/[^\p{L}]/gu, "")
  const upper = letters.replace(/[^\p{Lu}]/gu, "")
  if (letters.length > 0 && upper.length / letters.length > 0.6) return []
  const counts = new Map<string, { surface: string; count: number; multi: boolean }>()
  const bump = (surface: string, multi: boolean) => {
    const key = surface.toLowerCase()
    const e = counts.get(key)
    if (e === undefined) counts.set(key, { surface, count: 1, multi })
    else e.count++
  }
  for (const span of splitSentences(text)) {
    const sentence = text.slice(span.begin, span.end)
    const tokens = topicTokens(sentence)
    let i = 0
    while (i < tokens.length) {
      const t = tokens[i]!
      if (!isCapitalised(t.raw)) {
        i++
        continue
      }
      // A run of capitalised words, possibly joined by connectors ("Bank of England").
      let j = i + 1
      let last = i
      while (j < tokens.length) {
        const u = tokens[j]!
        if (isCapitalised(u.raw) && sentence.slice(tokens[j - 1]!.end, u.start).trim().length <= 1) {
          last = j
          j++
        } else if (CONNECTORS.has(u.raw) && j + 1 < tokens.length && isCapitalised(tokens[j + 1]!.raw)) {
          j++
        } else break
      }
      let first = i
      // A sentence opener is capitalised anyway: drop it when it is a common word.
      if (i === 0 && (isStopword(t.lower) || GENERIC.has(t.lower) || !isAcronym(t.raw) && last === i)) first = i + 1
      while (first <= last && isStopword(tokens[first]!.lower) && !isAcronym(tokens[first]!.raw)) first++
      if (first <= last) {
        const surface = sentence.slice(tokens[first]!.start, tokens[last]!.end)
        if (first < last) bump(surface, true)
        else if (isAcronym(tokens[first]!.raw)) bump(surface, true)
        else if (!isStopword(tokens[first]!.lower) && tokens[first]!.lower.length > 2) bump(surface, false)
      }
      i = last + 1
    }
  }
  return [...counts.values()]
    .filter((e) => e.multi || e.count >= 2)
    .sort((a, b) => b.count - a.count || Number(b.multi) - Number(a.multi) || (a.surface < b.surface ? -1 : 1))
    .slice(0, MAX_ENTITIES)
    .map((e) => e.surface)
}

/** One to three sentences of the article that carry most of its key terms, in their original order. */
export const summarise = (body: string, weights: ReadonlyMap<string, number>): string => {
  const spans = splitSentences(body)
  const scored = spans.map((span, index) => {
    const sentence = body.slice(span.begin, span.end).replace(/\s+/g, " ").trim()
    const tokens = contentTokens(sentence)
    const seen = new Set<string>()
    let score = 0
    for (const t of tokens) {
      if (seen.has(t.stem)) continue
      seen.add(t.stem)
      score += weights.get(t.stem) ?? 0
    }
    const words = sentence.split(" ").length
    // Prefer real sentences: not headings, not one-liners, not run-ons; lead sentences get a bonus.
    const shape = words < 6 ? 0.3 : words > 60 ? 0.5 : 1
    const lead = index === 0 ? 1.3 : index < 3 ? 1.1 : 1
    return { index, sentence, score: (score / Math.sqrt(Math.max(tokens.length, 1))) * shape * lead }
  })
  const chosen: Array<(typeof scored)[number]> = []
  let length = 0
  for (const s of [...scored].sort((a, b) => b.score - a.score || a.index - b.index)) {
    if (chosen.length >= 3) break
    if (s.sentence.length === 0 || s.score <= 0 && chosen.length > 0) continue
    if (length + s.sentence.length > SUMMARY_MAX_CHARS && chosen.length > 0) continue
    chosen.push(s)
    length += s.sentence.length + 1
  }
  const summary = chosen.sort((a, b) => a.index - b.index).map((s) => s.sentence).join(" ")
  return summary.length > SUMMARY_MAX_CHARS ? summary.slice(0, SUMMARY_MAX_CHARS - 1).trimEnd() + "…" : summary
}

/** The `TopicProfiler` port on the local profiler. */
export const LocalTopicProfiler = {
  layer: Layer.succeed(TopicProfiler, {
    profile: (input) => Effect.sync(() => buildProfile(input))
  })
}
