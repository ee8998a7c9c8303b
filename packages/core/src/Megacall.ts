/**
 * The combined evaluation: any of comment scoring, spam detection, relevance checking, dog-whistle
 * detection, machine-written-text detection and Perspective attributes for one comment, run
 * concurrently. The native sections judge the comment without a WordPress-plugin author header
 * (`judgedComment`); the Perspective section scores the text as sent (its span offsets count in it).
 *
 * Request errors (no flag, missing or unknown article context, bad comment) fail the whole call
 * before anything runs. Once running, a section whose provider fails is left out of the answer
 * and reported under `failures`; the other sections are kept. Only when every requested section
 * fails does the call itself fail (with the first failure).
 */
import {
  type Account,
  AnalysedComment,
  type ArticleContext,
  type CommentScore,
  type DogwhistleCheck,
  type Evaluated,
  type LlmDetection,
  MissingParameter,
  type Native,
  NoEvaluationRequested,
  type Perspective,
  type ProviderFailure,
  type RelevanceCheck,
  type SpamCheck
} from "@decorum/domain"
import { Effect, Either } from "effect"
import * as Analyze from "./Analyze.js"
import * as ArticleContexts from "./ArticleContexts.js"
import { judgedComment, validateComment } from "./Comment.js"
import { cleanTopics, counted, dogWhistleInput, type EvaluationOptions, optionalText, withDetail } from "./Evaluations.js"
import * as Evaluations from "./Evaluations.js"
import { settleAll } from "./internal/settle.js"
import { type AttributeScorer, CommentScorer, DogWhistleChecker, LlmDetector, RelevanceChecker, SpamChecker } from "./Providers.js"

export const Flags = [
  "run_comment_score",
  "run_spam_check",
  "run_relevance_check",
  "run_dogwhistle_check",
  "run_perspective",
  "run_llm_detect"
] as const

export type SectionName = "comment_score" | "spam_check" | "relevance_check" | "dogwhistle_check" | "perspective" | "llm_detection"

/** Every section, in the order answers list them. */
export const Sections: ReadonlyArray<SectionName> = ["comment_score", "spam_check", "relevance_check", "dogwhistle_check", "perspective", "llm_detection"]

type SectionProviders = CommentScorer | SpamChecker | RelevanceChecker | DogWhistleChecker | LlmDetector | AttributeScorer

export interface MegacallResult {
  readonly comment_score?: Evaluated<CommentScore>
  readonly spam_check?: Evaluated<SpamCheck>
  readonly relevance_check?: Evaluated<RelevanceCheck>
  readonly dogwhistle_check?: Evaluated<DogwhistleCheck>
  readonly perspective?: Evaluated<Perspective.AnalyzeCommentResponse>
  readonly llm_detection?: Evaluated<LlmDetection>
  readonly failures: Readonly<Partial<Record<SectionName, ProviderFailure>>>
}

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
  /** The raw body (kept for callers; every flag the hosted original sends is offered). */
  _raw: Readonly<Record<string, unknown>> = {},
  options: EvaluationOptions = {}
) {
  const detail = withDetail(options)
  const runScore = request.run_comment_score === true
  const runSpam = request.run_spam_check === true
  const runRelevance = request.run_relevance_check === true
  const runPerspective = request.run_perspective === true
  const runDogwhistle = request.run_dogwhistle_check === true
  const runLlm = request.run_llm_detect === true
  if (!runScore && !runSpam && !runRelevance && !runPerspective && !runDogwhistle && !runLlm) {
    return yield* new NoEvaluationRequested({
      flags: [...Flags],
      message: `At least one of ${Flags.join(", ")} must be true.`
    })
  }
  const sent = yield* validateComment(request.comment)
  const comment = yield* judgedComment(sent)

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
  } else if (runSpam || runDogwhistle) {
    article = yield* ArticleContexts.resolveOptional(account, request.article_context_id, runSpam ? "spam detection" : "dog-whistle detection")
  }

  const replyTo = optionalText(request.reply_to_comment)
  // The request's lists are request errors too: checked before any section runs.
  const bannedTopics = runRelevance ? yield* cleanTopics("banned_topics", request.banned_topics) : []
  const dogWhistle = runDogwhistle ? yield* dogWhistleInput(comment, article, request, options) : undefined
  const sections: Partial<
    Record<SectionName, Effect.Effect<Evaluated<unknown>, ProviderFailure, SectionProviders>>
  > = {}
  // The comment analysed once: every section's evaluator reads what the others derived from it.
  const analysed = new AnalysedComment(comment)
  const prepared = runPerspective
    ? yield* Analyze.prepare({
      comment: { text: sent, type: "PLAIN_TEXT" },
      requestedAttributes: perspectiveAttributes(request.requested_attributes),
      spanAnnotations: request.span_annotations === true
    }, "compat")
    : undefined
  // The perspective section scores the text as sent: the same comment unless it had an author header.
  const samePerspectiveText = prepared !== undefined && prepared.text === comment
  // The comment's languages, identified once for the sections that judge it (issue 28).
  const detected = runScore || runSpam || samePerspectiveText ? yield* Evaluations.identifyLanguages(comment) : undefined
  const language = detected === undefined ? undefined : (detected[0] ?? null)
  const lang = Evaluations.languageInput(language)
  if (runScore) {
    sections.comment_score = Effect.flatMap(CommentScorer, (s) =>
      Effect.map(counted("comment_score", s.score({ comment, article: article!, replyTo, ...detail, ...lang, analysed })), (r) => Evaluations.withLanguage(r, language)))
  }
  if (runSpam) {
    sections.spam_check = Effect.flatMap(SpamChecker, (s) =>
      Effect.map(counted("spam_check", s.check({ comment, article, ...detail, ...lang, analysed })), (r) => Evaluations.withLanguage(r, language)))
  }
  if (runRelevance) {
    sections.relevance_check = Effect.flatMap(
      RelevanceChecker,
      (s) => counted("relevance_check", s.check({ comment, article: article!, bannedTopics, replyTo, ...detail, analysed }))
    )
  }
  if (runDogwhistle) {
    sections.dogwhistle_check = Effect.flatMap(
      DogWhistleChecker,
      (s) => counted("dogwhistle_check", s.check({ ...dogWhistle!, analysed }))
    )
  }
  if (runLlm) {
    sections.llm_detection = Effect.flatMap(LlmDetector, (s) => counted("llm_detection", s.detect({ comment, ...detail, analysed })))
  }
  if (prepared !== undefined) {
    // The language rules are request rules: a language without a model fails the call before any section runs.
    const plan = yield* Analyze.plan(prepared, samePerspectiveText ? detected : undefined)
    sections.perspective = Analyze.scorePlanned(prepared, plan, account, samePerspectiveText ? analysed : undefined)
  }

  // Concurrently, without a fork for a section that completes at once (the local models).
  const settled = yield* settleAll(sections as Record<SectionName, Effect.Effect<Evaluated<unknown>, ProviderFailure, SectionProviders>>)
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

