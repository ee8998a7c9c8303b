/**
 * The head-by-head comparison of issue 11: every toxicity head of a model set against the plain
 * baseline (training/baseline.ts, trained in the same run on the same rows) and against the
 * model's own TOXICITY head, on the in-domain and cross-domain protocols (training/protocols.ts).
 */
import type { ModelLabel } from "@decorum/local"
import { sigmoid } from "@decorum/local/Calibration"
import { rocAuc } from "./fit.js"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { loadBaseline, saveBaseline, trainPlainBaseline, type PlainBaseline } from "./baseline.js"
import { CACHE_DIR } from "./pipeline.js"
import type * as D from "./data.js"
import { runSuite } from "./functional.js"
import { labelled, type EvalSet } from "./protocols.js"

/** Scores of every head for a list of texts (probabilities or log-odds: only ranks matter for AUC). */
export type Scorer = (texts: ReadonlyArray<string>) => Map<ModelLabel, Float64Array>

/** Sources the baseline does not train on: our own templates, Perspective's scores, moderator corrections. */
const NOT_BASELINE = new Set(["decorum-augmentation", "wikipedia-talk-context-toxicity-cat", "moderator-corrections"])

/** The rows of a training set the baseline trains on: the shared-data corpora only. */
export const baselineRows = (train: ReadonlyArray<D.Example>): Array<D.Example> => train.filter((e) => !NOT_BASELINE.has(e.source))

/**
 * The baseline of issue 11 on the shared-data rows of a training set. A trained baseline is kept in
 * `training/.cache/` under the sha256 of its training rows and labels, so re-running the evaluation
 * on the same rows (the dev split, then the test split) trains it once.
 */
export const trainBaseline = (train: ReadonlyArray<D.Example>, heads: ReadonlyArray<ModelLabel>, log: (s: string) => void): PlainBaseline => {
  const rows = baselineRows(train)
  const hash = createHash("sha256").update(`baseline-v1 C=4 ${heads.join(",")}\n`)
  for (const e of rows) hash.update(`${e.text}\u0000${heads.map((h) => e.labels[h] ?? "").join(",")}\n`)
  const file = join(CACHE_DIR, `baseline-${hash.digest("hex").slice(0, 16)}.bin`)
  if (existsSync(file)) {
    log(`baseline: cached in ${file}`)
    return loadBaseline(readFileSync(file))
  }
  const b = trainPlainBaseline(rows, heads, { log })
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, saveBaseline(b))
  return b
}

export const baselineScorer = (b: PlainBaseline): Scorer => (texts) => b.score(texts) as Map<ModelLabel, Float64Array>

export interface HeadResult {
  readonly set: EvalSet
  readonly label: ModelLabel
  readonly n: number
  readonly positives: number
  readonly model: number
  readonly baseline: number
  readonly toxicity: number
}

/** ROC AUC of each head with a label in each set, for the model, the baseline and the model's TOXICITY head. */
export const compare = (
  sets: ReadonlyArray<EvalSet>,
  heads: ReadonlyArray<ModelLabel>,
  model: Scorer,
  baseline: Scorer
): Array<HeadResult> => {
  const out: Array<HeadResult> = []
  for (const set of sets) {
    const texts = set.rows.map((e) => e.text)
    const m = model(texts)
    const b = baseline(texts)
    for (const label of heads) {
      const { rows, y } = labelled(set, label)
      const positives = y.reduce((a, v) => a + v, 0)
      if (positives < 5 || positives === y.length) continue
      const pick = (s: Float64Array | undefined) => rows.map((r) => (s === undefined ? Number.NaN : s[r]!))
      out.push({
        set,
        label,
        n: y.length,
        positives,
        model: rocAuc(pick(m.get(label)), y),
        baseline: rocAuc(pick(b.get(label)), y),
        toxicity: rocAuc(pick(m.get("TOXICITY")), y)
      })
    }
  }
  return out
}

const f3 = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(3))
const signed = (x: number) => (Number.isNaN(x) ? "n/a" : `${x >= 0 ? "+" : ""}${x.toFixed(3)}`)

export const printTable = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string | number>>) => {
  console.log(`| ${header.join(" | ")} |`)
  console.log(`|${header.map(() => "---").join("|")}|`)
  for (const r of rows) console.log(`| ${r.join(" | ")} |`)
  console.log()
}

/** Per-set detail, then the per-head verdict of both protocols. Returns the heads that lose anywhere. */
export const report = (results: ReadonlyArray<HeadResult>, heads: ReadonlyArray<ModelLabel>, modelName: string): Array<string> => {
  for (const protocol of ["in-domain", "cross-domain"] as const) {
    const rows = results.filter((r) => r.set.protocol === protocol)
    console.log(`### ${protocol}: ROC AUC per evaluation set\n`)
    printTable(
      ["head", "set", "rows", "positives", modelName, "plain baseline", "TOXICITY head", `${modelName} - baseline`],
      rows.map((r) => [r.label, r.set.name, r.n, r.positives, f3(r.model), f3(r.baseline), r.label === "TOXICITY" ? "(same)" : f3(r.toxicity), signed(r.model - r.baseline)])
    )
  }
  console.log(`### Verdict per head (cross-domain: mean over the sets that label the head)\n`)
  const losses: Array<string> = []
  const verdict: Array<Array<string>> = []
  const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, v) => a + v, 0) / xs.length
  for (const label of heads) {
    const cells: Array<string> = [label]
    let wins = true
    let any = false
    for (const [protocol, name] of [["in-domain", "natural"], ["in-domain", "enriched"], ["cross-domain", undefined]] as const) {
      const rs = results.filter((r) => r.label === label && r.set.protocol === protocol && (name === undefined || r.set.name === name))
      if (rs.length === 0) {
        cells.push("no labelled set", "", "")
        continue
      }
      any = true
      const m = mean(rs.map((r) => r.model))
      const b = mean(rs.map((r) => r.baseline))
      const t = mean(rs.map((r) => r.toxicity))
      cells.push(f3(m), f3(b), label === "TOXICITY" ? "(same)" : f3(t))
      if (!(m > b)) {
        wins = false
        losses.push(`${label} ${protocol}${name === undefined ? "" : ` ${name}`}: ${f3(m)} vs baseline ${f3(b)}`)
      }
    }
    cells.push(any ? (wins ? "beats baseline" : "LOSES") : "n/a")
    verdict.push(cells)
  }
  printTable(
    ["head", "natural: model", "baseline", "TOXICITY head", "enriched: model", "baseline", "TOXICITY head", "cross-domain: model", "baseline", "TOXICITY head", "verdict"],
    verdict
  )
  return losses
}

/** The functional suite per functionality, for the model and the baseline (at its own 0.5). */
export const reportSuite = (model: (text: string, label: ModelLabel) => number, baseline: PlainBaseline, modelName: string) => {
  const m = runSuite((c) => model(c.text, c.label))
  const b = runSuite((c) => sigmoid(baseline.score([c.text]).get(c.label)![0]!))
  const pct = (a: number, n: number) => `${((100 * a) / n).toFixed(0)}% (${a}/${n})`
  const total = (rs: typeof m.rows, toxic?: boolean) => {
    const sel = rs.filter((r) => toxic === undefined || r.toxic === toxic)
    return [sel.reduce((a, r) => a + r.correct, 0), sel.reduce((a, r) => a + r.cases, 0)] as const
  }
  const rows = m.rows.map((r, i) => [r.functionality, r.toxic ? "toxic" : "not toxic", r.cases, pct(r.correct, r.cases), pct(b.rows[i]!.correct, b.rows[i]!.cases)])
  for (const [name, toxic] of [["all toxic cases", true], ["all non-toxic cases", false], ["all cases", undefined]] as const) {
    rows.push([`**${name}**`, "", total(m.rows, toxic)[1], pct(...total(m.rows, toxic)), pct(...total(b.rows, toxic))])
  }
  printTable(["functionality", "expected", "cases", `${modelName} correct`, "plain baseline correct"], rows)
  console.log(`${modelName} failures:\n`)
  for (const f of m.failures) console.log(`- [${f.c.functionality}] "${f.c.text}" ${f.c.label} ${f.score.toFixed(3)}`)
  console.log()
}
