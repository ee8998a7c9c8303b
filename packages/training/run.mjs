#!/usr/bin/env node
// Bundle one TypeScript entry point of packages/training with esbuild (installed by `npm ci`) into
// packages/training/.out/, then run it. Usage: node packages/training/run.mjs train|eval|bench [args]
// The workspaces it imports (@decorum/local and its public modules, @decorum/core, ...) are bundled
// from their TypeScript sources, as vitest runs them, so training needs no build and always
// featurises with the code in the tree; every other package stays external.
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { workspaceSourcesPlugin } from "../../scripts/workspaces.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const [name, ...args] = process.argv.slice(2)
const entries = { train: "train.ts", eval: "eval.ts", bench: "bench.ts", tune: "tune.ts", explore: "explore.ts", spamdev: "spamdev.ts", dev: "dev.ts", threatdev: "threatdev.ts", calibdev: "calibdev.ts", golden: "golden.ts", candidate: "candidate.ts", fallacy: "fallacyTrain.ts", fallacytyper: "fallacyTyperDev.ts", commentscore: "commentscore.ts", spans: "spans.ts", spansdev: "spansdev.ts", spansneg: "spansneg.ts", spansgate: "spansgate.ts", spanscost: "spanscost.ts", spansstack: "spansstack.ts", identityterms: "identityterms.ts", spansclean: "spansclean.ts", catcurve: "catcurve.ts", pooling: "pooling.ts", qualitydev: "qualitydev.ts", dogwhistle: "dogwhistle.ts", evaluations: "evaluations.ts", aitext: "aitextMain.ts", langid: "langid.ts", languages: "languages.ts", encoder: "encoder/main.ts", encoderheads: "encoder/heads.ts", judge: "encoder/judge.ts", adapters: "encoder/adapters.ts", adapt: "adapt.ts" }
if (!(name in entries)) {
  console.error(`usage: run.mjs ${Object.keys(entries).join("|")} [args]`)
  process.exit(2)
}
/** Bundle and run one entry point; returns its exit status. */
const run = async (entry) => {
  const outfile = join(here, ".out", `${entry}.mjs`)
  await build({
    entryPoints: [join(here, entries[entry])],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    outfile,
    plugins: [workspaceSourcesPlugin()],
    logLevel: "warning"
  })
  return spawnSync(process.execPath, ["--max-old-space-size=6144", outfile, ...args], { stdio: "inherit" }).status ?? 1
}
let status = await run(name)
// `npm run train` also trains the fallacy detector (its own files: fallacy.json + fallacy.bin), with the same options
if (name === "train" && status === 0) status = await run("fallacy")
process.exit(status)
