/**
 * `node packages/training/run.mjs candidate`: a dev-only experiment for issue 11 part 2.
 * Trains a candidate toxicity family on the runtime's own features (so it would ship without any
 * runtime change) and compares it with the plain baseline on the DEV halves of both protocols.
 * Never reads a test split.
 *
 * Candidate recipe: every head an L2 logistic regression fitted to convergence (L-BFGS, C below)
 * on all training rows that label it (Perspective's historical scores are not training data, so
 * the Wikipedia CAT distillation rows are left out), then each non-TOXICITY head blended with the
 * TOXICITY head's weights, w = w_head + beta * w_TOXICITY (one linear model again), beta chosen
 * per head on the enriched dev set.
 */
import type { ModelLabel } from "@decorum/local"
import { rocAuc } from "./fit.js"
import { fitLogistic, type LogisticFit, type TfidfMatrix } from "./baseline.js"
import { dataDir, featurise, loadSplits, makeFeaturizer, MODELS_DIR, TOXICITY_LABELS } from "./pipeline.js"
import { labelled, splitProtocols } from "./protocols.js"
import { baselineScorer, compare, report, trainBaseline, type Scorer } from "./versus.js"
import { readFileSync } from "node:fs"
import { join } from "node:path"

const log = (s: string) => process.stderr.write(s + "\n")
const BITS = 19
const C = Number(process.env.CANDIDATE_C ?? 4)
const BETAS = [0, 0.25, 0.5, 1]

const main = () => {
  const dir = dataDir()
  const splits = loadSplits(dir, log)
  const baseline = trainBaseline(splits.toxTrain, TOXICITY_LABELS, log)
  const manifest = JSON.parse(readFileSync(join(MODELS_DIR, "manifest.json"), "utf8")) as { respell: Record<string, string> }
  const f = makeFeaturizer(manifest.respell)
  const rows = splits.toxTrain.filter((e) => e.source !== "wikipedia-talk-context-toxicity-cat")
  const t0 = Date.now()
  const data = featurise(f, rows)
  const mask = (1 << BITS) - 1
  const col = new Int32Array(data.X.nnz)
  for (let k = 0; k < data.X.nnz; k++) col[k] = data.X.idx[k]! & mask
  const X: TfidfMatrix = { rows: data.X.rows, rowPtr: data.X.rowPtr.subarray(0, data.X.rows + 1), col, val: data.X.val.subarray(0, data.X.nnz) }
  log(`candidate: ${X.rows} rows, ${data.X.nnz} non-zeros, ${((Date.now() - t0) / 1000).toFixed(0)} s`)
  const fits = new Map<ModelLabel, LogisticFit>()
  for (const label of TOXICITY_LABELS) {
    const t1 = Date.now()
    const idx: Array<number> = []
    const y = new Float64Array(rows.length)
    rows.forEach((e, r) => {
      const v = e.labels[label]
      if (v === undefined || Number.isNaN(v)) return
      idx.push(r)
      y[r] = v >= 0.5 ? 1 : 0
    })
    const fit = fitLogistic(X, idx, y, { C, log })
    fits.set(label, fit)
    log(`  ${label}: ${idx.length} rows, ${fit.iterations} iterations, ${((Date.now() - t1) / 1000).toFixed(0)} s`)
  }
  const raw = (label: ModelLabel, beta: number) => (text: string) => {
    f.run(text)
    const own = fits.get(label)!
    const tox = fits.get("TOXICITY")!
    let s = own.bias + beta * tox.bias
    for (let p = 0; p < f.nnz; p++) {
      const j = f.idx[p]! & mask
      s += ((own.weights[j] ?? 0) + beta * (tox.weights[j] ?? 0)) * f.val[p]!
    }
    return s
  }
  const dev = splitProtocols(dir, "dev", splits)
  // beta per head on the enriched dev set
  const enriched = dev.sets.find((s) => s.name === "enriched")!
  const beta = new Map<ModelLabel, number>([["TOXICITY", 0]])
  for (const label of TOXICITY_LABELS) {
    if (label === "TOXICITY") continue
    const { rows: r, y } = labelled(enriched, label)
    let best = 0
    let bestAuc = -1
    for (const b of BETAS) {
      const score = raw(label, b)
      const auc = rocAuc(r.map((i) => score(enriched.rows[i]!.text)), y)
      log(`  ${label} beta ${b}: enriched dev AUC ${auc.toFixed(4)}`)
      if (auc > bestAuc) {
        bestAuc = auc
        best = b
      }
    }
    beta.set(label, best)
  }
  console.log(`# Candidate (C=${C}, betas ${TOXICITY_LABELS.map((l) => `${l} ${beta.get(l)}`).join(", ")}) vs the plain baseline, dev split\n`)
  const scorer: Scorer = (texts) => new Map(TOXICITY_LABELS.map((l) => [l, Float64Array.from(texts, raw(l, beta.get(l)!))]))
  const losses = report(compare(dev.sets, TOXICITY_LABELS, scorer, baselineScorer(baseline)), TOXICITY_LABELS, "candidate")
  console.log(losses.length === 0 ? "candidate beats the baseline everywhere on dev\n" : `candidate loses on: ${losses.join("; ")}\n`)
}

main()
