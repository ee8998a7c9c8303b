/**
 * The combined evaluation: any of comment scoring, spam detection, relevance checking and
 * Perspective attributes for one comment, run concurrently.
 *
 * Request errors (no flag, missing or unknown article context, bad comment) fail the whole call
 * before anything runs. Once running, a section whose provider fails is left out of the answer
 * and reported under `failures`; the other sections are kept. Only when every requested section
 * fails does the call itself fail (with the first failure).
 */
import {
  type Account,
  type ArticleContext,
  type CommentScore,
  type Evaluated,
  MissingParameter,
  type Native,
  NoEvaluationRequested,
  type Perspective,
  type ProviderFailure,
  type RelevanceCheck,
  type SpamCheck,
  UnsupportedEvaluation
} from "@decorum/domain"
import { Effect, Either } from "effect"
import * as Analyze from "./Analyze.js"
import * as ArticleContexts from "./ArticleContexts.js"
import { validateComment } from "./Comment.js"
import { cleanTopics, counted, type EvaluationOptions, optionalText, withDetail } from "./Evaluations.js"
import * as Evaluations from "./Evaluations.js"
import { type AttributeScorer, CommentScorer, RelevanceChecker, SpamChecker } from "./Providers.js"

export const Flags = ["run_comment_score", "run_spam_check", "run_relevance_check", "run_perspective"] as const

export type SectionName = "comment_score" | "spam_check" | "relevance_check" | "perspective"

export interface MegacallResult {
  readonly comment_score?: Evaluated<CommentScore>
  readonly spam_check?: Evaluated<SpamCheck>
  readonly relevance_check?: Evaluated<RelevanceCheck>
  readonly perspective?: Evaluated<Perspective.AnalyzeCommentResponse>
  readonly failures: Readonly<Partial<Record<SectionName, ProviderFailure>>>
}

/** Flags of the hosted original this version does not offer: ignored when false, 400 when true. */
const UNOFFERED = ["run_dogwhistle_check", "run_llm_detect"] as const

const perspectiveAttributes = (
  requested: Native.MegacallRequest["requested_attributes"]
): Perspective.AnalyzeCommentRequest["requestedAttributes"] => {
  if (!requested) return undefined
  if (Array.isArray(requested)) return Object.fromEntries(requested.map((n) => [n, {}]))
  return Object.fromEntries(
    Object.entries(requested as Record<string, unknown>).map(([k, v]) => [k, (v && typeof v === "object" ? v : {}) as Perspective.AttributeParameters])
  )
}

export const megacall = Effect.fn("Megacall.megacall", { captureStackTrace: false })(function*(
  account: Account,
  request: Native.MegacallRequest,
  /** The raw body, to find flags this version does not offer. */
  raw: Readonly<Record<string, unknown>> = {},
  options: EvaluationOptions = {}
) {
  const detail = withDetail(options)
  for (const flag of UNOFFERED) {
    if (raw[flag] === true || raw[flag] === "true") {
      return yield* new UnsupportedEvaluation({
        flag,
        message: `${flag} is not offered by this version of the engine; send it as false or leave it out.`
      })
    }
  }
  const runScore = request.run_comment_score === true
  const runSpam = request.run_spam_check === true
  const runRelevance = request.run_relevance_check === true
  const runPerspective = request.run_perspective === true
  if (!runScore && !runSpam && !runRelevance && !runPerspective) {
    return yield* new NoEvaluationRequested({
      flags: [...Flags],
      message: `At least one of ${Flags.join(", ")} must be true.`
    })
  }
  const comment = yield* validateComment(request.comment)

  let article: ArticleContext | null = null
  if (runScore || runRelevance) {
    const needs = [runScore ? "comment scoring" : null, runRelevance ? "relevance checking" : null].filter(Boolean).join(" and ")
    if (!request.article_context_id || request.article_context_id.trim() === "") {
      return yield* new MissingParameter({
        parameter: "article_context_id",
        message: `article_context_id is required for ${needs}, but was missing. Create one with /v0.2/inittopic.`
      })
    }
    article = yield* ArticleContexts.resolve(account, request.article_context_id, needs)
  } else if (runSpam) {
    article = yield* ArticleContexts.resolveOptional(account, request.article_context_id)
  }

  const replyTo = optionalText(request.reply_to_comment)
  const sections: Partial<
    Record<SectionName, Effect.Effect<Evaluated<unknown>, ProviderFailure, CommentScorer | SpamChecker | RelevanceChecker | AttributeScorer>>
  > = {}
  // The comment's language, identified once for the sections that judge it (issue 28).
  const language = runScore || runSpam ? yield* Evaluations.identifyLanguage(comment) : undefined
  const lang = Evaluations.languageInput(language)
  if (runScore) {
    sections.comment_score = Effect.flatMap(CommentScorer, (s) =>
      Effect.map(counted("comment_score", s.score({ comment, article: article!, replyTo, ...detail, ...lang })), (r) => Evaluations.withLanguage(r, language)))
  }
  if (runSpam) {
    sections.spam_check = Effect.flatMap(SpamChecker, (s) =>
      Effect.map(counted("spam_check", s.check({ comment, article, ...detail, ...lang })), (r) => Evaluations.withLanguage(r, language)))
  }
  if (runRelevance) {
    sections.relevance_check = Effect.flatMap(
      RelevanceChecker,
      (s) => counted("relevance_check", s.check({ comment, article: article!, bannedTopics: cleanTopics(request.banned_topics), replyTo, ...detail }))
    )
  }
  if (runPerspective) {
    const prepared = yield* Analyze.prepare({
      comment: { text: comment, type: "PLAIN_TEXT" },
      requestedAttributes: perspectiveAttributes(request.requested_attributes),
      spanAnnotations: request.span_annotations === true
    }, "compat")
    // The language rules are request rules: a language without a model fails the call before any section runs.
    const plan = yield* Analyze.plan(prepared)
    sections.perspective = Analyze.scorePlanned(prepared, plan, account)
  }

  const settled = yield* Effect.all(
    Object.fromEntries(Object.entries(sections).map(([k, eff]) => [k, Effect.either(eff!)])),
    { concurrency: "unbounded" }
  )
  const result: Record<string, unknown> = {}
  const failures: Partial<Record<SectionName, ProviderFailure>> = {}
  for (const [name, outcome] of Object.entries(settled)) {
    if (Either.isRight(outcome)) result[name] = outcome.right
    else failures[name as SectionName] = outcome.left
  }
  const failed = Object.values(failures)
  if (failed.length === Object.keys(sections).length) {
    return yield* failed[0]!
  }
  return { ...result, failures } as MegacallResult
})

