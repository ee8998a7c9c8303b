/**
 * The one table of which paths answer in which family: the error envelope a path's errors are
 * rendered in (`ErrorMapping.render`), before routing as well as after. Every place that needs a path's family (the app's 404/405 and defect envelope,
 * Node's parser rejections, metric labels, Lambda's shutdown answer, the API's groups) reads it
 * here.
 *
 * - `native`: `/v0.2/...`, the native error body.
 * - `compat`: `/v0.2/external-compat/...` and `/v0.2/perspective-compat/...` (the Perspective
 *   request model with native credentials), Google's error body.
 * - `google`: `/v1alpha1/...`, `/batch` and `/$discovery/...`, Google's error body.
 * - `ops`: everything else (`/healthz`, `/readyz`, `/metrics`, the documents and the playground),
 *   errors in the native body.
 */

/** The error envelope a family answers in. */
export type Family = "native" | "compat" | "google"

/** A family of paths (`ops`: the paths of no API family). */
export type PathFamily = Family | "ops"

/** The two prefixes (under `/v0.2/`) of the compat family: the same routes, twice. */
export const COMPAT_PREFIXES = ["external-compat", "perspective-compat"] as const
export type CompatPrefix = (typeof COMPAT_PREFIXES)[number]

interface Row {
  /** The paths that start with it, or (`exact`) that path alone. */
  readonly prefix: string
  readonly exact?: boolean
  readonly family: PathFamily
}

/** First match wins: the compat prefixes before `/v0.2/`. */
const TABLE: ReadonlyArray<Row> = [
  ...COMPAT_PREFIXES.map((prefix): Row => ({ prefix: `/v0.2/${prefix}/`, family: "compat" })),
  { prefix: "/v0.2/", family: "native" },
  { prefix: "/v1alpha1/", family: "google" },
  { prefix: "/$discovery", family: "google" },
  { prefix: "/batch", exact: true, family: "google" }
]

const matches = (row: Row, path: string) => (row.exact ? path === row.prefix : path.startsWith(row.prefix))

/** The family of a path (`ops` for the paths of no API family). */
export const pathFamilyOf = (path: string): PathFamily => TABLE.find((row) => matches(row, path))?.family ?? "ops"

/** The envelope of a family of paths: `ops` paths answer in the native one. */
export const envelopeOf = (family: PathFamily): Family => (family === "ops" ? "native" : family)

/** The family whose envelope answers a path, for errors raised before routing (404, 405, the parser's 400/431/417) and after. */
export const familyOfPath = (path: string): Family => envelopeOf(pathFamilyOf(path))
