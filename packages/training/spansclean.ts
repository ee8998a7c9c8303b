/**
 * `node packages/training/run.mjs spansclean`: whether to quote, measured against C3's own
 * toxicity ratings instead of its constructiveness (dev only; the trial split is not read).
 *
 * `spansdev --rules` counts quotes in constructive C3 comments as the price of a rule, but 41% of
 * C3's constructive comments were rated at least mildly toxic by some annotator, so a quote there
 * is not always wrong. This prints, for each rule, the dev character F1 (every occurrence, as
 * `--rules`) beside the share of C3 comments of the training articles (held-out articles untouched)
 * quoted in each band of `crowd_toxicity_level`: 1.0 = every annotator said "not toxic" (a quote
 * there is a false alarm), 1-2 mild, 2 or more toxic (a quote there is a hit). Rules:
 *
 * - the shipped rule (the heads' explanations decide, else a tagger word at `confident`), and the
 *   same with the tagger's level lowered (`none`);
 * - the heads run again on each sentence of a comment with more than one: a long comment could
 *   dilute one offensive sentence below the heads' thresholds.
 */
import * as D from "./data.js"
import { join } from "node:path"
import { splitSentences } from "@decorum/core"
import { dataDir, MODELS_DIR } from "./pipeline.js"
import { scoreComment } from "@decorum/local"
import { decodeSpans } from "@decorum/local/SpanFormat"
import { tokenize } from "@decorum/local/Words"
import { loadSpanWeights } from "@decorum/local"
import { fromModelSet, loadModelSet } from "@decorum/local"
import { article } from "../local/test/evaluators/fixtures.js"
import { trainDevPosts, offsetsOf, postSpanF1 } from "./spans.js"

const LABELS = ["THREAT", "IDENTITY_ATTACK", "INSULT", "PROFANITY", "TOXICITY"] as const

const main = () => {
  const dir = dataDir()
  const { dev } = trainDevPosts(dir)
  const model = fromModelSet(loadModelSet(MODELS_DIR))
  const tagger = loadSpanWeights(MODELS_DIR)
  const d = tagger.manifest.decode
  const prepare = (text: string) => {
    const tokens = tokenize(text)
    const heads = scoreComment(model, { comment: text, replyTo: null, article }).objectionable_phrases.length > 0
    const sentences = splitSentences(text)
    // the strongest head over the sentences (PROFANITY doubled: its threshold is half the others')
    let sentence = 0
    if (sentences.length > 1) {
      for (const s of sentences) {
        const p = model.predict(model.analyse(text.slice(s.begin, s.end)), [...LABELS])
        for (const l of LABELS) sentence = Math.max(sentence, (l === "PROFANITY" ? 2 : 1) * (p[l] ?? 0))
      }
    }
    return { tokens, scores: tagger.score(text, tokens), heads, sentence }
  }
  type Row = ReturnType<typeof prepare>
  const devRows = dev.map((p) => ({ ...prepare(p.text), gold: p.offsets }))
  const bands: Array<[string, Array<Row>]> = [["1.0 (no annotator)", []], ["1-2 (mild)", []], [">= 2 (toxic)", []], ["constructive, any level", []]]
  for (const r of D.table(join(dir, "constructive-comments-c3/C3_anonymized.csv.gz"))) {
    if (D.hash32(r.article_id!) % 10 === 9) continue
    const level = Number(r.crowd_toxicity_level)
    const row = prepare(r.comment_text!)
    bands[level <= 1 ? 0 : level < 2 ? 1 : 2]![1].push(row)
    if (r.constructive_binary === "1.0") bands[3]![1].push(row)
  }
  console.log(`dev posts ${devRows.length}; C3 comments of the training articles by crowd_toxicity_level: ${bands.map(([k, v]) => `${k} ${v.length}`).join(", ")}\n`)
  console.log(`| rule | dev character F1 | ${bands.map(([k]) => `C3 quoted, ${k}`).join(" | ")} |`)
  console.log(`|---|---|${bands.map(() => "---|").join("")}`)
  const print = (name: string, rule: (r: Row) => boolean, level: number) => {
    const quote = (r: Row) => decodeSpans(r.tokens, r.scores, rule(r) ? d : { ...d, none: level })
    let f1 = 0
    for (const r of devRows) f1 += postSpanF1(offsetsOf(quote(r)), r.gold)
    const shares = bands.map(([, rows]) => `${((100 * rows.filter((r) => quote(r).length > 0).length) / rows.length).toFixed(1)}%`)
    console.log(`| ${name} | ${(f1 / devRows.length).toFixed(4)} | ${shares.join(" | ")} |`)
  }
  for (const level of [99, 2, 1, d.confident, 0.5, 0, -0.5, -1, -1.5, -2, -99]) {
    print(`heads' explanations, or a tagger word >= ${level}${level === d.confident ? " (shipped)" : ""}`, (r) => r.heads, level)
  }
  for (const at of [0.7, 0.5, 0.3]) print(`heads, or any sentence's head >= ${at}, or a tagger word >= ${d.confident}`, (r) => r.heads || r.sentence >= at, d.confident)
}

main()
