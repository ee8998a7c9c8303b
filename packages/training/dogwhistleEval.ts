/**
 * The dog-whistle detector's evaluation (run by `npm run eval:evaluations`, training/evaluations.ts):
 * the shipped files (`packages/local/models/dogwhistle.*`, or `--models DIR`) beside a plain TF-IDF
 * logistic regression (training/baseline.ts: word 1-2-grams + char_wb 2-5-grams, C = 4) trained on
 * the same rows, on the test terms of the by-term split (terms none of whose Silent Signals rows
 * were trained on), plus the share of benign comments flagged (the test 20% of C3 news and Jigsaw
 * non-toxic; implicit-hate not_hate as a stress figure). Both operate at a threshold chosen on dev
 * by the same rule (best F1 on the dev terms, at least 0.5, at most 1% of each benign set's dev comments flagged).
 */
import { sigmoid } from "@decorum/local/Calibration"
import { loadDogWhistleScorer } from "@decorum/local"
import { fitLogistic, scoreTfidfRow, Tfidf } from "./baseline.js"
import { BENIGN, buildCorpus, chooseThreshold, type CommentRows, MAX_CLEAN_FLAGGED } from "./dogwhistle.js"
import { unseenNewsComments } from "./dogwhistleData.js"
import { rocAuc } from "./fit.js"
import { dataDir, MODELS_DIR } from "./pipeline.js"

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}

interface Figures {
  readonly auc: number
  readonly precision: number
  readonly recall: number
  readonly f1: number
  readonly accuracy: number
}

const figuresAt = (scores: ReadonlyArray<number>, labels: ReadonlyArray<number>, t: number): Figures => {
  let tp = 0
  let fp = 0
  let fn = 0
  let tn = 0
  scores.forEach((s, i) => {
    if (s >= t) labels[i] === 1 ? tp++ : fp++
    else labels[i] === 1 ? fn++ : tn++
  })
  const precision = tp / Math.max(1, tp + fp)
  const recall = tp / Math.max(1, tp + fn)
  return { auc: rocAuc(scores, labels), precision, recall, f1: (2 * precision * recall) / Math.max(1e-9, precision + recall), accuracy: (tp + tn) / Math.max(1, scores.length) }
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`
const f3 = (x: number) => x.toFixed(3)

/** Print the comparison. */
export const evaluateDogwhistle = async (print: (s: string) => void = (s) => console.log(s)): Promise<void> => {
  const dir = dataDir()
  const models = arg("--models") ?? MODELS_DIR
  const t0 = Date.now()
  const scorer = loadDogWhistleScorer(models)
  const corpus = buildCorpus(dir, 1)
  const { comments } = corpus
  const signals = (split: string) => comments.filter((c) => c.kind === "signal" && c.split === split)
  const clean = (split: string, benign: boolean) => comments.filter((c) => c.kind === "clean" && c.split === split && BENIGN.has(c.source) === benign)
  const test = signals("test")
  const dev = signals("dev")
  // the detector, as shipped: the runtime's analyse on the raw comment
  const detectorScore = (c: CommentRows) => Math.max(0, ...scorer.analyse({ comment: c.text, sensitiveTopics: [], examples: [], context: [] }).candidates.map((h) => h.probability))
  const threshold = scorer.manifest.threshold
  // the baseline: the comments the detector trained on (the training terms' rows, and the
  // training benign comments with a glossary hit), TF-IDF + logistic regression
  const trainComments = comments.filter((c) => c.split === "train" && c.rows.length > 0 && (c.kind === "signal" || BENIGN.has(c.source)))
  const tfidf = Tfidf.fit(trainComments.map((c) => c.text))
  const Xtrain = tfidf.transform(trainComments.map((c) => c.text))
  const fit = fitLogistic(Xtrain, trainComments.map((_, i) => i), trainComments.map((c) => c.label), { C: 4 })
  const baselineScores = (cs: ReadonlyArray<CommentRows>) => {
    const X = tfidf.transform(cs.map((c) => c.text))
    return cs.map((_, r) => sigmoid(scoreTfidfRow(X, r, fit)))
  }
  const devBenign = clean("dev", true)
  const baseOp = chooseThreshold(baselineScores(dev), dev.map((c) => c.label), [...BENIGN].map((b) => baselineScores(devBenign.filter((c) => c.source === b))), MAX_CLEAN_FLAGGED)
  const rows: Array<readonly [string, string, string]> = []
  const testLabels = test.map((c) => c.label)
  const detScores = test.map(detectorScore)
  const baseScores = baselineScores(test)
  const det = figuresAt(detScores, testLabels, threshold)
  const base = figuresAt(baseScores, testLabels, baseOp.threshold)
  // the community confound: AUC within each subreddit holding at least 20 coded and 20 literal
  // test rows, averaged weighted by rows (what is left when the community cannot help)
  const within = (scores: ReadonlyArray<number>) => {
    const groups = new Map<string, Array<number>>()
    test.forEach((c, i) => groups.set(c.subreddit ?? "", [...(groups.get(c.subreddit ?? "") ?? []), i]))
    let sum = 0
    let n = 0
    const names: Array<string> = []
    for (const [sub, idx] of groups) {
      const pos = idx.filter((i) => testLabels[i] === 1).length
      if (pos < 20 || idx.length - pos < 20) continue
      sum += idx.length * rocAuc(idx.map((i) => scores[i]!), idx.map((i) => testLabels[i]!))
      n += idx.length
      names.push(`r/${sub}`)
    }
    return { auc: n > 0 ? sum / n : Number.NaN, names }
  }
  const detWithin = within(detScores)
  const baseWithin = within(baseScores)
  const positives = testLabels.filter((y) => y === 1).length
  print("")
  print(`## Dog whistles: coded vs literal use, by-term held-out split (${scorer.manifest.version})`)
  print("")
  print(`Test: ${test.length} Silent Signals comments (${positives} coded, ${test.length - positives} literal) of ${new Set(test.map((c) => c.root)).size} glossary terms none of whose Silent Signals rows were trained on (silver labels).`)
  print(`Baseline: TF-IDF (word 1-2 + char_wb 2-5, sublinear) + logistic regression C=4 on the same ${trainComments.length} training comments; threshold chosen on dev by the same rule (baseline ${baseOp.threshold}, detector ${threshold}).`)
  print("")
  rows.push(["AUC", f3(det.auc), f3(base.auc)])
  rows.push([`AUC within a subreddit (${detWithin.names.join(", ")}; row-weighted)`, f3(detWithin.auc), f3(baseWithin.auc)])
  rows.push(["precision", f3(det.precision), f3(base.precision)])
  rows.push(["recall", f3(det.recall), f3(base.recall)])
  rows.push(["F1", f3(det.f1), f3(base.f1)])
  rows.push(["accuracy", f3(det.accuracy), f3(base.accuracy)])
  for (const [name, benign] of [["C3 news comments (toxicity level 1-2)", "c3-news"], ["Jigsaw non-toxic comments", "jigsaw-nontoxic"]] as const) {
    const cs = clean("test", true).filter((c) => c.source === benign)
    const d = cs.filter((c) => detectorScore(c) >= threshold).length / Math.max(1, cs.length)
    const b = baselineScores(cs).filter((s) => s >= baseOp.threshold).length / Math.max(1, cs.length)
    rows.push([`benign flagged: ${name}, n=${cs.length}`, pct(d), pct(b)])
  }
  // benign news comments of sets never trained on (every comment, not a test 20%)
  {
    // (a comment also in C3, by its first 80 characters, is left out)
    const seen = new Set(comments.filter((c) => c.kind === "clean").map((c) => c.text.trim().slice(0, 80)))
    const unseen = unseenNewsComments(dir).filter((c) => !seen.has(c.text.trim().slice(0, 80))).map((c) => ({ text: c.text, label: 0, split: "test" as const, kind: "clean" as const, source: c.source, rows: [], symbol: [] }))
    for (const [name, source] of [["UCC healthy news comments, never trained on", "ucc-healthy"], ["SFU news comments (toxicity 1-2), never trained on", "sfu-news"]] as const) {
      const cs = unseen.filter((c) => c.source === source)
      const d = cs.filter((c) => detectorScore(c) >= threshold).length / Math.max(1, cs.length)
      const b = baselineScores(cs).filter((s) => s >= baseOp.threshold).length / Math.max(1, cs.length)
      rows.push([`benign flagged: ${name}, n=${cs.length}`, pct(d), pct(b)])
    }
  }
  {
    const cs = comments.filter((c) => c.kind === "clean" && c.split === "test" && c.source === "implicit-hate-not-hate")
    const d = cs.filter((c) => detectorScore(c) >= threshold).length / Math.max(1, cs.length)
    const b = baselineScores(cs).filter((s) => s >= baseOp.threshold).length / Math.max(1, cs.length)
    rows.push([`stress: implicit-hate not_hate flagged, n=${cs.length}`, pct(d), pct(b)])
  }
  print("| test (held-out terms) | detector | TF-IDF LR baseline |")
  print("|---|---|---|")
  for (const [a, b, c] of rows) print(`| ${a} | ${b} | ${c} |`)
  print("")
  // the subreddit confound: the detector's accuracy by community (the largest in the test rows)
  const bySub = new Map<string, Array<CommentRows>>()
  for (const c of test) bySub.set(c.subreddit ?? "", [...(bySub.get(c.subreddit ?? "") ?? []), c])
  const subs = [...bySub].sort((a, b) => b[1].length - a[1].length).slice(0, 6)
  print("Subreddit check (test rows): " + subs.map(([s, cs]) => {
    const f = figuresAt(cs.map(detectorScore), cs.map((c) => c.label), threshold)
    const coded = cs.filter((c) => c.label === 1).length
    return `r/${s} n=${cs.length} (${coded} coded) accuracy ${f3(f.accuracy)}`
  }).join("; "))
  print(`(${((Date.now() - t0) / 1000).toFixed(0)} s; data ${dir}, models ${models})`)
}
