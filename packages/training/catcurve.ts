/**
 * `node packages/training/run.mjs catcurve [--fractions 0.125,0.25,0.5,1] [--boot 2000]`
 * (issue 11): is the gap to Perspective on Wikipedia CAT (report half, ROC AUC against the human
 * label) closable with the data and the model class we have?
 *
 * a. Learning curves of the plain baseline's TOXICITY head (training/baseline.ts; the rows
 *    `trainBaseline` trains on, i.e. shared-data corpora only, never CAT), trained on nested
 *    hash-chosen fractions of (i) every training row, (ii) the Wikipedia rows (Jigsaw) with every
 *    other row kept. Each point: ROC AUC on the CAT report half with a 95% stratified bootstrap
 *    interval, and on the Jigsaw natural dev rows of `npm run eval` for reference; then a line of
 *    AUC against log2(rows) and a naive extrapolation to Perspective's AUC.
 * b. Paired stratified bootstrap of Perspective's AUC minus the model's on the report half, for
 *    the shipped models and the full-data baseline.
 *
 * CAT rows are read for evaluation only here. Seeded: two runs print the same tables (timings go
 * to stderr). Each baseline fit is cached in training/.cache by `trainBaseline`, so a re-run
 * after an interruption resumes where it stopped.
 */
import type { ModelLabel } from "@decorum/local"
import { loadModelSet } from "@decorum/local"
import { loadBaseline, saveBaseline } from "./baseline.js"
import type * as D from "./data.js"
import { rocAuc } from "./fit.js"
import { dataDir, loadSplits, MODELS_DIR } from "./pipeline.js"
import { JIGSAW_RANDOM as JIGSAW } from "./protocols.js"
import { bootstrapAuc, inFraction, lineFit, pairedBootstrap } from "./resample.js"
import { baselineRows, printTable, trainBaseline } from "./versus.js"

const started = Date.now()
const log = (s: string) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${s}\n`)

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}

const SEED = 20261126
const HEADS: ReadonlyArray<ModelLabel> = ["TOXICITY"]

const f3 = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(3))
const signed = (x: number) => (Number.isNaN(x) ? "n/a" : `${x >= 0 ? "+" : ""}${x.toFixed(3)}`)
const signed4 = (x: number) => (Number.isNaN(x) ? "n/a" : `${x >= 0 ? "+" : ""}${x.toFixed(4)}`)
const int = (n: number) => n.toLocaleString("en-US")

interface Point {
  readonly fraction: number
  readonly rows: number
  readonly toxRows: number
  readonly positives: number
  readonly wikiRows: number
  readonly cat: { auc: number; lo: number; hi: number }
  readonly dev: number
  readonly catScores: Float64Array
}

const main = () => {
  const fractions = (arg("--fractions") ?? "0.125,0.25,0.5,1")
    .split(",")
    .map(Number)
    .sort((a, b) => a - b)
  if (fractions.some((f) => !(f > 0 && f <= 1))) throw new Error("--fractions: numbers in (0, 1]")
  const boot = Number(arg("--boot") ?? 2000)
  if (!Number.isInteger(boot) || boot < 1) throw new Error("--boot: a whole number of resamples, at least 1")
  const dir = dataDir()
  const splits = loadSplits(dir, log)
  const train = baselineRows(splits.toxTrain)
  const report = splits.gcReport
  const reportTexts = report.map((e) => e.text)
  const y = report.map((e): number => (e.labels.TOXICITY! >= 0.5 ? 1 : 0))
  const api = report.map((e) => Number(e.extra!.api))
  const dev = splits.toxCalib.filter((e) => e.source === JIGSAW)
  const devTexts = dev.map((e) => e.text)
  const devY = dev.map((e): number => (e.labels.TOXICITY! >= 0.5 ? 1 : 0))
  const target = rocAuc(api, y)
  const positivesReport = y.reduce((a, v) => a + v, 0)

  console.log(`## Wikipedia CAT: how far data takes the plain baseline (seed ${SEED}, ${boot} bootstrap resamples)\n`)
  console.log(
    `CAT report half: ${int(report.length)} comments, ${positivesReport} toxic; Perspective's historical TOXICITY (\`api\`) ROC AUC ${f3(target)}. ` +
      `Jigsaw natural dev rows (\`npm run eval\`'s in-domain natural set): ${int(dev.length)}, ${devY.reduce((a, v) => a + v, 0)} toxic. ` +
      `Baseline training rows (shared-data corpora, as \`trainBaseline\`): ${int(train.length)}, of them ${int(train.filter((e) => e.source === JIGSAW).length)} Wikipedia (Jigsaw) rows.\n`
  )

  const fitPoint = (rows: ReadonlyArray<D.Example>, fraction: number, name: string): Point => {
    const toxRows = rows.filter((e) => e.labels.TOXICITY !== undefined && !Number.isNaN(e.labels.TOXICITY))
    const t0 = Date.now()
    log(`${name}, fraction ${fraction}: training the TOXICITY head on ${rows.length} rows (${toxRows.length} with a TOXICITY label)`)
    // through the cache's float32 form even when just trained, so a fresh run and a cached run print the same AUCs
    const b = loadBaseline(saveBaseline(trainBaseline(rows, HEADS, log)))
    log(`  fitted in ${((Date.now() - t0) / 1000).toFixed(0)} s; scoring and ${boot} bootstrap resamples`)
    const catScores = b.score(reportTexts).get("TOXICITY")!
    const devScores = b.score(devTexts).get("TOXICITY")!
    const point: Point = {
      fraction,
      rows: rows.length,
      toxRows: toxRows.length,
      positives: toxRows.filter((e) => e.labels.TOXICITY! >= 0.5).length,
      wikiRows: rows.filter((e) => e.source === JIGSAW).length,
      cat: bootstrapAuc(catScores, y, boot, SEED),
      dev: rocAuc(devScores, devY),
      catScores
    }
    log(`  CAT report ROC AUC ${f3(point.cat.auc)} [${f3(point.cat.lo)}, ${f3(point.cat.hi)}], Jigsaw dev ${f3(point.dev)}`)
    return point
  }

  const curves = [
    { name: "curve (i)", title: "(i) a fraction of every training row", x: "TOXICITY-labelled rows", keep: (e: D.Example, f: number) => inFraction(`${e.source}:${e.id}`, f) },
    {
      name: "curve (ii)",
      title: "(ii) every non-Wikipedia row, a fraction of the Wikipedia (Jigsaw) rows",
      x: "Wikipedia (Jigsaw) rows",
      keep: (e: D.Example, f: number) => e.source !== JIGSAW || inFraction(`${e.source}:${e.id}`, f)
    }
  ] as const
  let full: Point | undefined
  for (const curve of curves) {
    console.log(`### ${curve.title}\n`)
    const header = ["fraction", "training rows", "TOXICITY rows", "TOXICITY positives", "Wikipedia rows", "CAT report ROC AUC", "95% bootstrap interval", "Jigsaw dev ROC AUC"]
    console.log(`| ${header.join(" | ")} |`)
    console.log(`|${header.map(() => "---").join("|")}|`)
    const points: Array<Point> = []
    for (const f of fractions) {
      const p = f === 1 && full !== undefined ? full : fitPoint(train.filter((e) => curve.keep(e, f)), f, curve.name)
      if (f === 1) full = p
      points.push(p)
      console.log(`| ${[f, int(p.rows), int(p.toxRows), int(p.positives), int(p.wikiRows), f3(p.cat.auc), `${f3(p.cat.lo)} – ${f3(p.cat.hi)}`, f3(p.dev)].join(" | ")} |`)
    }
    console.log()
    const xs = points.map((p) => Math.log2(curve.x === "TOXICITY-labelled rows" ? p.toxRows : p.wikiRows))
    const line = lineFit(xs, points.map((p) => p.cat.auc))
    const last = points[points.length - 1]!
    const xMax = xs[xs.length - 1]!
    const atMax = line.intercept + line.slope * xMax
    const lastRows = curve.x === "TOXICITY-labelled rows" ? last.toxRows : last.wikiRows
    let verdict: string
    if (points.length < 2 || Number.isNaN(line.slope)) verdict = "fewer than two distinct points: no line."
    else if (line.slope <= 0) verdict = `the line does not rise (slope ${signed4(line.slope)} per doubling): no extrapolation.`
    else if (atMax >= target) verdict = `the line is already at or above Perspective's ${f3(target)} at the largest point.`
    else {
      const d = (target - atMax) / line.slope
      verdict =
        `**naive extrapolation** (a straight line in log2(rows), nothing guarantees it holds): Perspective's ${f3(target)} would be reached after ` +
        `${d.toFixed(1)} more doublings of the ${curve.x}, i.e. about ${int(Math.round(lastRows * 2 ** d))} of them instead of ${int(lastRows)}.`
    }
    console.log(
      `Least-squares line of CAT report ROC AUC against log2(${curve.x}) over ${points.length} points: ` +
        `slope ${signed4(line.slope)} per doubling, ${f3(atMax)} at the largest point; ${verdict}\n`
    )
  }

  // ------------------------------------------------ b. paired bootstrap against Perspective
  log(`shipped models (${MODELS_DIR}): scoring the CAT report half`)
  const set = loadModelSet(MODELS_DIR)
  const shipped = reportTexts.map((t) => set.predict(t, ["TOXICITY"]).TOXICITY!)
  if (full === undefined) full = fitPoint(train, 1, "full")
  log(`paired bootstrap, ${boot} resamples`)
  console.log(`### Paired bootstrap on the CAT report half: Perspective − model (${boot} resamples, positives and negatives resampled separately, seed ${SEED + 1})\n`)
  const rows: Array<Array<string | number>> = []
  for (const [name, scores] of [[`shipped ${set.version}`, shipped], ["plain baseline, all training rows", full.catScores]] as const) {
    const p = pairedBootstrap(api, scores, y, boot, SEED + 1)
    rows.push([name, f3(rocAuc(scores, y)), f3(target), signed(p.diff), `${signed(p.lo)} – ${signed(p.hi)}`, `${(100 * p.shareBAtLeastA).toFixed(1)}%`])
  }
  printTable(["model", "model ROC AUC", "Perspective ROC AUC", "Perspective − model", "95% interval", "resamples with model ≥ Perspective"], rows)
  log(`catcurve took ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

main()
