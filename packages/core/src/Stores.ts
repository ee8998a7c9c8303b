/**
 * The storage ports. `@decorum/store-sql` implements them on SQLite and PostgreSQL; the core's
 * test layers (`TestStores.ts`) implement them in memory.
 */
import type {
  Account,
  AccountId,
  ApiKeyInfo,
  ArticleContext,
  ArticleContextId,
  NewArticleContext,
  NewScoreSuggestion,
  ScoreSuggestion,
  StoreFailure
} from "@decorum/domain"
import { Context, type Effect, type Option } from "effect"

/** A stored key: its public id, the hash of the secret, and its owner. */
export interface StoredKey {
  readonly keyId: string
  readonly hash: string
  readonly account: Account
  readonly revoked: boolean
}

export class AccountStore extends Context.Tag("@decorum/core/AccountStore")<
  AccountStore,
  {
    /** Returns the account with this (lowercased) email, creating it if needed. */
    readonly ensureAccount: (email: string) => Effect.Effect<Account, StoreFailure>
    readonly findAccount: (email: string) => Effect.Effect<Option.Option<Account>, StoreFailure>
    readonly countAccounts: Effect.Effect<number, StoreFailure>
    readonly insertKey: (key: {
      readonly accountId: AccountId
      readonly keyId: string
      readonly hash: string
      readonly label: string | null
    }) => Effect.Effect<void, StoreFailure>
    readonly findKey: (keyId: string) => Effect.Effect<Option.Option<StoredKey>, StoreFailure>
    /**
     * `findKey` as a plain function, for a store that can answer without I/O (a key held in
     * memory): what `findKey` would return, or undefined when only `findKey` can tell (a store
     * without a cache always answers undefined). Required, so that a store states what it can
     * answer at once; authentication by a caller that runs without a fiber reads it.
     */
    readonly findKeyNow: (keyId: string) => Option.Option<StoredKey> | undefined
    /** Keys of one account, or of every account when `email` is omitted. */
    readonly listKeys: (email?: string) => Effect.Effect<ReadonlyArray<ApiKeyInfo>, StoreFailure>
    /** Revokes a key; false when no such (unrevoked) key exists. */
    readonly revokeKey: (keyId: string) => Effect.Effect<boolean, StoreFailure>
  }
>() {}

export interface ArticleContextSummary {
  readonly id: ArticleContextId
  readonly title: string | null
  readonly sourceUrl: string | null
  readonly textLength: number
  readonly createdAt: Date
}

export class ArticleContextStore extends Context.Tag("@decorum/core/ArticleContextStore")<
  ArticleContextStore,
  {
    readonly insert: (id: ArticleContextId, context: NewArticleContext) => Effect.Effect<ArticleContext, StoreFailure>
    /** None when the id is unknown or owned by another account. */
    readonly get: (accountId: AccountId, id: ArticleContextId) => Effect.Effect<Option.Option<ArticleContext>, StoreFailure>
    readonly remove: (accountId: AccountId, id: ArticleContextId) => Effect.Effect<boolean, StoreFailure>
    readonly list: (accountId: AccountId) => Effect.Effect<ReadonlyArray<ArticleContextSummary>, StoreFailure>
  }
>() {}

export class SuggestionStore extends Context.Tag("@decorum/core/SuggestionStore")<
  SuggestionStore,
  {
    /** Durable when the effect succeeds. */
    readonly insert: (suggestion: NewScoreSuggestion) => Effect.Effect<ScoreSuggestion, StoreFailure>
    /** Oldest first; `since` is inclusive. */
    readonly list: (options: { readonly since?: Date; readonly email?: string }) => Effect.Effect<ReadonlyArray<ScoreSuggestion>, StoreFailure>
  }
>() {}

/** Whether the store answers (for `/readyz`). */
export class StoreHealth extends Context.Tag("@decorum/core/StoreHealth")<
  StoreHealth,
  { readonly ping: Effect.Effect<void, StoreFailure> }
>() {}
