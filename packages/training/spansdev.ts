/**
 * `node packages/training/run.mjs spansdev [--one|--show|--rules|--gate|--why]`: the toxic-span
 * tagger's choices on the dev part of the toxic-spans train split (the trial split is not read).
 *
 * - default: the recipe grid, each recipe trained on the train part and scored with the decoding
 *   chosen for it on dev, beside the lexicon baseline (`--one`: the shipped recipe only);
 * - `--show`: gold against the tagger's spans on 60 dev posts (error analysis);
 * - `--rules`: whether to quote (the heads' explanations, or a confident tagger word at each level),
 *   dev F1 against how often constructive C3 comments of its training articles get a quote;
 * - `--gate`: the same for a head-probability gate; `--why`: where the scorer loses against the tagger.
 */
import * as D from "./data.js"
import { dataDir, MODELS_DIR } from "./pipeline.js"
import { scoreComment } from "@decorum/local"
import { decodeSpans } from "@decorum/local/SpanFormat"
import { type Range, tokenize } from "@decorum/local/Words"
import { fromSpanWeights, loadSpanWeights } from "@decorum/local"
import { fromModelSet, loadModelSet } from "@decorum/local"
import { article } from "../local/test/evaluators/fixtures.js"
import { buildTagger, trainDevPosts, lexiconBaseline, meanSpanF1, offsetsOf, postSpanF1, SPAN_RECIPE, type SpanRecipe } from "./spans.js"

const main = () => {
  const dir = dataDir()
  const { train, dev } = trainDevPosts(dir)
  console.log(`train ${train.length}, dev ${dev.length} (${dev.filter((p) => p.offsets.size === 0).length} without a gold span)`)
  console.log(`lexicon baseline on dev: ${meanSpanF1(dev, lexiconBaseline(train)).toFixed(4)}`)
  const grid: Array<SpanRecipe> = []
  grid.push(SPAN_RECIPE)
  if (!process.argv.includes("--one")) grid.push({ ...SPAN_RECIPE, epochs: 12 }, { ...SPAN_RECIPE, learningRate: 0.02 }, { ...SPAN_RECIPE, bits: 20 })
  if (process.argv.includes("--rules")) {
    const model = fromModelSet(loadModelSet(MODELS_DIR))
    const tagger = loadSpanWeights(MODELS_DIR)
    const LABELS = ["THREAT", "IDENTITY_ATTACK", "INSULT", "PROFANITY", "TOXICITY"] as const
    const prepare = (text: string) => {
      const tokens = tokenize(text)
      const p = model.predict(model.analyse(text), [...LABELS])
      const heads = Math.max(...LABELS.map((l) => (l === "PROFANITY" ? 2 : 1) * (p[l] ?? 0)))
      return { text, tokens, scores: tagger.score(text, tokens), heads }
    }
    const devRows = dev.map((p) => ({ ...prepare(p.text), gold: p.offsets }))
    const c3 = D.c3(dir).filter((e) => D.hash32(e.group ?? e.id) % 10 !== 9 && e.labels.CONSTRUCTIVE === 1)
    const c3Rows = c3.map((e) => prepare(e.text))
    const oldRate = c3.filter((e) => scoreComment(model, { comment: e.text, replyTo: null, article }).objectionable_phrases.length > 0).length
    console.log(`C3 constructive (training articles) ${c3.length}: heads' cuts quote in ${oldRate} (${((100 * oldRate) / c3.length).toFixed(2)}%)`)
    const d = tagger.manifest.decode
    const oldCuts = (text: string) => scoreComment(model, { comment: text, replyTo: null, article }).objectionable_phrases.length > 0
    const devOld = devRows.map((r) => oldCuts(r.text))
    const c3Old = c3Rows.map((r) => oldCuts(r.text))
    for (const strong of [99, 3, 2.5, 2, 1.5, 1.25, 1, 0.75, 0.5, 0]) {
      const rule = (r: ReturnType<typeof prepare>, old: boolean) =>
        old ? decodeSpans(r.tokens, r.scores, d) : decodeSpans(r.tokens, r.scores, { ...d, threshold: strong, relative: 99, gap: 99, none: strong })
      let f1 = 0
      devRows.forEach((r, i) => (f1 += postSpanF1(offsetsOf(rule(r, devOld[i]!)), r.gold)))
      const quoted = c3Rows.filter((r, i) => rule(r, c3Old[i]!).length > 0).length
      console.log(`heads' cuts decide, or a tagger word >= ${strong}: dev F1 ${(f1 / devRows.length).toFixed(4)}; C3 constructive quoted ${quoted} (${((100 * quoted) / c3Rows.length).toFixed(2)}%)`)
    }
    if (process.argv.includes("--rules")) return
    for (const gate of [0.3, 0.5, 0.7]) {
      for (const strong of [99, 2, 1.5, 1, 0.5]) {
        for (const floor of [true, false]) {
          const rule = (r: ReturnType<typeof prepare>) => {
            if (r.heads >= gate) return decodeSpans(r.tokens, r.scores, floor ? d : { ...d, none: d.threshold })
            return decodeSpans(r.tokens, r.scores, { ...d, threshold: strong, relative: 99, gap: 99, none: strong })
          }
          let f1 = 0
          for (const r of devRows) f1 += postSpanF1(offsetsOf(rule(r)), r.gold)
          const quoted = c3Rows.filter((r) => rule(r).length > 0).length
          console.log(`gate ${gate} strong ${strong} floor ${floor}: dev F1 ${(f1 / devRows.length).toFixed(4)}; C3 constructive quoted ${quoted} (${((100 * quoted) / c3Rows.length).toFixed(2)}%)`)
        }
      }
    }
    return
  }
  if (process.argv.includes("--gate")) {
    // the heads' gate opened also by a confident tagger word: dev F1 against new quotes on C3's
    // constructive comments of its training articles (held-out articles untouched)
    const model = fromModelSet(loadModelSet(MODELS_DIR))
    const tagger = loadSpanWeights(MODELS_DIR)
    const heads = (text: string) => {
      const p = model.predict(model.analyse(text), ["THREAT", "IDENTITY_ATTACK", "INSULT", "PROFANITY", "TOXICITY"])
      return (p.PROFANITY ?? 0) >= 0.15 || ["THREAT", "IDENTITY_ATTACK", "INSULT", "TOXICITY"].some((l) => (p[l as "INSULT"] ?? 0) >= 0.3)
    }
    const maxOf = (s: Float64Array) => s.reduce((a, b) => Math.max(a, b), -Infinity)
    const devRows = dev.map((p) => {
      const tokens = tokenize(p.text)
      const scores = tagger.score(p.text, tokens)
      return { open: heads(p.text), max: maxOf(scores), f1: postSpanF1(offsetsOf(decodeSpans(tokens, scores, tagger.manifest.decode)), p.offsets), none: p.offsets.size === 0 ? 1 : 0 }
    })
    const c3 = D.c3(dir).filter((e) => D.hash32(e.group ?? e.id) % 10 !== 9 && e.labels.CONSTRUCTIVE === 1)
    const c3Rows = c3.map((e) => {
      const tokens = tokenize(e.text)
      return { open: heads(e.text), max: tokens.length === 0 ? -Infinity : maxOf(tagger.score(e.text, tokens)) }
    })
    console.log(`C3 constructive comments (training articles): ${c3.length}; heads' gate open on ${c3Rows.filter((r) => r.open).length}`)
    for (const level of [99, 4, 3, 2.5, 2, 1.5, 1, 0.5, 0]) {
      let f1 = 0
      for (const r of devRows) f1 += r.open || r.max >= level ? r.f1 : r.none
      const extra = c3Rows.filter((r) => !r.open && r.max >= level).length
      console.log(`level ${level}: dev F1 ${(f1 / devRows.length).toFixed(4)}; C3 constructive comments newly quoted ${extra} (${((100 * extra) / c3Rows.length).toFixed(2)}%)`)
    }
    return
  }
  if (process.argv.includes("--why")) {
    // where the comment scorer loses against the tagger alone (dev): the heads' gate, repeated quotes
    const model = fromModelSet(loadModelSet(MODELS_DIR))
    const tagger = fromSpanWeights(loadSpanWeights(MODELS_DIR))
    const firstOnly = (text: string, ranges: ReadonlyArray<Range>) => {
      const quotes = [...new Set(ranges.map((r) => text.slice(r.begin, r.end)))]
      return offsetsOf(quotes.map((q) => ({ begin: text.indexOf(q), end: text.indexOf(q) + q.length })))
    }
    let gated = 0
    let sumFirst = 0
    let sumAll = 0
    let sumGate = 0
    for (const p of dev) {
      const tokens = tokenize(p.text)
      const ranges = tagger.spans(p.text, tokens)
      const r = scoreComment(model, { comment: p.text, replyTo: null, article }, undefined, { spans: tagger })
      const open = r.objectionable_phrases.length > 0
      if (!open) gated++
      sumFirst += postSpanF1(firstOnly(p.text, ranges), p.offsets)
      sumGate += postSpanF1(open ? offsetsOf(ranges) : new Set(), p.offsets)
      const all = new Set<number>()
      for (const o of r.objectionable_phrases) {
        const q = o.quoted_objectionable_phrase
        for (let at = p.text.indexOf(q); at >= 0; at = p.text.indexOf(q, at + 1)) for (let i = at; i < at + q.length; i++) all.add(i)
      }
      sumAll += postSpanF1(all, p.offsets)
    }
    console.log(`no quote from the scorer: ${gated} of ${dev.length}`)
    console.log(`tagger, quotes at first occurrence: ${(sumFirst / dev.length).toFixed(4)}`)
    console.log(`tagger behind the scorer's gate: ${(sumGate / dev.length).toFixed(4)}`)
    console.log(`scorer quotes at every occurrence: ${(sumAll / dev.length).toFixed(4)}`)
    return
  }
  if (process.argv.includes("--show")) {
    const built = buildTagger(train, dev)
    const runs = (text: string, offsets: ReadonlySet<number>) => {
      const out: Array<string> = []
      let run = ""
      for (let i = 0; i <= text.length; i++) {
        if (offsets.has(i)) run += text[i]
        else if (run !== "") {
          out.push(run)
          run = ""
        }
      }
      return out
    }
    for (const p of dev.slice(0, 60)) {
      const pred = offsetsOf(built.tagger.spans(p.text, tokenize(p.text)))
      console.log(`${postSpanF1(pred, p.offsets).toFixed(2)} gold ${JSON.stringify(runs(p.text, p.offsets))} ours ${JSON.stringify(runs(p.text, pred))}`)
    }
    return
  }
  for (const r of grid) {
    const built = buildTagger(train, dev, r)
    console.log(`${String(built.manifest.metrics?.["devCharacterF1"])}  ${JSON.stringify(r)}  ${JSON.stringify(built.manifest.decode)}`)
  }
}

main()
