/**
 * Every store port of `@decorum/core` on `@effect/sql`, written once for both dialects.
 *
 * The queries are portable (`insert ... on conflict do nothing`, `returning`, `join`), so this module
 * needs only a `SqlClient`: `SqliteStore` and `PgStore` provide one (and run the migrations).
 * Timestamps are bound as ISO-8601 text, which PostgreSQL reads as `timestamptz` and SQLite stores
 * as is; rows are decoded with schemas, so a timestamp comes back as a `Date` from either dialect.
 * Every database failure is a `StoreFailure` naming the operation; none is a defect.
 */
import { AccountStore, Adaptation, type ArticleContextSummary, ArticleContextStore, StoreHealth, SuggestionStore } from "@decorum/core"
import type { Account, ApiKeyInfo, ArticleContext, ScoreSuggestion } from "@decorum/domain"
import { AccountId, ArticleContextId, StoreFailure } from "@decorum/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Context, Effect, Layer, Option, ParseResult, Schema, type Scope } from "effect"
import * as ContextCache from "./ContextCache.js"
import * as KeyCache from "./KeyCache.js"

/** Every store port, as a layer provides them. */
export type Stores = AccountStore | ArticleContextStore | SuggestionStore | StoreHealth | Adaptation.AdapterStore

// ---------------------------------------------------------------------------------------------
// Row schemas. PostgreSQL returns `bigint` (ids, counts) as strings and `timestamptz` as Date;
// SQLite returns numbers and the ISO text it was given. The schemas accept both.

const DbNumber = Schema.Union(Schema.Number, Schema.NumberFromString)
const DbDate = Schema.Union(Schema.DateFromSelf, Schema.Date)
const DbAccountId = Schema.compose(DbNumber, AccountId)
const NullableString = Schema.NullOr(Schema.String)

const TopicProfileSchema = Schema.Struct({
  version: Schema.Number,
  terms: Schema.Array(Schema.Struct({ term: Schema.String, weight: Schema.Number })),
  entities: Schema.Array(Schema.String),
  summary: Schema.String
})

const AccountRow = Schema.Struct({
  id: DbAccountId,
  email: Schema.String,
  created_at: DbDate
})

const StoredKeyRow = Schema.Struct({
  key_id: Schema.String,
  hash: Schema.String,
  revoked_at: Schema.NullOr(DbDate),
  account_id: DbAccountId,
  email: Schema.String,
  account_created_at: DbDate
})

const KeyInfoRow = Schema.Struct({
  key_id: Schema.String,
  email: Schema.String,
  label: NullableString,
  created_at: DbDate,
  revoked_at: Schema.NullOr(DbDate)
})

const ContextRow = Schema.Struct({
  id: ArticleContextId,
  account_id: DbAccountId,
  text: Schema.String,
  title: NullableString,
  topic_description: NullableString,
  source_url: NullableString,
  profile: Schema.parseJson(TopicProfileSchema),
  created_at: DbDate
})

const ContextSummaryRow = Schema.Struct({
  id: ArticleContextId,
  title: NullableString,
  source_url: NullableString,
  text_length: DbNumber,
  created_at: DbDate
})

const AdapterRow = Schema.Struct({
  id: DbNumber,
  account_id: DbAccountId,
  attribute: Schema.String,
  params: Schema.String,
  created_at: DbDate
})

const VersionRow = Schema.Struct({ version: Schema.NullOr(DbNumber) })

const SuggestionRow = Schema.Struct({
  id: DbNumber,
  account_id: DbAccountId,
  email: Schema.String,
  comment_text: Schema.String,
  context_json: NullableString,
  attribute_scores: Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.Number })),
  languages: Schema.parseJson(Schema.Array(Schema.String)),
  client_token: NullableString,
  session_id: NullableString,
  community_id: NullableString,
  key_id: NullableString,
  created_at: DbDate
})

const IdRow = Schema.Struct({ id: DbNumber })
const CountRow = Schema.Struct({ n: DbNumber })

// Keep fields a newer writer may have added to a stored profile.
// Compiled once per row schema: building `Schema.Array(schema)` and its decoder on every query
// cost more than the query itself on the authentication hot path. Module cache, a documented
// constant: a decoder is a pure function of its row schema, held weakly by the schema object.
const rowDecoders = new WeakMap<object, (rows: unknown) => Effect.Effect<ReadonlyArray<unknown>, ParseResult.ParseError>>()

const decodeRows = <A, I>(schema: Schema.Schema<A, I>): (rows: unknown) => Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError> => {
  let decoder = rowDecoders.get(schema)
  if (decoder === undefined) {
    decoder = Schema.decodeUnknown(Schema.Array(schema), { onExcessProperty: "preserve" })
    rowDecoders.set(schema, decoder)
  }
  return decoder as (rows: unknown) => Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError>
}

const toAccount = (row: typeof AccountRow.Type): Account => ({ id: row.id, email: row.email, createdAt: row.created_at })

const toContext = (row: typeof ContextRow.Type): ArticleContext => ({
  id: row.id,
  accountId: row.account_id,
  text: row.text,
  title: row.title,
  topicDescription: row.topic_description,
  sourceUrl: row.source_url,
  profile: row.profile,
  createdAt: row.created_at
})

const toSuggestion = (row: typeof SuggestionRow.Type): ScoreSuggestion => ({
  id: row.id,
  accountId: row.account_id,
  email: row.email,
  commentText: row.comment_text,
  contextJson: row.context_json,
  attributeScores: row.attribute_scores,
  languages: row.languages,
  clientToken: row.client_token,
  sessionId: row.session_id,
  communityId: row.community_id,
  keyId: row.key_id,
  createdAt: row.created_at
})

// ---------------------------------------------------------------------------------------------
// Errors

const describeCause = (cause: unknown): string | undefined =>
  cause instanceof Error ? cause.message : typeof cause === "string" ? cause : undefined

/** The message of a `StoreFailure` for a database or decoding error. */
export const failureMessage = (error: SqlError | ParseResult.ParseError | { readonly message: string; readonly cause?: unknown }): string => {
  if (ParseResult.isParseError(error)) return `unexpected row: ${error.message}`
  const cause = describeCause(error.cause)
  return cause && cause !== error.message ? `${error.message}: ${cause}` : error.message
}

/** Maps every failure of a store operation to `StoreFailure` and names its span. */
const operation = (name: string) =>
<A, R>(self: Effect.Effect<A, SqlError | ParseResult.ParseError | StoreFailure, R>): Effect.Effect<A, StoreFailure, R> =>
  self.pipe(
    Effect.mapError((error) =>
      error instanceof StoreFailure ? error : new StoreFailure({ operation: name, message: failureMessage(error) })
    ),
    Effect.withSpan(`SqlStores.${name}`, { captureStackTrace: false })
  )

const normalizeEmail = (email: string) => email.trim().toLowerCase()

// ---------------------------------------------------------------------------------------------

/** Builds the four store services on the `SqlClient` in context (which must hold the migrated schema). */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** Now, as the text both dialects accept for a timestamp. */
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
  const encodeDate = (date: Date) => date.toISOString()

  const selectAccount = (email: string) =>
    sql`select id, email, created_at from accounts where email = ${email}`.pipe(
      Effect.flatMap(decodeRows(AccountRow)),
      Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toAccount))
    )

  const accountStore = AccountStore.of({
    ensureAccount: (email) =>
      Effect.gen(function*() {
        const normalized = normalizeEmail(email)
        const createdAt = yield* now
        // Two processes may create the same account at once: the loser's insert does nothing, and
        // both read the one row that won.
        yield* sql`insert into accounts ${sql.insert({ email: normalized, created_at: encodeDate(createdAt) })}
          on conflict (email) do nothing`
        const account = yield* selectAccount(normalized)
        if (Option.isNone(account)) {
          return yield* new StoreFailure({ operation: "AccountStore.ensureAccount", message: "account vanished after its insert" })
        }
        return account.value
      }).pipe(operation("AccountStore.ensureAccount")),

    findAccount: (email) => selectAccount(normalizeEmail(email)).pipe(operation("AccountStore.findAccount")),

    countAccounts: sql`select count(*) as n from accounts`.pipe(
      Effect.flatMap(decodeRows(CountRow)),
      Effect.map((rows) => rows[0]?.n ?? 0),
      operation("AccountStore.countAccounts")
    ),

    insertKey: ({ accountId, hash, keyId, label }) =>
      Effect.gen(function*() {
        const createdAt = yield* now
        yield* sql`insert into api_keys ${
          sql.insert({ key_id: keyId, account_id: accountId, hash, label, created_at: encodeDate(createdAt) })
        }`
      }).pipe(operation("AccountStore.insertKey")),

    findKey: (keyId) =>
      sql`select k.key_id, k.hash, k.revoked_at, a.id as account_id, a.email, a.created_at as account_created_at
          from api_keys k join accounts a on a.id = k.account_id
          where k.key_id = ${keyId}`.pipe(
        Effect.flatMap(decodeRows(StoredKeyRow)),
        Effect.map((rows) =>
          Option.map(Option.fromNullable(rows[0]), (row) => ({
            keyId: row.key_id,
            hash: row.hash,
            revoked: row.revoked_at !== null,
            account: { id: row.account_id, email: row.email, createdAt: row.account_created_at }
          }))
        ),
        operation("AccountStore.findKey")
      ),

    // Only the key cache in front (KeyCache) answers at once; the database itself always takes the effect.
    findKeyNow: () => undefined,
    listKeys: (email) =>
      sql`select k.key_id, a.email, k.label, k.created_at, k.revoked_at
          from api_keys k join accounts a on a.id = k.account_id
          where ${email === undefined ? sql.and([]) : sql`a.email = ${normalizeEmail(email)}`}
          order by k.created_at, k.key_id`.pipe(
        Effect.flatMap(decodeRows(KeyInfoRow)),
        Effect.map((rows) =>
          rows.map((row): ApiKeyInfo => ({
            keyId: row.key_id,
            email: row.email,
            label: row.label,
            createdAt: row.created_at,
            revokedAt: row.revoked_at,
            // The ports do not record key use (yet).
            lastUsedAt: null
          }))
        ),
        operation("AccountStore.listKeys")
      ),

    revokeKey: (keyId) =>
      Effect.gen(function*() {
        const revokedAt = yield* now
        const rows = yield* sql`update api_keys set revoked_at = ${encodeDate(revokedAt)}
          where key_id = ${keyId} and revoked_at is null
          returning key_id`
        return rows.length > 0
      }).pipe(operation("AccountStore.revokeKey"))
  })

  const contextStore = ArticleContextStore.of({
    insert: (id, context) =>
      Effect.gen(function*() {
        const createdAt = yield* now
        yield* sql`insert into article_contexts ${
          sql.insert({
            id,
            account_id: context.accountId,
            text: context.text,
            text_length: context.text.length,
            title: context.title,
            topic_description: context.topicDescription,
            source_url: context.sourceUrl,
            profile: JSON.stringify(context.profile),
            created_at: encodeDate(createdAt)
          })
        }`
        const stored: ArticleContext = { ...context, id, createdAt }
        return stored
      }).pipe(operation("ArticleContextStore.insert")),

    get: (accountId, id) =>
      sql`select id, account_id, text, title, topic_description, source_url, profile, created_at
          from article_contexts where id = ${id} and account_id = ${accountId}`.pipe(
        Effect.flatMap(decodeRows(ContextRow)),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toContext)),
        operation("ArticleContextStore.get")
      ),

    remove: (accountId, id) =>
      sql`delete from article_contexts where id = ${id} and account_id = ${accountId} returning id`.pipe(
        Effect.map((rows) => rows.length > 0),
        operation("ArticleContextStore.remove")
      ),

    list: (accountId) =>
      sql`select id, title, source_url, text_length, created_at
          from article_contexts where account_id = ${accountId}
          order by created_at, id`.pipe(
        Effect.flatMap(decodeRows(ContextSummaryRow)),
        Effect.map((rows) =>
          rows.map((row): ArticleContextSummary => ({
            id: row.id,
            title: row.title,
            sourceUrl: row.source_url,
            textLength: row.text_length,
            createdAt: row.created_at
          }))
        ),
        operation("ArticleContextStore.list")
      )
  })

  const suggestionStore = SuggestionStore.of({
    insert: (suggestion) =>
      Effect.gen(function*() {
        const createdAt = yield* now
        // One statement: the row and the email it is listed under come back together.
        const rows = yield* sql`insert into score_suggestions ${
          sql.insert({
            account_id: suggestion.accountId,
            comment_text: suggestion.commentText,
            context_json: suggestion.contextJson,
            attribute_scores: JSON.stringify(suggestion.attributeScores),
            languages: JSON.stringify(suggestion.languages),
            client_token: suggestion.clientToken,
            session_id: suggestion.sessionId,
            community_id: suggestion.communityId,
            key_id: suggestion.keyId,
            created_at: encodeDate(createdAt)
          })
        } returning id`.pipe(Effect.flatMap(decodeRows(IdRow)))
        const id = rows[0]?.id
        const account = yield* sql`select id, email, created_at from accounts where id = ${suggestion.accountId}`.pipe(
          Effect.flatMap(decodeRows(AccountRow))
        )
        if (id === undefined || account[0] === undefined) {
          return yield* new StoreFailure({ operation: "SuggestionStore.insert", message: "the inserted suggestion or its account was not found" })
        }
        const stored: ScoreSuggestion = { ...suggestion, id, email: account[0].email, createdAt }
        return stored
      }).pipe(operation("SuggestionStore.insert")),

    list: ({ email, since }) => {
      const filters = [
        ...(since === undefined ? [] : [sql`s.created_at >= ${encodeDate(since)}`]),
        ...(email === undefined ? [] : [sql`a.email = ${normalizeEmail(email)}`])
      ]
      return sql`select s.id, s.account_id, a.email, s.comment_text, s.context_json, s.attribute_scores, s.languages,
            s.client_token, s.session_id, s.community_id, s.key_id, s.created_at
          from score_suggestions s join accounts a on a.id = s.account_id
          where ${sql.and(filters)}
          order by s.created_at, s.id`.pipe(
        Effect.flatMap(decodeRows(SuggestionRow)),
        Effect.map((rows) => rows.map(toSuggestion)),
        operation("SuggestionStore.list")
      )
    }
  })

  const adapterStore = Adaptation.AdapterStore.of({
    save: ({ accountId, attribute, params, fallback, report }) =>
      Effect.gen(function*() {
        const createdAt = encodeDate(yield* now)
        const insert = (row: Adaptation.AdapterParams | null, fitId: number | null) =>
          sql`insert into site_adapters ${
            sql.insert({
              account_id: accountId,
              attribute,
              params: row === null ? null : JSON.stringify(row),
              report: JSON.stringify(report),
              created_at: createdAt,
              fit_id: fitId
            })
          } returning id`.pipe(
            Effect.flatMap(decodeRows(IdRow)),
            Effect.flatMap((rows) =>
              rows[0] === undefined
                ? new StoreFailure({ operation: "AdapterStore.save", message: "the inserted adapter was not returned" })
                : Effect.succeed(rows[0].id)
            )
          )
        if (fallback === undefined) return yield* insert(params, null)
        // One transaction: no reader sees the first row of a fit as the latest.
        return yield* sql.withTransaction(Effect.gen(function*() {
          const id = yield* insert(params, null)
          yield* insert(fallback, id)
          return id
        }))
      }).pipe(operation("AdapterStore.save")),
    reset: (accountId, attribute) =>
      Effect.gen(function*() {
        const createdAt = encodeDate(yield* now)
        const attributes = attribute !== undefined
          ? [attribute]
          : (yield* sql`select distinct attribute from site_adapters where account_id = ${accountId}`.pipe(
            Effect.flatMap(decodeRows(Schema.Struct({ attribute: Schema.String })))
          )).map((r) => r.attribute)
        for (const a of attributes) {
          yield* sql`insert into site_adapters ${sql.insert({ account_id: accountId, attribute: a, params: null, report: null, created_at: createdAt })}`
        }
      }).pipe(operation("AdapterStore.reset")),
    // Per account and attribute, the latest row and the rows of its fit.
    active: sql`select s.id, s.account_id, s.attribute, s.params, s.created_at from site_adapters s
        join site_adapters h on h.account_id = s.account_id and h.attribute = s.attribute
          and h.id = (select max(l.id) from site_adapters l where l.account_id = s.account_id and l.attribute = s.attribute)
        where s.params is not null and (s.id = h.id or s.id = h.fit_id or s.fit_id = h.fit_id)`.pipe(
      Effect.flatMap(decodeRows(AdapterRow)),
      Effect.map((rows) =>
        rows.map((r): Adaptation.StoredAdapter => ({
          id: r.id,
          accountId: r.account_id,
          attribute: r.attribute as Adaptation.StoredAdapter["attribute"],
          params: JSON.parse(r.params) as Adaptation.AdapterParams,
          createdAt: r.created_at
        }))
      ),
      operation("AdapterStore.active")
    ),
    version: sql`select max(id) as version from site_adapters`.pipe(
      Effect.flatMap(decodeRows(VersionRow)),
      Effect.map((rows) => rows[0]?.version ?? 0),
      operation("AdapterStore.version")
    ),
    pending: (accountId) =>
      sql`select count(*) as n from score_suggestions s
          where s.account_id = ${accountId}
            and s.id > coalesce((select f.fitted_through from adapter_fits f where f.account_id = ${accountId}), 0)`.pipe(
        Effect.flatMap(decodeRows(CountRow)),
        Effect.map((rows) => rows[0]?.n ?? 0),
        operation("AdapterStore.pending")
      ),
    recordFit: (accountId, through) =>
      sql`insert into adapter_fits ${sql.insert({ account_id: accountId, fitted_through: through })}
          on conflict (account_id) do update set fitted_through = case
            when excluded.fitted_through > adapter_fits.fitted_through then excluded.fitted_through
            else adapter_fits.fitted_through end`.pipe(Effect.asVoid, operation("AdapterStore.recordFit")),
    // One conditional update: PostgreSQL re-checks the condition on the row it waited for, SQLite
    // has one writer, so two instances never both see their claim succeed.
    claim: (accountId, owner, leaseMillis) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* sql`insert into adapter_fits ${sql.insert({ account_id: accountId, fitted_through: 0 })} on conflict (account_id) do nothing`
        const rows = yield* sql`update adapter_fits
            set claimed_by = ${owner}, claimed_until = ${encodeDate(new Date(at.getTime() + leaseMillis))}
          where account_id = ${accountId}
            and (claimed_by is null or claimed_by = ${owner} or claimed_until < ${encodeDate(at)})
          returning account_id`
        return rows.length > 0
      }).pipe(operation("AdapterStore.claim")),
    release: (accountId, owner) =>
      sql`update adapter_fits set claimed_by = null, claimed_until = null
          where account_id = ${accountId} and claimed_by = ${owner}`.pipe(Effect.asVoid, operation("AdapterStore.release"))
  })

  const health = StoreHealth.of({
    // Ready means writable: a statement that deletes nothing still needs the write lock, so a
    // read-only SQLite file or a read-only PostgreSQL session (a replica) fails here instead of
    // passing /readyz and answering 503 to every write.
    ping: sql`select 1 as ok`.pipe(
      Effect.zipRight(sql`delete from score_suggestions where 1 = 0`),
      Effect.asVoid,
      operation("StoreHealth.ping")
    )
  })

  return Context.empty().pipe(
    Context.add(AccountStore, accountStore),
    Context.add(ArticleContextStore, contextStore),
    Context.add(SuggestionStore, suggestionStore),
    Context.add(Adaptation.AdapterStore, adapterStore),
    Context.add(StoreHealth, health)
  )
})

/** The store ports on the `SqlClient` in context (migrations already run: see `SqliteStore` / `PgStore`). */
export const layer: Layer.Layer<Stores, never, SqlClient.SqlClient> = Layer.effectContext(make)

/**
 * `layer` with verified keys cached in memory behind a change probe (see `KeyCache`), and with
 * `contexts`, article contexts too (see `ContextCache`: only for a probe that sees every commit).
 * The probe is acquired in the layer's scope, so whatever it holds (a connection, a listener) is
 * released with it.
 */
export const layerWithKeyCache = <E, R>(
  probe: Effect.Effect<KeyCache.ChangeProbe, E, R | Scope.Scope>,
  options?: KeyCache.CacheOptions & { readonly contexts?: ContextCache.ContextCacheOptions | undefined }
): Layer.Layer<Stores, E, SqlClient.SqlClient | Exclude<R, Scope.Scope>> =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const stores = yield* make
      const changes = yield* probe
      const withKeys = Context.add(stores, AccountStore, KeyCache.cached(Context.get(stores, AccountStore), changes, options))
      return options?.contexts === undefined
        ? withKeys
        : Context.add(withKeys, ArticleContextStore, ContextCache.cached(Context.get(stores, ArticleContextStore), changes, options.contexts))
    })
  )
