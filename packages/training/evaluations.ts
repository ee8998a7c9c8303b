/**
 * `npm run eval:evaluations` (`node packages/training/run.mjs evaluations [--data DIR] [--models DIR] [--dogwhistle-only]`):
 * the issue-29 evaluations, each detector beside a plain TF-IDF logistic regression trained on the
 * same rows, on splits held out by the detectors' own rules: the dog-whistle detector on held-out
 * glossary terms and benign comments (training/dogwhistleEval.ts), then the AI-written-text
 * detector (`evaluate()` of training/aitext.ts, bundled and imported here when that file exists).
 */
import { build, type Plugin } from "esbuild"
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { evaluateDogwhistle } from "./dogwhistleEval.js"
import { REPO_DIR, TRAINING_DIR } from "./pipeline.js"

const main = async () => {
  await evaluateDogwhistle()
  if (process.argv.includes("--dogwhistle-only")) return
  const training = TRAINING_DIR
  const source = join(training, "aitext.ts")
  if (!existsSync(source)) {
    console.log("\n## AI-written text\n\nskipped: packages/training/aitext.ts is not there (the AI-text detector's evaluate()).")
    return
  }
  // bundled on its own at run time, so that this entry point builds with or without it
  const outfile = join(dirname(fileURLToPath(import.meta.url)), "aitext-evaluate.mjs")
  // @decorum/* from source, as run.mjs bundles them (a plugin of scripts/workspaces.mjs)
  const workspaces = pathToFileURL(join(REPO_DIR, "scripts", "workspaces.mjs")).href
  const { workspaceSourcesPlugin } = (await import(workspaces)) as { workspaceSourcesPlugin: () => Plugin }
  await build({ entryPoints: [source], bundle: true, platform: "node", format: "esm", target: "node22", outfile, plugins: [workspaceSourcesPlugin()], logLevel: "warning" })
  const mod = (await import(pathToFileURL(outfile).href)) as { evaluate?: () => Promise<void> }
  if (typeof mod.evaluate !== "function") {
    console.log("\n## AI-written text\n\nskipped: training/aitext.ts exports no evaluate().")
    return
  }
  await mod.evaluate()
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
