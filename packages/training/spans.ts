/**
 * `node packages/training/run.mjs spans [--out DIR] [--check] [--test]`: the toxic-span
 * tagger behind the comment scorer's objectionable phrases (`spans.json` + `spans.bin`).
 *
 * - Trains on the toxic-spans TRAIN split only (SemEval-2021 Task 5's `tsd_train`), less a dev
 *   part (a fifth of the posts, by hash of the text) on which the recipe and the decoding rules
 *   (word threshold, gap filling, the post-level "quote nothing" level) are chosen for
 *   SemEval's character F1. Posts whose text is also in the trial split are left out.
 * - `--check` trains into a temporary directory and compares the bytes with the shipped files.
 * - `--test` trains nothing: it reads the trial split once with the shipped tagger and counts the
 *   read in `models/spans-test-reads.json`, printing the figures beside the heads' cuts (the
 *   scorer before the tagger) and a lexicon baseline trained here on the same posts.
 *
 * The trial split is never read for a choice.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { scoreComment } from "@decorum/local"
import type { AttributeModelService } from "@decorum/local"
import type { SpanModelService } from "@decorum/local"
import { CONTEXT_SLOTS, contextSlots, decodeSpans, keyHash, SPAN_FORMAT, type SpanDecode, type SpanManifest, SpanWeights, WordFeatureHashes } from "@decorum/local/SpanFormat"
import { type Range, type Token, tokenize } from "@decorum/local/Words"
import { fromSpanWeights, loadSpanWeights, SPAN_MANIFEST } from "@decorum/local"
import { fromModelSet, loadModelSet } from "@decorum/local"
import { article } from "../local/test/evaluators/fixtures.js"
import * as D from "./data.js"
import { toxicSpans } from "./fallacyData.js"
import { SparseMatrix, trainLogistic } from "./fit.js"
import { dataDir, MODELS_DIR } from "./pipeline.js"

export const SPAN_VERSION = "spans-2026.11.3"

export interface SpanPost {
  readonly text: string
  /** Gold toxic character offsets (UTF-16). */
  readonly offsets: ReadonlySet<number>
}

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

export const offsetsOf = (ranges: ReadonlyArray<Range>): Set<number> => {
  const out = new Set<number>()
  for (const r of ranges) for (let i = r.begin; i < r.end; i++) out.add(i)
  return out
}

/** Mean character F1 over posts of the offsets `predict` gives. */
export const meanSpanF1 = (posts: ReadonlyArray<SpanPost>, predict: (text: string) => ReadonlySet<number>): number => {
  let sum = 0
  for (const t of posts) sum += postSpanF1(predict(t.text), t.offsets)
  return sum / Math.max(1, posts.length)
}

/**
 * The characters the comment scorer's objectionable phrases cover, each phrase at its first
 * occurrence (a quote names a phrase, not a position: a repeated word is counted once).
 */
export const objectionableOffsets = (model: AttributeModelService, text: string, spans?: SpanModelService): Set<number> => {
  const r = scoreComment(model, { comment: text, replyTo: null, article }, undefined, spans === undefined ? {} : { spans })
  const out = new Set<number>()
  for (const o of r.objectionable_phrases) {
    const at = text.indexOf(o.quoted_objectionable_phrase)
    for (let i = at; i >= 0 && i < at + o.quoted_objectionable_phrase.length; i++) out.add(i)
  }
  return out
}

/** The dev part of the train split (a fifth of the posts, by hash of the text). */
export const isDev = (text: string): boolean => D.hash32(`spans-dev:${text}`) % 5 === 0

/**
 * The toxic-span train split (`all`) without any post whose text is also in the trial split (the
 * test: its texts only are read, to keep a copy of a test post out of training), divided into
 * train and dev by `isDev`.
 */
export const trainDevPosts = (dir: string) => {
  const all = toxicSpans(dir, "train")
  const trialTexts = new Set(toxicSpans(dir, "trial").map((t) => t.text))
  const usable = all.filter((p) => !trialTexts.has(p.text))
  return { all, usable, train: usable.filter((p) => !isDev(p.text)), dev: usable.filter((p) => isDev(p.text)) }
}

// ---------------------------------------------------------------- training

export interface SpanRecipe {
  readonly bits: number
  readonly epochs: number
  readonly learningRate: number
  readonly l2: number
  readonly seed: number
  /** Average the weights of the epochs from this one on (`TrainOptions.averageFrom`). */
  readonly averageFrom?: number | undefined
}

/**
 * Context features beyond `contextSlots`, for experiments (`run.mjs spansstack --features`); the
 * shipped tagger has none (its runtime scores `contextSlots` only). `prepare` is called once per
 * post and returns the writer of word `i`'s `count` slots from `out[at]`.
 */
export interface ExtraContext {
  readonly count: number
  readonly prepare: (text: string, tokens: ReadonlyArray<Token>, hashes: ArrayLike<number>) => (i: number, mask: number, out: Int32Array, at: number) => void
}

/**
 * A word this strong is quoted even when the toxicity heads find nothing objectionable: chosen with
 * `run.mjs spansdev --rules` on dev against quotes on C3's constructive comments of its training
 * articles (4,791), as the level with the best dev F1 that quotes in at most about 10% of them
 * (spans-2026.11.3: 0.75 gives 0.6156 at 9.35%; 0.5 0.6210 at 10.69%; 2, the level of 2026.11.2,
 * 0.5956 at 5.39%). No level reaches 0.65 on dev below 15%.
 */
export const SPAN_CONFIDENT = 0.75

export const SPAN_RECIPE: SpanRecipe = { bits: 18, epochs: 12, learningRate: 0.01, l2: 1e-6, seed: 17 }

/** A word is toxic for training when more than half of its characters are in gold spans. */
export const wordLabels = (post: SpanPost, tokens: ReturnType<typeof tokenize>): Array<number> =>
  tokens.map((t) => {
    let inside = 0
    for (let i = t.begin; i < t.end; i++) if (post.offsets.has(i)) inside++
    return inside * 2 > t.end - t.begin ? 1 : 0
  })

/** Train the tagger's weights (deterministic: fixed seed, fixed order). */
export const trainTagger = (
  posts: ReadonlyArray<SpanPost>,
  recipe: SpanRecipe = SPAN_RECIPE,
  negatives: ReadonlyArray<string> = [],
  negativeWeight = 1,
  extra?: ExtraContext
): { weights: Float32Array; bias: number } => {
  const mask = (1 << recipe.bits) - 1
  const X = new SparseMatrix()
  const targets: Array<number> = []
  const rowWeights: Array<number> = []
  const idx: Array<number> = []
  const val: Array<number> = []
  const features = new WordFeatureHashes()
  const slotCount = CONTEXT_SLOTS + (extra?.count ?? 0)
  const slots = new Int32Array(slotCount)
  const none: ReadonlySet<number> = new Set()
  const all = [...posts, ...negatives.map((text) => ({ text, offsets: none }))]
  for (let p = 0; p < all.length; p++) {
    const post = all[p]!
    const w = p < posts.length ? 1 : negativeWeight
    const tokens = tokenize(post.text)
    const labels = wordLabels(post, tokens)
    const hashes = tokens.map((t) => keyHash(t.key))
    const more = extra?.prepare(post.text, tokens, hashes)
    for (let i = 0; i < tokens.length; i++) {
      idx.length = 0
      val.length = 0
      const { hashes: own, count } = features.of(tokens[i]!)
      for (let k = 0; k < count; k++) {
        idx.push(own[k]! & mask)
        val.push(1)
      }
      contextSlots(post.text, tokens, hashes, i, mask, slots)
      more?.(i, mask, slots, CONTEXT_SLOTS)
      for (let k = 0; k < slotCount; k++) {
        idx.push(slots[k]!)
        val.push(1)
      }
      X.push(idx, val, idx.length)
      targets.push(labels[i]!)
      rowWeights.push(w)
    }
  }
  const m = trainLogistic(X, Float32Array.from(targets), Float32Array.from(rowWeights), recipe)
  return { weights: m.weights, bias: m.bias }
}

const THRESHOLDS = [-2, -1.75, -1.5, -1.25, -1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1]
/** 99: no limit relative to the strongest word. */
const RELATIVES = [99, 3, 2.5, 2, 1.75, 1.5, 1.25, 1]
/** 99: no gap filling. */
const GAPS = [99, -4, -3, -2.5, -2, -1.5, -1.25, -1, -0.75]
const NONES = [-99, -4, -3, -2.5, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2]

/** The decoding rules with the best mean character F1 on `posts` (ties: the first in grid order). */
export const chooseDecode = (tagger: SpanWeights, posts: ReadonlyArray<SpanPost>): { decode: SpanDecode; f1: number } => {
  const scored = posts.map((p) => {
    const tokens = tokenize(p.text)
    return { post: p, tokens, scores: tagger.score(p.text, tokens) }
  })
  let best: { decode: SpanDecode; f1: number } = { decode: { threshold: 0, gap: 99, none: -99, confident: SPAN_CONFIDENT, contextMax: 99 }, f1: -1 }
  for (const threshold of THRESHOLDS) {
    for (const relative of RELATIVES) {
    for (const gap of GAPS) {
      if (gap >= threshold && gap !== 99) continue
      for (const none of NONES) {
        const decode = { threshold, relative, gap, none, confident: SPAN_CONFIDENT, contextMax: 99 }
        let sum = 0
        for (const s of scored) sum += postSpanF1(offsetsOf(decodeSpans(s.tokens, s.scores, decode)), s.post.offsets)
        const f1 = sum / Math.max(1, scored.length)
        if (f1 > best.f1) best = { decode, f1 }
      }
    }
    }
  }
  return best
}

/** The weight file's bytes: little-endian float32. */
export const weightBytes = (weights: Float32Array): Uint8Array => {
  const out = new Uint8Array(weights.length * 4)
  const view = new DataView(out.buffer)
  for (let i = 0; i < weights.length; i++) view.setFloat32(i * 4, weights[i]!, true)
  return out
}

export interface TrainedTagger {
  readonly manifest: SpanManifest
  readonly bytes: Uint8Array
  readonly tagger: SpanWeights
}

/** Train on `train`, choose the decoding on `dev`: the manifest and weight file `run.mjs spans` writes. */
export const buildTagger = (
  train: ReadonlyArray<SpanPost>,
  dev: ReadonlyArray<SpanPost>,
  recipe: SpanRecipe = SPAN_RECIPE,
  version = SPAN_VERSION,
  negatives: ReadonlyArray<string> = [],
  negativeWeight = 1
): TrainedTagger => {
  const { weights, bias } = trainTagger(train, recipe, negatives, negativeWeight)
  const bytes = weightBytes(weights)
  const draft: SpanManifest = {
    format: SPAN_FORMAT,
    version,
    file: "spans.bin",
    sha256: createHash("sha256").update(bytes).digest("hex"),
    bits: recipe.bits,
    bias,
    decode: { threshold: 0, gap: 99, none: -99, confident: SPAN_CONFIDENT, contextMax: 99 },
    sources: [{ dataset: "civil-comments-toxic-spans", license: "CC0", commercial: "yes" }]
  }
  const draftTagger = new SpanWeights(draft, weights)
  const chosen = chooseDecode(draftTagger, dev)
  // the largest context share seen on the training and dev posts, rounded up to 1/16
  let contextMax = 0
  for (const text of [...train.map((p) => p.text), ...dev.map((p) => p.text), ...negatives]) {
    for (const share of draftTagger.contextShares(text, tokenize(text))) contextMax = Math.max(contextMax, share)
  }
  const manifest: SpanManifest = {
    ...draft,
    decode: { ...chosen.decode, contextMax: Math.ceil(contextMax * 16) / 16 },
    metrics: { trainPosts: train.length, devPosts: dev.length, devCharacterF1: Math.round(chosen.f1 * 10_000) / 10_000, recipe }
  }
  return { manifest, bytes, tagger: new SpanWeights(manifest, weights) }
}

// ---------------------------------------------------------------- lexicon baseline

/**
 * The simple baseline: every word whose occurrences in the training posts are inside a gold span
 * at least half of the time (seen at least twice) is quoted wherever it appears.
 */
export const lexiconBaseline = (train: ReadonlyArray<SpanPost>): ((text: string) => Set<number>) => {
  const seen = new Map<string, [number, number]>()
  for (const post of train) {
    const tokens = tokenize(post.text)
    const labels = wordLabels(post, tokens)
    tokens.forEach((t, i) => {
      const e = seen.get(t.key) ?? [0, 0]
      e[0] += labels[i]!
      e[1]++
      seen.set(t.key, e)
    })
  }
  const toxic = new Set([...seen].filter(([, [pos, n]]) => n >= 2 && pos * 2 >= n).map(([w]) => w))
  return (text) => offsetsOf(tokenize(text).filter((t) => toxic.has(t.key)))
}

// ---------------------------------------------------------------- test reads

const READS = join(MODELS_DIR, "spans-test-reads.json")
export const spanTestReads = (): Record<string, number> => (existsSync(READS) ? (JSON.parse(readFileSync(READS, "utf8")) as Record<string, number>) : {})
const recordTestRead = (version: string): number => {
  const reads = spanTestReads()
  reads[version] = (reads[version] ?? 0) + 1
  writeFileSync(READS, JSON.stringify(reads, null, 1) + "\n")
  return reads[version]!
}

/**
 * The toxic-span table of `npm run eval:commentscore` (and `run.mjs spans --dev|--test`), markdown
 * on stdout: character F1 on the dev part of the train split or on the trial split, and beside it
 * how often each quotes something in a constructive comment of C3's held-out articles (every
 * toxic-spans post is toxic, so F1 alone rewards quoting in every comment).
 */
export const spanFigures = (dir: string, split: "dev" | "test", model: AttributeModelService, shipped: SpanModelService | undefined): void => {
  const { train, dev } = trainDevPosts(dir)
  const posts = split === "test" ? toxicSpans(dir, "trial") : dev
  const c3 = D.c3(dir).filter((e) => D.hash32(e.group ?? e.id) % 10 === 9 && e.labels.CONSTRUCTIVE === 1).map((e) => e.text)
  const version = shipped?.version ?? "(no tagger)"
  const reads = split === "test" ? recordTestRead(version) : (spanTestReads()[version] ?? 0)
  const where = split === "test" ? `trial split (the test), ${posts.length} posts` : `dev part of the train split, ${posts.length} posts`
  console.log(`## Objectionable phrases: toxic-spans character F1 (SemEval-2021 metric, ${where})\n`)
  console.log(
    `Trial split read ${reads} time${reads === 1 ? "" : "s"} with ${version}${split === "test" ? " (this run included)" : ""}. ` +
      `"Alone" rows quote in every post (no decision whether to quote: every toxic-spans post is toxic); the comment scorer's rows ` +
      `score its quotes (each at its first occurrence), quoting only when the toxicity heads find the comment objectionable or the ` +
      `tagger is confident. Last column: share of the ${c3.length} constructive comments of C3's held-out articles with a quote.\n`
  )
  const rows: Array<[string, (text: string) => ReadonlySet<number>]> = []
  if (shipped !== undefined) {
    rows.push([`tagger alone (${shipped.version})`, (t) => offsetsOf(shipped.spans(t, tokenize(t)))])
  }
  rows.push(["lexicon baseline alone (words inside gold spans at least half the time in training)", lexiconBaseline(train)])
  if (shipped !== undefined) {
    rows.push([`comment scorer with the tagger (${model.version} + ${shipped.version})`, (t) => objectionableOffsets(model, t, shipped)])
  }
  rows.push([`comment scorer, the heads' cuts (${model.version}, before the tagger)`, (t) => objectionableOffsets(model, t)])
  console.log("| quotes from | character F1 | C3 constructive comments quoted |")
  console.log("|---|---|---|")
  for (const [name, predict] of rows) {
    const quoted = c3.filter((t) => predict(t).size > 0).length
    console.log(`| ${name} | ${meanSpanF1(posts, predict).toFixed(3)} | ${((100 * quoted) / Math.max(1, c3.length)).toFixed(1)}% |`)
  }
  console.log()
}

// ---------------------------------------------------------------- command

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}

const main = () => {
  const dir = dataDir()
  if (process.argv.includes("--test") || process.argv.includes("--dev")) {
    const model = fromModelSet(loadModelSet(MODELS_DIR))
    const shipped = existsSync(join(MODELS_DIR, SPAN_MANIFEST)) ? fromSpanWeights(loadSpanWeights(MODELS_DIR)) : undefined
    spanFigures(dir, process.argv.includes("--test") ? "test" : "dev", model, shipped)
    return
  }
  const check = process.argv.includes("--check")
  const out = check ? mkdtempSync(join(tmpdir(), "decorum-spans-")) : (arg("--out") ?? MODELS_DIR)
  const started = Date.now()
  const { all, usable, train, dev } = trainDevPosts(dir)
  console.error(`toxic-spans train split: ${all.length} posts, ${all.length - usable.length} also in trial left out; train ${train.length}, dev ${dev.length}`)
  const built = buildTagger(train, dev)
  writeFileSync(join(out, "spans.bin"), built.bytes)
  writeFileSync(join(out, SPAN_MANIFEST), JSON.stringify(built.manifest, null, 2) + "\n")
  console.error(`dev character F1 ${JSON.stringify(built.manifest.metrics)} decode ${JSON.stringify(built.manifest.decode)} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  if (check) {
    const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex")
    let same = true
    for (const f of ["spans.bin", SPAN_MANIFEST]) {
      const ok = existsSync(join(MODELS_DIR, f)) && sha(join(out, f)) === sha(join(MODELS_DIR, f))
      console.log(`${f}: ${ok ? "same bytes" : "DIFFERENT"}`)
      same &&= ok
    }
    if (!same) process.exitCode = 1
  } else console.error(`wrote ${out}/spans.bin and ${SPAN_MANIFEST}`)
}

if (process.argv[1]?.endsWith("spans.mjs")) main()
