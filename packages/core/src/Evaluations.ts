/**
 * The single evaluations behind `/v0.2/commentscore`, `/v0.2/antispam`, `/v0.2/commentrelevance`,
 * `/v0.2/dogwhistle` and `/v0.2/llmdetect`: validate the request, resolve the article context, ask
 * the provider. Each judges the comment without a WordPress-plugin author header (`judgedComment`).
 */
import { type Account, type DogWhistleCheckInput, type Evaluated, type EvaluationDetail, InvalidRequest, Limits, type Native } from "@decorum/domain"
import { Effect, Either, Option } from "effect"
import * as ArticleContexts from "./ArticleContexts.js"
import { judgedComment } from "./Comment.js"
import * as Metrics from "./Metrics.js"
import { CommentScorer, DogWhistleChecker, LanguageIdentifier, LlmDetector, RelevanceChecker, SpamChecker } from "./Providers.js"

const optionalText = (s: string | null | undefined): string | null => (s === undefined || s === null || s.trim() === "" ? null : s)

/**
 * A list field of a native request (`banned_topics`, `sensitive_topics`, `dogwhistle_examples`),
 * trimmed, without blanks and case-insensitive repeats; more than `Limits.maxListEntries` entries, or
 * an entry longer than `Limits.maxListEntryLength`, is a request error naming the field.
 */
const cleanTopics = (field: string, topics: ReadonlyArray<string> | null | undefined): Either.Either<ReadonlyArray<string>, InvalidRequest> => {
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const t of topics ?? []) {
    const trimmed = t.trim()
    if (trimmed.length > Limits.maxListEntryLength) {
      return Either.left(new InvalidRequest({ message: `${field}: an entry is longer than ${Limits.maxListEntryLength} characters.` }))
    }
    if (trimmed && !seen.has(trimmed.toLowerCase())) {
      seen.add(trimmed.toLowerCase())
      out.push(trimmed)
      if (out.length > Limits.maxListEntries) {
        return Either.left(new InvalidRequest({ message: `${field}: at most ${Limits.maxListEntries} entries.` }))
      }
    }
  }
  return Either.right(out)
}

/**
 * The comment's language for the native evaluations (issue 28): the top identified language
 * (null when none), or undefined when the host identifies none. Unlike Perspective's analyze, a
 * comment with no identifiable language is still judged (with the English methods), and says so.
 */
export const identifyLanguage = (comment: string): Effect.Effect<string | null | undefined> =>
  Effect.map(identifyLanguages(comment), (languages) => languages === undefined ? undefined : (languages[0] ?? null))

/** The comment's identified languages, most likely first (`LanguageIdentifier.detect`); undefined when the host identifies none. */
export const identifyLanguages = (comment: string): Effect.Effect<ReadonlyArray<string> | undefined> =>
  Effect.map(Effect.serviceOption(LanguageIdentifier), (identifier) => Option.isNone(identifier) ? undefined : identifier.value.detect(comment))

/** The language to pass to a scorer: the identified one, none (English) when nothing was identified. */
export const languageInput = (language: string | null | undefined): { readonly language?: string } =>
  typeof language === "string" ? { language } : {}

/**
 * The answer with the language it was judged in (`detected_language`, first), when a language was
 * identified or looked for. A scorer that says nothing of `english_only_fields` judged every part
 * in the comment's language (an LLM).
 */
export const withLanguage = <A extends object>(result: Evaluated<A>, language: string | null | undefined): Evaluated<A> =>
  language === undefined ? result : { ...result, value: { detected_language: language, ...result.value } }

/** Per-request options that are not part of the wire body (the HTTP layer reads them from headers). */
export interface EvaluationOptions {
  readonly detail?: EvaluationDetail
}

const withDetail = (options: EvaluationOptions) => (options.detail ? { detail: options.detail } : {})

/** An evaluation's answer, counted by section and by the engine that answered (`Metrics.evaluations`). */
const counted = <A, E, R>(section: string, evaluation: Effect.Effect<Evaluated<A>, E, R>) =>
  Effect.tap(evaluation, (result) => Metrics.countEvaluation(section, result.provenance))

export const scoreComment = Effect.fn("Evaluations.scoreComment", { captureStackTrace: false })(function*(
  account: Account,
  request: Native.CommentScoreRequest,
  options: EvaluationOptions = {}
) {
  const comment = yield* judgedComment(request.comment)
  const article = yield* ArticleContexts.resolve(account, request.article_context_id, "comment scoring")
  const language = yield* identifyLanguage(comment)
  const scored = yield* counted(
    "comment_score",
    (yield* CommentScorer).score({ comment, article, replyTo: optionalText(request.reply_to_comment), ...withDetail(options), ...languageInput(language) })
  )
  return withLanguage(scored, language)
})

export const checkSpam = Effect.fn("Evaluations.checkSpam", { captureStackTrace: false })(function*(
  account: Account,
  request: Native.SpamCheckRequest,
  options: EvaluationOptions = {}
) {
  const comment = yield* judgedComment(request.comment)
  const article = yield* ArticleContexts.resolveOptional(account, request.article_context_id)
  const language = yield* identifyLanguage(comment)
  const checked = yield* counted("spam_check", (yield* SpamChecker).check({ comment, article, ...withDetail(options), ...languageInput(language) }))
  return withLanguage(checked, language)
})

export const checkRelevance = Effect.fn("Evaluations.checkRelevance", { captureStackTrace: false })(function*(
  account: Account,
  request: Native.RelevanceRequest,
  options: EvaluationOptions = {}
) {
  const comment = yield* judgedComment(request.comment)
  const article = yield* ArticleContexts.resolve(account, request.article_context_id, "relevance checking")
  return yield* counted(
    "relevance_check",
    (yield* RelevanceChecker).check({
      comment,
      article,
      bannedTopics: yield* cleanTopics("banned_topics", request.banned_topics),
      replyTo: optionalText(request.reply_to_comment),
      ...withDetail(options)
    })
  )
})

/**
 * Context comments as sent, without blank ones; more than `Limits.maxContextComments`, or one longer
 * than a comment may be, is a request error.
 */
const contextComments = (comments: ReadonlyArray<string> | null | undefined): Either.Either<ReadonlyArray<string>, InvalidRequest> => {
  const kept = (comments ?? []).filter((c) => c.trim() !== "")
  if (kept.length > Limits.maxContextComments) {
    return Either.left(new InvalidRequest({ message: `context_comments: at most ${Limits.maxContextComments} comments.` }))
  }
  if (kept.some((c) => c.length > Limits.commentMaxLength)) {
    return Either.left(new InvalidRequest({ message: `context_comments: a comment is longer than ${Limits.commentMaxLength} characters.` }))
  }
  return Either.right(kept)
}

/** The dog-whistle provider's input from a request's fields (shared with the combined call); a bad list is a request error. */
const dogWhistleInput = (
  comment: string,
  article: import("@decorum/domain").ArticleContext | null,
  request: {
    readonly sensitive_topics?: ReadonlyArray<string> | null | undefined
    readonly dogwhistle_examples?: ReadonlyArray<string> | null | undefined
    readonly reply_to_comment?: string | null | undefined
    readonly context_comments?: ReadonlyArray<string> | null | undefined
  },
  options: EvaluationOptions
): Either.Either<DogWhistleCheckInput, InvalidRequest> =>
  Either.all({
    sensitiveTopics: cleanTopics("sensitive_topics", request.sensitive_topics),
    examples: cleanTopics("dogwhistle_examples", request.dogwhistle_examples),
    contextComments: contextComments(request.context_comments)
  }).pipe(Either.map((lists) => ({
    comment,
    article,
    ...lists,
    replyTo: optionalText(request.reply_to_comment),
    ...withDetail(options)
  })))

export const checkDogwhistle = Effect.fn("Evaluations.checkDogwhistle", { captureStackTrace: false })(function*(
  account: Account,
  request: Native.DogwhistleRequest,
  options: EvaluationOptions = {}
) {
  const comment = yield* judgedComment(request.comment)
  const article = yield* ArticleContexts.resolveOptional(account, request.article_context_id, "dog-whistle detection")
  const input = yield* dogWhistleInput(comment, article, request, options)
  return yield* counted("dogwhistle_check", (yield* DogWhistleChecker).check(input))
})

export const detectLlm = Effect.fn("Evaluations.detectLlm", { captureStackTrace: false })(function*(
  _account: Account,
  request: Native.LlmDetectRequest,
  options: EvaluationOptions = {}
) {
  const comment = yield* judgedComment(request.comment)
  return yield* counted("llm_detection", (yield* LlmDetector).detect({ comment, ...withDetail(options) }))
})

export { cleanTopics, counted, dogWhistleInput, optionalText, withDetail }
