/**
 * `node packages/training/run.mjs spansgate [--jigsaw]` (dev only; the trial split is not
 * read): a post-level bag-of-words gate beside the tagger (logistic over the comment's word keys:
 * toxic-spans train posts against constructive-or-not C3 comments of one half of the training
 * articles, plus Jigsaw-2018 rows not toxic with `--jigsaw`), quoting when the heads' explanations
 * find something or the gate (and the tagger's strongest word) reach a level. Prints dev character
 * F1 against the share of constructive C3 comments of the other half of the training articles quoted.
 */
import * as D from "./data.js"
import { dataDir, MODELS_DIR } from "./pipeline.js"
import { scoreComment } from "@decorum/local"
import { decodeSpans, slotOf } from "@decorum/local/SpanFormat"
import { tokenize } from "@decorum/local/Words"
import { fromModelSet, loadModelSet } from "@decorum/local"
import { article } from "../local/test/evaluators/fixtures.js"
import { buildTagger, trainDevPosts, offsetsOf, postSpanF1, SPAN_RECIPE } from "./spans.js"
import { SparseMatrix, trainLogistic } from "./fit.js"

const dir = dataDir()
const { train, dev } = trainDevPosts(dir)
const c3All = D.c3(dir).filter((e) => D.hash32(e.group ?? e.id) % 10 !== 9)
const half = (e: { group?: string | undefined; id: string }) => D.hash32(`g:${e.group ?? e.id}`) % 2
const negatives: Array<string> = c3All.filter((e) => half(e) === 0).map((e) => e.text)
if (process.argv.includes("--jigsaw")) for (const e of D.jigsaw(dir, "random")) if (e.labels.TOXICITY === 0) negatives.push(e.text)
const bits = 18
const mask = (1 << bits) - 1
const X = new SparseMatrix()
const y: Array<number> = []
const feats = (text: string) => {
  const keys = new Set(tokenize(text).map((t) => t.key))
  return [...keys].map((k) => slotOf(`g|${k}`, mask))
}
for (const p of train) { const f = feats(p.text); X.push(f, f.map(() => 1), f.length); y.push(1) }
for (const t of negatives) { const f = feats(t); X.push(f, f.map(() => 1), f.length); y.push(0) }
const m = trainLogistic(X, Float32Array.from(y), new Float32Array(y.length).fill(1), { bits, epochs: 8, learningRate: 0.05, l2: 1e-6, seed: 3 })
const gate = (text: string) => { let z = m.bias; for (const s of feats(text)) z += m.weights[s]!; return z }
const built = buildTagger(train, dev, SPAN_RECIPE, "exp")
const tagger = built.tagger
const d = tagger.manifest.decode
console.log(`negatives ${negatives.length}; tagger alone dev ${String(built.manifest.metrics?.["devCharacterF1"])}`)
const model = fromModelSet(loadModelSet(MODELS_DIR))
const prep = (text: string) => {
  const tokens = tokenize(text)
  const scores = tagger.score(text, tokens)
  let max = -Infinity
  for (const s of scores) max = Math.max(max, s)
  return { tokens, scores, max, g: gate(text), explained: scoreComment(model, { comment: text, replyTo: null, article }).objectionable_phrases.length > 0 }
}
const devRows = dev.map((p) => ({ ...prep(p.text), gold: p.offsets }))
const c3Rows = c3All.filter((e) => half(e) === 1 && e.labels.CONSTRUCTIVE === 1).map((e) => prep(e.text))
type Row = ReturnType<typeof prep>
const report = (name: string, open: (r: Row) => boolean) => {
  let f1 = 0
  for (const r of devRows) f1 += postSpanF1(open(r) ? offsetsOf(decodeSpans(r.tokens, r.scores, d)) : new Set(), r.gold)
  const q = c3Rows.filter(open).length
  console.log(`${name}: dev F1 ${(f1 / devRows.length).toFixed(4)}; C3 constructive quoted ${q} (${((100 * q) / c3Rows.length).toFixed(2)}%)`)
}
for (const g of [3, 2, 1, 0.5, 0, -0.5, -1]) {
  report(`explained or gate >= ${g}`, (r) => r.explained || r.g >= g)
  for (const t of [1, 0]) report(`explained or (gate >= ${g} and max >= ${t})`, (r) => r.explained || (r.g >= g && r.max >= t))
}
