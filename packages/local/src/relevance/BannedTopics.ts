/**
 * Banned-topic matching. Each topic the site owner names is compiled once (and cached) into a
 * matcher over stems: the topic's own words and their inflections, plus, when the topic is in the
 * shipped vocabulary, the terms that signal it. Matching is per sentence; weak terms need a second
 * signal (in the sentence, or a strong one elsewhere in the comment).
 */
import { splitSentences } from "@decorum/core"
import { isStopword, type TopicToken, topicTokens } from "../internal/relevance/topicWords.js"
import { TOPIC_VOCABULARY, type TopicVocabularyEntry } from "../internal/relevance/vocabulary.js"

const STRONG = 1
const WEAK = 0.5

interface Signal {
  readonly stems: ReadonlyArray<string>
  readonly strength: number
}

export interface CompiledTopic {
  /** The topic as the caller spelled it (trimmed). */
  readonly requested: string
  /** Vocabulary topics it was linked to (empty when only its own words are matched). */
  readonly vocabulary: ReadonlyArray<string>
  /** Signals indexed by their first stem. */
  readonly signals: ReadonlyMap<string, ReadonlyArray<Signal>>
  readonly excludeWords: ReadonlySet<string>
  readonly excludePhrases: ReadonlyMap<string, ReadonlyArray<ReadonlyArray<string>>>
}

const stemsOf = (phrase: string): Array<string> => topicTokens(phrase).map((t) => t.stem)

const containsSequence = (haystack: ReadonlyArray<string>, needle: ReadonlyArray<string>): boolean => {
  if (needle.length === 0 || needle.length > haystack.length) return false
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return true
  }
  return false
}

interface CompiledEntry {
  readonly entry: TopicVocabularyEntry
  readonly aliasStems: ReadonlyArray<ReadonlyArray<string>>
  readonly strong: ReadonlyArray<ReadonlyArray<string>>
  readonly weak: ReadonlyArray<ReadonlyArray<string>>
  readonly exclude: ReadonlyArray<string>
}

/** Module cache, a documented constant: the embedded topic vocabulary, stemmed on first use. */
let compiledVocabulary: ReadonlyArray<CompiledEntry> | null = null
const vocabulary = (): ReadonlyArray<CompiledEntry> => {
  if (compiledVocabulary === null) {
    compiledVocabulary = TOPIC_VOCABULARY.map((entry) => ({
      entry,
      aliasStems: [entry.name, ...entry.aliases].map(stemsOf).filter((s) => s.length > 0),
      strong: entry.strong.map(stemsOf).filter((s) => s.length > 0),
      weak: entry.weak.map(stemsOf).filter((s) => s.length > 0),
      exclude: entry.exclude
    }))
  }
  return compiledVocabulary
}

/** Vocabulary topics a requested topic names: "US politics" -> politics, "crypto" -> cryptocurrency. */
const linkedEntries = (requestedStems: ReadonlyArray<string>): Array<CompiledEntry> =>
  vocabulary().filter((c) => c.aliasStems.some((alias) => containsSequence(requestedStems, alias)))

export const compileTopic = (requested: string): CompiledTopic => {
  const trimmed = requested.trim()
  const tokens = topicTokens(trimmed)
  const allStems = tokens.map((t) => t.stem)
  const contentStems = tokens.filter((t) => !isStopword(t.lower)).map((t) => t.stem)
  const signals = new Map<string, Signal>()
  const put = (stems: ReadonlyArray<string>, strength: number) => {
    if (stems.length === 0) return
    const key = stems.join(" ")
    const prev = signals.get(key)
    if (prev === undefined || prev.strength < strength) signals.set(key, { stems, strength })
  }
  // The topic's own words: the whole phrase is a strong signal; with several content words, each
  // alone is weak ("climate" is not "climate change"), with one it is strong.
  if (contentStems.length === 1) put(contentStems, STRONG)
  else if (contentStems.length > 1) {
    put(allStems, STRONG)
    put(contentStems, STRONG)
    for (const s of contentStems) put([s], WEAK)
  }
  const linked = linkedEntries(allStems)
  const excludeWords = new Set<string>()
  const excludePhrases = new Map<string, Array<ReadonlyArray<string>>>()
  for (const c of linked) {
    for (const s of c.strong) put(s, STRONG)
    for (const s of c.weak) put(s, WEAK)
    for (const e of c.exclude) {
      const stems = stemsOf(e)
      if (stems.length === 1) excludeWords.add(e.replace(/['’]/g, ""))
      else if (stems.length > 1) {
        const list = excludePhrases.get(stems[0]!) ?? []
        list.push(stems)
        excludePhrases.set(stems[0]!, list)
      }
    }
  }
  // An owner's own word is never excluded: banning "hunting" means hunting.
  for (const s of contentStems) excludeWords.delete(s)
  for (const t of tokens) excludeWords.delete(t.lower)
  const byFirst = new Map<string, Array<Signal>>()
  for (const signal of signals.values()) {
    const list = byFirst.get(signal.stems[0]!) ?? []
    list.push(signal)
    byFirst.set(signal.stems[0]!, list)
  }
  // Longest phrases first, so that "white house" wins over "white".
  for (const list of byFirst.values()) list.sort((a, b) => b.stems.length - a.stems.length)
  return { requested: trimmed, vocabulary: linked.map((c) => c.entry.name), signals: byFirst, excludeWords, excludePhrases }
}

/**
 * Module cache, a documented constant: a compiled topic is a pure function of its spelling and the
 * embedded vocabulary, so every engine may share it; at most 2,000 topics, then it starts over.
 */
const cache = new Map<string, CompiledTopic>()
/** Compiled matchers are cached by the topic's lowercase spelling. */
export const topicMatcher = (requested: string): CompiledTopic => {
  const key = requested.trim().toLowerCase()
  const hit = cache.get(key)
  if (hit !== undefined && hit.requested === requested.trim()) return hit
  const compiled = compileTopic(requested)
  if (cache.size > 2_000) cache.clear()
  cache.set(key, compiled)
  return compiled
}

export interface SignalHit {
  /** Verbatim text of the comment that matched. */
  readonly text: string
  readonly strength: number
  readonly start: number
  readonly end: number
}

/** The signals of one topic found in a run of tokens (one sentence), excluded phrases removed. */
export const matchTokens = (topic: CompiledTopic, tokens: ReadonlyArray<TopicToken>, source: string): Array<SignalHit> => {
  const blocked = new Uint8Array(tokens.length)
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (topic.excludeWords.has(t.lower)) blocked[i] = 1
    const phrases = topic.excludePhrases.get(t.stem)
    if (phrases === undefined) continue
    for (const p of phrases) {
      if (i + p.length > tokens.length) continue
      let ok = true
      for (let j = 1; j < p.length; j++) if (tokens[i + j]!.stem !== p[j]) ok = false
      if (ok) for (let j = 0; j < p.length; j++) blocked[i + j] = 1
    }
  }
  const hits: Array<SignalHit> = []
  const seen = new Set<string>()
  let i = 0
  while (i < tokens.length) {
    const candidates = blocked[i] === 1 ? undefined : topic.signals.get(tokens[i]!.stem)
    let matched = 0
    if (candidates !== undefined) {
      for (const s of candidates) {
        if (i + s.stems.length > tokens.length) continue
        let ok = true
        for (let j = 1; j < s.stems.length; j++) {
          if (blocked[i + j] === 1 || tokens[i + j]!.stem !== s.stems[j]) {
            ok = false
            break
          }
        }
        if (!ok) continue
        const key = s.stems.join(" ")
        const start = tokens[i]!.start
        const end = tokens[i + s.stems.length - 1]!.end
        if (!seen.has(key)) {
          seen.add(key)
          hits.push({ text: source.slice(start, end), strength: s.strength, start, end })
        }
        matched = s.stems.length
        break
      }
    }
    i += matched > 0 ? matched : 1
  }
  return hits
}

export interface SentenceTopicHit {
  readonly sentence: string
  readonly sentenceIndex: number
  readonly hits: ReadonlyArray<SignalHit>
}

export interface TopicResult {
  readonly topic: CompiledTopic
  readonly sentences: ReadonlyArray<SentenceTopicHit>
  /** True when some signal is strong (not only weak terms adding up). */
  readonly strong: boolean
}

export interface BannedTopicAnalysis {
  readonly sentenceCount: number
  /** Indexes of sentences on at least one banned topic. */
  readonly bannedSentences: ReadonlySet<number>
  readonly topics: ReadonlyArray<TopicResult>
}

export const analyseBannedTopics = (comment: string, requested: ReadonlyArray<string>): BannedTopicAnalysis => {
  const spans = splitSentences(comment)
  const sentences = spans.map((span) => ({
    text: comment.slice(span.begin, span.end),
    tokens: topicTokens(comment.slice(span.begin, span.end)).map((t) => ({ ...t, start: t.start + span.begin, end: t.end + span.begin }))
  }))
  const seenTopics = new Set<string>()
  const topics: Array<TopicResult> = []
  const bannedSentences = new Set<number>()
  for (const name of requested) {
    const key = name.trim().toLowerCase()
    if (key.length === 0 || seenTopics.has(key)) continue
    seenTopics.add(key)
    const topic = topicMatcher(name)
    const perSentence = sentences.map((s) => matchTokens(topic, s.tokens, comment))
    // A sentence is on the topic with a strong signal or weak ones adding up; a sentence with a
    // single weak signal only when it continues a neighbouring sentence that is on the topic.
    const scores = perSentence.map(score)
    const onTopic: Array<SentenceTopicHit> = []
    perSentence.forEach((hits, index) => {
      const sc = scores[index]!
      const neighbour = (scores[index - 1] ?? 0) >= STRONG || (scores[index + 1] ?? 0) >= STRONG
      if (sc >= STRONG || (neighbour && sc >= WEAK)) {
        onTopic.push({ sentence: sentences[index]!.text, sentenceIndex: index, hits })
        bannedSentences.add(index)
      }
    })
    if (onTopic.length > 0) {
      topics.push({ topic, sentences: onTopic, strong: perSentence.some((hits) => hits.some((h) => h.strength >= STRONG)) })
    }
  }
  return { sentenceCount: Math.max(1, sentences.length), bannedSentences, topics }
}

const score = (hits: ReadonlyArray<SignalHit>) => hits.reduce((s, h) => s + h.strength, 0)

/** Is every requested topic linked to the vocabulary (so that a miss means more)? */
export const allInVocabulary = (requested: ReadonlyArray<string>): boolean =>
  requested.every((t) => topicMatcher(t).vocabulary.length > 0)
