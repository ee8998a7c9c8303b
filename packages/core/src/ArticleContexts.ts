/**
 * Article contexts: the article a comment belongs to, created once (from text or a URL) with its
 * topic profile, then referenced by id from comment scoring and relevance checks.
 * An id owned by another account behaves exactly like an unknown one.
 */
import {
  type Account,
  type Native,
  type ArticleContext,
  ArticleContextId,
  InvalidArticleContextId,
  InvalidRequest,
  isUuid,
  Limits,
  MissingParameter,
  NotFound,
  UnknownArticleContext
} from "@decorum/domain"
import { Effect, Option } from "effect"
import { ArticleFetcher, TopicProfiler } from "./Providers.js"
import { ArticleContextStore, type ArticleContextSummary } from "./Stores.js"

export interface CreateArticleContextInput {
  readonly text?: string | null | undefined
  readonly url?: string | null | undefined
  readonly title?: string | null | undefined
  readonly topic_description?: string | null | undefined
}

const blankToNull = (s: string | null | undefined): string | null => (s === undefined || s === null || s.trim() === "" ? null : s.trim())

export const create = Effect.fn("ArticleContexts.create", { captureStackTrace: false })(function*(account: Account, input: CreateArticleContextInput) {
  const text = blankToNull(input.text)
  const url = blankToNull(input.url)
  if (text !== null && url !== null) {
    return yield* new InvalidRequest({ message: "Send either `text` or `url`, not both." })
  }
  if (text === null && url === null) {
    return yield* new MissingParameter({ parameter: "text", message: "Either `text` or `url` is required to initialise a topic." })
  }
  let articleText: string
  let title = blankToNull(input.title)
  let sourceUrl: string | null = null
  if (url !== null) {
    const fetcher = yield* ArticleFetcher
    const fetched = yield* fetcher.fetch(url)
    articleText = fetched.text
    title = title ?? fetched.title
    sourceUrl = fetched.url
    if (articleText.trim().length === 0) {
      return yield* new InvalidRequest({ message: `The page at ${url} has no readable text.` })
    }
  } else {
    articleText = text!
  }
  if (articleText.length > Limits.articleMaxLength) {
    articleText = articleText.slice(0, Limits.articleMaxLength)
  }
  const topicDescription = blankToNull(input.topic_description)
  const profile = yield* (yield* TopicProfiler).profile({ text: articleText, title, topicDescription })
  const id = ArticleContextId.make(globalThis.crypto.randomUUID())
  return yield* (yield* ArticleContextStore).insert(id, {
    accountId: account.id,
    text: articleText,
    title,
    topicDescription,
    sourceUrl,
    profile
  })
})

/**
 * Resolves the `article_context_id` of a request. `evaluation` names what needs it, for the
 * message when it is missing.
 */
export const resolve = Effect.fn("ArticleContexts.resolve", { captureStackTrace: false })(function*(
  account: Account,
  raw: string | null | undefined,
  evaluation: string
) {
  const id = yield* parseId(raw, evaluation)
  const found = yield* (yield* ArticleContextStore).get(account.id, id)
  if (Option.isNone(found)) {
    return yield* new UnknownArticleContext({ id, message: `Unknown article_context_id: ${id}` })
  }
  return found.value
})

/** The same as `resolve`, for evaluations where the context is optional (spam, dog whistles). */
export const resolveOptional = (account: Account, raw: string | null | undefined, evaluation = "spam detection") =>
  raw === undefined || raw === null || raw.trim() === ""
    ? Effect.succeed<ArticleContext | null>(null)
    : resolve(account, raw, evaluation)

const parseId = (raw: string | null | undefined, evaluation: string) => {
  if (raw === undefined || raw === null || raw.trim() === "") {
    return Effect.fail(
      new MissingParameter({
        parameter: "article_context_id",
        message: `article_context_id is required for ${evaluation}, but was missing. Create one with /v0.2/inittopic.`
      })
    )
  }
  const trimmed = raw.trim()
  if (!isUuid(trimmed)) {
    return Effect.fail(new InvalidArticleContextId({ value: trimmed, message: `article_context_id must be a UUID, got: ${trimmed.slice(0, 64)}` }))
  }
  return Effect.succeed(ArticleContextId.make(trimmed.toLowerCase()))
}

/** Reads a context the account owns (404 otherwise: this is a resource read, not an evaluation). */
/** A resource id that is not a UUID (or, from an untyped caller, not a string at all). */
const notAnId = (raw: unknown): InvalidArticleContextId | undefined => {
  if (typeof raw === "string" && isUuid(raw)) return undefined
  const shown = String(raw).slice(0, 64)
  return new InvalidArticleContextId({ value: shown, message: `Article context id must be a UUID, got: ${shown}` })
}

export const get = Effect.fn("ArticleContexts.get", { captureStackTrace: false })(function*(account: Account, raw: string) {
  const invalid = notAnId(raw)
  if (invalid !== undefined) return yield* invalid
  const found = yield* (yield* ArticleContextStore).get(account.id, ArticleContextId.make(raw.toLowerCase()))
  if (Option.isNone(found)) return yield* new NotFound({ message: `No article context ${raw}.` })
  return found.value
})

export const remove = Effect.fn("ArticleContexts.remove", { captureStackTrace: false })(function*(account: Account, raw: string) {
  const invalid = notAnId(raw)
  if (invalid !== undefined) return yield* invalid
  const removed = yield* (yield* ArticleContextStore).remove(account.id, ArticleContextId.make(raw.toLowerCase()))
  if (!removed) return yield* new NotFound({ message: `No article context ${raw}.` })
})

export const list = Effect.fn("ArticleContexts.list", { captureStackTrace: false })(function*(account: Account) {
  return yield* (yield* ArticleContextStore).list(account.id)
})

/** A listed article context as the contract shows it (`GET /v0.2/article-contexts`). */
export const summaryView = (c: ArticleContextSummary): Native.ArticleContextSummaryView => ({
  article_id: c.id,
  title: c.title,
  source_url: c.sourceUrl,
  text_length: c.textLength,
  created_at: c.createdAt.toISOString()
})

/** An article context as the contract shows it (`GET /v0.2/article-contexts/{id}`). */
export const view = (c: ArticleContext): Native.ArticleContextView => ({
  article_id: c.id,
  title: c.title,
  topic_description: c.topicDescription,
  source_url: c.sourceUrl,
  text_length: c.text.length,
  created_at: c.createdAt.toISOString(),
  keywords: c.profile.terms.map((t) => ({ term: t.term, weight: t.weight })),
  entities: [...c.profile.entities],
  summary: c.profile.summary
})
