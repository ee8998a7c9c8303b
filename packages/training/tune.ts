/**
 * Model selection on the dev split only (Jigsaw `in_random_5k` dev rows, the Wikipedia CAT fit
 * quarter): prints dev ROC AUC per label for a few recipe variants. Not part of `npm run train`;
 * kept so the choice of the shipped recipe can be re-examined. Usage: run.mjs tune
 */
import type { ModelLabel } from "@decorum/local"
import { rocAuc, spearman, type TrainOptions } from "./fit.js"
import { dataDir, featurise, loadSplits, makeFeaturizer, rawScore, SOURCE_WEIGHT, TOXICITY_LABELS, trainHeads, TRAIN_TOXICITY, respellFrom } from "./pipeline.js"

const log = (s: string) => process.stderr.write(s + "\n")
const splits = loadSplits(dataDir(), log)
const f = makeFeaturizer(respellFrom(splits.toxTrain.map((e) => e.text)))
const dev = splits.toxCalib.filter((e) => e.source === "jigsaw-toxic-comment-2018-random-11k")
const data = featurise(f, splits.toxTrain)
const labels: Array<ModelLabel> = ["TOXICITY", "INSULT", "PROFANITY", "SEVERE_TOXICITY", "IDENTITY_ATTACK"]
const variants: Array<[string, TrainOptions, Record<string, number>]> = []
const models = new Map<string, Map<ModelLabel, import("./fit.js").LinearModel>>()
const onlyJigsaw: Record<string, number> = Object.fromEntries(Object.keys(SOURCE_WEIGHT).map((k) => [k, 0]))
onlyJigsaw["jigsaw-toxic-comment-2018-random-11k"] = 1
const arg = process.argv[2] ?? "grid"
const perLabel: Record<string, Record<string, number>> = {}
if (arg === "round2") {
  const A = { ...TRAIN_TOXICITY, nbAlpha: undefined, epochs: 12, learningRate: 0.1 }
  const B = { ...TRAIN_TOXICITY, epochs: 12, learningRate: 0.1 }
  variants.push(["no NB, 12 ep", A, SOURCE_WEIGHT])
  variants.push(["NB, 12 ep", B, SOURCE_WEIGHT])
  const quiet = { "davidson-hate-offensive": 0.1, "hatexplain-majority-labels": 0.1, "implicit-hate": 0.1, "sbic-social-bias-frames-dev-test-PARTIAL": 0.2, "edos-sexism": 0.2 }
  perLabel.TOXICITY = { ...SOURCE_WEIGHT, ...quiet }
  perLabel.PROFANITY = perLabel.TOXICITY
  perLabel.INSULT = perLabel.TOXICITY
  perLabel.SEVERE_TOXICITY = perLabel.TOXICITY
  variants.push(["no NB, 12 ep, quiet hate sets", A, SOURCE_WEIGHT])
  variants.push(["NB, 12 ep, quiet hate sets", B, SOURCE_WEIGHT])
}
if (arg === "grid") {
  variants.push(["shipped", TRAIN_TOXICITY, SOURCE_WEIGHT])
  variants.push(["no NB", { ...TRAIN_TOXICITY, nbAlpha: undefined }, SOURCE_WEIGHT])
  variants.push(["jigsaw x8", TRAIN_TOXICITY, { ...SOURCE_WEIGHT, "jigsaw-toxic-comment-2018-random-11k": 8 }])
  variants.push(["others x0.5", TRAIN_TOXICITY, Object.fromEntries(Object.entries(SOURCE_WEIGHT).map(([k, v]) => [k, k.startsWith("jigsaw") || k.startsWith("wiki") || k.startsWith("decorum") ? v : v * 0.5]))])
  variants.push(["12 epochs lr .1", { ...TRAIN_TOXICITY, epochs: 12, learningRate: 0.1 }, SOURCE_WEIGHT])
  variants.push(["l2 1e-5", { ...TRAIN_TOXICITY, l2: 1e-5 }, SOURCE_WEIGHT])
  variants.push(["bits 20", { ...TRAIN_TOXICITY, bits: 20 }, SOURCE_WEIGHT])
  variants.push(["jigsaw only, NB", TRAIN_TOXICITY, onlyJigsaw])
  variants.push(["jigsaw only, no NB", { ...TRAIN_TOXICITY, nbAlpha: undefined }, onlyJigsaw])
}
for (const [name, options, weights] of variants) {
  const heads = trainHeads(data, labels, options, () => {}, weights, name.includes("quiet") ? perLabel : {})
  const cells = labels.map((l) => {
    const y = dev.map((e) => e.labels[l]!)
    return rocAuc(dev.map((e) => rawScore(f, heads.get(l)!, e.text)), y).toFixed(4)
  })
  const sp = spearman(splits.gcFit.map((e) => rawScore(f, heads.get("TOXICITY")!, e.text)), splits.gcFit.map((e) => Number(e.extra!.api)))
  console.log(`| ${name} | ${cells.join(" | ")} | ${sp.toFixed(3)} |`)
  if (arg === "round2") models.set(name, heads)
}
if (arg === "round2") {
  // NB / plain ensemble (average of log-odds)
  for (const [a, b] of [["no NB, 12 ep", "NB, 12 ep"], ["no NB, 12 ep, quiet hate sets", "NB, 12 ep, quiet hate sets"]] as const) {
    const ha = models.get(a)!
    const hb = models.get(b)!
    const cells = labels.map((l) => {
      const y = dev.map((e) => e.labels[l]!)
      return rocAuc(dev.map((e) => rawScore(f, ha.get(l)!, e.text) + rawScore(f, hb.get(l)!, e.text)), y).toFixed(4)
    })
    const sp = spearman(splits.gcFit.map((e) => rawScore(f, ha.get("TOXICITY")!, e.text) + rawScore(f, hb.get("TOXICITY")!, e.text)), splits.gcFit.map((e) => Number(e.extra!.api)))
    console.log(`| ensemble ${a} + NB | ${cells.join(" | ")} | ${sp.toFixed(3)} |`)
  }
}
void TOXICITY_LABELS
