/**
 * Dev-split report for a model set (`run.mjs dev [--models DIR]`): ROC AUC of the calibrated
 * score per toxicity head on the Jigsaw dev rows and on the whole calibration pool (Jigsaw dev
 * plus the 1/12 slice of every other source; held out from training), and for THREAT and
 * IDENTITY_ATTACK the share of pool positives at or above 0.7 and of pool negatives at or above
 * 0.5. Recipe and calibration choices for those two heads are made on this report, never on the
 * test rows or the guardrail sentences.
 */
import { loadModelSet } from "@decorum/local"
import { rocAuc } from "./fit.js"
import { dataDir, loadSplits, MODELS_DIR, TOXICITY_LABELS } from "./pipeline.js"

const modelsDir = process.argv.includes("--models") ? process.argv[process.argv.indexOf("--models") + 1]! : MODELS_DIR
const set = loadModelSet(modelsDir)
const splits = loadSplits(dataDir(), () => {})
const pool = splits.toxCalib
const dev = pool.filter((e) => e.source === "jigsaw-toxic-comment-2018-random-11k")
console.log(`# ${modelsDir} (${set.version}): dev report\n`)
console.log("| label | dev positives | dev ROC AUC | pool positives | pool ROC AUC | pool positives >= 0.7 | pool negatives >= 0.5 |")
console.log("|---|---|---|---|---|---|---|")
for (const label of TOXICITY_LABELS) {
  const score = (rows: typeof pool) => {
    const r = rows.filter((e) => e.labels[label] !== undefined && !Number.isNaN(e.labels[label]!))
    return { y: r.map((e) => (e.labels[label]! >= 0.5 ? 1 : 0)), p: r.map((e) => set.predict(e.text, [label])[label]!) }
  }
  const d = score(dev)
  const q = score(pool)
  const pos = q.p.filter((_, i) => q.y[i] === 1)
  const neg = q.p.filter((_, i) => q.y[i] === 0)
  const share = (xs: Array<number>, t: number) => `${xs.filter((v) => v >= t).length}/${xs.length}`
  console.log(`| ${label} | ${d.y.filter((v) => v === 1).length} | ${rocAuc(d.p, d.y).toFixed(4)} | ${pos.length} | ${rocAuc(q.p, q.y).toFixed(4)} | ${share(pos, 0.7)} | ${share(neg, 0.5)} |`)
}

// acceptance only (not a tuning target): the guardrail categories' pass counts
if (process.argv.includes("--guardrails")) {
  const { GUARDRAILS, check } = await import("../local/test/models/guardrails.js")
  for (const g of GUARDRAILS) {
    let pass = 0
    let all = 0
    const detail: Array<string> = []
    for (const text of g.texts) {
      const p = set.predict(text, g.expect.map((e) => e.label))
      for (const e of g.expect) {
        all++
        if (check(e, p[e.label]!)) pass++
        else detail.push(`    FAIL ${text} ${e.label} ${p[e.label]!.toFixed(2)}`)
      }
    }
    console.log(`${g.category}: ${pass}/${all}`)
    for (const d of detail) console.log(d)
  }
}
