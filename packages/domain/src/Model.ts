/**
 * Domain entities held by the stores and passed between the core and its providers.
 * These are not wire shapes; `Native.ts` and `Perspective.ts` are.
 */
import type { AccountId, ArticleContextId } from "./Ids.js"

export interface Account {
  readonly id: AccountId
  readonly email: string
  readonly createdAt: Date
}

/** A key as listed (never the secret: only its public id). */
export interface ApiKeyInfo {
  readonly keyId: string
  readonly email: string
  readonly label: string | null
  readonly createdAt: Date
  readonly revokedAt: Date | null
  readonly lastUsedAt: Date | null
}

/** A weighted term of an article's topic profile. */
export interface WeightedTerm {
  readonly term: string
  readonly weight: number
}

/**
 * What the engine derives from an article once, at creation, so that per-comment checks are cheap.
 * `terms` are the article's key terms (stemmed, lowercase) with tf-idf-like weights, normalised
 * so that the sum of squares is 1.
 */
export interface TopicProfile {
  readonly version: number
  readonly terms: ReadonlyArray<WeightedTerm>
  readonly entities: ReadonlyArray<string>
  readonly summary: string
}

export interface NewArticleContext {
  readonly accountId: AccountId
  readonly text: string
  readonly title: string | null
  readonly topicDescription: string | null
  readonly sourceUrl: string | null
  readonly profile: TopicProfile
}

/** A stored article context: what was created, with its id and creation time. */
export interface ArticleContext extends NewArticleContext {
  readonly id: ArticleContextId
  readonly createdAt: Date
}

/** A moderator's score correction sent through `suggestscore`. */
export interface ScoreSuggestion {
  readonly id: number
  readonly accountId: AccountId
  readonly email: string
  readonly commentText: string
  readonly contextJson: string | null
  /** attribute name as sent -> suggested value in [0, 1] */
  readonly attributeScores: Readonly<Record<string, number>>
  readonly languages: ReadonlyArray<string>
  readonly clientToken: string | null
  readonly sessionId: string | null
  readonly communityId: string | null
  /**
   * The public id of the API key that authenticated the correction; null for an operator's
   * `decorum feedback import`, the in-process API (no key) and rows stored before keys were recorded.
   * `decorum adapt` leaves out corrections whose key has since been revoked.
   */
  readonly keyId: string | null
  readonly createdAt: Date
}

export type NewScoreSuggestion = Omit<ScoreSuggestion, "id" | "createdAt" | "email">
