/**
 * The evaluation ports. Each evaluation has its own port so a provider (local model, LLM,
 * cascade) can be chosen per evaluation. Implementations live outside the core
 * (`@decorum/local`, `@decorum/openai`); tests provide their own.
 */
import type {
  AttributeAnalysis,
  AttributeAnalysisInput,
  CommentScore,
  CommentScoreInput,
  DogwhistleCheck,
  DogWhistleCheckInput,
  Evaluated,
  LlmDetectInput,
  LlmDetection,
  ProviderFailure,
  RelevanceCheck,
  RelevanceInput,
  SpamCheck,
  SpamCheckInput,
  TopicProfile
} from "@decorum/domain"
import type { Perspective } from "@decorum/domain"
import { Context, type Effect, type Either } from "effect"

/** Comment scoring: fallacies, objectionable and negative-tone phrases, low effort, 1-5 quality, toxicity. */
export class CommentScorer extends Context.Tag("@decorum/core/CommentScorer")<
  CommentScorer,
  { readonly score: (input: CommentScoreInput) => Effect.Effect<Evaluated<CommentScore>, ProviderFailure> }
>() {}

/** Spam detection. */
export class SpamChecker extends Context.Tag("@decorum/core/SpamChecker")<
  SpamChecker,
  { readonly check: (input: SpamCheckInput) => Effect.Effect<Evaluated<SpamCheck>, ProviderFailure> }
>() {}

/** On-topic and banned-topic checking against an article context. */
export class RelevanceChecker extends Context.Tag("@decorum/core/RelevanceChecker")<
  RelevanceChecker,
  { readonly check: (input: RelevanceInput) => Effect.Effect<Evaluated<RelevanceCheck>, ProviderFailure> }
>() {}

/** Coded language (dog whistles): terms used in a covert sense, their categories, subtlety and harm. */
export class DogWhistleChecker extends Context.Tag("@decorum/core/DogWhistleChecker")<
  DogWhistleChecker,
  { readonly check: (input: DogWhistleCheckInput) => Effect.Effect<Evaluated<DogwhistleCheck>, ProviderFailure> }
>() {}

/** Machine-written text: how likely the comment was written by an LLM, and the signals that say so. */
export class LlmDetector extends Context.Tag("@decorum/core/LlmDetector")<
  LlmDetector,
  { readonly detect: (input: LlmDetectInput) => Effect.Effect<Evaluated<LlmDetection>, ProviderFailure> }
>() {}

/** Perspective-style attribute scores (TOXICITY, INSULT, ...), for the whole text and per span. */
export class AttributeScorer extends Context.Tag("@decorum/core/AttributeScorer")<
  AttributeScorer,
  {
    readonly analyze: (input: AttributeAnalysisInput) => Effect.Effect<Evaluated<AttributeAnalysis>, ProviderFailure>
    /**
     * `analyze` as a plain function, for a scorer that answers without I/O (the local models):
     * what `analyze` would answer, or undefined when only `analyze` can (then it runs; an LLM
     * scorer always answers undefined). Required, so that a scorer states what it can answer at
     * once, to a caller that runs without a fiber (`Analyze.analyzeNow`).
     */
    readonly analyzeNow: (input: AttributeAnalysisInput) => Either.Either<Evaluated<AttributeAnalysis>, ProviderFailure> | undefined
    /**
     * The attributes it scores in a language (as Perspective writes it: "en", "de", "hi-Latn"),
     * answered without I/O; an empty set for a language it does not serve. Absent: every attribute
     * in every language (an LLM reads them all). Analyze asks it before scoring, so a language
     * without a model gets Perspective's LANGUAGE_NOT_SUPPORTED_BY_ATTRIBUTE, never another
     * language's model.
     */
    readonly attributesIn?: (language: string) => ReadonlySet<Perspective.Attribute>
  }
>() {}

/**
 * Language identification of a comment: its languages as Perspective writes them ("en", "de",
 * "hi-Latn", "cs", ...), most likely first; empty when none can be identified (no letters, or a
 * script it does not know). Synchronous and without I/O: it runs on every analyze call, also
 * for a caller that runs without a fiber (`Analyze.analyzeNow`).
 */
export class LanguageIdentifier extends Context.Tag("@decorum/core/LanguageIdentifier")<
  LanguageIdentifier,
  { readonly detect: (text: string) => ReadonlyArray<string> }
>() {}

/** Derives an article's topic profile once, when its context is created. */
export class TopicProfiler extends Context.Tag("@decorum/core/TopicProfiler")<
  TopicProfiler,
  {
    readonly profile: (input: {
      readonly text: string
      readonly title: string | null
      readonly topicDescription: string | null
    }) => Effect.Effect<TopicProfile>
  }
>() {}

/** What a fetched article URL yielded. */
export interface FetchedArticle {
  /** The main text (HTML reduced, Markdown and plain text as they are). */
  readonly text: string
  readonly title: string | null
  readonly contentType: string
  /** The final URL after redirects. */
  readonly url: string
}

/** Fetches an article for `inittopic` with `url`: safely (no private addresses), with limits. */
export class ArticleFetcher extends Context.Tag("@decorum/core/ArticleFetcher")<
  ArticleFetcher,
  {
    readonly fetch: (
      url: string
    ) => Effect.Effect<FetchedArticle, import("@decorum/domain").FetchFailed | import("@decorum/domain").UnsupportedContent | import("@decorum/domain").InvalidRequest>
  }
>() {}
