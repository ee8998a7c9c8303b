/**
 * `node packages/local/training/run.mjs spans`: chooses how objectionable phrases are cut
 * (`SpanOptions` of the comment scorer) on the toxic-spans TRAIN split only, by SemEval-2021's
 * character F1; the trial split stays the test (`npm run eval:commentscore`).
 */
import { scoreComment, SPAN_DEFAULTS, type SpanOptions } from "../src/evaluators/LocalCommentScorer.js"
import type { AttributeModelService } from "../src/AttributeModel.js"
import { fromModelSet, loadModelSet } from "../src/models/TrainedModel.js"
import { article } from "../test/evaluators/fixtures.js"
import { toxicSpans } from "./fallacyData.js"
import { dataDir, MODELS_DIR } from "./pipeline.js"

/** SemEval-2021 Task 5's metric for one post: F1 of predicted against gold character offsets (1 when both are empty). */
export const postSpanF1 = (predicted: ReadonlySet<number>, gold: ReadonlySet<number>): number => {
  if (gold.size === 0) return predicted.size === 0 ? 1 : 0
  if (predicted.size === 0) return 0
  let inter = 0
  for (const i of predicted) if (gold.has(i)) inter++
  const p = inter / predicted.size
  const r = inter / gold.size
  return p + r === 0 ? 0 : (2 * p * r) / (p + r)
}

/** The characters the comment scorer's objectionable phrases cover (each phrase at its first occurrence). */
export const objectionableOffsets = (model: AttributeModelService, text: string, options: SpanOptions = SPAN_DEFAULTS): Set<number> => {
  const r = scoreComment(model, { comment: text, replyTo: null, article }, undefined, options)
  const out = new Set<number>()
  for (const o of r.objectionable_phrases) {
    const at = text.indexOf(o.quoted_objectionable_phrase)
    for (let i = at; i >= 0 && i < at + o.quoted_objectionable_phrase.length; i++) out.add(i)
  }
  return out
}

/** Mean character F1 of the comment scorer's objectionable phrases over posts. */
export const spanF1 = (model: AttributeModelService, posts: ReadonlyArray<{ readonly text: string; readonly offsets: ReadonlySet<number> }>, options: SpanOptions = SPAN_DEFAULTS): number => {
  let sum = 0
  for (const t of posts) sum += postSpanF1(objectionableOffsets(model, t.text, options), t.offsets)
  return sum / posts.length
}

const main = () => {
  const model = fromModelSet(loadModelSet(MODELS_DIR))
  const train = toxicSpans(dataDir(), "train")
  if (process.argv.includes("--show")) {
    // gold against predicted phrases on a few training posts (error analysis)
    for (const t of train.slice(0, 40)) {
      const gold: Array<string> = []
      let run = ""
      for (let i = 0; i <= t.text.length; i++) {
        if (t.offsets.has(i)) run += t.text[i]
        else if (run !== "") {
          gold.push(run)
          run = ""
        }
      }
      const r = scoreComment(model, { comment: t.text, replyTo: null, article }, undefined, SPAN_DEFAULTS)
      console.log(`${postSpanF1(objectionableOffsets(model, t.text), t.offsets).toFixed(2)} gold ${JSON.stringify(gold)} ours ${JSON.stringify(r.objectionable_phrases.map((o) => o.quoted_objectionable_phrase))}`)
    }
    return
  }
  const sample = train.filter((_, i) => i % 4 === 0)
  console.log(`toxic-spans train split: ${sample.length} of ${train.length} posts (every fourth)`)
  const base: SpanOptions = { ...SPAN_DEFAULTS, spanThreshold: 0.8, labelThreshold: 0.15, profanityThreshold: 0.15, nested: "inner", wordLevel: 0.3, keepUnsupported: false }
  const grid: Array<SpanOptions> = [base]
  for (const spanThreshold of [0.3, 0.8]) {
    for (const wordLevel of [0.5, 0.7]) grid.push({ ...base, spanThreshold, wordLevel, perLabel: 10 })
  }
  grid.push({ ...base, labelThreshold: 0.08, profanityThreshold: 0.08 })
  const results = grid.map((o) => ({ o, f1: spanF1(model, sample, o) }))
  results.sort((a, b) => b.f1 - a.f1)
  for (const r of results.slice(0, 12)) console.log(`${r.f1.toFixed(4)}  ${JSON.stringify(r.o)}`)
  console.log(`defaults: ${spanF1(model, sample).toFixed(4)}`)
}

if (process.argv[1]?.endsWith("spans.mjs")) main()
