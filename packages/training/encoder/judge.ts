/**
 * `npm run train:judge` (issue 27, item 2, first part): the neural judge's heads over the frozen
 * sentence encoder, written to `packages/local/models/encoder/judge.json` (judgeFile.ts), the file
 * the server's built-in judge reads.
 *
 *   node packages/training/run.mjs judge [--train-cap N] [--band LOW,HIGH] [--release NAME] [--out DIR] [--encoder FILE] [--head-weight W]
 *
 * Recipe:
 * - rows: every labelled row of the toxicity family's training set (pipeline.loadSplits `toxTrain`,
 *   what `npm run train` fits), label masking as there (a head fits only rows whose dataset labels
 *   it), each row with the linear recipe's sample weight (`LABEL_SOURCE_WEIGHT[label][source]`, else
 *   `SOURCE_WEIGHT[source]`, else 1, as pipeline.trainHeads); one row in ten (by hash of its id) is
 *   held out of the head's fit;
 * - head: L2 logistic regression on the 512-d embedding (lambda 1e-4 on the weighted mean log-loss,
 *   L-BFGS, at most 200 iterations), then Platt scaling fitted on the held-out tenth and folded into
 *   the weights, its rows re-weighted to the natural prevalence the linear release calibrates at
 *   (`JIGSAW_PREVALENCE`), so both log-odds of the mean are on one scale;
 * - combination: the unfitted mean, 0.5 x head log-odds + 0.5 x the served linear log-odds (the
 *   winner of docs/experiments/neural-judge.md section 2; a fitted stack over-trusted the linear
 *   model, whose log-odds are in-sample on every training row), then put on the scale the linear
 *   release serves by one Platt map (a m + c, rank-preserving), calibrated as the linear release
 *   is: TOXICITY against Perspective's scores on the CAT fit quarter, the other heads against their
 *   label on the calibration pool at natural prevalence (`JIGSAW_PREVALENCE`; THREAT and
 *   IDENTITY_ATTACK at that rate enriched as Perspective's scores are, as their linear heads);
 * - cascade band, per attribute, on the dev protocols only: among candidate bands of the served linear
 *   probability, the one that routes the fewest natural-prevalence dev comments to the encoder while
 *   keeping at least 90% of the neural mode's mean dev AUC gain over the linear release.
 *   `--band LOW,HIGH` skips the search and writes that band for every attribute.
 * Deterministic: the same data, encoder and linear release give the same file, byte for byte.
 */
import { createHash } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import type { ModelLabel } from "@decorum/local"
import { loadModelSet } from "@decorum/local"
import { rocAuc } from "../fit.js"
import { dataDir, EVIDENCE, JIGSAW_PREVALENCE, loadSplits, MODELS_DIR, TOXICITY_LABELS } from "../pipeline.js"
import { enrich, perspectiveEnrichment } from "../perspectiveMap.js"
import { labelled, splitProtocols, type EvalSet } from "../protocols.js"
import { printTable } from "../versus.js"
import { DEFAULT_OUT, MAX_TOKENS } from "./convert.js"
import { DIM, openEncoder } from "./embed.js"
import { encodeJudgeFile, headLogit, JUDGE_FILE, type JudgeFile, type JudgeHeadJson } from "./judgeFile.js"
import { judgeFrom, linearScores, type JudgeScores } from "./judgeScore.js"
import { BAND_HIGHS, BAND_LOWS, calibrateMean, ENCODER_FILE, fitHead, hasLabel, heldOut, KEEP, MEAN, MIN_STEP, NO_BAND, RELEASE } from "./judgeHeads.js"
import type * as D from "../data.js"

const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`)
const args = process.argv.slice(2)
const at = (flag: string, fallback: string) => {
  const i = args.lastIndexOf(flag)
  return i >= 0 ? args[i + 1]! : fallback
}
const f3 = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(3))
const pct = (x: number) => `${(100 * x).toFixed(1)}%`

// ---------------------------------------------------------------- cascade band on dev

/** Mean dev ROC AUC of one label over the verdict rows (natural, enriched, cross-domain mean over its sets). */
const meanAuc = (sets: ReadonlyArray<EvalSet>, label: ModelLabel, pick: (k: number) => Float64Array): number => {
  const rows: Array<number> = []
  const cross: Array<number> = []
  sets.forEach((set, k) => {
    const { rows: r, y } = labelled(set, label)
    const positives = y.reduce((a, v) => a + v, 0)
    if (positives < 5 || positives === y.length) return
    const s = pick(k)
    const auc = rocAuc(r.map((i) => s[i]!), y)
    if (set.protocol === "cross-domain") cross.push(auc)
    else rows.push(auc)
  })
  if (cross.length > 0) rows.push(cross.reduce((a, v) => a + v, 0) / cross.length)
  return rows.reduce((a, v) => a + v, 0) / rows.length
}

const main = async () => {
  const started = Date.now()
  const dir = dataDir()
  const splits = loadSplits(dir, log)
  const linear = loadModelSet(MODELS_DIR)
  // --encoder FILE: another encoder (a fine-tuned one, `npm run train:encoder`) with vocab.json beside it
  const encoderPath = at("--encoder", join(DEFAULT_OUT, ENCODER_FILE))
  const encoder = await openEncoder("fp16", encoderPath)
  const sha256 = createHash("sha256").update(readFileSync(encoderPath)).digest("hex")
  const labels = TOXICITY_LABELS
  const trainCap = Number(at("--train-cap", "0"))
  // --head-weight W: the mean's weight of the head's log-odds (the linear one's is 1 - W); default MEAN's 0.5
  const headWeight = Number(at("--head-weight", String(MEAN.head)))
  if (!(headWeight > 0 && headWeight <= 1)) throw new Error(`--head-weight takes a number in (0, 1], not ${at("--head-weight", "")}`)
  const mean = { head: headWeight, linear: 1 - headWeight, bias: 0 }
  const out = at("--out", DEFAULT_OUT)

  let train = splits.toxTrain.filter((e) => labels.some((l) => hasLabel(e, l)))
  if (trainCap > 0 && train.length > trainCap) {
    const stride = train.length / trainCap
    train = Array.from({ length: trainCap }, (_, i) => train[Math.floor(i * stride)]!)
  }
  log(`encoder ${basename(encoderPath)} (sha256 ${sha256.slice(0, 12)}...), linear release ${linear.version}; training rows ${train.length} (held out for Platt ${train.filter(heldOut).length})`)
  const X = await encoder.embed(train.map((e) => e.text), log)

  const heads: Record<string, JudgeHeadJson> = {}
  for (const label of labels) {
    const t0 = Date.now()
    const h = fitHead(X, DIM, train, label, { prevalence: JIGSAW_PREVALENCE[label] })
    heads[label] = { weights: Array.from(h.weights), bias: h.bias, combine: mean }
    log(`${label}: head on ${h.fitRows} rows (Platt on ${h.plattRows}) in ${((Date.now() - t0) / 1000).toFixed(0)} s, ${h.iterations} L-BFGS iterations, max |gradient| ${h.gmax.toExponential(1)}`)
  }
  // the mean's scale: the one the linear release serves (TOXICITY: Perspective's, fitted on the CAT
  // fit quarter as the linear map is; the others: the label at natural prevalence on the calibration pool)
  const rowsOf = async (rows: ReadonlyArray<D.Example>) => {
    const texts = rows.map((e) => e.text)
    return { X: await encoder.embed(texts, log), p: linearScores(linear, labels, texts) }
  }
  const fitQuarter = await rowsOf(splits.gcFit)
  const pool = await rowsOf(splits.toxCalib)
  // THREAT and IDENTITY_ATTACK: calibrated at the natural rate enriched as Perspective's scores are (train.ts)
  const k = perspectiveEnrichment(splits.gcFit)
  const prevalenceOf = (label: ModelLabel) => (EVIDENCE[label] !== undefined ? enrich(JIGSAW_PREVALENCE[label]!, k) : JIGSAW_PREVALENCE[label])
  for (const label of labels) {
    const h = heads[label]!
    const perspective = label === "TOXICITY"
    const source = perspective ? splits.gcFit : splits.toxCalib
    const data = perspective ? fitQuarter : pool
    const rows = source.map((e, i) => [e, i] as const).filter(([e]) => (perspective ? true : hasLabel(e, label)))
    const z = rows.map(([, i]) => headLogit(h, data.X, i * DIM))
    const p = rows.map(([, i]) => data.p.get(label)![i]!)
    const t = rows.map(([e]) => (perspective ? Number(e.extra!.api) : e.labels[label]!))
    const combination = calibrateMean(z, p, t, perspective ? undefined : prevalenceOf(label), mean)
    heads[label] = { ...h, combine: combination }
    log(`${label}: combination ${combination.head.toFixed(3)} head + ${combination.linear.toFixed(3)} linear + ${combination.bias.toFixed(3)}, on ${rows.length} ${perspective ? "CAT fit-quarter comments (target: Perspective's score)" : "calibration-pool rows"}`)
  }
  const file = (cascade: Record<string, readonly [number, number]>): JudgeFile => ({
    release: at("--release", RELEASE),
    encoder: { file: basename(encoderPath), sha256, vocab: "vocab.json", maxTokens: MAX_TOKENS },
    linearRelease: linear.version,
    dimensions: DIM,
    heads,
    cascade
  })

  const fixed = at("--band", "")
  let cascade: Record<string, readonly [number, number]>
  if (fixed !== "") {
    const [lo, hi] = fixed.split(",").map(Number) as [number, number]
    cascade = Object.fromEntries(labels.map((l) => [l, [lo, hi] as const]))
    log(`cascade band ${lo}-${hi} for every attribute (--band: not chosen on dev)`)
  } else cascade = await chooseBands(file, labels, dir, splits, encoder, linear)

  const path = join(out, JUDGE_FILE)
  writeFileSync(path, encodeJudgeFile(file(cascade)))
  log(`wrote ${path} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

/**
 * The cascade bands, chosen jointly on the dev protocols. Routing is per comment (an analyze of the
 * six attributes goes to the encoder when any attribute is in its band, and then every attribute is
 * judged), so the bands share one cost: the share of comments that run the encoder. Greedy, from no
 * band at all ([1, 1]): each step sets one attribute's band to the candidate with the most AUC gain
 * per added routed comment (natural-prevalence dev rows; a step counts at least 1% of them), until the summed gain over linear of the
 * six attributes' mean dev AUC reaches KEEP of the neural mode's.
 */
const chooseBands = async (
  file: (cascade: Record<string, readonly [number, number]>) => JudgeFile,
  labels: ReadonlyArray<ModelLabel>,
  dir: string,
  splits: ReturnType<typeof loadSplits>,
  encoder: Awaited<ReturnType<typeof openEncoder>>,
  linear: ReturnType<typeof loadModelSet>
): Promise<Record<string, readonly [number, number]>> => {
  const sets = splitProtocols(dir, "dev", splits).sets
  const none = Object.fromEntries(labels.map((l) => [l, NO_BAND]))
  const scores: Array<JudgeScores> = []
  for (const set of sets) {
    const texts = set.rows.map((e) => e.text)
    scores.push(judgeFrom(file(none), labels, await encoder.embed(texts, log), linearScores(linear, labels, texts)))
  }
  const natural = sets.findIndex((s) => s.name === "natural")
  // every dev comment once: the enriched set (natural rows included) and the cross-domain sets
  const pooled = sets.map((_, k) => k).filter((k) => sets[k]!.name !== "natural")
  const candidates: Array<readonly [number, number]> = [NO_BAND]
  for (const lo of BAND_LOWS) for (const hi of BAND_HIGHS) if (hi > lo) candidates.push([lo, hi])
  // in-band masks per label, candidate and set
  const masks = labels.map((l) => candidates.map(([lo, hi]) => scores.map((s) => Uint8Array.from(s.linear.get(l)!, (p) => (p >= lo && p <= hi ? 1 : 0)))))
  const linearAuc = labels.map((l) => meanAuc(sets, l, (k) => scores[k]!.linear.get(l)!))
  const neuralAuc = labels.map((l) => meanAuc(sets, l, (k) => scores[k]!.neural.get(l)!))
  const neuralGain = labels.reduce((a, _, j) => a + Math.max(0, neuralAuc[j]! - linearAuc[j]!), 0)

  interface State {
    readonly band: ReadonlyArray<number>
    readonly cascade: ReadonlyArray<number>
    readonly gain: number
    readonly natural: number
    readonly all: number
  }
  const evaluate = (band: ReadonlyArray<number>): State => {
    const routed = scores.map((s, k) => {
      const r = new Uint8Array(s.routed.length)
      band.forEach((b, j) => {
        const m = masks[j]![b]![k]!
        for (let i = 0; i < r.length; i++) r[i] = r[i]! | m[i]!
      })
      return r
    })
    const cascade = labels.map((l) =>
      meanAuc(sets, l, (k) => Float64Array.from(scores[k]!.linear.get(l)!, (p, i) => (routed[k]![i] === 1 ? scores[k]!.neural.get(l)![i]! : p)))
    )
    const share = (ks: ReadonlyArray<number>) => ks.reduce((a, k) => a + routed[k]!.reduce((b, v) => b + v, 0), 0) / ks.reduce((a, k) => a + sets[k]!.rows.length, 0)
    return { band, cascade, gain: cascade.reduce((a, c, j) => a + c - linearAuc[j]!, 0), natural: share([natural]), all: share(pooled) }
  }
  let state = evaluate(labels.map(() => 0))
  const path: Array<{ change: string; state: State }> = [{ change: "no band (linear)", state }]
  while (state.gain < KEEP * neuralGain) {
    let best: { ratio: number; next: State; change: string } | undefined
    labels.forEach((l, j) =>
      candidates.forEach((c, b) => {
        if (b === state.band[j]) return
        const next = evaluate(state.band.map((x, jj) => (jj === j ? b : x)))
        const dg = next.gain - state.gain
        if (!(dg > 0)) return
        const ratio = dg / Math.max(next.natural - state.natural, MIN_STEP)
        if (best === undefined || ratio > best.ratio) best = { ratio, next, change: `${l} [${c.join(", ")}]` }
      })
    )
    if (best === undefined) break
    state = best.next
    path.push({ change: best.change, state })
    log(`  cascade: ${best.change}: natural routed ${pct(state.natural)}, gain kept ${pct(state.gain / neuralGain)}`)
  }
  const chosen = Object.fromEntries(labels.map((l, j) => [l, candidates[state.band[j]!]!]))
  const all = evaluate(labels.map(() => candidates.findIndex(([lo, hi]) => lo === 0 && hi === 1)))

  console.log(`# Cascade bands of ${file({}).release} (dev split)\n`)
  console.log(
    `An analyze request of the six toxicity attributes goes to the encoder when the served probability (${linear.version}) of one of them is in that attribute's band; ` +
      `then every attribute is judged (the server's Judge.routes). routed = share of comments sent to the encoder: natural = the ${sets[natural]!.rows.length} natural-prevalence dev comments, ` +
      `all = the ${pooled.reduce((a, k) => a + sets[k]!.rows.length, 0)} comments of the enriched and cross-domain dev sets. ` +
      `Gain = the sum over the six attributes of the mean dev ROC AUC (natural, enriched, cross-domain mean) minus linear's; the neural mode's is ${f3(neuralGain)}. ` +
      `Rule (fixed before the run): from no band, widen one attribute's band at a time (the candidate with the most gain per routed comment) until ${100 * KEEP}% of the neural gain is kept. ` +
      `[1, 1] = no band.\n`
  )
  printTable(
    ["step", "band set", "routed (natural)", "routed (all dev)", "gain kept", ...labels],
    [
      ...path.map((p, i) => [String(i), p.change, pct(p.state.natural), pct(p.state.all), pct(p.state.gain / neuralGain), ...p.state.cascade.map(f3)]),
      ["", "every comment (neural)", pct(all.natural), pct(all.all), pct(all.gain / neuralGain), ...neuralAuc.map(f3)]
    ]
  )
  console.log(`Chosen bands: ${labels.map((l) => `${l} [${chosen[l]!.join(", ")}]`).join("; ")}.\n`)
  printTable(
    ["attribute", "band", "linear", "neural", "cascade", "gain kept"],
    labels.map((l, j) => [l, `[${chosen[l]!.join(", ")}]`, f3(linearAuc[j]!), f3(neuralAuc[j]!), f3(state.cascade[j]!), neuralAuc[j]! > linearAuc[j]! ? pct((state.cascade[j]! - linearAuc[j]!) / (neuralAuc[j]! - linearAuc[j]!)) : "n/a"])
  )
  return chosen
}

await main()
