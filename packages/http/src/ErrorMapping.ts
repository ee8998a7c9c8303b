/**
 * The one place where the engine's typed errors become HTTP statuses and error bodies.
 *
 * Each error tag has one HTTP status, the same in every family, with one exception the contract
 * requires: on the Google-shaped family a missing key is 403 `PERMISSION_DENIED` and a wrong key
 * is 400 `API_KEY_INVALID`, as the real service answers.
 */
import type { DecorumError, GoogleErrorBody, NativeErrorBody } from "./Envelopes.js"
import type { Family } from "./Families.js"

export type { Family } from "./Families.js"

interface Row {
  readonly status: number
  /** `error` of the native body: a short category. */
  readonly category: string
  /** `error.status` of the Google body: a canonical code name. */
  readonly googleStatus: string
  /** `details[].errorType` of the Google body, when Perspective defines one. */
  readonly errorType?: string
}

type Tag = DecorumError["_tag"]

/**
 * One row per error tag; a tag whose row depends on the error lists every row it can take
 * (`rows`) and picks one (`pick`), so the OpenAPI document can list every status statically.
 */
type Entry<K extends Tag> = Row | { readonly rows: Readonly<Record<string, Row>>; readonly pick: (e: Extract<DecorumError, { _tag: K }>) => string }

const table: { readonly [K in Tag]: Entry<K> } = {
  MissingParameter: { status: 400, category: "Missing Parameter", googleStatus: "INVALID_ARGUMENT", errorType: "INVALID_REQUEST" },
  NoEvaluationRequested: { status: 400, category: "Missing Parameter", googleStatus: "INVALID_ARGUMENT", errorType: "INVALID_REQUEST" },
  UnsupportedEvaluation: { status: 400, category: "Invalid Parameter", googleStatus: "INVALID_ARGUMENT", errorType: "INVALID_REQUEST" },
  InvalidArticleContextId: { status: 400, category: "Invalid Parameter", googleStatus: "INVALID_ARGUMENT", errorType: "INVALID_REQUEST" },
  UnknownArticleContext: { status: 400, category: "Invalid Parameter", googleStatus: "INVALID_ARGUMENT", errorType: "INVALID_REQUEST" },
  InvalidComment: {
    rows: {
      empty: { status: 400, category: "Missing Parameter", googleStatus: "INVALID_ARGUMENT", errorType: "COMMENT_EMPTY" },
      tooLong: { status: 400, category: "Invalid Parameter", googleStatus: "INVALID_ARGUMENT", errorType: "COMMENT_TOO_LONG" }
    },
    pick: (e) => (e.reason === "empty" ? "empty" : "tooLong")
  },
  InvalidRequest: { status: 400, category: "Bad Request", googleStatus: "INVALID_ARGUMENT", errorType: "INVALID_REQUEST" },
  Unauthorized: { status: 401, category: "Unauthorized", googleStatus: "UNAUTHENTICATED" },
  UnsupportedAttribute: { status: 400, category: "Invalid Parameter", googleStatus: "INVALID_ARGUMENT", errorType: "INVALID_REQUEST" },
  LanguageNotSupportedByAttribute: { status: 400, category: "Invalid Parameter", googleStatus: "INVALID_ARGUMENT", errorType: "LANGUAGE_NOT_SUPPORTED_BY_ATTRIBUTE" },
  LanguageDetectionFailed: { status: 400, category: "Invalid Parameter", googleStatus: "INVALID_ARGUMENT", errorType: "LANGUAGE_DETECTION_FAILED" },
  NoRequestedAttributes: { status: 400, category: "Missing Parameter", googleStatus: "INVALID_ARGUMENT", errorType: "NO_REQUESTED_ATTRIBUTES" },
  UnsupportedMediaType: { status: 415, category: "Unsupported Media Type", googleStatus: "INVALID_ARGUMENT", errorType: "INVALID_REQUEST" },
  PayloadTooLarge: { status: 413, category: "Payload Too Large", googleStatus: "INVALID_ARGUMENT", errorType: "INVALID_REQUEST" },
  NotFound: { status: 404, category: "Not Found", googleStatus: "NOT_FOUND" },
  RateLimited: { status: 429, category: "Too Many Requests", googleStatus: "RESOURCE_EXHAUSTED" },
  FetchFailed: { status: 400, category: "Fetch Failed", googleStatus: "INVALID_ARGUMENT", errorType: "INVALID_REQUEST" },
  UnsupportedContent: { status: 415, category: "Unsupported Media Type", googleStatus: "INVALID_ARGUMENT", errorType: "INVALID_REQUEST" },
  ProviderFailure: { status: 502, category: "Bad Gateway", googleStatus: "UNAVAILABLE" },
  StoreFailure: { status: 503, category: "Service Unavailable", googleStatus: "UNAVAILABLE" },
  Unavailable: { status: 503, category: "Service Unavailable", googleStatus: "UNAVAILABLE" },
  MethodNotAllowed: { status: 405, category: "Method Not Allowed", googleStatus: "METHOD_NOT_ALLOWED" },
  MalformedHttp: {
    rows: {
      malformed: { status: 400, category: "Bad Request", googleStatus: "INVALID_ARGUMENT" },
      malformedBody: { status: 400, category: "Bad Request", googleStatus: "INVALID_ARGUMENT" },
      missingHost: { status: 400, category: "Bad Request", googleStatus: "INVALID_ARGUMENT" },
      headersTooLarge: { status: 431, category: "Request Header Fields Too Large", googleStatus: "INVALID_ARGUMENT" },
      expectation: { status: 417, category: "Expectation Failed", googleStatus: "FAILED_PRECONDITION" },
      timeout: { status: 408, category: "Request Timeout", googleStatus: "DEADLINE_EXCEEDED" },
      chunkExtensionsTooLarge: { status: 413, category: "Payload Too Large", googleStatus: "INVALID_ARGUMENT" }
    },
    pick: (e) => e.reason
  }
}

const rowsOf = (tag: Tag): ReadonlyArray<Row> => {
  const entry = table[tag] as Entry<Tag>
  return "rows" in entry ? Object.values(entry.rows) : [entry]
}

export const rowOf = (error: DecorumError): Row => {
  const entry = table[error._tag] as Entry<Tag>
  return "rows" in entry ? entry.rows[entry.pick(error as never)]! : entry
}

/** The Google-shaped family's own answers to a bad key: 403 when missing, 400 `API_KEY_INVALID` when wrong. */
const GOOGLE_UNAUTHORIZED = { missing: 403, wrong: 400 } as const

/** What a status means in a family, for the OpenAPI document: the categories (native) or codes (Google) of its rows. */
export interface DeclaredError {
  readonly status: number
  readonly description: string
}

/**
 * Every status `render` can answer in `family` for an error of one of `tags`, with what it means,
 * plus the 500 of `renderDefect`: the OpenAPI document's error responses, derived from this table.
 */
export const declaredErrors = (family: Family, tags: ReadonlyArray<Tag>): ReadonlyArray<DeclaredError> => {
  const meanings = new Map<number, Set<string>>()
  const add = (status: number, meaning: string) => meanings.set(status, (meanings.get(status) ?? new Set()).add(meaning))
  for (const tag of tags) {
    if (tag === "Unauthorized" && family === "google") {
      add(GOOGLE_UNAUTHORIZED.missing, "PERMISSION_DENIED (no key)")
      add(GOOGLE_UNAUTHORIZED.wrong, "INVALID_ARGUMENT API_KEY_INVALID (wrong key)")
      continue
    }
    for (const row of rowsOf(tag)) {
      add(row.status, family === "native" ? row.category : row.errorType ? `${row.googleStatus} ${row.errorType}` : row.googleStatus)
    }
  }
  add(500, family === "native" ? "Internal Server Error" : "INTERNAL")
  return [...meanings].sort(([a], [b]) => a - b).map(([status, set]) => ({ status, description: [...set].join("; ") }))
}

export interface RenderedError {
  readonly status: number
  readonly body: NativeErrorBody | GoogleErrorBody
  readonly headers: Readonly<Record<string, string>>
}

const PERSPECTIVE_ERROR = "type.googleapis.com/google.commentanalyzer.v1alpha1.Error"

const googleBody = (status: number, googleStatus: string, message: string, details?: GoogleErrorBody["error"]["details"]): GoogleErrorBody => ({
  error: { code: status, message, status: googleStatus, ...(details ? { details } : {}) }
})

/**
 * Longest error message sent. Messages may quote what the request sent (a field's value, an
 * attribute name, a URL); the quote is cut so an error is never larger than a short excerpt.
 */
export const MAX_MESSAGE_LENGTH = 300

const bounded = (message: string): string =>
  message.length <= MAX_MESSAGE_LENGTH ? message : `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…`

/** Renders an engine error in the envelope of `family`. */
export const render = (family: Family, failure: DecorumError): RenderedError => {
  const error = failure.message.length <= MAX_MESSAGE_LENGTH ? failure : ({ ...failure, _tag: failure._tag, message: bounded(failure.message) } as DecorumError)
  const row = rowOf(error)
  const headers: Record<string, string> = error._tag === "RateLimited"
    ? { "retry-after": String(Math.max(1, Math.ceil(error.retryAfterSeconds))) }
    : error._tag === "MethodNotAllowed"
    ? { allow: error.allow.join(", ") }
    : {}
  if (family === "native") {
    return { status: row.status, body: { error: row.category, message: error.message, code: row.status }, headers }
  }
  if (error._tag === "Unauthorized" && family === "google") {
    return error.reason === "missing"
      ? { status: GOOGLE_UNAUTHORIZED.missing, body: googleBody(GOOGLE_UNAUTHORIZED.missing, "PERMISSION_DENIED", error.message), headers }
      : {
        status: GOOGLE_UNAUTHORIZED.wrong,
        body: googleBody(GOOGLE_UNAUTHORIZED.wrong, "INVALID_ARGUMENT", error.message, [
          { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }
        ]),
        headers
      }
  }
  const details = error._tag === "LanguageNotSupportedByAttribute"
    ? [{
      "@type": PERSPECTIVE_ERROR,
      errorType: row.errorType!,
      // Perspective's own detail: the languages under the key of where they came from, then the attribute.
      languageNotSupportedByAttributeError: {
        [error.source === "requested" ? "requestedLanguages" : "detectedLanguages"]: error.languages,
        attribute: error.attribute
      } as { detectedLanguages?: ReadonlyArray<string>; requestedLanguages?: ReadonlyArray<string>; attribute: string }
    }]
    : row.errorType
    ? [{ "@type": PERSPECTIVE_ERROR, errorType: row.errorType }]
    : undefined
  return { status: row.status, body: googleBody(row.status, row.googleStatus, error.message, details), headers }
}

/** The body of a real fault (a defect): 500 in the family's envelope, with no internals. */
export const renderDefect = (family: Family): RenderedError =>
  family === "native"
    ? { status: 500, body: { error: "Internal Server Error", message: "The server failed to process the request.", code: 500 }, headers: {} }
    : { status: 500, body: googleBody(500, "INTERNAL", "Internal error encountered."), headers: {} }
