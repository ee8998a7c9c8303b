/**
 * Model selection for SPAM on the dev protocol only: the shipped model's test video
 * (`YOUTUBE_TEST_VIDEO`) is left out of everything (with exact copies of its comments), and each
 * of the other three videos is held out in turn, the model trained on the other two (plus SMS).
 * Prints, per recipe variant, the raw model's accuracy at 0.5 and ROC AUC, and the end-to-end
 * verdict of the spam checker (signals blended with the model) for a grid of blends.
 * Variants are relative to the current recipe (`SPAM_RECIPE`, `SPAM_BLEND`).
 * Usage: run.mjs spamdev [--variants a,b] [--errors VARIANT]
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { SPAM_BLEND, spamProbability, type SpamBlend } from "@decorum/local"
import { detectSpam } from "@decorum/local/Cues"
import { tokenize } from "@decorum/local/Words"
import type { Manifest } from "@decorum/local/ModelFormat"
import { applyCalibration } from "@decorum/local/Calibration"
import { accuracy, rocAuc } from "./fit.js"
import * as D from "./data.js"
import { dataDir, makeFeaturizer, MODELS_DIR, rawScore, SOURCE_WEIGHT, SPAM_RECIPE, TRAIN_SPAM, trainSpam, type SpamRecipe, YOUTUBE_TEST_VIDEO } from "./pipeline.js"

const log = (s: string) => process.stderr.write(s + "\n")
const dir = dataDir()
const manifest = JSON.parse(readFileSync(join(MODELS_DIR, "manifest.json"), "utf8")) as Manifest
const f = makeFeaturizer(manifest.respell)
const spam = [...D.youtube(dir), ...D.sms(dir)]
const devVideos = D.YOUTUBE_VIDEOS.filter((v) => v !== YOUTUBE_TEST_VIDEO)

const w = (sms: number) => ({ ...SOURCE_WEIGHT, "sms-spam-collection": sms })
const VARIANTS: Record<string, SpamRecipe> = {
  current: SPAM_RECIPE,
  "2026.11.2": { options: { ...TRAIN_SPAM, l2: 1e-6 }, weights: w(0.3) },
  noNB: { options: { ...TRAIN_SPAM, nbAlpha: undefined }, weights: SOURCE_WEIGHT },
  sms0: { options: TRAIN_SPAM, weights: w(0) },
  sms0_1: { options: TRAIN_SPAM, weights: w(0.1) },
  sms1: { options: TRAIN_SPAM, weights: w(1) },
  l2e5: { options: { ...TRAIN_SPAM, l2: 1e-5 }, weights: SOURCE_WEIGHT },
  l2e4: { options: { ...TRAIN_SPAM, l2: 1e-4 }, weights: SOURCE_WEIGHT },
  ep20: { options: { ...TRAIN_SPAM, epochs: 20 }, weights: SOURCE_WEIGHT },
  ep5: { options: { ...TRAIN_SPAM, epochs: 5 }, weights: SOURCE_WEIGHT },
  lr05: { options: { ...TRAIN_SPAM, learningRate: 0.05 }, weights: SOURCE_WEIGHT },
  bits20: { options: { ...TRAIN_SPAM, bits: 20 }, weights: SOURCE_WEIGHT },
  sms0_05: { options: TRAIN_SPAM, weights: w(0.05) },
  nbclip1: { options: { ...TRAIN_SPAM, nbClip: 1 }, weights: SOURCE_WEIGHT }
}

const BLENDS: Array<SpamBlend> = []
for (const model of [0.5, 0.75, 1, 1.25]) {
  for (const signals of [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2]) for (const bias of [-1, -0.5, 0, 0.5, 1]) BLENDS.push({ model, signals, bias })
}

const only = process.argv.indexOf("--variants")
const names = only >= 0 ? process.argv[only + 1]!.split(",") : Object.keys(VARIANTS)
const errorsOf = process.argv.indexOf("--errors") >= 0 ? process.argv[process.argv.indexOf("--errors") + 1]! : undefined
const pct = (x: number) => `${(100 * x).toFixed(1)}%`

const signalLogit = new Map<string, number>()
for (const e of spam) if (e.source === "youtube-spam-collection") signalLogit.set(e.text, detectSpam(e.text, tokenize(e.text)).logit)

console.log(`dev protocol: ${YOUTUBE_TEST_VIDEO} left out of everything; held out in turn: ${devVideos.join(", ")}\n`)
console.log(`| variant | ${devVideos.map((v) => `${v} raw / e2e`).join(" | ")} | mean raw | mean e2e | mean AUC | best blend (mean e2e) |`)
console.log(`|---|${devVideos.map(() => "---").join("|")}|---|---|---|---|`)
for (const name of names) {
  const recipe = VARIANTS[name]!
  const per: Array<{ y: Array<number>; p: Array<number>; s: Array<number>; texts: Array<string> }> = []
  for (const video of devVideos) {
    const { model, calibration } = trainSpam(f, spam, video, () => {}, recipe, [YOUTUBE_TEST_VIDEO])
    const test = spam.filter((e) => e.group === video)
    per.push({
      y: test.map((e) => e.labels.SPAM!),
      p: test.map((e) => applyCalibration(calibration, rawScore(f, model, e.text))),
      s: test.map((e) => signalLogit.get(e.text)!),
      texts: test.map((e) => e.text)
    })
  }
  const e2e = (b: SpamBlend) => per.map((r) => accuracy(r.p.map((p, i) => spamProbability(r.s[i]!, p, b)), r.y))
  const mean = (xs: Array<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
  const raw = per.map((r) => accuracy(r.p, r.y))
  const cur = e2e(SPAM_BLEND)
  let best = SPAM_BLEND
  let bestAcc = mean(cur)
  for (const b of BLENDS) {
    const a = mean(e2e(b))
    if (a > bestAcc + 1e-9) {
      best = b
      bestAcc = a
    }
  }
  const cells = devVideos.map((_, k) => `${pct(raw[k]!)} / ${pct(cur[k]!)}`)
  console.log(`| ${name} | ${cells.join(" | ")} | ${pct(mean(raw))} | ${pct(mean(cur))} | ${mean(per.map((r) => rocAuc(r.p, r.y))).toFixed(3)} | m ${best.model} s ${best.signals} b ${best.bias}: ${pct(bestAcc)} (${e2e(best).map(pct).join(", ")}) |`)
  if (name === errorsOf) {
    for (const [k, r] of per.entries()) {
      console.log(`\n### errors on ${devVideos[k]}`)
      r.y.forEach((y, i) => {
        const v = spamProbability(r.s[i]!, r.p[i]!)
        if ((v >= 0.5 ? 1 : 0) !== y || (r.p[i]! >= 0.5 ? 1 : 0) !== y) {
          console.log(`- y=${y} model ${r.p[i]!.toFixed(2)} signals ${r.s[i]!.toFixed(2)} e2e ${v.toFixed(2)}: ${JSON.stringify(r.texts[i]!.slice(0, 160))}`)
        }
      })
    }
  }
}
log("done")
