/**
 * The single evaluations behind `/v0.2/commentscore`, `/v0.2/antispam` and
 * `/v0.2/commentrelevance`: validate the request, resolve the article context, ask the provider.
 */
import type { Account, EvaluationDetail, Native } from "@decorum/domain"
import { Effect } from "effect"
import * as ArticleContexts from "./ArticleContexts.js"
import { validateComment } from "./Comment.js"
import { CommentScorer, RelevanceChecker, SpamChecker } from "./Providers.js"

const optionalText = (s: string | null | undefined): string | null => (s === undefined || s === null || s.trim() === "" ? null : s)

const cleanTopics = (topics: ReadonlyArray<string> | null | undefined): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const t of topics ?? []) {
    const trimmed = t.trim()
    if (trimmed && !seen.has(trimmed.toLowerCase())) {
      seen.add(trimmed.toLowerCase())
      out.push(trimmed)
    }
  }
  return out
}

/** Per-request options that are not part of the wire body (the HTTP layer reads them from headers). */
export interface EvaluationOptions {
  readonly detail?: EvaluationDetail
}

const withDetail = (options: EvaluationOptions) => (options.detail ? { detail: options.detail } : {})

export const scoreComment = Effect.fn("CommentScoring.score", { captureStackTrace: false })(function*(
  account: Account,
  request: Native.CommentScoreRequest,
  options: EvaluationOptions = {}
) {
  const comment = yield* validateComment(request.comment)
  const article = yield* ArticleContexts.resolve(account, request.article_context_id, "comment scoring")
  return yield* (yield* CommentScorer).score({ comment, article, replyTo: optionalText(request.reply_to_comment), ...withDetail(options) })
})

export const checkSpam = Effect.fn("SpamCheck.check", { captureStackTrace: false })(function*(
  account: Account,
  request: Native.SpamCheckRequest,
  options: EvaluationOptions = {}
) {
  const comment = yield* validateComment(request.comment)
  const article = yield* ArticleContexts.resolveOptional(account, request.article_context_id)
  return yield* (yield* SpamChecker).check({ comment, article, ...withDetail(options) })
})

export const checkRelevance = Effect.fn("RelevanceCheck.check", { captureStackTrace: false })(function*(
  account: Account,
  request: Native.RelevanceRequest,
  options: EvaluationOptions = {}
) {
  const comment = yield* validateComment(request.comment)
  const article = yield* ArticleContexts.resolve(account, request.article_context_id, "relevance checking")
  return yield* (yield* RelevanceChecker).check({
    comment,
    article,
    bannedTopics: cleanTopics(request.banned_topics),
    replyTo: optionalText(request.reply_to_comment),
    ...withDetail(options)
  })
})

export { cleanTopics, optionalText, withDetail }
