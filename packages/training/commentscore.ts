/**
 * `npm run eval:commentscore [-- --test]`: the comment scorer's figures beside a plain baseline
 * trained in the same run (TF-IDF word 1-2 + char_wb 2-5, logistic regression C=4, the recipe of
 * `baseline.ts`, one head for "fallacy" and one per type, thresholds chosen the same way):
 *
 * - fallacy detection P/R/F1 and type accuracy, in-domain (the shipped detector, trained on
 *   CoCoLoFa's train articles and the other corpora, threshold chosen on the dev articles) and
 *   cross-corpus (both trained here without CoCoLoFa, threshold chosen on a held-out tenth of the
 *   other corpora), on CoCoLoFa's dev articles, or with `--test` its test articles;
 * - the chosen threshold and the precision of each reported type;
 * - quote agreement with MAFALDA's gold spans (nothing trains on MAFALDA);
 * - character F1 of the objectionable phrases (SemEval-2021's metric) on the dev part of the toxic-spans
 *   train split, or with `--test` its trial split (`spans.ts`'s `spanFigures`);
 * - `overall_score` ROC AUC and `appears_low_effort` precision on C3's held-out articles.
 */
import { splitSentences } from "@decorum/core"
import type { Fallacies } from "@decorum/domain"
import { fallacyItems } from "@decorum/local"
import { scoreComment } from "@decorum/local"
import type { FallacyModelService } from "@decorum/local"
import type { SpanModelService } from "@decorum/local"
import type { FallacyWeights } from "@decorum/local/FallacyFormat"
import { fromFallacyWeights, loadFallacyWeights } from "@decorum/local"
import { fromModelSet, loadModelSet } from "@decorum/local"
import { type PlainBaseline, trainPlainBaseline } from "./baseline.js"
import * as D from "./data.js"
import { bestF1Threshold, detection, type Detection, FALLACY_DEFAULTS, perTypePrecision, splitOf, trainFallacy, weightsOf } from "./fallacy.js"
import { fallacyCorpora, type FallacyRow, mafalda } from "./fallacyData.js"
import { rocAuc } from "./fit.js"
import { dataDir, MODELS_DIR } from "./pipeline.js"
import { spanFigures } from "./spans.js"
import { spanModelIn } from "@decorum/local"
import { Effect, Option } from "effect"
import { article } from "../local/test/evaluators/fixtures.js"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const log = (s: string) => process.stderr.write(s + "\n")
const f3 = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(3))

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string | number>>) => {
  console.log(`| ${header.join(" | ")} |`)
  console.log(`|${header.map(() => "---").join("|")}|`)
  for (const r of rows) console.log(`| ${r.join(" | ")} |`)
  console.log()
}

interface Scored {
  readonly scores: Float64Array
  readonly types: Array<Fallacies.FallacyType | undefined>
}

const FALLACY = "fallacy"

/** Reads of the CoCoLoFa test articles per detector version: `models/fallacy-test-reads.json` (the toxicity set keeps its own). */
const READS = join(MODELS_DIR, "fallacy-test-reads.json")
const testReads = (): Record<string, number> => (existsSync(READS) ? (JSON.parse(readFileSync(READS, "utf8")) as Record<string, number>) : {})
const recordTestRead = (version: string): number => {
  const reads = testReads()
  reads[version] = (reads[version] ?? 0) + 1
  writeFileSync(READS, JSON.stringify(reads, null, 1) + "\n")
  return reads[version]!
}

/** The plain baseline over the same rows: a "fallacy" head on every row, one head per type on typed fallacious rows. */
const trainBaselineFallacy = (rows: ReadonlyArray<FallacyRow>, types: ReadonlyArray<Fallacies.FallacyType>): PlainBaseline =>
  trainPlainBaseline(
    rows.map((r) => ({
      text: r.text,
      labels: Object.fromEntries([
        [FALLACY, r.fallacy],
        ...types.map((t) => [t, r.fallacy === 1 && r.type !== undefined ? (r.type === t ? 1 : 0) : Number.NaN])
      ])
    })),
    [FALLACY, ...types],
    { log }
  )

const baselineScores = (b: PlainBaseline, texts: ReadonlyArray<string>): Scored => {
  const s = b.score(texts)
  const types = [...b.heads.keys()].filter((h) => h !== FALLACY) as Array<Fallacies.FallacyType>
  return {
    scores: s.get(FALLACY)!,
    types: texts.map((_, i) => {
      let best: Fallacies.FallacyType | undefined
      for (const t of types) if (best === undefined || s.get(t)![i]! > s.get(best)![i]!) best = t
      return best
    })
  }
}

/** The detector's scores, with the type of every comment (also those below the threshold). */
const modelScores = (w: FallacyWeights, texts: ReadonlyArray<string>): Scored => {
  const a = texts.map((t) => w.analyse(t, splitSentences(t), undefined, true))
  return { scores: Float64Array.from(a, (x) => x.score), types: a.map((x) => x.type) }
}

const detectionRow = (name: string, d: Detection, threshold: number) => [
  name, f3(d.precision), f3(d.recall), f3(d.f1), f3(d.typeAccuracy), f3(d.reportedRightType), threshold.toFixed(3)
]

const main = () => {
  const started = Date.now()
  const dir = dataDir()
  const split = process.argv.includes("--test") ? "test" : "dev"
  const set = loadModelSet(MODELS_DIR)
  const model = fromModelSet(set)
  const weights = loadFallacyWeights(MODELS_DIR)
  const detector = fromFallacyWeights(weights)
  const all = fallacyCorpora(dir)
  const coco = all.filter((r) => r.source === "cocolofa")
  const evalRows = coco.filter((r) => splitOf(r) === split)
  const devRows = coco.filter((r) => splitOf(r) === "dev")
  const trainRows = all.filter((r) => splitOf(r) === "train")
  const reads = split === "test" ? recordTestRead(weights.manifest.version) : (testReads()[weights.manifest.version] ?? 0)
  console.log(`# Comment scoring: ${set.version} + ${weights.manifest.version}, ${split} split\n`)
  console.log(
    `CoCoLoFa split by article (60/20/20 by hash): ${split} = ${new Set(evalRows.map((r) => r.group)).size} articles, ${evalRows.length} comments ` +
      `(${evalRows.filter((r) => r.fallacy === 1).length} fallacious). Test split of ${weights.manifest.version} read ${reads} time${reads === 1 ? "" : "s"}` +
      `${split === "test" ? " (this run included)" : ""}.\n`
  )

  // ------------------------------------------------ in-domain
  const types = weights.types
  log("in-domain baseline: the shipped detector's training rows")
  const baseIn = trainBaselineFallacy(trainRows, types)
  const baseInDev = baselineScores(baseIn, devRows.map((r) => r.text))
  const baseInThreshold = bestF1Threshold(baseInDev.scores, devRows.map((r) => r.fallacy)).threshold
  const baseInEval = baselineScores(baseIn, evalRows.map((r) => r.text))
  const ours = modelScores(weights, evalRows.map((r) => r.text))
  const oursIn = detection(evalRows, ours.scores, ours.types, weights.manifest.threshold)
  const baseInD = detection(evalRows, baseInEval.scores, baseInEval.types, baseInThreshold)

  // ------------------------------------------------ cross-corpus
  log("cross-corpus: training both without CoCoLoFa")
  const others = all.filter((r) => r.source !== "cocolofa")
  const heldOut = (r: FallacyRow) => D.hash32(`fallacy-cross:${r.group}`) % 10 === 0
  const crossTrain = others.filter((r) => !heldOut(r))
  const crossDev = others.filter(heldOut)
  const crossModel = trainFallacy(crossTrain, { ...FALLACY_DEFAULTS, log })
  const crossWeights = weightsOf(crossModel)
  const crossScore = (texts: ReadonlyArray<string>): Scored => modelScores(crossWeights, texts)
  const crossThreshold = bestF1Threshold(crossScore(crossDev.map((r) => r.text)).scores, crossDev.map((r) => r.fallacy)).threshold
  const crossTypes = crossModel.heads.slice(1) as Array<Fallacies.FallacyType>
  const baseCross = trainBaselineFallacy(crossTrain, crossTypes)
  const baseCrossThreshold = bestF1Threshold(baselineScores(baseCross, crossDev.map((r) => r.text)).scores, crossDev.map((r) => r.fallacy)).threshold
  const crossOurs = crossScore(evalRows.map((r) => r.text))
  const crossBase = baselineScores(baseCross, evalRows.map((r) => r.text))
  const oursCross = detection(evalRows, crossOurs.scores, crossOurs.types, crossThreshold)
  const baseCrossD = detection(evalRows, crossBase.scores, crossBase.types, baseCrossThreshold)

  console.log(`## Fallacy detection and typing (CoCoLoFa ${split} articles)\n`)
  console.log(`Type accuracy: among fallacious comments, the typer's type (whole comment) is CoCoLoFa's; "reported, right type": a fallacy is reported and named right. Thresholds on log-odds, chosen on dev for F1.\n`)
  table(["protocol / model", "precision", "recall", "F1", "type accuracy", "reported, right type", "threshold"], [
    detectionRow(`in-domain: ${weights.manifest.version} (shipped)`, oursIn, weights.manifest.threshold),
    detectionRow("in-domain: plain baseline", baseInD, baseInThreshold),
    detectionRow("cross-corpus: detector recipe, no CoCoLoFa", oursCross, crossThreshold),
    detectionRow("cross-corpus: plain baseline, no CoCoLoFa", baseCrossD, baseCrossThreshold)
  ])
  const beats = (a: Detection, b: Detection) => a.f1 > b.f1 && a.typeAccuracy > b.typeAccuracy
  console.log(`Detection F1 and type accuracy above the plain baseline: in-domain ${beats(oursIn, baseInD) ? "yes" : "NO"}, cross-corpus ${beats(oursCross, baseCrossD) ? "yes" : "NO"}.\n`)

  console.log(`### Precision of each reported type (shipped detector, ${split} articles)\n`)
  const per = perTypePrecision(evalRows, ours.scores, ours.types, weights.manifest.threshold)
  table(["type", "reported", "right", "precision"], [...per].sort((a, b) => b[1].reported - a[1].reported).map(([t, e]) => [t, e.reported, e.right, f3(e.right / e.reported)]))

  // ------------------------------------------------ MAFALDA quotes
  const maf = mafalda(dir).filter((m) => m.spans.length > 0)
  const quoteFigures = (quote: (text: string) => { begin: number; end: number } | null) => {
    let reported = 0
    let hit = 0
    let f1Sum = 0
    for (const m of maf) {
      const q = quote(m.text)
      if (q === null) continue
      reported++
      const gold = new Set<number>()
      for (const s of m.spans) for (let i = s.begin; i < s.end; i++) gold.add(i)
      let inter = 0
      for (let i = q.begin; i < q.end; i++) if (gold.has(i)) inter++
      if (inter > 0) hit++
      const p = inter / Math.max(1, q.end - q.begin)
      const r = inter / Math.max(1, gold.size)
      f1Sum += p + r === 0 ? 0 : (2 * p * r) / (p + r)
    }
    return [reported, f3(hit / Math.max(1, reported)), f3(f1Sum / Math.max(1, reported))]
  }
  const oursQuote = (text: string) => {
    const items = fallacyItems(detector.analyse(text))
    return items.length === 0 ? null : items.reduce((a, b) => (b.end - b.begin > 0 ? a : b), items[0]!)
  }
  const leadQuote = (text: string) => {
    const a = detector.analyse(text)
    const items = fallacyItems(a)
    if (items.length === 0) return null
    let lead = a.units[0]!
    for (const u of a.units) if (u.drive > lead.drive) lead = u
    return lead
  }
  const whole = (text: string) => (detector.analyse(text).score >= weights.manifest.threshold ? { begin: 0, end: text.length } : null)
  const baselineSentence = (text: string) => {
    const sentences = splitSentences(text)
    const s = baseIn.score([text, ...sentences.map((r) => text.slice(r.begin, r.end))]).get(FALLACY)!
    if (!(s[0]! >= baseInThreshold) || sentences.length === 0) return null
    let best = 0
    for (let i = 1; i < sentences.length; i++) if (s[i + 1]! > s[best + 1]!) best = i
    return sentences[best]!
  }
  console.log(`## Quotes against MAFALDA's gold spans (${maf.length} texts with a gold fallacy span)\n`)
  console.log(`Over the texts where a fallacy is reported: "overlaps" = the quote shares a character with a gold span; character F1 of the quote against the union of gold spans.\n`)
  table(["quote", "texts reported", "overlaps a gold span", "character F1"], [
    ["shipped: the sentence that drives the decision", ...leadQuote === undefined ? [] : quoteFigures(leadQuote)],
    ["plain baseline: its highest-scoring sentence", ...quoteFigures(baselineSentence)],
    ["the whole text (shipped decision)", ...quoteFigures(whole)]
  ])
  void oursQuote

  // ------------------------------------------------ toxic spans (the trial split only with --test, counted in spans-test-reads.json)
  const tagger = Effect.runSync(spanModelIn(MODELS_DIR)).pipe(Option.getOrUndefined)
  spanFigures(dir, split, model, tagger)

  // ------------------------------------------------ C3
  const c3 = D.c3(dir).filter((e) => D.hash32(e.group ?? e.id) % 10 === 9)
  const c3Figures = (withModel: FallacyModelService | undefined, spans: SpanModelService | undefined) => {
    const overall = new Float64Array(c3.length)
    const constructive = new Float64Array(c3.length)
    let fired = 0
    let firedUnsub = 0
    let firedMajority = 0
    let constructiveRows = 0
    let constructiveFired = 0
    c3.forEach((e, i) => {
      const r = scoreComment(model, { comment: e.text, replyTo: null, article }, withModel, { spans })
      overall[i] = r.overall_score
      constructive[i] = e.labels.CONSTRUCTIVE ?? 0
      const unsub = e.labels.UNSUBSTANTIAL ?? 0
      if (constructive[i]! >= 0.5) {
        constructiveRows++
        if (r.appears_low_effort) constructiveFired++
      }
      if (r.appears_low_effort) {
        fired++
        if (unsub > 0) firedUnsub++
        if (unsub * 2 > 1) firedMajority++
      }
    })
    return [f3(rocAuc(overall, constructive)), fired, f3(firedUnsub / Math.max(1, fired)), f3(firedMajority / Math.max(1, fired)), `${((100 * constructiveFired) / constructiveRows).toFixed(1)}%`]
  }
  console.log(`## Quality and low effort on C3 (held-out articles, ${c3.length} comments; flagged licence)\n`)
  table(["fallacies from", "overall_score AUC (constructive)", "low effort fired", "precision (≥1 unsubstantial tick)", "precision (majority unsubstantial)", "fires on constructive"], [
    [`trained detector${tagger === undefined ? "" : ` and span tagger`} (shipped)`, ...c3Figures(detector, tagger)],
    ...(tagger === undefined ? [] : [["trained detector, the heads' cuts for objectionable phrases (before the tagger)", ...c3Figures(detector, undefined)]]),
    ["fallacy patterns and the heads' cuts (before the detector)", ...c3Figures(undefined, undefined)]
  ])
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

main()
