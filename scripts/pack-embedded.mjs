#!/usr/bin/env node
/**
 * `npm run pack:embedded [-- DIR]`: the in-process engine (`@decorum/embedded`) as npm tarballs a
 * project outside this repository can install. The `@decorum/*` packages are not published, so
 * the embedded package and the six workspaces it depends on are built and packed together into
 * DIR (default `.decorum/packs/`), and the lines to install them are printed. Only earlier
 * `decorum-*.tgz` tarballs in DIR are replaced; nothing else there is touched. `@decorum/local`'s
 * tarball carries the shipped model files (`models/`), so the trained models work out of the box.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(fileURLToPath(new URL("..", import.meta.url)))
const out = resolve(process.argv[2] ?? join(root, ".decorum/packs"))
/** `@decorum/embedded` and every workspace it depends on, directly or not. */
const PACKAGES = ["domain", "core", "local", "openai", "store-sql", "engine", "embedded"].map((p) => `@decorum/${p}`)

const npm = process.platform === "win32" ? "npm.cmd" : "npm"
const run = (args) => execFileSync(npm, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"], shell: process.platform === "win32" }).toString()

/** The tarballs this script writes (`npm pack` names a scoped package `scope-name-version.tgz`). */
const ours = (file) => /^decorum-[a-z-]+-\d[^/]*\.tgz$/.test(file)

if (existsSync(out) && !statSync(out).isDirectory()) {
  console.error(`pack:embedded: ${out} exists and is not a directory`)
  process.exit(2)
}
try {
  console.log("pack:embedded: building the workspaces (tsc -b)")
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-b", "tsconfig.build.json"], { cwd: root, stdio: "inherit" })
  mkdirSync(out, { recursive: true })
  for (const old of readdirSync(out).filter(ours)) rmSync(join(out, old))
  run(["pack", "--silent", ...PACKAGES.flatMap((p) => ["-w", p]), "--pack-destination", out])
} catch (error) {
  console.error(`pack:embedded: failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`)
  process.exit(1)
}

const tarballs = readdirSync(out).filter(ours).sort()
if (tarballs.length !== PACKAGES.length) {
  console.error(`pack:embedded: expected ${PACKAGES.length} tarballs in ${out}, found ${tarballs.length}`)
  process.exit(1)
}
const { overrides } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
console.log(`pack:embedded: ${tarballs.length} tarballs in ${relative(process.cwd(), out) || "."}\n`)
console.log("In your project (Node.js 22 or 24):\n")
console.log(`  npm install ${tarballs.map((t) => join(out, t)).join(" ")}\n`)
console.log("and add to its package.json (the versions this repository pins; the SQLite driver must be")
console.log("better-sqlite3 13, whose Node-API binary needs no compiler and works on Node 24):\n")
console.log(`  "overrides": ${JSON.stringify({ "better-sqlite3": overrides["better-sqlite3"], effect: overrides.effect })}\n`)
console.log("Then: import { createDecorum } from \"@decorum/embedded\" (docs/embedding.md).")
