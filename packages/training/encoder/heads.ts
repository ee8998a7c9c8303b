/**
 * Issue 27, item 2 (first part): logistic heads over the frozen sentence encoder, stacked with the
 * shipped linear model's log-odds, evaluated on the dev split only beside the plain baseline and
 * the shipped linear model.
 *
 *   node packages/training/run.mjs encoder heads [--weights fp32|fp16|int8-fp16table|int8] [--train-cap N]
 *
 * Recipe (fixed before any evaluation; no test split is read):
 * - rows: the toxicity family's training rows (pipeline.loadSplits `toxTrain`, what `npm run train`
 *   and the plain baseline train on), label masking as there; one row in ten (by hash of its id)
 *   is kept out of the head's fit to fit the stack;
 * - head: L2 logistic regression (lambda 1e-4 on the mean log-loss, L-BFGS) on the 512-d
 *   embedding, one per toxicity label;
 * - stack: a logistic regression on [head log-odds, the shipped linear model's calibrated log-odds]
 *   fitted on the held-out tenth (the shipped model saw those rows in training, so its weight is if
 *   anything over-stated: a conservative stack for the encoder);
 * - mean (no fitted weight): the average of the head's log-odds (Platt-scaled on the stack tenth)
 *   and the shipped model's calibrated log-odds, the stack without its in-sample bias;
 * - calibration: Platt on the calibration pool (`toxCalib`, as the linear heads' Platt maps;
 *   rank-preserving). TOXICITY gets Platt too (the linear model maps it onto Perspective's scale).
 */
import type { ModelLabel } from "@decorum/local"
import { loadModelSet } from "@decorum/local"
import { logit, sigmoid } from "@decorum/local/Calibration"
import * as D from "../data.js"
import { rocAuc } from "../fit.js"
import { FUNCTIONAL_SUITE } from "../functional.js"
import { dataDir, loadSplits, MODELS_DIR, TOXICITY_LABELS } from "../pipeline.js"
import { splitProtocols } from "../protocols.js"
import { baselineScorer, compare, printTable, report, trainBaseline, type Scorer } from "../versus.js"
import { DIM, openEncoder } from "./embed.js"
import { type Dense, fitLogistic, lastFit, score } from "./logistic.js"
import { requireEncoderPackages } from "./optional.js"

requireEncoderPackages(["onnxruntime-node"])

const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`)
const args = process.argv.slice(2)
const at = (flag: string, fallback: string) => {
  const i = args.lastIndexOf(flag)
  return i >= 0 ? args[i + 1]! : fallback
}
const f3 = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(3))

// ---------------------------------------------------------------- the run

const main = async () => {
  const started = Date.now()
  const weights = at("--weights", "fp32")
  const trainCap = Number(at("--train-cap", "0"))
  const dir = dataDir()
  const splits = loadSplits(dir, log)
  const shipped = loadModelSet(MODELS_DIR)
  const encoder = await openEncoder(weights)
  log(`encoder ${encoder.file}`)
  const labels = TOXICITY_LABELS

  // training rows (optionally a fixed-stride subsample), one in ten held out for the stack
  let train = splits.toxTrain.filter((e) => labels.some((l) => e.labels[l] !== undefined && !Number.isNaN(e.labels[l]!)))
  if (trainCap > 0 && train.length > trainCap) {
    const stride = train.length / trainCap
    train = Array.from({ length: trainCap }, (_, i) => train[Math.floor(i * stride)]!)
  }
  const inStack = (e: D.Example) => D.hash32(`stack:${e.source}:${e.id}`) % 10 === 0
  log(`training rows ${train.length} (stack-fit tenth ${train.filter(inStack).length}); calibration pool ${splits.toxCalib.length}`)
  const trainData: Dense = { X: await encoder.embed(train.map((e) => e.text), log), dim: DIM }

  const linearLogit = (texts: ReadonlyArray<string>): Map<ModelLabel, Float64Array> => {
    const out = new Map<ModelLabel, Float64Array>(labels.map((l) => [l, new Float64Array(texts.length)]))
    texts.forEach((t, i) => {
      const p = shipped.predict(t, labels)
      for (const l of labels) out.get(l)![i] = logit(Math.min(1 - 1e-6, Math.max(1e-6, p[l]!)))
    })
    return out
  }

  const heads = new Map<ModelLabel, Float64Array>()
  const stacks = new Map<ModelLabel, Float64Array>()
  /** Platt of the head alone on the stack tenth (for the unfitted mean). */
  const headPlatt = new Map<ModelLabel, Float64Array>()
  const stackRows = train.map((e, i) => [e, i] as const).filter(([e]) => inStack(e)).map(([, i]) => i)
  const stackLinear = linearLogit(stackRows.map((i) => train[i]!.text))
  for (const label of labels) {
    const rows: Array<number> = []
    const y: Array<number> = []
    train.forEach((e, i) => {
      const v = e.labels[label]
      if (v === undefined || Number.isNaN(v) || inStack(e)) return
      rows.push(i)
      y.push(v)
    })
    const t0 = Date.now()
    const w = fitLogistic(trainData, rows, y, 1e-4)
    const fit = { ...lastFit }
    heads.set(label, w)
    // stack on the held-out tenth: [head z, linear z]
    const sRows: Array<number> = []
    const sy: Array<number> = []
    const feats: Array<number> = []
    stackRows.forEach((r, k) => {
      const v = train[r]!.labels[label]
      if (v === undefined || Number.isNaN(v)) return
      sRows.push(sRows.length)
      sy.push(v)
      feats.push(score(trainData, w, r), stackLinear.get(label)![k]!)
    })
    const sw = fitLogistic({ X: Float32Array.from(feats), dim: 2 }, sRows, sy, 0)
    stacks.set(label, sw)
    const hw = fitLogistic({ X: Float32Array.from(feats.filter((_, j) => j % 2 === 0)), dim: 1 }, sRows, sy, 0)
    headPlatt.set(label, hw)
    log(`${label}: head on ${rows.length} rows (${y.filter((v) => v >= 0.5).length} positive) in ${((Date.now() - t0) / 1000).toFixed(0)} s, ${fit.iterations} L-BFGS iterations, max |gradient| ${fit.gmax.toExponential(1)}, stopped: ${fit.stop}; stack on ${sRows.length}: ${sw[0]!.toFixed(3)} * head + ${sw[1]!.toFixed(3)} * linear + ${sw[2]!.toFixed(3)}`)
  }

  // scorers over any texts (embeddings cached per text list)
  const encScores = async (texts: ReadonlyArray<string>) => {
    const data: Dense = { X: await encoder.embed(texts, log), dim: DIM }
    const lin = linearLogit(texts)
    const head = new Map<ModelLabel, Float64Array>()
    const stacked = new Map<ModelLabel, Float64Array>()
    const mean = new Map<ModelLabel, Float64Array>()
    for (const l of labels) {
      const h = Float64Array.from(texts, (_, i) => score(data, heads.get(l)!, i))
      const s = stacks.get(l)!
      const hp = headPlatt.get(l)!
      head.set(l, h)
      stacked.set(l, Float64Array.from(h, (z, i) => s[0]! * z + s[1]! * lin.get(l)![i]! + s[2]!))
      mean.set(l, Float64Array.from(h, (z, i) => 0.5 * (hp[0]! * z + hp[1]!) + 0.5 * lin.get(l)![i]!))
    }
    return { head, stacked, mean, linear: lin }
  }

  // Platt on the calibration pool (rank-preserving): probability = sigmoid(a z + b)
  const calibTexts = splits.toxCalib.map((e) => e.text)
  const calib = await encScores(calibTexts)
  const platt = new Map<string, Float64Array>()
  for (const [kind, scores] of [["head", calib.head], ["stacked", calib.stacked], ["mean", calib.mean]] as const)
    for (const l of labels) {
      const rows: Array<number> = []
      const y: Array<number> = []
      splits.toxCalib.forEach((e, i) => {
        const v = e.labels[l]
        if (v === undefined || Number.isNaN(v)) return
        rows.push(i)
        y.push(v)
      })
      const z = scores.get(l)!
      platt.set(`${kind}:${l}`, fitLogistic({ X: Float32Array.from(rows.map((r) => z[r]!)), dim: 1 }, rows.map((_, k) => k), y, 0))
    }
  const prob = (kind: "head" | "stacked" | "mean", l: ModelLabel, z: number) => {
    const p = platt.get(`${kind}:${l}`)!
    return sigmoid(p[0]! * z + p[1]!)
  }

  // ------------------------------------------------ dev protocols
  const p = splitProtocols(dir, "dev", splits)
  const cache = new Map<string, Awaited<ReturnType<typeof encScores>>>()
  const scoresOf = async (texts: ReadonlyArray<string>) => {
    const key = texts.join("\u0001")
    if (!cache.has(key)) cache.set(key, await encScores(texts))
    return cache.get(key)!
  }
  // every embedding first, the baseline last (cached in training/.cache by any run on these rows)
  for (const set of p.sets) await scoresOf(set.rows.map((e) => e.text))
  await scoresOf(splits.gcReport.map((e) => e.text))
  await scoresOf(FUNCTIONAL_SUITE.map((c) => c.text))
  const baseline = trainBaseline(splits.toxTrain, labels, log)
  const scorer = (kind: "head" | "stacked" | "mean" | "linear"): Scorer => (texts) => cache.get(texts.join("\u0001"))![kind]
  console.log(`# Frozen-encoder heads (issue 27), dev split only\n`)
  console.log(`Encoder ${encoder.file.split("/").pop()}; training rows ${train.length}; shipped linear model ${shipped.version}.\n`)
  for (const [kind, name] of [["linear", shipped.version], ["head", "encoder head"], ["stacked", "encoder + linear stack"], ["mean", "encoder + linear mean"]] as const) {
    console.log(`## ${name} vs the plain baseline (dev)\n`)
    const losses = report(compare(p.sets, labels, scorer(kind), baselineScorer(baseline)), labels, name)
    console.log(losses.length === 0 ? `${name} beats the plain baseline on every head with a label.\n` : `${name} does not beat the plain baseline on: ${losses.join("; ")}.\n`)
  }

  // ------------------------------------------------ Wikipedia CAT report half
  {
    const rows = splits.gcReport
    const texts = rows.map((e) => e.text)
    const human = rows.map((e) => e.labels.TOXICITY!)
    const api = rows.map((e) => Number(e.extra!.api))
    const s = await scoresOf(texts)
    const base = Array.from(baselineScorer(baseline)(texts).get("TOXICITY")!)
    console.log(`## Wikipedia CAT report half (${rows.length} comments): TOXICITY ROC AUC against the human label\n`)
    printTable(
      ["scorer", "ROC AUC"],
      [
        ["Perspective (historical api score)", f3(rocAuc(api, human))],
        ["plain baseline", f3(rocAuc(base, human))],
        [shipped.version, f3(rocAuc(Array.from(s.linear.get("TOXICITY")!), human))],
        ["encoder head", f3(rocAuc(Array.from(s.head.get("TOXICITY")!), human))],
        ["encoder + linear stack", f3(rocAuc(Array.from(s.stacked.get("TOXICITY")!), human))],
        ["encoder + linear mean", f3(rocAuc(Array.from(s.mean.get("TOXICITY")!), human))]
      ]
    )
  }

  // ------------------------------------------------ functional suite: balanced accuracy and AUC
  {
    const cases = FUNCTIONAL_SUITE
    const texts = cases.map((c) => c.text)
    const s = await scoresOf(texts)
    const base = baselineScorer(baseline)(texts)
    const y = cases.map((c) => (c.toxic ? 1 : 0))
    const measure = (probs: ReadonlyArray<number>) => {
      const tp = probs.filter((v, i) => y[i] === 1 && v > 0.5).length
      const tn = probs.filter((v, i) => y[i] === 0 && v <= 0.5).length
      const pos = y.filter((v) => v === 1).length
      const neg = y.length - pos
      return [`${tp}/${pos}`, `${tn}/${neg}`, f3(0.5 * (tp / pos + tn / neg)), f3(rocAuc(probs, y))]
    }
    const pick = (get: (l: ModelLabel, i: number) => number) => cases.map((c, i) => get(c.label, i))
    console.log(`## Functional suite (${cases.length} cases, ${y.filter((v) => v === 1).length} toxic): toxic above 0.5 on the case's head\n`)
    printTable(
      ["scorer", "toxic caught", "non-toxic passed", "balanced accuracy", "ROC AUC"],
      [
        ["plain baseline", ...measure(pick((l, i) => sigmoid(base.get(l)![i]!)))],
        [shipped.version, ...measure(pick((l, i) => sigmoid(s.linear.get(l)![i]!)))],
        ["encoder head (Platt)", ...measure(pick((l, i) => prob("head", l, s.head.get(l)![i]!)))],
        ["encoder + linear stack (Platt)", ...measure(pick((l, i) => prob("stacked", l, s.stacked.get(l)![i]!)))],
        ["encoder + linear mean (Platt)", ...measure(pick((l, i) => prob("mean", l, s.mean.get(l)![i]!)))]
      ]
    )
  }
  log(`encoder heads took ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

await main()
