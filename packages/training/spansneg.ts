/**
 * `node packages/training/run.mjs spansneg [--neg none|jigsaw|c3|jigsaw,c3] [--w WEIGHT]`
 * (dev only; the trial split is not read): the tagger trained also on comments with no offence
 * (every word negative), so that its strongest word could decide WHETHER to quote, and the quote
 * rules it allows. Negatives: `jigsaw` = Jigsaw-2018 rows with no label (CC0, text CC BY-SA),
 * `c3` = constructive C3 comments of the training articles in one half (by hash of the article;
 * CC BY-NC-SA). Prints dev character F1 (every occurrence) against the share of constructive C3
 * comments of the OTHER half of the training articles (never a negative) that get a quote.
 */
import * as D from "./data.js"
import { dataDir, MODELS_DIR } from "./pipeline.js"
import { scoreComment } from "@decorum/local"
import { decodeSpans } from "@decorum/local/SpanFormat"
import { tokenize } from "@decorum/local/Words"
import { fromModelSet, loadModelSet } from "@decorum/local"
import { article } from "../local/test/evaluators/fixtures.js"
import { buildTagger, trainDevPosts, offsetsOf, postSpanF1, SPAN_RECIPE } from "./spans.js"

const arg = (name: string, d: string): string => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1]! : d
}

const main = () => {
  const dir = dataDir()
  const { train, dev } = trainDevPosts(dir)
  const which = arg("--neg", "jigsaw")
  const weight = Number(arg("--w", "1"))
  const epochs = Number(arg("--epochs", String(SPAN_RECIPE.epochs)))
  const c3All = D.c3(dir).filter((e) => D.hash32(e.group ?? e.id) % 10 !== 9)
  const negatives: Array<string> = []
  if (which.includes("jigsaw")) {
    for (const e of D.jigsaw(dir, "random")) {
      const l = e.labels
      if (["TOXICITY", "SEVERE_TOXICITY", "PROFANITY", "THREAT", "INSULT", "IDENTITY_ATTACK"].every((k) => l[k as "TOXICITY"] === 0)) negatives.push(e.text)
    }
  }
  // C3 measured on the articles whose hash bucket is odd when C3 negatives are used
  const c3Measured = c3All.filter((e) => D.hash32(`g:${e.group ?? e.id}`) % 2 === 1)
  if (which.includes("c3")) {
    for (const e of c3All) if (D.hash32(`g:${e.group ?? e.id}`) % 2 === 0 && e.labels.CONSTRUCTIVE === 1) negatives.push(e.text)
  }
  const started = Date.now()
  const built = buildTagger(train, dev, { ...SPAN_RECIPE, epochs }, "exp", negatives, weight)
  console.log(`negatives ${which} (${negatives.length}, weight ${weight}, epochs ${epochs}): dev F1 alone ${String(built.manifest.metrics?.["devCharacterF1"])} decode ${JSON.stringify(built.manifest.decode)} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  const tagger = built.tagger
  const d = tagger.manifest.decode
  const model = fromModelSet(loadModelSet(MODELS_DIR))
  const LABELS = ["THREAT", "IDENTITY_ATTACK", "INSULT", "PROFANITY", "TOXICITY"] as const
  const prepare = (text: string) => {
    const tokens = tokenize(text)
    const scores = tagger.score(text, tokens)
    const p = model.predict(model.analyse(text), [...LABELS])
    const heads = Math.max(...LABELS.map((l) => (l === "PROFANITY" ? 2 : 1) * (p[l] ?? 0)))
    const explained = scoreComment(model, { comment: text, replyTo: null, article }).objectionable_phrases.length > 0
    let max = -Infinity
    for (const s of scores) max = Math.max(max, s)
    return { text, tokens, scores, heads, explained, max }
  }
  const devRows = dev.map((p) => ({ ...prepare(p.text), gold: p.offsets }))
  const c3Rows = c3Measured.filter((e) => e.labels.CONSTRUCTIVE === 1).map((e) => prepare(e.text))
  console.log(`C3 constructive measured: ${c3Rows.length}; heads explain ${c3Rows.filter((r) => r.explained).length}`)
  type Row = ReturnType<typeof prepare>
  const report = (name: string, rule: (r: Row) => ReturnType<typeof decodeSpans>) => {
    let f1 = 0
    for (const r of devRows) f1 += postSpanF1(offsetsOf(rule(r)), r.gold)
    const quoted = c3Rows.filter((r) => rule(r).length > 0).length
    console.log(`${name}: dev F1 ${(f1 / devRows.length).toFixed(4)}; C3 constructive quoted ${quoted} (${((100 * quoted) / c3Rows.length).toFixed(2)}%)`)
  }
  report("tagger alone", (r) => decodeSpans(r.tokens, r.scores, d))
  for (const g of [4, 3, 2.5, 2, 1.5, 1, 0.5, 0, -0.5]) {
    report(`explained or max >= ${g}, full decode`, (r) => (r.explained || r.max >= g ? decodeSpans(r.tokens, r.scores, d) : []))
    report(`max >= ${g} alone, full decode`, (r) => (r.max >= g ? decodeSpans(r.tokens, r.scores, d) : []))
    report(`explained full, else words >= ${g}`, (r) => (r.explained ? decodeSpans(r.tokens, r.scores, d) : decodeSpans(r.tokens, r.scores, { ...d, threshold: g, gap: 99, none: g })))
  }
  for (const h of [0.3, 0.5, 0.7]) {
    for (const g of [3, 2, 1, 0]) report(`heads >= ${h} or max >= ${g}, full`, (r) => (r.heads >= h || r.max >= g ? decodeSpans(r.tokens, r.scores, d) : []))
  }
}

main()
