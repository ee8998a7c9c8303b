/**
 * Which Node.js lines Decorum runs on, checked before anything else loads: on an older line the
 * SQLite driver (better-sqlite3 13, a Node-API addon built for Node 22+) crashes the process with a
 * segmentation fault instead of an error, so the `decorum` command refuses to start there.
 */

/** The supported release lines, as the README and `engines` name them. */
export const SUPPORTED_LINES = [22, 24] as const

/** The oldest supported major version; anything below it is refused. */
export const MINIMUM_MAJOR = SUPPORTED_LINES[0]

/** The major version of a Node.js version string (`"24.21.0"`, `"v22.23.3"`). */
export const majorOf = (version: string): number => Number.parseInt(version.replace(/^v/, ""), 10)

/**
 * Why this Node.js cannot run Decorum, or `undefined` when it can. Lines newer than the last tested
 * one are allowed: they keep Node-API compatibility, and the README says which lines are tested.
 */
export const unsupported = (version: string): string | undefined => {
  const major = majorOf(version)
  if (Number.isInteger(major) && major >= MINIMUM_MAJOR) return undefined
  return `Decorum needs Node.js ${SUPPORTED_LINES.join(" or ")} (LTS); this is Node.js ${version.replace(/^v?/, "v")}. ` +
    `Install a supported Node.js (https://nodejs.org), then run \`npm ci\` again so the native modules match it.`
}
