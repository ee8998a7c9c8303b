/**
 * Deterministic, dependency-free providers for every evaluation port, for tests of the core and
 * of every host. They are small but honest: quotes are verbatim, ranges hold. A `hook` runs at
 * the start of each evaluation so tests can observe overlap or inject failures.
 */
import {
  type AttributeAnalysis,
  type AttributeAnalysisInput,
  type Evaluated,
  Native,
  Perspective,
  ProviderFailure,
  type TextSpan
} from "@decorum/domain"
import { Effect, Either, Exit, Layer } from "effect"
import {
  ArticleFetcher,
  AttributeScorer,
  CommentScorer,
  DogWhistleChecker,
  LanguageIdentifier,
  LlmDetector,
  RelevanceChecker,
  SpamChecker,
  TopicProfiler
} from "../Providers.js"

export const MODEL = "test-model-1"

const BAD = ["idiot", "stupid", "moron", "hate"]
const words = (text: string) => text.toLowerCase().match(/[a-z0-9']+/g) ?? []

const badness = (text: string) => {
  const n = words(text).filter((w) => BAD.includes(w)).length
  return Math.min(0.98, 0.05 + 0.45 * n)
}

/** The model name says when the caller sent `detail: "full"`, so tests can see it arrive. */
const ok = <A>(value: A, detail?: "basic" | "full"): Evaluated<A> => ({ value, provenance: { model: detail === "full" ? `${MODEL}+full` : MODEL } })

export type Section = "comment_score" | "spam_check" | "relevance_check" | "dogwhistle_check" | "llm_detection" | "perspective"

/** The test dog-whistle checker's glossary: term -> category. */
export const CODED_TERMS: Readonly<Record<string, string>> = { "globalist": "antisemitic", "thug": "racist" }

/** Every case-insensitive, whole-word occurrence of `term` in `text`, as the text spells it. */
const occurrences = (text: string, term: string): Array<string> => {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  return [...text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "giu"))].map((m) => m[0])
}

/** Words the test LLM detector counts as machine-written style (quoted verbatim). */
export const LLM_WORDS = ["delve", "furthermore", "moreover", "tapestry", "in conclusion"]

export interface Options {
  /** Runs when an evaluation starts, before it answers; its failure is the evaluation's failure. */
  readonly hook?: (section: Section, comment: string) => Effect.Effect<void, ProviderFailure>
}

const attributeScores = ({ attributes, spans, text, language }: AttributeAnalysisInput): Evaluated<AttributeAnalysis> => {
  const result: Record<string, { summary: number; spans: Array<number> }> = {}
  for (const a of attributes) {
    result[a] = { summary: badness(text), spans: spans.map((s: TextSpan) => badness(text.slice(s.begin, s.end))) }
  }
  // The language's "model" is named in the provenance, as the local per-language sets are.
  const scored = ok(result as AttributeAnalysis)
  return language === undefined || language === "en" ? scored : { ...scored, provenance: { model: `${MODEL}-${language}` } }
}

/**
 * The languages the test scorer serves (issue 28): English, German, French, Spanish and Portuguese
 * in every attribute, Japanese in TOXICITY only (to see `dropUnsupportedAttributes` and the
 * per-attribute error); any other language in none.
 */
export const LANGUAGES: ReadonlyMap<string, ReadonlySet<Perspective.Attribute> | "all"> = new Map<string, ReadonlySet<Perspective.Attribute> | "all">([
  ["en", "all"],
  ["de", "all"],
  ["fr", "all"],
  ["es", "all"],
  ["pt", "all"],
  ["ja", new Set<Perspective.Attribute>(["TOXICITY"])]
])

const ALL_ATTRIBUTES: ReadonlySet<Perspective.Attribute> = new Set(Perspective.Attributes)
const NO_ATTRIBUTES: ReadonlySet<Perspective.Attribute> = new Set()

const attributesIn = (language: string): ReadonlySet<Perspective.Attribute> => {
  const served = LANGUAGES.get(language)
  return served === "all" ? ALL_ATTRIBUTES : served ?? NO_ATTRIBUTES
}

/**
 * A language identifier for tests: the languages of `[lang:xx]` markers in the text, in order;
 * else English when the text has a letter; else nothing (LANGUAGE_DETECTION_FAILED).
 */
export const detectLanguages = (text: string): ReadonlyArray<string> => {
  const marked = [...text.matchAll(/\[lang:([A-Za-z-]+)\]/g)].map((m) => m[1]!)
  if (marked.length > 0) return marked
  return /\p{L}/u.test(text) ? ["en"] : []
}

/** "always"/"never"/"everyone": a hasty generalisation, quoted verbatim. */
const quoteSweeping = (comment: string) => [...comment.matchAll(/\b(?:always|never|everyone)\b/gi)].map((m) => m[0])

const quoteBad = (comment: string) => {
  const out: Array<string> = []
  for (const m of comment.matchAll(/[A-Za-z0-9']+/g)) if (BAD.includes(m[0].toLowerCase())) out.push(m[0])
  return out
}

export const layer = (options: Options = {}) => {
  const hook = options.hook ?? (() => Effect.void)
  return Layer.mergeAll(
    Layer.succeed(CommentScorer, {
      score: ({ comment, detail }) =>
        Effect.map(hook("comment_score", comment), () => {
          const toxicity = badness(comment)
          const quotes = quoteBad(comment)
          return ok({
            logical_fallacies: quoteSweeping(comment).map((q) =>
              Native.logicalFallacy({ fallacy_name: "hasty generalisation", quoted_logical_fallacy_example: q, explanation: "One case does not make a rule." })
            ),
            objectionable_phrases: quotes.map((q) => ({ quoted_objectionable_phrase: q, explanation: "insulting word", suggested_rewrite: "" })),
            negative_tone_phrases: quotes.slice(0, 1).map((q) => ({
              quoted_negative_tone_phrase: q,
              explanation: "Name-calling puts readers on the defensive.",
              suggested_rewrite: ""
            })),
            appears_low_effort: words(comment).length < 3,
            overall_score: Math.max(1, 5 - quotes.length * 2),
            toxicity_score: toxicity,
            toxicity_explanation: quotes.length > 0 ? `Insulting words: ${quotes.join(", ")}` : "No insulting words found."
          }, detail)
        })
    }),
    Layer.succeed(SpamChecker, {
      check: ({ comment }) =>
        Effect.map(hook("spam_check", comment), () => {
          const spam = /https?:\/\//.test(comment) && /\b(buy|subscribe|cheap)\b/i.test(comment)
          return ok({ reasoning: spam ? "Link with a sales pitch." : "No spam signals.", confidence: spam ? 0.9 : 0.8, is_spam: spam })
        })
    }),
    Layer.succeed(RelevanceChecker, {
      check: ({ article, bannedTopics, comment }) =>
        Effect.map(hook("relevance_check", comment), () => {
          const articleWords = new Set(words(article.text))
          const shared = words(comment).filter((w) => w.length > 3 && articleWords.has(w))
          const hit = bannedTopics.filter((t) => comment.toLowerCase().includes(t.toLowerCase()))
          return ok({
            on_topic: { reasoning: shared.length ? `Shares: ${shared.join(", ")}` : "No shared terms.", on_topic: shared.length > 0, confidence: 0.7 },
            banned_topics: {
              reasoning: hit.length ? `Mentions ${hit.join(", ")}.` : "No banned topic mentioned.",
              banned_topics: hit,
              quantity_on_banned_topics: hit.length > 0 ? 1 : 0,
              confidence: 0.7
            }
          })
        })
    }),
    Layer.succeed(DogWhistleChecker, {
      check: ({ comment, examples }) =>
        Effect.map(hook("dogwhistle_check", comment), () => {
          const watched: Array<readonly [string, string]> = [...Object.entries(CODED_TERMS), ...examples.map((e) => [e, "site example"] as const)]
          const hits = watched.flatMap(([term, category]) => occurrences(comment, term).map((q) => ({ q, category })))
          const terms = [...new Set(hits.map((h) => h.q))]
          const categories = [...new Set(hits.map((h) => h.category))]
          return ok(
            terms.length === 0
              ? { detection: { reasoning: "No coded terms found.", dogwhistles_detected: false, confidence: 0.8 }, details: null }
              : {
                detection: { reasoning: `Coded terms: ${terms.join(", ")}.`, dogwhistles_detected: true, confidence: 0.85 },
                details: { dogwhistle_terms: terms, categories, subtlety_level: 0.6, harm_potential: 0.7 }
              }
          )
        })
    }),
    Layer.succeed(LlmDetector, {
      detect: ({ comment }) =>
        Effect.map(hook("llm_detection", comment), () => {
          const found = LLM_WORDS.flatMap((w) => occurrences(comment, w))
          return ok({
            llm_likelihood: Math.min(0.95, 0.1 + 0.3 * found.length),
            confidence: words(comment).length < 10 ? 0.3 : 0.7,
            signals_detected: found.map((q) => ({ signal_type: "word_frequency" as const, description: `"${q}" is overused by LLMs.`, quoted_text: q })),
            reasoning: found.length > 0 ? `Overused words: ${found.join(", ")}.` : "No machine-written style found."
          })
        })
    }),
    Layer.succeed(LanguageIdentifier, { detect: detectLanguages }),
    Layer.succeed(AttributeScorer, {
      attributesIn,
      analyze: (input) => Effect.map(hook("perspective", input.text), () => attributeScores(input)),
      // Without I/O when the hook has nothing to do (an `Exit` already): as the local models do.
      analyzeNow: (input) => {
        const hooked = hook("perspective", input.text)
        return Exit.isExit(hooked) && Exit.isSuccess(hooked) ? Either.right(attributeScores(input)) : undefined
      }
    }),
    Layer.succeed(TopicProfiler, {
      profile: ({ text, title }) =>
        Effect.sync(() => {
          const counts = new Map<string, number>()
          for (const w of words(`${title ?? ""} ${text}`)) if (w.length > 3) counts.set(w, (counts.get(w) ?? 0) + 1)
          const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10)
          const norm = Math.sqrt(top.reduce((s, [, c]) => s + c * c, 0)) || 1
          return { version: 0, terms: top.map(([term, c]) => ({ term, weight: c / norm })), entities: [], summary: text.slice(0, 120) }
        })
    }),
    Layer.succeed(ArticleFetcher, {
      fetch: (url) => Effect.succeed({ text: `Fetched article text from ${url} about gardening tomatoes.`, title: "Fetched", contentType: "text/plain", url })
    })
  )
}

/** A provider failure, for hooks. */
export const failure = (evaluation: string) =>
  new ProviderFailure({ provider: MODEL, evaluation, message: `${evaluation} provider is down`, transient: true })
