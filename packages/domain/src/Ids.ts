import { Schema } from "effect"

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The id of an article context: a UUID, as the native clients validate it. */
export const ArticleContextId = Schema.String.pipe(
  Schema.filter((s) => UUID_RE.test(s), { message: () => "must be a UUID" }),
  Schema.brand("ArticleContextId")
)
export type ArticleContextId = typeof ArticleContextId.Type

export const isUuid = (s: string): boolean => UUID_RE.test(s)

/** An account's numeric id in the store. */
export const AccountId = Schema.Number.pipe(Schema.int(), Schema.brand("AccountId"))
export type AccountId = typeof AccountId.Type

/** A lenient email check: something@something. The store lowercases it. */
export const Email = Schema.Trim.pipe(
  Schema.filter((s) => /^[^\s@]+@[^\s@]+$/.test(s), { message: () => "must be an email address" }),
  Schema.brand("Email")
)
export type Email = typeof Email.Type
