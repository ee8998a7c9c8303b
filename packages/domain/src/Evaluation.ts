/**
 * Inputs and outputs of the evaluations as the core sees them, independent of any wire family.
 */
import type { Attribute } from "./Perspective.js"
import type { AnalysedComment } from "./AnalysedComment.js"
import type { ArticleContext } from "./Model.js"
import type { CommentScore, DogwhistleCheck, LlmDetection, RelevanceCheck, SpamCheck } from "./Native.js"

/** Which model or provider produced a result, e.g. `local-2026.11.1` or `openai:gpt-4o-mini@p3`. */
export interface Provenance {
  readonly model: string
  /** Set when the configured provider failed and another one answered instead. */
  readonly fallbackFrom?: string
}

/** A result together with the model that produced it. */
export interface Evaluated<A> {
  readonly value: A
  readonly provenance: Provenance
}

/**
 * How much the caller wants: `basic` (the default) accepts whatever the configured engine answers
 * first; `full` makes the `cascade` engine consult the LLM even when the local verdict is certain.
 * The `local` and `llm` engines answer every field either way and ignore it.
 */
export type EvaluationDetail = "basic" | "full"

export interface CommentScoreInput {
  readonly comment: string
  readonly article: ArticleContext
  readonly replyTo: string | null
  /** Optional; `basic` when absent. See `EvaluationDetail`. */
  readonly detail?: EvaluationDetail
  /** The comment's identified language (issue 28); absent: English. */
  readonly language?: string
  /**
   * The comment analysed once for every evaluation of the request (its `text` is `comment`): what
   * one evaluator derives from it, the next reads. The combined call passes the one all its sections
   * read; absent (a single evaluation, an evaluator called directly), the evaluator analyses the
   * comment itself.
   */
  readonly analysed?: AnalysedComment
}

export interface SpamCheckInput {
  readonly comment: string
  readonly article: ArticleContext | null
  /** Optional; `basic` when absent. See `EvaluationDetail`. */
  readonly detail?: EvaluationDetail
  /** The comment's identified language (issue 28); absent: English. */
  readonly language?: string
  /**
   * The comment analysed once for every evaluation of the request (its `text` is `comment`): what
   * one evaluator derives from it, the next reads. The combined call passes the one all its sections
   * read; absent (a single evaluation, an evaluator called directly), the evaluator analyses the
   * comment itself.
   */
  readonly analysed?: AnalysedComment
}

export interface RelevanceInput {
  readonly comment: string
  readonly article: ArticleContext
  readonly bannedTopics: ReadonlyArray<string>
  readonly replyTo: string | null
  /** Optional; `basic` when absent. See `EvaluationDetail`. */
  readonly detail?: EvaluationDetail
  /**
   * The comment analysed once for every evaluation of the request (its `text` is `comment`): what
   * one evaluator derives from it, the next reads. The combined call passes the one all its sections
   * read; absent (a single evaluation, an evaluator called directly), the evaluator analyses the
   * comment itself.
   */
  readonly analysed?: AnalysedComment
}

export interface DogWhistleCheckInput {
  /** The text to judge: the comment without any author header (`Comment.stripAuthorHeader`). */
  readonly comment: string
  readonly article: ArticleContext | null
  /** The site's sensitive topics for this request, trimmed, without duplicates (may be empty). */
  readonly sensitiveTopics: ReadonlyArray<string>
  /** Terms or phrases the site has seen used as coded language, trimmed, without duplicates (may be empty). */
  readonly examples: ReadonlyArray<string>
  /** The comment this one replies to, if any. */
  readonly replyTo: string | null
  /** Other comments of the thread, as sent (may be empty). */
  readonly contextComments: ReadonlyArray<string>
  /** Optional; `basic` when absent. See `EvaluationDetail`. */
  readonly detail?: EvaluationDetail
  /**
   * The comment analysed once for every evaluation of the request (its `text` is `comment`): what
   * one evaluator derives from it, the next reads. The combined call passes the one all its sections
   * read; absent (a single evaluation, an evaluator called directly), the evaluator analyses the
   * comment itself.
   */
  readonly analysed?: AnalysedComment
}

export interface LlmDetectInput {
  /** The text to judge: the comment without any author header (`Comment.stripAuthorHeader`). */
  readonly comment: string
  /** Optional; `basic` when absent. See `EvaluationDetail`. */
  readonly detail?: EvaluationDetail
  /**
   * The comment analysed once for every evaluation of the request (its `text` is `comment`): what
   * one evaluator derives from it, the next reads. The combined call passes the one all its sections
   * read; absent (a single evaluation, an evaluator called directly), the evaluator analyses the
   * comment itself.
   */
  readonly analysed?: AnalysedComment
}

/** A half-open UTF-16 range `[begin, end)` of the text being analysed. */
export interface TextSpan {
  readonly begin: number
  readonly end: number
}

export interface AttributeAnalysisInput {
  /** The text as received (after HTML reduction). */
  readonly text: string
  /** Canonical attributes to score, without duplicates. */
  readonly attributes: ReadonlyArray<Attribute>
  /** Spans to score separately (sentences), possibly empty. */
  readonly spans: ReadonlyArray<TextSpan>
  /** Optional context: the article and the parent comment, as plain text. */
  readonly context: { readonly article: string | null; readonly parent: string | null; readonly entries: ReadonlyArray<string> }
  /**
   * The language to score in (as Perspective writes it: "en", "de", "hi-Latn"): one the scorer
   * said it serves for every attribute asked (`AttributeScorer.attributesIn`). Absent: English.
   */
  readonly language?: string
  /**
   * The comment analysed once for every evaluation of the request (its `text` is `text`), when
   * other evaluations judge it too (the combined call's perspective section): what they derived,
   * the scorer reads. Absent (analyze, where the scorer is the only reader), it analyses the text
   * itself.
   */
  readonly analysed?: AnalysedComment
}

export interface AttributeResult {
  /** Probability in [0, 1]. */
  readonly summary: number
  /** One score per input span, in order. */
  readonly spans: ReadonlyArray<number>
}

export type AttributeAnalysis = Readonly<Partial<Record<Attribute, AttributeResult>>>

export type { CommentScore, DogwhistleCheck, LlmDetection, RelevanceCheck, SpamCheck }
