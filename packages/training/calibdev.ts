/**
 * Calibration choices of the evidence heads on the dev data only (`run.mjs calibdev [--models DIR]`):
 * for THREAT and IDENTITY_ATTACK, the ridge on the evidence weight of `fitPlatt2`, chosen by
 * 2-fold cross-validation inside the calibration pool (held out from training): weighted log loss
 * at the calibration prevalence on the held-out fold, and the shares of positives at or above
 * 0.7 and of negatives at or above 0.5. Never reads the test rows or the guardrail sentences.
 */
import type { ModelLabel } from "@decorum/local"
import { identityEvidence, threatEvidence } from "@decorum/local/Evidence"
import { Normalizer } from "@decorum/local/Normalizer"
import { loadModelSet } from "@decorum/local"
import { fitPlatt2, sigmoid } from "@decorum/local/Calibration"
import { reweightedLogLoss } from "./fit.js"
import * as D from "./data.js"
import { dataDir, JIGSAW_PREVALENCE, loadSplits, MODELS_DIR } from "./pipeline.js"

const modelsDir = process.argv.includes("--models") ? process.argv[process.argv.indexOf("--models") + 1]! : MODELS_DIR
const set = loadModelSet(modelsDir)
const splits = loadSplits(dataDir(), () => {})
const norm = new Normalizer({ respell: set.manifest.respell })
const K = 8.29
console.log("| head | evidence ridge | fold weights | held-out log loss | positives >= 0.7 | positives >= 0.5 | negatives >= 0.5 |")
console.log("|---|---|---|---|---|---|---|")
for (const label of ["THREAT", "IDENTITY_ATTACK"] as Array<ModelLabel>) {
  const pool = splits.toxCalib.filter((e) => e.labels[label] !== undefined && !Number.isNaN(e.labels[label]!))
  const y: Array<number> = pool.map((e) => (e.labels[label]! >= 0.5 ? 1 : 0))
  const z = pool.map((e) => set.raw(e.text, label))
  const s = pool.map((e) => {
    if (label === "THREAT") return threatEvidence(e.text).strength
    norm.run(e.text)
    return identityEvidence(norm).strength
  })
  const base = JIGSAW_PREVALENCE[label]!
  const prev = (base * K) / (1 - base + base * K)
  const fold = pool.map((e) => D.hash32("fold:" + e.source + ":" + (e.group ?? e.id)) % 2)
  for (const ridge of [1e-3, 3e-4, 1e-4, 3e-5, 0]) {
    const p = new Array<number>(pool.length).fill(0)
    const ws: Array<string> = []
    for (const k of [0, 1]) {
      const idx = pool.map((_, i) => i).filter((i) => fold[i] !== k)
      const yy: Array<number> = idx.map((i) => y[i]!)
      const rate = yy.reduce((a, b) => a + b, 0) / yy.length
      const fit = fitPlatt2(idx.map((i) => z[i]!), idx.map((i) => s[i]!), yy, yy.map((v) => (v === 1 ? prev / rate : (1 - prev) / (1 - rate))), ridge)
      ws.push(fit.weight.toFixed(2))
      for (let i = 0; i < pool.length; i++) if (fold[i] === k) p[i] = sigmoid(fit.a * (z[i]! + fit.weight * s[i]!) + fit.b)
    }
    const loss = reweightedLogLoss(p, y, prev)
    const pos = p.filter((_, i) => y[i] === 1)
    const neg = p.filter((_, i) => y[i] === 0)
    const c = (xs: Array<number>, t: number) => `${xs.filter((v) => v >= t).length}/${xs.length}`
    console.log(`| ${label} | ${ridge} | ${ws.join(", ")} | ${loss.toFixed(5)} | ${c(pos, 0.7)} | ${c(pos, 0.5)} | ${c(neg, 0.5)} |`)
  }
}
