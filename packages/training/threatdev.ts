/**
 * THREAT recipe choices on the dev data only (`run.mjs threatdev`): trains the THREAT head
 * (mix + mixNB) under a few variants and reports, on the calibration pool (held out from
 * training; Jigsaw dev plus a 1/12 slice of every other source), the ROC AUC of the raw head and,
 * with the calibration fitted by 2-fold cross-validation inside the pool (so no row is scored by
 * a calibration fitted on itself), the share of positives at or above 0.7 and of negatives at or
 * above 0.5. Never reads the test rows or the guardrail sentences.
 *
 * Candidates tried (not in the shipped recipe): sentence-level THREAT positives from the
 * TOXICSPANS Threat spans (`D.toxicSpanThreats`, only sentences of posts already in the training
 * rows) and the violent-word negatives of `augment.ts` (`violentWordsNoThreat`). The pool is the
 * shipped one. Usage: run.mjs threatdev [variant numbers]
 */
import { threatEvidence } from "@decorum/local/Evidence"
import { applyCalibration, fitPlatt2 } from "@decorum/local/Calibration"
import { reweightedLogLoss, rocAuc, trainLogistic, type LinearModel, type TrainOptions } from "./fit.js"
import { violentWordsNoThreat } from "./augment.js"
import * as D from "./data.js"
import { dataDir, featurise, JIGSAW_PREVALENCE, LABEL_SOURCE_WEIGHT, loadSplits, makeFeaturizer, rawScore, respellFrom, SOURCE_WEIGHT, TRAIN_TOXICITY } from "./pipeline.js"

const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`)
const splits = loadSplits(dataDir(), log)
const f = makeFeaturizer(respellFrom(splits.toxTrain.map((e) => e.text)))
const trainPosts = new Set(splits.toxTrain.filter((e) => e.source === "civil-comments-toxic-spans").map((e) => e.id))
const sentences = D.toxicSpanThreats(dataDir()).filter((e) => trainPosts.has(e.group!))
const negatives = violentWordsNoThreat()
const isSentence = new Set(sentences.map((e) => e.id))
const isNegative = new Set(negatives.map((e) => e.id))
log(`candidates: ${sentences.length} threat sentences, ${negatives.length} violent-word negatives`)
const data = featurise(f, [...splits.toxTrain, ...sentences, ...negatives])
log("featurised")
const pool = splits.toxCalib.filter((e) => e.labels.THREAT !== undefined && !Number.isNaN(e.labels.THREAT))
const y: Array<number> = pool.map((e) => (e.labels.THREAT! >= 0.5 ? 1 : 0))
const s = pool.map((e) => threatEvidence(e.text).strength)
const fold = pool.map((e) => D.hash32("fold:" + (e.group ?? e.id)) % 2)
const ENRICH = 8.29
const prev = (JIGSAW_PREVALENCE.THREAT! * ENRICH) / (1 - JIGSAW_PREVALENCE.THREAT! + JIGSAW_PREVALENCE.THREAT! * ENRICH)

const train = (options: TrainOptions, sourceW: (e: D.Example) => number, posMult: number): LinearModel => {
  const target = new Float32Array(data.rows.length)
  const weight = new Float32Array(data.rows.length)
  data.rows.forEach((e, r) => {
    const v = e.labels.THREAT
    target[r] = v === undefined ? Number.NaN : v
    weight[r] = sourceW(e) * (v !== undefined && v >= 0.5 ? posMult : 1)
  })
  return trainLogistic(data.X, target, weight, options)
}
const shipped = (e: D.Example) => LABEL_SOURCE_WEIGHT.THREAT?.[e.source] ?? SOURCE_WEIGHT[e.source] ?? 1
/** The shipped weights, candidates off. */
const base = (e: D.Example) => (isSentence.has(e.id) || isNegative.has(e.id) ? 0 : shipped(e))

const report = (name: string, z: Array<number>, include: (e: D.Example) => boolean = () => true, ridge = 1e-3) => {
  const p = new Array<number>(z.length).fill(0)
  for (const k of [0, 1]) {
    const idx = pool.map((_, i) => i).filter((i) => fold[i] !== k && include(pool[i]!))
    const yy: Array<number> = idx.map((i) => y[i]!)
    const rate = yy.reduce((a, b) => a + b, 0) / yy.length
    const w = yy.map((v) => (v === 1 ? prev / rate : (1 - prev) / (1 - rate)))
    const fit = fitPlatt2(idx.map((i) => z[i]!), idx.map((i) => s[i]!), yy, w, ridge)
    log(`  ${name} fold ${k}: a ${fit.a.toFixed(3)} b ${fit.b.toFixed(3)} weight ${fit.weight.toFixed(3)}`)
    for (let i = 0; i < z.length; i++) if (fold[i] === k) p[i] = applyCalibration({ kind: "platt", a: fit.a, b: fit.b }, z[i]! + fit.weight * s[i]!)
  }
  const loss = reweightedLogLoss(p, y, prev)
  const pos = p.filter((_, i) => y[i] === 1)
  const neg = p.filter((_, i) => y[i] === 0)
  const jig = pool.map((_, i) => i).filter((i) => pool[i]!.source === "jigsaw-toxic-comment-2018-random-11k")
  console.log(
    `| ${name} | ${rocAuc(z, y).toFixed(4)} | ${rocAuc(jig.map((i) => z[i]!), jig.map((i) => y[i]!)).toFixed(4)} | ${pos.filter((v) => v >= 0.7).length}/${pos.length} | ${pos.filter((v) => v >= 0.5).length}/${pos.length} | ${neg.filter((v) => v >= 0.5).length}/${neg.length} | ${loss.toFixed(4)} |`
  )
}
console.log("| variant | pool ROC AUC (raw) | Jigsaw dev ROC AUC (raw) | pool positives >= 0.7 | positives >= 0.5 | negatives >= 0.5 | log loss at prevalence (held-out fold) |")
console.log("|---|---|---|---|---|---|---|")
const plain = { ...TRAIN_TOXICITY, nbAlpha: undefined }
const variants: Array<[string, (e: D.Example) => number, number, boolean]> = [
  ["mix+mixNB (shipped recipe)", base, 1, true],
  ["mix only", base, 1, false],
  ["mix+mixNB + threat sentences", (e) => (isNegative.has(e.id) ? 0 : shipped(e)), 1, true],
  ["mix+mixNB + violent-word negatives", (e) => (isSentence.has(e.id) ? 0 : shipped(e)), 1, true],
  ["mix+mixNB + both", shipped, 1, true],
  ["mix+mixNB, positives x3", base, 3, true],
  ["mix+mixNB, hate corpora 0.2", (e) => (["implicit-hate", "edos-sexism"].includes(e.source) ? 0.2 : base(e)), 1, true],
  ["mix+mixNB, toxic spans x3", (e) => (e.source === "civil-comments-toxic-spans" ? 3 : base(e)), 1, true],
  ["mix only + threat sentences", (e) => (isNegative.has(e.id) ? 0 : shipped(e)), 1, false],
  ["mix only + both", shipped, 1, false]
]
const want = process.argv.slice(2).filter((a) => /^\d+$/.test(a)).map(Number)
variants.forEach(([name, sw, pm, nb], i) => {
  if (want.length > 0 && !want.includes(i)) return
  const a = train(plain, sw, pm)
  const b = nb ? train(TRAIN_TOXICITY, sw, pm) : undefined
  const z = pool.map((e) => rawScore(f, a, e.text) + (b ? rawScore(f, b, e.text) : 0))
  log(`trained ${name}`)
  report(name, z)
  if (i === 0 || i === 1 || i === 4) {
    report(name + ", calibrated on comment sources only", z, (e) => e.source === "jigsaw-toxic-comment-2018-random-11k" || e.source === "civil-comments-toxic-spans")
    for (const r of [1e-4, 1e-5, 0]) report(`${name}, evidence ridge ${r}`, z, () => true, r)
  }
})
