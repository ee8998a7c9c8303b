/**
 * better-sqlite3 13 is a Node-API addon built for Node.js 22 and newer; on Node.js 20 it crashes the
 * process (a segmentation fault) the moment a database opens. The SQLite store checks first, so an
 * embedding application on an old Node.js gets a `StoreFailure` it can report instead.
 */
export const SQLITE_MINIMUM_NODE_MAJOR = 22

/** Why the SQLite driver cannot run on this Node.js version, or `undefined` when it can. */
export const sqliteUnsupported = (nodeVersion: string): string | undefined => {
  const major = Number.parseInt(nodeVersion.replace(/^v/, ""), 10)
  return Number.isInteger(major) && major >= SQLITE_MINIMUM_NODE_MAJOR
    ? undefined
    : `the SQLite store needs Node.js ${SQLITE_MINIMUM_NODE_MAJOR} or newer; this is Node.js ${nodeVersion.replace(/^v?/, "v")}`
}
