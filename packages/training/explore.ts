/**
 * Round 3 of model selection (dev split only): per-head NB/plain interpolation, an in-domain
 * (Jigsaw-only) model added to the mixture, per-head source weights. Prints dev ROC AUC.
 * Usage: run.mjs explore
 */
import type { ModelLabel } from "@decorum/local"
import { rocAuc, type LinearModel } from "./fit.js"
import { dataDir, featurise, JIGSAW_ONLY, loadSplits, makeFeaturizer, rawScore, respellFrom, SOURCE_WEIGHT, LABEL_SOURCE_WEIGHT, trainHeads, TRAIN_TOXICITY } from "./pipeline.js"

const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`)
const splits = loadSplits(dataDir(), log)
const f = makeFeaturizer(respellFrom(splits.toxTrain.map((e) => e.text)))
const dev = splits.toxCalib.filter((e) => e.source === "jigsaw-toxic-comment-2018-random-11k")
const data = featurise(f, splits.toxTrain)
log(`featurised ${data.rows.length}`)
const labels: Array<ModelLabel> = ["INSULT", "IDENTITY_ATTACK", "SEVERE_TOXICITY", "TOXICITY", "PROFANITY"]
const onlyJigsaw = JIGSAW_ONLY
const plainOpt = { ...TRAIN_TOXICITY, nbAlpha: undefined }
const devScores = (m: LinearModel) => Float64Array.from(dev.map((e) => rawScore(f, m, e.text)))
const S: Record<string, Record<string, Float64Array>> = {}
const put = (name: string, heads: Map<ModelLabel, LinearModel>) => {
  for (const [l, m] of heads) (S[l] ??= {})[name] = devScores(m)
  log(`trained ${name}`)
}
put("mixP", trainHeads(data, labels, plainOpt, () => {}))
put("mixNB", trainHeads(data, labels, TRAIN_TOXICITY, () => {}))
put("jigP", trainHeads(data, labels, plainOpt, () => {}, onlyJigsaw, {}))
put("jigNB", trainHeads(data, labels, TRAIN_TOXICITY, () => {}, onlyJigsaw, {}))
const quiet = LABEL_SOURCE_WEIGHT.TOXICITY!
put("quietP", trainHeads(data, ["IDENTITY_ATTACK"], plainOpt, () => {}, SOURCE_WEIGHT, { IDENTITY_ATTACK: quiet }))
put("quietNB", trainHeads(data, ["IDENTITY_ATTACK"], TRAIN_TOXICITY, () => {}, SOURCE_WEIGHT, { IDENTITY_ATTACK: quiet }))
const jig10 = { ...SOURCE_WEIGHT, "jigsaw-toxic-comment-2018-random-11k": 10 }
put("jig10P", trainHeads(data, ["INSULT", "IDENTITY_ATTACK", "SEVERE_TOXICITY"], plainOpt, () => {}, jig10, {}))
const combos: Array<[string, Record<string, number>]> = [
  ["mixP", { mixP: 1 }], ["mixNB", { mixNB: 1 }], ["mixP+mixNB", { mixP: 1, mixNB: 1 }], ["mixP+0.5mixNB", { mixP: 1, mixNB: 0.5 }],
  ["mixP+2mixNB", { mixP: 1, mixNB: 2 }], ["jigP", { jigP: 1 }], ["jigNB", { jigNB: 1 }], ["jigP+jigNB", { jigP: 1, jigNB: 1 }],
  ["mixP+jigP", { mixP: 1, jigP: 1 }], ["mixP+mixNB+jigP", { mixP: 1, mixNB: 1, jigP: 1 }], ["mixP+mixNB+jigNB", { mixP: 1, mixNB: 1, jigNB: 1 }],
  ["mixP+mixNB+jigP+jigNB", { mixP: 1, mixNB: 1, jigP: 1, jigNB: 1 }], ["mixP+jigP+jigNB", { mixP: 1, jigP: 1, jigNB: 1 }],
  ["quietP", { quietP: 1 }], ["quietNB", { quietNB: 1 }], ["quietP+quietNB", { quietP: 1, quietNB: 1 }], ["quietP+jigP", { quietP: 1, jigP: 1 }],
  ["quietP+quietNB+jigP+jigNB", { quietP: 1, quietNB: 1, jigP: 1, jigNB: 1 }], ["jig10P", { jig10P: 1 }], ["jig10P+mixNB", { jig10P: 1, mixNB: 1 }],
  ["mixP+mixNB+2jigP", { mixP: 1, mixNB: 1, jigP: 2 }]
]
console.log(`| combo | ${labels.join(" | ")} |`)
for (const [name, w] of combos) {
  const cells = labels.map((l) => {
    const parts = Object.entries(w)
    if (parts.some(([k]) => S[l]![k] === undefined)) return "-"
    const z = new Float64Array(dev.length)
    for (const [k, c] of parts) for (let i = 0; i < z.length; i++) z[i]! += c * S[l]![k]![i]!
    return rocAuc(z, dev.map((e) => e.labels[l]!)).toFixed(4)
  })
  console.log(`| ${name} | ${cells.join(" | ")} |`)
}
