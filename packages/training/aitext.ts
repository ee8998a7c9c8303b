/**
 * The AI-written-text detector: training (`trainAiText`), and its evaluation beside a plain
 * TF-IDF logistic regression trained on the same rows (`evaluate`, called by `npm run
 * eval:evaluations` and by `run.mjs aitext --eval`).
 *
 * Training: mine the LLM and human word lists from the training rows (`mineLexicon`), featurise
 * (`internal/aitext/features.ts`), standardise the named features on the training rows, fit an
 * L2 logistic regression (L-BFGS, `baseline.ts`'s solver) with each source's two classes weighted
 * equally, Platt-calibrate on dev with the classes weighted equally, choose the threshold on that
 * scale (the lowest, from 0.5 up, at which at most `fpr` of the human dev texts of 15 words or more
 * are called machine-written), and move the calibration's intercept so that this threshold is a
 * likelihood of 0.5: the likelihood is then calibrated for a prior of `1 - threshold` machine-written
 * texts (manifest `prior`), and 0.5 is the decision point.
 *
 * Protocols (`evaluate`), each training both models on the same rows:
 * - in-domain: train split, dev split (calibration and threshold), test split of every source;
 * - cross-generator: one L2R generator left out of training and dev (GPT-3.5 also takes GRiD out,
 *   GRiD being GPT-3.5), tested on the L2R test split's human texts and that generator's rewrites;
 * - cross-domain: five L2R domains left out of training and dev (three folds cover the fifteen),
 *   tested on every row of those domains.
 */
import { createHash } from "node:crypto"
import { fitPlatt } from "@decorum/local/Calibration"
import { applyCalibration, type Calibration, logit } from "@decorum/local/Calibration"
import { DENSE, DENSE_SLOTS, FEATURE_NAMES, featurise, FUNCTION_WORDS, type Lexicon } from "@decorum/local/AiTextFormat"
import { type AiTextManifest, AiTextWeights } from "@decorum/local/AiTextFormat"
import { encodeWeights, type SourceRef } from "@decorum/local/ModelFormat"
import { tokenize } from "@decorum/local/Words"
import { type AiRow, type AiSource, aiTextRows, type Hc3Lists, hc3Lists } from "./aitextData.js"
import { fitLogistic, scoreTfidfRow, Tfidf, type TfidfMatrix } from "./baseline.js"
import { rocAuc } from "./fit.js"
import { dataDir } from "./pipeline.js"

export const AITEXT_VERSION = "aitext-2026.11.1"

export const AITEXT_SOURCES: ReadonlyArray<SourceRef> = [
  { dataset: "l2r-llm-rewrites", license: "CC BY 3.0 (Hao et al., ACL 2025)", commercial: "yes" },
  { dataset: "grid-gpt-reddit", license: "none stated (Reddit / OpenAI terms)", commercial: "unknown" },
  { dataset: "tweepfake", license: "none stated (Twitter terms)", commercial: "unknown" },
  { dataset: "hc3-indicating-words", license: "CC BY-SA (HC3 README); phrases stored in aitext.json", commercial: "copyleft" }
]

export interface AiTrainOptions {
  /** log2 of the weight table; 8 = the named features only, more adds hashed words. */
  readonly bits: number
  /** The character n-gram block (only with bits > 8). */
  readonly chars: boolean
  /** Inverse L2 strength (scikit-learn's C) on the mean weighted log loss. */
  readonly C: number
  /** Total weight of each source relative to its row count (its two classes weighted equally). */
  readonly sourceWeights: Readonly<Record<AiSource, number>>
  /** Mined words kept per class. */
  readonly mineTop: number
  /** Documents (both classes together) a mined word must occur in. */
  readonly mineMinDocs: number
  /** Largest share of human dev texts (15+ words) the threshold may call machine-written. */
  readonly fpr: number
  readonly halfWords: number
  /** Cap on the solver's L-BFGS iterations (the hashed blocks converge slowly; the cap is part of the recipe). */
  readonly maxIterations: number
  /** Texts under this many words have their log-odds scaled down in proportion (manifest `fullWords`). */
  readonly fullWords: number
  readonly log?: (s: string) => void
}

export const AITEXT_DEFAULTS: AiTrainOptions = {
  bits: 18,
  chars: true,
  C: 1,
  sourceWeights: { l2r: 1, grid: 1, tweepfake: 0.3 },
  mineTop: 150,
  mineMinDocs: 25,
  fpr: 0.02,
  halfWords: 20,
  maxIterations: 150,
  fullWords: 25
}

const FUNCTION_SET = new Set(FUNCTION_WORDS)

/**
 * Words whose document frequency differs most between the classes (log ratio of the smoothed
 * per-class rates, each source's classes weighted equally), among alphabetic words of three
 * letters or more that occur in `mineMinDocs` documents and in at least three domains (or every
 * domain, when the rows have fewer), mined from the L2R and GRiD rows only (chat-model text; the
 * TweepFake bots' favourite words are their accounts' topics); the HC3 phrases as given.
 */
export const mineLexicon = (all: ReadonlyArray<AiRow>, hc3: Hc3Lists, options: Pick<AiTrainOptions, "mineTop" | "mineMinDocs">): Lexicon => {
  const rows = all.filter((r) => r.source !== "tweepfake")
  const weights = classWeights(rows, { l2r: 1, grid: 1, tweepfake: 1 })
  const ai = new Map<string, number>()
  const hu = new Map<string, number>()
  const docs = new Map<string, number>()
  const domains = new Map<string, Set<string>>()
  let totalAi = 0
  let totalHu = 0
  rows.forEach((r, i) => {
    const w = weights[i]!
    if (r.label === 1) totalAi += w
    else totalHu += w
    const seen = new Set<string>()
    for (const t of tokenize(r.text)) if (/^[a-z]{3,}$/.test(t.lower) && !FUNCTION_SET.has(t.lower)) seen.add(t.lower)
    for (const word of seen) {
      const m = r.label === 1 ? ai : hu
      m.set(word, (m.get(word) ?? 0) + w)
      docs.set(word, (docs.get(word) ?? 0) + 1)
      let d = domains.get(word)
      if (d === undefined) domains.set(word, (d = new Set()))
      d.add(r.domain)
    }
  })
  const minDomains = Math.min(3, new Set(rows.map((r) => r.domain)).size)
  const alpha = 1
  const scored: Array<[string, number]> = []
  for (const [word, d] of docs) {
    if (d < options.mineMinDocs || domains.get(word)!.size < minDomains) continue
    const ra = ((ai.get(word) ?? 0) + alpha) / (totalAi + 2 * alpha)
    const rh = ((hu.get(word) ?? 0) + alpha) / (totalHu + 2 * alpha)
    scored.push([word, Math.log(ra / rh)])
  }
  const round = (x: number) => Math.round(x * 1000) / 1000
  const top = (sign: number) =>
    Object.fromEntries(
      scored.filter(([, r]) => sign * r > Math.log(2)).sort((a, b) => sign * (b[1] - a[1]) || (a[0] < b[0] ? -1 : 1)).slice(0, options.mineTop).map(([w, r]) => [w, round(sign * r)])
    )
  return { llmWords: top(1), humanWords: top(-1), llmPhrases: hc3.llm, humanPhrases: hc3.human }
}

/** Each source's rows weigh `sourceWeights[source]` per row on average, its two classes equally. */
export const classWeights = (rows: ReadonlyArray<AiRow>, sourceWeights: Readonly<Record<AiSource, number>>): Float64Array => {
  const count = new Map<string, number>()
  const total = new Map<string, number>()
  for (const r of rows) {
    count.set(`${r.source}:${r.label}`, (count.get(`${r.source}:${r.label}`) ?? 0) + 1)
    total.set(r.source, (total.get(r.source) ?? 0) + 1)
  }
  return Float64Array.from(rows, (r) => {
    const c = count.get(`${r.source}:${r.label}`)!
    const both = count.has(`${r.source}:${1 - r.label}`)
    return (sourceWeights[r.source] * total.get(r.source)!) / ((both ? 2 : 1) * c)
  })
}

const wordCount = (text: string) => tokenize(text).length

/** The lowest threshold from 0.5 up at which at most `fpr` of the human texts of 15+ words score at or above it. */
export const chooseThreshold = (p: ArrayLike<number>, rows: ReadonlyArray<AiRow>, fpr: number): number => {
  const human: Array<number> = []
  rows.forEach((r, i) => {
    if (r.label === 0 && wordCount(r.text) >= 15) human.push(p[i]!)
  })
  for (let k = 50; k < 100; k++) {
    const flagged = human.filter((x) => x >= k / 100).length / Math.max(human.length, 1)
    if (flagged <= fpr) return k / 100
  }
  return 0.99
}

export interface TrainedAiText {
  readonly manifest: AiTextManifest
  readonly bytes: Uint8Array
  readonly weights: AiTextWeights
}

export const trainAiText = (
  train: ReadonlyArray<AiRow>,
  dev: ReadonlyArray<AiRow>,
  hc3: Hc3Lists,
  options: AiTrainOptions = AITEXT_DEFAULTS,
  version = AITEXT_VERSION,
  metrics?: Readonly<Record<string, unknown>>
): TrainedAiText => {
  const log = options.log ?? (() => {})
  const t0 = Date.now()
  const lexicon = mineLexicon(train, hc3, options)
  const feats = train.map((r) => featurise(r.text, lexicon, options.bits, options.chars))
  // standardisation on the training rows
  const mean = new Float64Array(DENSE)
  const scale = new Float64Array(DENSE)
  for (const f of feats) for (let i = 0; i < DENSE; i++) mean[i]! += f.dense[i]! / feats.length
  for (const f of feats) for (let i = 0; i < DENSE; i++) scale[i]! += (f.dense[i]! - mean[i]!) ** 2 / feats.length
  for (let i = 0; i < DENSE; i++) scale[i] = Math.sqrt(scale[i]!)
  const round6 = (x: number) => Number(x.toPrecision(6))
  const provisional: AiTextManifest = {
    format: 1, version, file: "aitext.bin", sha256: "", bits: options.bits, chars: options.chars, features: FEATURE_NAMES,
    mean: Array.from(mean, round6), scale: Array.from(scale, round6), calibration: { kind: "platt", a: 1, b: 0 },
    threshold: 0.5, confidence: { halfWords: options.halfWords }, fullWords: options.fullWords, lexicon, sources: AITEXT_SOURCES
  }
  const empty = encodeWeights(options.bits, [new Float32Array(1 << options.bits)], [0])
  const standard = new AiTextWeights(provisional, empty)
  // design matrix: standardised named features, then hashed words
  const rowPtr = new Int32Array(feats.length + 1)
  const cols: Array<number> = []
  const vals: Array<number> = []
  feats.forEach((f, r) => {
    const z = standard.standardise(f.dense)
    for (let i = 0; i < DENSE; i++) {
      if (z[i] !== 0) {
        cols.push(i)
        vals.push(z[i]!)
      }
    }
    for (let k = 0; k < f.slots.length; k++) {
      cols.push(f.slots[k]!)
      vals.push(f.values[k]!)
    }
    rowPtr[r + 1] = cols.length
  })
  // the solver sizes its weights by the largest column present: pin the table's last slot with a zero
  const size = 1 << Math.max(options.bits, 8)
  if (!cols.includes(size - 1) && feats.length > 0) {
    cols.push(size - 1)
    vals.push(0)
    rowPtr[feats.length] = cols.length
  }
  const X: TfidfMatrix = { rows: feats.length, rowPtr, col: Int32Array.from(cols), val: Float32Array.from(vals) }
  const y = Float64Array.from(train, (r) => r.label)
  const sw = classWeights(train, options.sourceWeights)
  const fit = fitLogistic(X, Array.from({ length: train.length }, (_, i) => i), y, { C: options.C, sampleWeight: sw, maxIterations: options.maxIterations })
  log(`aitext: ${train.length} rows, ${DENSE} named features, 2^${options.bits} slots, ${fit.iterations} L-BFGS iterations${fit.converged ? "" : " (not converged)"}, ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  const w = new Float32Array(size)
  for (let j = 0; j < Math.min(size, fit.weights.length); j++) w[j] = fit.weights[j]!
  const bytes = encodeWeights(options.bits, [w], [fit.bias])
  const raw = new AiTextWeights(provisional, bytes)
  // calibration and threshold on dev
  const zDev = dev.map((r) => {
    const f = featurise(r.text, lexicon, options.bits, options.chars)
    return raw.damp(raw.logOdds(f), f.words)
  })
  const balanced = fitPlatt(zDev, Float64Array.from(dev, (r) => r.label), classWeights(dev, { l2r: 1, grid: 1, tweepfake: 1 }))
  const pDev = zDev.map((z) => applyCalibration(balanced, z))
  // the threshold on the balanced scale, then the prior at which it is 0.5: a likelihood of 0.5 or
  // more is then a text the rule calls machine-written
  const balancedThreshold = chooseThreshold(pDev, dev, options.fpr)
  const calibration = balanced.kind === "platt" ? { ...balanced, b: balanced.b - logit(balancedThreshold) } : balanced
  const manifest: AiTextManifest = {
    ...provisional,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    calibration: roundCalibration(calibration),
    threshold: 0.5,
    prior: Math.round((1 - balancedThreshold) * 100) / 100,
    ...(metrics === undefined ? {} : { metrics })
  }
  return { manifest, bytes, weights: new AiTextWeights(manifest, bytes) }
}

const roundCalibration = (c: Calibration): Calibration => (c.kind === "platt" ? { kind: "platt", a: Number(c.a.toPrecision(8)), b: Number(c.b.toPrecision(8)) } : c)

// ---------------------------------------------------------------- the plain baseline

export interface Scorer {
  /** Likelihood of each text. */
  readonly score: (texts: ReadonlyArray<string>) => Float64Array
  readonly threshold: number
}

/** TF-IDF (word 1-2 + char_wb 2-5) logistic regression, C=4, the same rows, weights, calibration and threshold rule. */
export const trainTfidfBaseline = (train: ReadonlyArray<AiRow>, dev: ReadonlyArray<AiRow>, options: AiTrainOptions = AITEXT_DEFAULTS): Scorer => {
  const t0 = Date.now()
  const tfidf = Tfidf.fit(train.map((r) => r.text))
  const X = tfidf.transform(train.map((r) => r.text))
  const fit = fitLogistic(X, Array.from({ length: train.length }, (_, i) => i), Float64Array.from(train, (r) => r.label), {
    C: 4,
    sampleWeight: classWeights(train, options.sourceWeights)
  })
  const raw = (texts: ReadonlyArray<string>) => {
    const M = tfidf.transform(texts)
    return Float64Array.from({ length: texts.length }, (_, r) => scoreTfidfRow(M, r, fit))
  }
  const zDev = raw(dev.map((r) => r.text))
  const calibration = fitPlatt(zDev, Float64Array.from(dev, (r) => r.label), classWeights(dev, { l2r: 1, grid: 1, tweepfake: 1 }))
  const pDev = Float64Array.from(zDev, (z) => applyCalibration(calibration, z))
  options.log?.(`baseline: ${tfidf.columns} columns, ${fit.iterations} L-BFGS iterations${fit.converged ? "" : " (not converged)"}, ${((Date.now() - t0) / 1000).toFixed(0)} s`)
  return { score: (texts) => Float64Array.from(raw(texts), (z) => applyCalibration(calibration, z)), threshold: chooseThreshold(pDev, dev, options.fpr) }
}

export const detectorScorer = (t: TrainedAiText): Scorer => ({
  score: (texts) => Float64Array.from(texts, (x) => t.weights.analyse(x).likelihood),
  threshold: t.manifest.threshold
})

// ---------------------------------------------------------------- metrics

export interface Figures {
  readonly rows: number
  readonly ai: number
  readonly auc: number
  readonly accuracy: number
  readonly f1: number
  /** Share of the human rows called machine-written. */
  readonly fpr: number
}

export const figures = (p: ArrayLike<number>, y: ArrayLike<number>, threshold: number): Figures => {
  let tp = 0
  let fp = 0
  let fn = 0
  let tn = 0
  for (let i = 0; i < p.length; i++) {
    const call = p[i]! >= threshold
    if (y[i] === 1) call ? tp++ : fn++
    else call ? fp++ : tn++
  }
  return {
    rows: p.length,
    ai: tp + fn,
    auc: rocAuc(p, y),
    accuracy: (tp + tn) / Math.max(p.length, 1),
    f1: tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn),
    fpr: fp / Math.max(fp + tn, 1)
  }
}

export const LENGTH_BUCKETS: ReadonlyArray<readonly [string, number, number]> = [
  ["<15 words", 0, 15],
  ["15-49", 15, 50],
  ["50-149", 50, 150],
  ["150+", 150, Infinity]
]

const f3 = (x: number) => (Number.isNaN(x) ? "  -  " : x.toFixed(3))

const line = (name: string, ours: Figures, base: Figures) =>
  `| ${name} | ${ours.rows} (${ours.ai} AI) | ${f3(ours.auc)} | ${f3(base.auc)} | ${f3(ours.accuracy)} | ${f3(base.accuracy)} | ${f3(ours.f1)} | ${f3(base.f1)} | ${f3(ours.fpr)} | ${f3(base.fpr)} |`

const HEADER = [
  "| test set | rows | AUC ours | AUC TF-IDF | acc ours | acc TF-IDF | F1 ours | F1 TF-IDF | human flagged ours | human flagged TF-IDF |",
  "|---|---|---|---|---|---|---|---|---|---|"
]

interface Scored {
  readonly rows: ReadonlyArray<AiRow>
  readonly ours: Float64Array
  readonly base: Float64Array
  readonly oursThreshold: ReadonlyArray<number>
  readonly baseThreshold: ReadonlyArray<number>
}

/** Figures of a subset of scored rows (each row judged at its own fold's thresholds). */
const subset = (s: Scored, keep: (r: AiRow) => boolean): { ours: Figures; base: Figures } | undefined => {
  const idx = s.rows.map((r, i) => (keep(r) ? i : -1)).filter((i) => i >= 0)
  if (idx.length === 0) return undefined
  const y = idx.map((i) => s.rows[i]!.label)
  // a row is called at its fold's threshold: compare the margin to 0 with the threshold moved to 0.5
  const shift = (p: ArrayLike<number>, t: ReadonlyArray<number>) => idx.map((i) => p[i]! - t[i]! + 0.5)
  const auc = (p: ArrayLike<number>) => rocAuc(idx.map((i) => p[i]!), y)
  const o = figures(shift(s.ours, s.oursThreshold), y, 0.5)
  const b = figures(shift(s.base, s.baseThreshold), y, 0.5)
  return { ours: { ...o, auc: auc(s.ours) }, base: { ...b, auc: auc(s.base) } }
}

const runProtocol = (
  name: string,
  train: ReadonlyArray<AiRow>,
  dev: ReadonlyArray<AiRow>,
  test: ReadonlyArray<AiRow>,
  hc3: Hc3Lists,
  options: AiTrainOptions,
  withBaseline: boolean,
  trained?: TrainedAiText
): Scored => {
  const log = options.log ?? (() => {})
  log(`${name}: training on ${train.length} rows, dev ${dev.length}, test ${test.length}`)
  const ours = trained ?? trainAiText(train, dev, hc3, options)
  const texts = test.map((r) => r.text)
  const oursScores = detectorScorer(ours).score(texts)
  const base = withBaseline ? trainTfidfBaseline(train, dev, options) : { score: () => oursScores.map(() => 0.5), threshold: 0.5 }
  return {
    rows: test,
    ours: oursScores,
    base: base.score(texts),
    oursThreshold: test.map(() => ours.manifest.threshold),
    baseThreshold: test.map(() => base.threshold)
  }
}

const concat = (parts: ReadonlyArray<Scored>): Scored => ({
  rows: parts.flatMap((p) => p.rows),
  ours: Float64Array.from(parts.flatMap((p) => Array.from(p.ours))),
  base: Float64Array.from(parts.flatMap((p) => Array.from(p.base))),
  oursThreshold: parts.flatMap((p) => p.oursThreshold),
  baseThreshold: parts.flatMap((p) => p.baseThreshold)
})

export const L2R_GENERATORS = ["GPT-3-Turbo", "GPT-4o", "Llama-3-70B"] as const

/** The three folds of five L2R domains each (domains in alphabetical order, every third). */
export const domainFolds = (rows: ReadonlyArray<AiRow>): Array<Array<string>> => {
  const domains = [...new Set(rows.filter((r) => r.source === "l2r").map((r) => r.domain))].sort()
  return [0, 1, 2].map((k) => domains.filter((_, i) => i % 3 === k))
}

/**
 * Print the detector beside the plain TF-IDF baseline: in-domain, cross-generator and
 * cross-domain, each by length too. Reads ../shared/data (or `--data DIR`).
 */
export const evaluate = async (
  options: AiTrainOptions = { ...AITEXT_DEFAULTS, log: (s) => process.stderr.write(s + "\n") },
  { baseline = true, inDomain: trainedInDomain }: {
    readonly baseline?: boolean
    /** The detector already trained on the train split with these options (saves training it again). */
    readonly inDomain?: TrainedAiText
  } = {}
): Promise<void> => {
  const dir = dataDir()
  const rows = aiTextRows(dir)
  const hc3 = hc3Lists(dir)
  const out: Array<string> = []
  const print = (s: string) => {
    out.push(s)
    console.log(s)
  }
  const table = (title: string, entries: ReadonlyArray<readonly [string, Scored, (r: AiRow) => boolean]>) => {
    print(`\n### ${title}\n`)
    for (const h of HEADER) print(h)
    for (const [name, s, keep] of entries) {
      const f = subset(s, keep)
      if (f !== undefined) print(line(name, f.ours, f.base))
    }
  }
  const words = new Map<string, number>()
  const wc = (r: AiRow) => {
    let n = words.get(r.text)
    if (n === undefined) words.set(r.text, (n = wordCount(r.text)))
    return n
  }
  const byLength = (s: Scored, prefix = ""): Array<readonly [string, Scored, (r: AiRow) => boolean]> =>
    LENGTH_BUCKETS.map(([name, lo, hi]) => [`${prefix}length ${name}`, s, (r: AiRow) => wc(r) >= lo && wc(r) < hi] as const)
  print(`## AI-written text: ${AITEXT_VERSION} recipe (bits ${options.bits}${options.chars ? " + characters" : ""}, C ${options.C}, source weights ${JSON.stringify(options.sourceWeights)}, threshold rule: at most ${options.fpr} of dev human texts of 15+ words flagged) beside TF-IDF word 1-2 + char_wb 2-5 logistic regression (C 4), same rows and weights`)
  print("Accuracy, F1 and human flagged are at each model's own threshold, chosen on its dev rows by the same rule.")

  // in-domain
  const split = (s: string) => rows.filter((r) => r.split === s)
  const inDomain = runProtocol("in-domain", split("train"), split("dev"), split("test"), hc3, options, baseline, trainedInDomain)
  const all = () => true
  table("In-domain (test split of every source; L2R split by human text with its rewrites)", [
    ["all", inDomain, all],
    ["l2r", inDomain, (r) => r.source === "l2r"],
    ["grid (GPT-3.5 Reddit)", inDomain, (r) => r.source === "grid"],
    ["tweepfake (GPT-2/RNN/Markov tweets)", inDomain, (r) => r.source === "tweepfake"],
    ["all, 15+ words", inDomain, (r) => wc(r) >= 15],
    ...byLength(inDomain)
  ])

  // cross-generator
  const gens: Array<Scored> = []
  for (const g of L2R_GENERATORS) {
    const keep = (r: AiRow) => !(r.source === "l2r" && r.generator === g) && !(g === "GPT-3-Turbo" && r.source === "grid")
    const test = rows.filter((r) => r.source === "l2r" && r.split === "test" && (r.generator === "human" || r.generator === g))
    gens.push(runProtocol(`without ${g}`, split("train").filter(keep), split("dev").filter(keep), test, hc3, options, baseline))
  }
  table("Cross-generator (L2R test split: its human texts and the rewrites of one generator left out of training and dev; leaving GPT-3.5 out also leaves GRiD out)", [
    ...L2R_GENERATORS.map((g, k) => [`unseen ${g}`, gens[k]!, all] as const),
    ...L2R_GENERATORS.flatMap((g, k) => byLength(gens[k]!, `${g}, `))
  ])

  // cross-domain
  const folds = domainFolds(rows)
  const doms: Array<Scored> = []
  for (const fold of folds) {
    const inFold = (r: AiRow) => r.source === "l2r" && fold.includes(r.domain)
    doms.push(runProtocol(`without ${fold.join(", ")}`, split("train").filter((r) => !inFold(r)), split("dev").filter((r) => !inFold(r)), rows.filter(inFold), hc3, options, baseline))
  }
  const allDoms = concat(doms)
  table("Cross-domain (every row of 5 L2R domains left out of training and dev; 3 folds cover the 15)", [
    ...folds.map((fold, k) => [`unseen ${fold.join(", ")}`, doms[k]!, all] as const),
    ["all 15 domains (pooled)", allDoms, all],
    ...L2R_GENERATORS.map((g) => [`pooled: human vs ${g}`, allDoms, (r: AiRow) => r.generator === g || r.generator === "human"] as const),
    ...byLength(allDoms)
  ])
  print("")
}
