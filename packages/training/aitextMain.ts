/**
 * `node packages/training/run.mjs aitext [--eval] [--dry] [--out DIR] [--data DIR] [--bits 18]
 * [--chars|--no-chars] [--C 1] [--fpr 0.02] [--tweepfake 0.3]`: trains the AI-written-text detector on the train split
 * of l2r-llm-rewrites, grid-gpt-reddit and tweepfake (calibration and threshold on dev), prints
 * its dev and test figures, and writes `aitext.json` + `aitext.bin` into the models directory.
 * `--eval` then prints the full comparison with the TF-IDF baseline (`evaluate()` of aitext.ts,
 * also run by `npm run eval:evaluations`); `--eval-only` skips the training.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { AITEXT_DEFAULTS, type AiTrainOptions, evaluate, figures, type TrainedAiText, trainAiText } from "./aitext.js"
import { aiTextRows, hc3Lists } from "./aitextData.js"
import { dataDir, MODELS_DIR } from "./pipeline.js"

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const log = (s: string) => process.stderr.write(s + "\n")
const round = (x: number) => Math.round(x * 1e4) / 1e4

const main = async () => {
  let trainedInDomain: TrainedAiText | undefined
  const options: AiTrainOptions = {
    ...AITEXT_DEFAULTS,
    bits: Number(arg("--bits") ?? AITEXT_DEFAULTS.bits),
    C: Number(arg("--C") ?? AITEXT_DEFAULTS.C),
    chars: process.argv.includes("--chars") ? true : process.argv.includes("--no-chars") ? false : AITEXT_DEFAULTS.chars,
    fpr: Number(arg("--fpr") ?? AITEXT_DEFAULTS.fpr),
    sourceWeights: { ...AITEXT_DEFAULTS.sourceWeights, tweepfake: Number(arg("--tweepfake") ?? AITEXT_DEFAULTS.sourceWeights.tweepfake) },
    log
  }
  if (!process.argv.includes("--eval-only")) {
    const dir = dataDir()
    const rows = aiTextRows(dir)
    const train = rows.filter((r) => r.split === "train")
    const dev = rows.filter((r) => r.split === "dev")
    const test = rows.filter((r) => r.split === "test")
    const trained = trainAiText(train, dev, hc3Lists(dir), options)
    trainedInDomain = trained
    const report = (name: string, set: typeof rows) => {
      const f = figures(set.map((r) => trained.weights.analyse(r.text).likelihood), set.map((r) => r.label), trained.manifest.threshold)
      console.log(`${name}: ${f.rows} rows (${f.ai} AI): AUC ${f.auc.toFixed(3)}, accuracy ${f.accuracy.toFixed(3)}, F1 ${f.f1.toFixed(3)}, human flagged ${f.fpr.toFixed(3)} at threshold ${trained.manifest.threshold}`)
      return { rows: f.rows, auc: round(f.auc), accuracy: round(f.accuracy), f1: round(f.f1), humanFlagged: round(f.fpr) }
    }
    {
      // speed of the runtime analysis (features, score, signals, reasoning) over the test texts
      // (CPU time as well as wall time: on a shared machine the wall time counts other processes' turns)
      for (const r of test.slice(0, 200)) trained.weights.analyse(r.text)
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      for (const r of test) trained.weights.analyse(r.text)
      const cpu = process.cpuUsage(c0)
      const words = test.reduce((a, r) => a + trained.weights.analyse(r.text).words, 0) / test.length
      console.log(`analyse: ${((cpu.user + cpu.system) / test.length).toFixed(0)} µs CPU (${(((performance.now() - t0) / test.length) * 1000).toFixed(0)} µs wall) per text on average over the ${test.length} test texts (mean ${words.toFixed(0)} words)`)
    }
    const metrics = { dev: report("dev", dev), test: report("test", test), options: { bits: options.bits, chars: options.chars, C: options.C, maxIterations: options.maxIterations, fullWords: options.fullWords, fpr: options.fpr, sourceWeights: options.sourceWeights } }
    if (!process.argv.includes("--dry")) {
      const out = arg("--out") ?? MODELS_DIR
      const manifest = { ...trained.manifest, metrics }
      mkdirSync(out, { recursive: true })
      writeFileSync(join(out, manifest.file), trained.bytes)
      writeFileSync(join(out, "aitext.json"), JSON.stringify(manifest, null, 2) + "\n")
      log(`wrote ${join(out, "aitext.json")} and ${manifest.file} (${(trained.bytes.length / 1024).toFixed(0)} KB)`)
    }
  }
  if (process.argv.includes("--eval") || process.argv.includes("--eval-only")) await evaluate(options, { baseline: !process.argv.includes("--no-baseline"), ...(trainedInDomain === undefined ? {} : { inDomain: trainedInDomain }) })
}

await main()
