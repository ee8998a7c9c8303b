/**
 * The release id of the per-language model sets and the record of the weights each released
 * version names (issue 28). Every score names the model that produced it (`local-<code>-<release>`
 * in the answer), so one version must never name two weight sets.
 *
 * The id is the day the set was trained, `YYYY.MM.DD`, and `.N` (N >= 2) for the N-th distinct
 * release of that day. `npm run train:languages` writes `LANGUAGE_RELEASE` into every language's
 * manifest and the index, so a rebuild reproduces the shipped versions. The record
 * (`languageReleases.json`, next to this file) gives each released version's files and sha256: the
 * trainer refuses to write a version into the shipped directory when the record gives that version
 * other weights (bump `LANGUAGE_RELEASE` to `nextRelease` of it), and records a new version when it
 * writes one there; the shipped-sets test (packages/local/test/models/LanguageModelSets.test.ts)
 * fails when a shipped version is not recorded or is recorded with other files.
 */
import type { Manifest } from "@decorum/local/ModelFormat"

/** The release every language's version carries: `local-<code>-2026.11.28.3` (round 3). */
export const LANGUAGE_RELEASE = "2026.11.28.3"

/** `YYYY.MM.DD`, then `.N` with N >= 2 for a later release of the same day. */
export const RELEASE_PATTERN = /^\d{4}\.\d{2}\.\d{2}(\.([2-9]|[1-9]\d+))?$/

/** The record's file name, in packages/training/. */
export const RELEASES_FILE = "languageReleases.json"

export const languageVersion = (code: string, release: string): string => `local-${code}-${release}`

/** The next id after `release`: `.2` after a bare date, `.N+1` after `.N`. */
export const nextRelease = (release: string): string => {
  const m = /^(\d{4}\.\d{2}\.\d{2})(?:\.(\d+))?$/.exec(release)
  if (m === null) throw new Error(`not a release id: ${release}`)
  return `${m[1]}.${m[2] === undefined ? 2 : Number(m[2]) + 1}`
}

/** Each released version's files (weights, idf table) and their sha256. */
export interface LanguageReleases {
  readonly note?: string
  readonly versions: Record<string, Record<string, string>>
}

/** A manifest's files and their sha256, as the record keeps them. */
export const filesOf = (manifest: Manifest): Record<string, string> => {
  const files: Record<string, string> = {}
  for (const f of manifest.families) files[f.file] = f.sha256
  if (manifest.idf !== undefined) files[manifest.idf.file] = manifest.idf.sha256
  return files
}

const sameFiles = (a: Record<string, string>, b: Record<string, string>): boolean => {
  const keys = Object.keys(a).sort()
  return keys.join("\n") === Object.keys(b).sort().join("\n") && keys.every((k) => a[k] === b[k])
}

/**
 * Why `manifest` cannot carry its version, or undefined: the record gives the version other files
 * (or, with `requireRecorded`, does not list it).
 */
export const releaseConflict = (releases: LanguageReleases, manifest: Manifest, requireRecorded = false): string | undefined => {
  const recorded = releases.versions[manifest.version]
  if (recorded === undefined) return requireRecorded ? `${manifest.version} is not in ${RELEASES_FILE}` : undefined
  if (sameFiles(recorded, filesOf(manifest))) return undefined
  return `${manifest.version} already names other weights (${RELEASES_FILE}: ${JSON.stringify(recorded)}; these: ${JSON.stringify(filesOf(manifest))})`
}
