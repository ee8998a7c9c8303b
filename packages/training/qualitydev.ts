/**
 * `node packages/training/run.mjs qualitydev [--models DIR]` (dev only: C3's held-out articles,
 * hash % 10 === 9, and the toxic-spans trial split are not read): the comment scorer's quoting gate
 * (`QUOTE_GATE`) and the 1-5 grade's toxicity weights (`QualityWeights`) for a model set.
 *
 * - quoting: dev character F1 of the scorer with the tagger (the dev posts of `spans.ts`) against the
 *   share of constructive C3 comments of the training articles (hash % 10 !== 9, as `spansdev --rules`)
 *   that get a quote, for each gate;
 * - grade: `overall_score` ROC AUC for constructive comments of C3's calibration articles (hash % 10 === 8,
 *   which no C3 head trains on), for each toxicity weighting, with the gate given by `--gate LABEL,TOXICITY,PROFANITY,SPAN`.
 *
 * `--models DIR` scores another release (e.g. 11.3's toxicity.bin + manifest.json restored into DIR);
 * the span tagger and the fallacy detector are read from DIR too.
 */
import * as D from "./data.js"
import { dataDir, MODELS_DIR } from "./pipeline.js"
import { type QuoteGate, QUOTE_GATE, scoreComment } from "@decorum/local"
import { QualityWeights } from "@decorum/local"
import { fromFallacyWeights, loadFallacyWeights } from "@decorum/local"
import { fromSpanWeights, loadSpanWeights } from "@decorum/local"
import { fromModelSet, loadModelSet } from "@decorum/local"
import { article } from "../local/test/evaluators/fixtures.js"
import { rocAuc } from "./fit.js"
import { meanSpanF1, trainDevPosts } from "./spans.js"

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const dir = dataDir()
const modelsDir = arg("--models") ?? MODELS_DIR
const model = fromModelSet(loadModelSet(modelsDir))
const tagger = fromSpanWeights(loadSpanWeights(modelsDir))
const detector = fromFallacyWeights(loadFallacyWeights(modelsDir))
const { dev } = trainDevPosts(dir)
const c3 = D.c3(dir)
const part = (e: D.Example) => D.hash32(e.group ?? e.id) % 10
const c3Constructive = c3.filter((e) => part(e) !== 9 && e.labels.CONSTRUCTIVE === 1).map((e) => e.text)
const c3Calib = c3.filter((e) => part(e) === 8)
console.log(`# ${model.version} (${modelsDir}): ${dev.length} dev posts, ${c3Constructive.length} constructive C3 comments of the training articles, ${c3Calib.length} C3 comments of the calibration articles\n`)

const quotes = (text: string, gate: QuoteGate) => {
  const r = scoreComment(model, { comment: text, replyTo: null, article }, undefined, { spans: tagger, gate })
  const out = new Set<number>()
  for (const o of r.objectionable_phrases) {
    const at = text.indexOf(o.quoted_objectionable_phrase)
    for (let i = at; i >= 0 && i < at + o.quoted_objectionable_phrase.length; i++) out.add(i)
  }
  return out
}

if (!process.argv.includes("--grade-only")) {
  console.log("## Quoting gate (dev posts F1, constructive C3 training-article comments quoted)\n")
  console.log("| labelThreshold | toxicityThreshold | profanityThreshold | spanThreshold | dev F1 | C3 constructive quoted |")
  console.log("|---|---|---|---|---|---|")
  const ls = (arg("--labels") ?? "0.3,0.35,0.4,0.45,0.5,0.6").split(",").map(Number)
  const ps = (arg("--profanity") ?? "0.15").split(",").map(Number)
  const ts = arg("--toxicity")?.split(",").map(Number)
  const ss = (arg("--span") ?? String(QUOTE_GATE.spanThreshold)).split(",").map(Number)
  for (const labelThreshold of ls) {
    for (const toxicityThreshold of ts ?? [labelThreshold]) for (const profanityThreshold of ps) for (const spanThreshold of ss) {
      const gate = { labelThreshold, toxicityThreshold, profanityThreshold, spanThreshold }
      const f1 = meanSpanF1(dev, (t) => quotes(t, gate))
      const quoted = c3Constructive.filter((t) => quotes(t, gate).size > 0).length
      console.log(`| ${labelThreshold} | ${toxicityThreshold} | ${profanityThreshold} | ${spanThreshold} | ${f1.toFixed(4)} | ${quoted} (${((100 * quoted) / c3Constructive.length).toFixed(2)}%) |`)
    }
  }
  console.log()
}

// ---------------------------------------------------------------- the grade
const gateArg = arg("--gate")?.split(",").map(Number)
const gate: QuoteGate = gateArg === undefined ? QUOTE_GATE : { labelThreshold: gateArg[0]!, toxicityThreshold: gateArg[1]!, profanityThreshold: gateArg[2]!, spanThreshold: gateArg[3]! }
const labels = Float64Array.from(c3Calib, (e) => e.labels.CONSTRUCTIVE ?? 0)
// QualityWeights is read by the scorer at call time: the grid sets its toxicity fields and puts them back.
const tox = QualityWeights.toxicity as { weight: number; tolerance: number }
const caps = QualityWeights.caps as { toxicAt: number }
const obj = QualityWeights.objectionable as { weight: number }
const shipped = { weight: tox.weight, tolerance: tox.tolerance, toxicAt: caps.toxicAt, objectionable: obj.weight }
const auc = () => rocAuc(Float64Array.from(c3Calib, (e) => scoreComment(model, { comment: e.text, replyTo: null, article }, detector, { spans: tagger, gate }).overall_score), labels)
{
  const t = c3Calib.map((e) => model.predict(model.analyse(e.text), ["TOXICITY"]).TOXICITY ?? 0).sort((a, b) => a - b)
  const q = (x: number) => t.filter((v) => v > x).length / t.length
  console.log(`TOXICITY on C3's calibration articles: above 0.2 ${(100 * q(0.2)).toFixed(1)}%, 0.3 ${(100 * q(0.3)).toFixed(1)}%, 0.4 ${(100 * q(0.4)).toFixed(1)}%, 0.5 ${(100 * q(0.5)).toFixed(1)}%; median ${t[t.length >> 1]!.toFixed(3)}, 90th percentile ${t[Math.floor(t.length * 0.9)]!.toFixed(3)}\n`)
}
console.log(`## 1-5 grade on C3's calibration articles (gate ${gate.labelThreshold}/${gate.toxicityThreshold}/${gate.profanityThreshold}/${gate.spanThreshold})\n`)
console.log("| toxicity.tolerance | toxicity.weight | caps.toxicAt | objectionable.weight | overall_score AUC |")
console.log("|---|---|---|---|---|")
const tolerances = (arg("--tolerance") ?? "0.2,0.3,0.4,0.5").split(",").map(Number)
const weights = (arg("--weight") ?? "2,3,4").split(",").map(Number)
const toxicAts = (arg("--toxicat") ?? "0.7,0.8,0.9").split(",").map(Number)
const objs = (arg("--objectionable") ?? "0.3,0.6").split(",").map(Number)
for (const tolerance of tolerances) {
  for (const weight of weights) {
    for (const toxicAt of toxicAts) {
      for (const o of objs) {
        tox.tolerance = tolerance
        tox.weight = weight
        caps.toxicAt = toxicAt
        obj.weight = o
        console.log(`| ${tolerance} | ${weight} | ${toxicAt} | ${o} | ${auc().toFixed(4)} |`)
      }
    }
  }
}
tox.weight = shipped.weight
tox.tolerance = shipped.tolerance
caps.toxicAt = shipped.toxicAt
obj.weight = shipped.objectionable
