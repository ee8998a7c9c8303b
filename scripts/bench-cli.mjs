#!/usr/bin/env node
/**
 * `npm run bench:cli`: how long the `decorum` command takes to answer, as a user runs it (the shim
 * apps/server/bin/decorum.mjs, after `npm ci` has built and bundled it): `--version`, `--help` and
 * `keys list` on a fresh SQLite file. Each is run `--runs N` times (default 10) after one warm-up
 * run (which fills V8's compile cache, as a user's first run does); prints the median and the
 * fastest, in seconds.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const shim = join(root, "apps/server/bin/decorum.mjs")
const at = process.argv.indexOf("--runs")
const runs = at > 0 ? Number(process.argv[at + 1]) : 10
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`bench-cli: --runs must be a positive integer, got "${process.argv[at + 1]}"`)
  process.exit(2)
}
const dir = mkdtempSync(join(tmpdir(), "decorum-bench-cli-"))
const db = join(dir, "bench.db")

const once = (args) => {
  const started = process.hrtime.bigint()
  const result = spawnSync(process.execPath, [shim, ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  if (result.status !== 0) throw new Error(`decorum ${args.join(" ")} exited ${result.status}:\n${result.stderr}`)
  return seconds
}

try {
  once(["keys", "create", "--email", "bench@localhost", "--db", db])
  console.log(`decorum on Node.js ${process.version}, ${runs} runs each (after one warm-up run)`)
  for (const args of [["--version"], ["--help"], ["keys", "list", "--db", db]]) {
    once(args)
    const times = Array.from({ length: runs }, () => once(args)).sort((a, b) => a - b)
    const median = times[Math.floor((times.length - 1) / 2)]
    console.log(`  decorum ${args.join(" ").replace(db, "DB").padEnd(22)} median ${median.toFixed(3)} s, fastest ${times[0].toFixed(3)} s`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
