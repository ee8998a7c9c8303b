/**
 * `npm run eval`: the metrics table of the model card, computed from the shipped model files
 * (or `--models DIR`) on data no shipped model saw in training:
 * - Jigsaw/Wikipedia held-out rows (the head file minus everything in the random sample), against
 *   a plain word+character n-gram logistic regression trained on the Jigsaw rows only;
 * - Perspective's scale on the report half of Wikipedia CAT;
 * - spam on the held-out YouTube video, plus all four leave-one-video-out numbers, for the raw
 *   model at 0.5 and for the spam checker's verdict (`is_spam`, signals blended with the model);
 * - the C3 test articles; the guardrail and obfuscation sets; the lexicon approximations on proxies;
 * - the neural judge (`models/encoder/judge.json`, encoder/judgeEval.ts), cascade and neural, beside
 *   the baseline and the linear release on the same protocols, Wikipedia CAT and the functional suite;
 *   with `--judge-candidate DIR` (DIR/encoder/judge.json and its encoder), also a candidate judge
 *   against the shipped one under the release rule.
 */
import type { ModelLabel } from "@decorum/local"
import type { AttributeModelService } from "@decorum/local"
import { checkSpam } from "@decorum/local"
import { loadModelSet } from "@decorum/local"
import {
  accuracy, agreement, calibrationError, rocAuc, spearman, type TrainOptions
} from "./fit.js"
import { applyCalibration } from "@decorum/local/Calibration"
import { GUARDRAILS, KNOWN_FAILURES, OBFUSCATIONS, OBFUSCATION_TOLERANCE, check } from "../local/test/models/guardrails.js"
import * as D from "./data.js"
import { recordTestRead, splitProtocols, testReads, type Split } from "./protocols.js"
import { baselineScorer, compare, report, reportSuite, trainBaseline, type Scorer } from "./versus.js"
import { evaluateJudge } from "./encoder/judgeEval.js"
import {
  C3_LABELS, dataDir, featurise, loadSplits, makeFeaturizer, MODELS_DIR, rawScore, TOXICITY_LABELS, trainHeads,
  trainSpam, TRAIN_TOXICITY, YOUTUBE_TEST_VIDEO
} from "./pipeline.js"

const log = (s: string) => process.stderr.write(s + "\n")

const f3 = (x: number) => (Number.isNaN(x) ? "  n/a" : x.toFixed(3))
const pct = (x: number) => `${(100 * x).toFixed(1)}%`

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string | number>>) => {
  console.log(`| ${header.join(" | ")} |`)
  console.log(`|${header.map(() => "---").join("|")}|`)
  for (const r of rows) console.log(`| ${r.join(" | ")} |`)
  console.log()
}

const main = async () => {
  const started = Date.now()
  const dir = dataDir()
  const modelsDir = process.argv.includes("--models") ? process.argv[process.argv.indexOf("--models") + 1]! : MODELS_DIR
  const set = loadModelSet(modelsDir)
  const splits = loadSplits(dir, log)
  console.log(`# Decorum local models ${set.version}: evaluation\n`)

  // ------------------------------------------------ toxicity heads vs the plain baseline (issue 11)
  const split: Split = process.argv.includes("--test") ? "test" : "dev"
  const t0 = Date.now()
  log("plain baseline (TF-IDF word 1-2 + char_wb 2-5, logistic regression C=4) on the same training rows")
  const baseline = trainBaseline(splits.toxTrain, TOXICITY_LABELS, log)
  log(`  trained in ${((Date.now() - t0) / 1000).toFixed(0)} s`)
  const p = splitProtocols(dir, split, splits)
  {
    // one counter per repository (models/test-reads.json), also for a candidate evaluated from another directory
    const reads = split === "test" ? recordTestRead(MODELS_DIR, set.version) : (testReads(MODELS_DIR)[set.version] ?? 0)
    console.log(`## Toxicity heads vs the plain baseline, ${split} split
`)
    console.log(
      `Baseline: TF-IDF word 1-2 + char_wb 2-5 (sublinear tf, smooth idf, L2 per block), logistic regression C=4 per head, ` +
        `trained on the same training rows as the model (shared-data corpora only: ${baseline.tfidf.columns} n-gram columns; trained by this run, or by an earlier one on identical rows and loaded from training/.cache). ` +
        `Test split of ${set.version} read ${reads} time${reads === 1 ? "" : "s"}${split === "test" ? " (this run included)" : ""}; ` +
        `${p.droppedDuplicates} cross-domain rows dropped as exact duplicates of training texts.\n`
    )
    const modelScorer: Scorer = (texts) => {
      const out = new Map<ModelLabel, Float64Array>(TOXICITY_LABELS.map((l) => [l, new Float64Array(texts.length)]))
      texts.forEach((text, i) => {
        const s = set.predict(text, TOXICITY_LABELS)
        for (const l of TOXICITY_LABELS) out.get(l)![i] = s[l]!
      })
      return out
    }
    const results = compare(p.sets, TOXICITY_LABELS, modelScorer, baselineScorer(baseline))
    const losses = report(results, TOXICITY_LABELS, set.version)
    console.log(losses.length === 0 ? `${set.version} beats the plain baseline on every head with a label, in both protocols.\n` : `${set.version} does not beat the plain baseline on: ${losses.join("; ")}.\n`)
  }

  // ------------------------------------------------ functional suite
  console.log(`## Functional suite (training/functional.ts, HateCheck-style; score > 0.5 = toxic)\n`)
  reportSuite((text, label) => set.predict(text, [label])[label]!, baseline, set.version)

  // ------------------------------------------------ Perspective scale
  {
    const rows = splits.gcReport
    const api = rows.map((e) => Number(e.extra!.api))
    const local = rows.map((e) => set.predict(e.text, ["TOXICITY"]).TOXICITY!)
    const human = rows.map((e) => e.labels.TOXICITY!)
    console.log(`## Perspective scale (Wikipedia CAT report half, ${rows.length} comments with historical Perspective TOXICITY)\n`)
    table(
      ["measure", "value"],
      [
        ["Spearman rank correlation, local vs Perspective", f3(spearman(local, api))],
        ...[0.5, 0.7, 0.8].flatMap((t) => [
          [`agreement at ${t} (same side of the threshold)`, pct(agreement(local, api, t))],
          [`comments at or above ${t}: local / Perspective / both`, `${local.filter((v) => v >= t).length} / ${api.filter((v) => v >= t).length} / ${local.filter((v, i) => v >= t && api[i]! >= t).length}`]
        ]),
        ["mean score: local / Perspective", `${f3(local.reduce((a, b) => a + b, 0) / local.length)} / ${f3(api.reduce((a, b) => a + b, 0) / api.length)}`],
        ["ROC AUC against the human label: local / Perspective", `${f3(rocAuc(local, human))} / ${f3(rocAuc(api, human))}`],
        ["ROC AUC against the human label: the plain baseline of this run", f3(rocAuc(Array.from(baselineScorer(baseline)(rows.map((e) => e.text)).get("TOXICITY")!), human))],
        [
          "false positives at 0.5 (share of the human-benign rows scored >= 0.5): local / Perspective",
          `${pct(local.filter((v, i) => v >= 0.5 && human[i]! < 0.5).length / human.filter((v) => v < 0.5).length)} / ${pct(api.filter((v, i) => v >= 0.5 && human[i]! < 0.5).length / human.filter((v) => v < 0.5).length)}`
        ]
      ]
    )
  }

  // ------------------------------------------------ spam
  {
    const f = makeFeaturizer(set.manifest.respell)
    const rows: Array<Array<string | number>> = []
    // What users get: the spam checker's verdict (signals blended with the model's probability).
    const verdicts = (texts: ReadonlyArray<string>, p: ReadonlyArray<number>) =>
      texts.map((text, i) => {
        const model: AttributeModelService = { version: set.version, labels: ["SPAM"], analyse: (t) => ({ text: t }), predict: () => ({ SPAM: p[i]! }), explain: () => [] }
        return checkSpam(model, { comment: text, article: null }).is_spam ? 1 : 0
      })
    for (const video of D.YOUTUBE_VIDEOS) {
      const test = splits.spam.filter((e) => e.group === video)
      const y = test.map((e) => e.labels.SPAM!)
      let p: Array<number>
      let which: string
      if (video === YOUTUBE_TEST_VIDEO) {
        p = test.map((e) => set.predict(e.text, ["SPAM"]).SPAM!)
        which = "shipped model"
      } else {
        const { model, calibration } = trainSpam(f, splits.spam, video)
        p = test.map((e) => applyCalibration(calibration, rawScore(f, model, e.text)))
        which = "same recipe, retrained"
      }
      const texts = test.map((e) => e.text)
      rows.push([
        video, which, test.length, pct(accuracy(p, y)), f3(rocAuc(p, y)), pct(accuracy(verdicts(texts, p), y))])
    }
    console.log(`## Spam (YouTube, one video held out; shipped model holds out ${YOUTUBE_TEST_VIDEO})\n`)
    table(["held-out video", "model", "comments", "model accuracy at 0.5", "model ROC AUC", "spam check verdict (is_spam) accuracy"], rows)
  }

  // ------------------------------------------------ C3
  {
    const test = splits.c3Test
    const rows: Array<Array<string | number>> = []
    for (const label of C3_LABELS) {
      if (!set.labels.includes(label)) continue
      const y = test.map((e) => e.labels[label]!).map((v) => (v >= 0.5 ? 1 : 0))
      const p = test.map((e) => set.predict(e.text, [label])[label]!)
      rows.push([label, y.filter((v) => v === 1).length, f3(rocAuc(p, y)), pct(accuracy(p, y))])
    }
    console.log(`## C3 held-out articles (${test.length} comments; label = annotator fraction >= 0.5)\n`)
    table(["label", "positives", "ROC AUC", "accuracy at 0.5"], rows)
  }

  // ------------------------------------------------ lexicon approximations on proxies
  {
    const sbic = D.sbic(dir).filter((e) => !Number.isNaN(e.labels.SEXUALLY_EXPLICIT!))
    const y = sbic.map((e) => e.labels.SEXUALLY_EXPLICIT!)
    const p = sbic.map((e) => set.predict(e.text, ["SEXUALLY_EXPLICIT"]).SEXUALLY_EXPLICIT!)
    console.log("## Lexicon approximations on proxy labels\n")
    table(["label", "proxy", "rows", "ROC AUC"], [["SEXUALLY_EXPLICIT", "SBIC sexYN >= 0.5 (sexual or lewd reference)", sbic.length, f3(rocAuc(p, y))]])
  }

  guardrails(set)

  // ------------------------------------------------ the neural judge (issue 27): both modes beside the baseline and the linear release
  const candidateDir = process.argv.includes("--judge-candidate") ? process.argv[process.argv.indexOf("--judge-candidate") + 1]! : undefined
  await evaluateJudge({ modelsDir, countersDir: MODELS_DIR, split, sets: p.sets, cat: splits.gcReport, linear: set, baseline, labels: TOXICITY_LABELS, log, candidateDir })
  log(`npm run eval took ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

export const guardrails = (set: ReturnType<typeof loadModelSet>) => {
  console.log("## Guardrails (test/model/guardrails.ts)\n")
  const rows: Array<Array<string | number>> = []
  const failures: Array<string> = []
  for (const g of GUARDRAILS) {
    let pass = 0
    let total = 0
    for (const text of g.texts) {
      const scores = set.predict(text, g.expect.map((e) => e.label))
      for (const e of g.expect) {
        total++
        const s = scores[e.label]!
        if (check(e, s)) pass++
        else failures.push(`${g.category}: "${text}" ${e.label} ${s.toFixed(3)} (want ${e.below !== undefined ? `< ${e.below}` : `>= ${e.atLeast}`})${KNOWN_FAILURES.has(`${text}|${e.label}`) ? " [known]" : " [NEW]"}`)
      }
    }
    rows.push([g.category, g.texts.length, g.expect.map((e) => `${e.label} ${e.below !== undefined ? `< ${e.below}` : `>= ${e.atLeast}`}`).join(", "), `${pass}/${total}`])
  }
  table(["category", "sentences", "expectation", "checks passed"], rows)
  if (failures.length > 0) {
    console.log("Failed checks:\n")
    for (const f of failures) console.log(`- ${f}`)
    console.log()
  }
  const obf: Array<Array<string | number>> = []
  for (const o of OBFUSCATIONS) {
    const labels: Array<ModelLabel> = ["TOXICITY", "INSULT", "PROFANITY"]
    const plain = set.predict(o.plain, labels)
    for (const v of o.variants) {
      const s = set.predict(v, labels)
      const diff = Math.max(...labels.map((l) => Math.abs(s[l]! - plain[l]!)))
      obf.push([`"${v}"`, `"${o.plain}"`, `${f3(s.TOXICITY!)} / ${f3(plain.TOXICITY!)}`, `${f3(s.INSULT!)} / ${f3(plain.INSULT!)}`, f3(diff), diff <= OBFUSCATION_TOLERANCE ? "ok" : "FAIL"])
    }
  }
  console.log("## Obfuscation (TOXICITY, INSULT: obfuscated / plain; max |difference| over TOXICITY, INSULT, PROFANITY)\n")
  table(["obfuscated", "plain", "TOXICITY", "INSULT", "max diff", `within ${OBFUSCATION_TOLERANCE}`], obf)
}

await main()
