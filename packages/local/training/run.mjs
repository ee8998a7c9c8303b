#!/usr/bin/env node
// Bundle one TypeScript entry point of packages/local/training with esbuild (installed by
// `npm ci`) into training/.out/, then run it. Usage: node packages/local/training/run.mjs train|eval|bench [args]
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const [name, ...args] = process.argv.slice(2)
const entries = { train: "train.ts", eval: "eval.ts", bench: "bench.ts", tune: "tune.ts", explore: "explore.ts", spamdev: "spamdev.ts", dev: "dev.ts", threatdev: "threatdev.ts", calibdev: "calibdev.ts", golden: "golden.ts", candidate: "candidate.ts" }
if (!(name in entries)) {
  console.error(`usage: run.mjs ${Object.keys(entries).join("|")} [args]`)
  process.exit(2)
}
const outfile = join(here, ".out", `${name}.mjs`)
await build({
  entryPoints: [join(here, entries[name])],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  outfile,
  packages: "external",
  logLevel: "warning"
})
const result = spawnSync(process.execPath, ["--max-old-space-size=6144", outfile, ...args], { stdio: "inherit" })
process.exit(result.status ?? 1)
