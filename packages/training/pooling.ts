/**
 * `node packages/training/run.mjs pooling [--models DIR] [--cat]`: does a long comment
 * dilute its one offensive sentence? TOXICITY scores a whole comment as one bag of features, so a
 * toxic sentence inside a long, otherwise civil comment shares its weight with everything around
 * it. This scores every comment whole and sentence by sentence (`splitSentences`, as the runtime
 * splits) and ranks by the pooled log-odds `(1 - a) * whole + a * max(whole, best sentence)`, for
 * the model set (default: the shipped one) and for the plain baseline's TOXICITY head (trained on
 * the same rows as `npm run eval`'s, cached in training/.cache), on every dev set of
 * `npm run eval` that labels TOXICITY. Nothing is trained and nothing is chosen here: a recipe
 * that adopts pooling must choose `a` on these dev sets.
 *
 * `--cost` prints instead what pooling done the naive way (each sentence featurised again) costs.
 *
 * `--cat` also prints the Wikipedia CAT report half (evaluation only: issue 11 allows CAT rows for
 * evaluation and the monotone map, never for a choice).
 */
import { splitSentences } from "@decorum/core"
import type { ModelLabel } from "@decorum/local"
import { loadModelSet } from "@decorum/local"
import { logit } from "@decorum/local/Calibration"
import { rocAuc } from "./fit.js"
import { dataDir, loadSplits, MODELS_DIR } from "./pipeline.js"
import { JIGSAW_RANDOM, labelled, splitProtocols } from "./protocols.js"
import { printTable, trainBaseline } from "./versus.js"

/** The weights of the sentence maximum this tool prints. */
export const POOLING_GRID: ReadonlyArray<number> = [0, 0.25, 0.5, 0.75, 1]

/** The sentences of `text` as strings, or none when it has fewer than two (then the whole is its only sentence). */
export const sentencesOf = (text: string): Array<string> => {
  const spans = splitSentences(text)
  return spans.length < 2 ? [] : spans.map((s) => text.slice(s.begin, s.end))
}

/** `(1 - a) * whole + a * max(whole, best sentence)`; the whole when there are no sentences. */
export const pooled = (whole: number, sentences: ReadonlyArray<number>, a: number): number => {
  let best = whole
  for (const s of sentences) if (s > best) best = s
  return (1 - a) * whole + a * best
}

/** Whole-text and per-sentence scores of `texts`, from a batch scorer. */
const scoreAll = (texts: ReadonlyArray<string>, score: (batch: ReadonlyArray<string>) => ArrayLike<number>) => {
  const parts = texts.map(sentencesOf)
  const whole = score(texts)
  const flat = score(parts.flat())
  let k = 0
  return texts.map((_, i) => ({ whole: whole[i]!, sentences: parts[i]!.map(() => flat[k++]!) }))
}

/**
 * `--cost`: what pooling as measured here costs a request for every label, on the natural dev
 * texts: wall time of all labels alone, and of all labels plus a TOXICITY score of each sentence of
 * a comment with two or more (a second featurisation, the naive way). Five rounds each,
 * interleaved, after a warm-up; medians. One process and one core; wall time, so run it on an idle
 * machine.
 */
const cost = (set: ReturnType<typeof loadModelSet>, texts: ReadonlyArray<string>) => {
  const labels = set.labels
  const plain = () => {
    for (const t of texts) set.predict(t, labels)
  }
  const withSentences = () => {
    for (const t of texts) {
      set.predict(t, labels)
      for (const s of sentencesOf(t)) set.predict(s, ["TOXICITY"])
    }
  }
  plain()
  withSentences()
  const times: { plain: Array<number>; pooled: Array<number> } = { plain: [], pooled: [] }
  for (let round = 0; round < 5; round++) {
    for (const [name, run] of [["plain", plain], ["pooled", withSentences]] as const) {
      const t0 = performance.now()
      run()
      times[name].push(performance.now() - t0)
    }
  }
  const median = (v: Array<number>) => [...v].sort((a, b) => a - b)[2]!
  const perComment = (ms: number) => ((1000 * ms) / texts.length).toFixed(0)
  const p = median(times.plain)
  const q = median(times.pooled)
  console.log(`# Cost of naive sentence pooling (${set.version}, ${texts.length} natural dev comments, all ${labels.length} labels)\n`)
  console.log(`| request | median of 5 rounds | per comment |`)
  console.log(`|---|---|---|`)
  console.log(`| all labels | ${p.toFixed(0)} ms | ${perComment(p)} µs |`)
  console.log(`| all labels + TOXICITY of each sentence | ${q.toFixed(0)} ms | ${perComment(q)} µs |`)
  console.log(`\nPooling as measured here costs ${((100 * (q - p)) / p).toFixed(0)}% more per all-labels request.`)
}

const main = () => {
  const log = (s: string) => process.stderr.write(s + "\n")
  const started = Date.now()
  const dir = dataDir()
  const modelsDir = process.argv.includes("--models") ? process.argv[process.argv.indexOf("--models") + 1] : MODELS_DIR
  if (modelsDir === undefined || modelsDir.startsWith("--")) throw new Error("--models: the directory of a model set")
  const set = loadModelSet(modelsDir)
  const splits = loadSplits(dir, log)
  const label: ModelLabel = "TOXICITY"
  if (process.argv.includes("--cost")) return cost(set, splits.toxCalib.filter((e) => e.source === JIGSAW_RANDOM).map((e) => e.text))
  log("plain baseline, TOXICITY head (cached after the first run)")
  const baseline = trainBaseline(splits.toxTrain, [label], log)
  const sets = splitProtocols(dir, "dev", splits).sets.map((s) => ({ name: `${s.protocol} ${s.name}`, rows: s.rows }))
  if (process.argv.includes("--cat")) sets.push({ name: "Wikipedia CAT report half (evaluation only)", rows: splits.gcReport })

  const scorers: ReadonlyArray<readonly [string, (batch: ReadonlyArray<string>) => ArrayLike<number>]> = [
    [set.version, (batch) => batch.map((t) => logit(set.predict(t, [label])[label]!))],
    ["plain baseline", (batch) => baseline.score(batch).get(label)!]
  ]
  console.log(`# Sentence pooling of ${label}: ROC AUC of (1 - a) * whole + a * max(whole, best sentence)\n`)
  console.log(`Model set ${set.version} (${modelsDir}); dev sets of \`npm run eval\`; sentences by \`splitSentences\`.\n`)
  const table: Array<Array<string | number>> = []
  for (const s of sets) {
    const { rows, y } = labelled({ protocol: "in-domain", name: s.name, rows: s.rows }, label)
    if (rows.length === 0 || y.every((v) => v === y[0])) continue
    const texts = rows.map((i) => s.rows[i]!.text)
    for (const [name, score] of scorers) {
      const t0 = Date.now()
      const scored = scoreAll(texts, score)
      const multi = scored.filter((r) => r.sentences.length > 0).length
      const aucs = POOLING_GRID.map((a) => rocAuc(scored.map((r) => pooled(r.whole, r.sentences, a)), y).toFixed(4))
      table.push([s.name, rows.length, y.filter((v) => v === 1).length, multi, name, ...aucs])
      log(`  ${s.name}, ${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    }
  }
  printTable(["set", "rows", "positives", "with 2+ sentences", "scorer", ...POOLING_GRID.map((a) => `a = ${a}`)], table)
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`)
}

if (process.argv[1]?.endsWith("pooling.mjs")) main()
