/**
 * `npm run train:judge` (issue 27, item 2, first part): the neural judge's heads over the frozen
 * sentence encoder, written to `packages/local/models/encoder/judge.json` (judgeFile.ts), the file
 * the server's built-in judge reads.
 *
 *   node packages/training/run.mjs judge [--train-cap N] [--band LOW,HIGH] [--release NAME] [--out DIR]
 *
 * Recipe:
 * - rows: every labelled row of the toxicity family's training set (pipeline.loadSplits `toxTrain`,
 *   what `npm run train` fits), label masking as there (a head fits only rows whose dataset labels
 *   it), each row with the linear recipe's sample weight (`LABEL_SOURCE_WEIGHT[label][source]`, else
 *   `SOURCE_WEIGHT[source]`, else 1, as pipeline.trainHeads); one row in ten (by hash of its id) is
 *   held out of the head's fit;
 * - head: L2 logistic regression on the 512-d embedding (lambda 1e-4 on the weighted mean log-loss,
 *   L-BFGS, at most 200 iterations), then Platt scaling fitted on the held-out tenth and folded into
 *   the weights;
 * - combination: the unfitted mean, 0.5 x head log-odds + 0.5 x the served linear log-odds (the
 *   winner of docs/experiments/neural-judge.md section 2; a fitted stack over-trusted the linear
 *   model, whose log-odds are in-sample on every training row);
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
import { dataDir, loadSplits, MODELS_DIR, TOXICITY_LABELS } from "../pipeline.js"
import { labelled, splitProtocols, type EvalSet } from "../protocols.js"
import { printTable } from "../versus.js"
import { DEFAULT_OUT, MAX_TOKENS } from "./convert.js"
import { DIM, openEncoder } from "./embed.js"
import { encodeJudgeFile, JUDGE_FILE, type JudgeFile, type JudgeHeadJson } from "./judgeFile.js"
import { judgeFrom, linearScores, type JudgeScores } from "./judgeScore.js"
import { BAND_HIGHS, BAND_LOWS, ENCODER_FILE, fitHead, hasLabel, heldOut, KEEP, MEAN, RELEASE } from "./judgeHeads.js"

const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`)
const args = process.argv.slice(2)
const at = (flag: string, fallback: string) => {
  const i = args.lastIndexOf(flag)
  return i >= 0 ? args[i + 1]! : fallback
}
const f3 = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(3))
const pct = (x: number) => `${(100 * x).toFixed(1)}%`

// ---------------------------------------------------------------- cascade band on dev

interface BandRow {
  readonly band: readonly [number, number]
  /** Share of the natural-prevalence dev comments the cascade sends to the encoder for this attribute. */
  readonly natural: number
  /** The same over every dev comment (enriched and cross-domain sets). */
  readonly all: number
  readonly cascade: number
}

/** Mean dev ROC AUC of one label over the verdict rows (natural, enriched, cross-domain mean over its sets). */
const meanAuc = (sets: ReadonlyArray<EvalSet>, scores: ReadonlyArray<JudgeScores>, label: ModelLabel, pick: (s: JudgeScores) => Float64Array): number => {
  const rows: Array<number> = []
  const cross: Array<number> = []
  sets.forEach((set, k) => {
    const { rows: r, y } = labelled(set, label)
    const positives = y.reduce((a, v) => a + v, 0)
    if (positives < 5 || positives === y.length) return
    const s = pick(scores[k]!)
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
  const encoderPath = join(DEFAULT_OUT, ENCODER_FILE)
  const encoder = await openEncoder("fp16", encoderPath)
  const sha256 = createHash("sha256").update(readFileSync(encoderPath)).digest("hex")
  const labels = TOXICITY_LABELS
  const trainCap = Number(at("--train-cap", "0"))
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
    const h = fitHead(X, DIM, train, label)
    heads[label] = { weights: Array.from(h.weights), bias: h.bias, combine: MEAN }
    log(`${label}: head on ${h.fitRows} rows (Platt on ${h.plattRows}) in ${((Date.now() - t0) / 1000).toFixed(0)} s, ${h.iterations} L-BFGS iterations, max |gradient| ${h.gmax.toExponential(1)}`)
  }
  const file = (cascade: Record<string, readonly [number, number]>): JudgeFile => ({
    release: at("--release", RELEASE),
    encoder: { file: ENCODER_FILE, sha256, vocab: "vocab.json", maxTokens: MAX_TOKENS },
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

const chooseBands = async (
  file: (cascade: Record<string, readonly [number, number]>) => JudgeFile,
  labels: ReadonlyArray<ModelLabel>,
  dir: string,
  splits: ReturnType<typeof loadSplits>,
  encoder: Awaited<ReturnType<typeof openEncoder>>,
  linear: ReturnType<typeof loadModelSet>
): Promise<Record<string, readonly [number, number]>> => {
  const p = splitProtocols(dir, "dev", splits)
  const sets = p.sets
  const X: Array<Float32Array> = []
  const lin: Array<Map<ModelLabel, Float64Array>> = []
  for (const set of sets) {
    const texts = set.rows.map((e) => e.text)
    X.push(await encoder.embed(texts, log))
    lin.push(linearScores(linear, labels, texts))
  }
  const natural = sets.findIndex((s) => s.name === "natural")
  // every dev comment once: the enriched set (natural rows included) and the cross-domain sets
  const pooled = sets.map((s, k) => k).filter((k) => sets[k]!.name !== "natural")
  const chosen: Record<string, readonly [number, number]> = {}
  console.log(`# Cascade band of ${file({}).release} (dev split)\n`)
  console.log(
    `For each attribute, the band of the served linear probability (${linear.version}) in which the cascade asks the encoder. ` +
      `"routed" is the share of comments whose attribute falls in the band: natural = the ${sets[natural]!.rows.length} natural-prevalence dev comments, ` +
      `all = the ${pooled.reduce((a, k) => a + sets[k]!.rows.length, 0)} comments of the enriched and cross-domain dev sets. ` +
      `AUC = mean dev ROC AUC over natural, enriched and the cross-domain mean. Rule (fixed before the run): the band with the lowest natural routed share ` +
      `that keeps at least ${100 * KEEP}% of the neural mode's AUC gain over linear. Rows shown: the bands no other band beats on both routed share and AUC.\n`
  )
  for (const label of labels) {
    const all = file(Object.fromEntries(labels.map((l) => [l, [0, 1] as const])))
    const everywhere = sets.map((_, k) => judgeFrom(all, labels, X[k]!, lin[k]!))
    const linearAuc = meanAuc(sets, everywhere, label, (s) => s.linear.get(label)!)
    const neuralAuc = meanAuc(sets, everywhere, label, (s) => s.neural.get(label)!)
    const rows: Array<BandRow> = []
    for (const lo of BAND_LOWS)
      for (const hi of BAND_HIGHS) {
        if (hi <= lo) continue
        const f = file({ ...Object.fromEntries(labels.map((l) => [l, [0, 1] as const])), [label]: [lo, hi] as const })
        const scores = sets.map((_, k) => judgeFrom(f, [label], X[k]!, new Map([[label, lin[k]!.get(label)!]])))
        const share = (ks: ReadonlyArray<number>) => {
          let routed = 0
          let n = 0
          for (const k of ks) {
            for (const v of scores[k]!.routed.get(label)!) routed += v
            n += sets[k]!.rows.length
          }
          return routed / n
        }
        rows.push({ band: [lo, hi], natural: share([natural]), all: share(pooled), cascade: meanAuc(sets, scores, label, (s) => s.cascade.get(label)!) })
      }
    const gain = neuralAuc - linearAuc
    const kept = (r: BandRow) => (gain > 0 ? (r.cascade - linearAuc) / gain : Number.NaN)
    const ok = rows.filter((r) => (gain > 0 ? kept(r) >= KEEP : r.cascade > linearAuc))
    const best = (ok.length > 0 ? ok : rows).slice().sort((a, b) => a.natural - b.natural || b.cascade - a.cascade || a.all - b.all)[0]!
    const pick = ok.length > 0 ? best : { ...best, band: [1, 1] as const }
    chosen[label] = pick.band
    const frontier = rows
      .filter((r) => !rows.some((o) => o !== r && o.natural <= r.natural && o.cascade >= r.cascade && (o.natural < r.natural || o.cascade > r.cascade)))
      .sort((a, b) => a.natural - b.natural)
    console.log(`## ${label}: linear ${f3(linearAuc)}, neural ${f3(neuralAuc)} (gain ${gain >= 0 ? "+" : ""}${f3(gain)}); chosen band [${pick.band.join(", ")}]\n`)
    printTable(
      ["band", "routed (natural)", "routed (all dev)", "cascade AUC", "gain kept", ""],
      frontier.map((r) => [`[${r.band.join(", ")}]`, pct(r.natural), pct(r.all), f3(r.cascade), Number.isNaN(kept(r)) ? "n/a" : pct(kept(r)), r === best ? "**chosen**" : ""])
    )
  }
  // comment level: the encoder runs when any of the six attributes is routed
  const f = file(chosen)
  const anyRouted = (ks: ReadonlyArray<number>) => {
    let routed = 0
    let n = 0
    for (const k of ks) {
      const s = judgeFrom(f, labels, X[k]!, lin[k]!)
      for (let i = 0; i < sets[k]!.rows.length; i++) if (labels.some((l) => s.routed.get(l)![i] === 1)) routed++
      n += sets[k]!.rows.length
    }
    return routed / n
  }
  console.log(`Chosen bands: ${labels.map((l) => `${l} [${chosen[l]!.join(", ")}]`).join("; ")}.`)
  console.log(`Comments that run the encoder in an analyze of all six attributes (any attribute in its band): natural dev ${pct(anyRouted([natural]))}, all dev ${pct(anyRouted(pooled))}.\n`)
  return chosen
}

await main()
