/**
 * The per-language model sets (issue 28): `node packages/training/run.mjs languages train`
 * builds `packages/local/models/languages/<code>/` (manifest.json + <code>.bin) and
 * `languages/index.json` from ../shared/data; `... languages eval` (`npm run eval:languages`) reads
 * the shipped files and prints, per language and attribute, the test AUC of the model beside the
 * plain baseline trained on the same rows; `... languages bench` prints each language's load time,
 * memory and scoring cost. Options: `--only de,fr` (some languages), `--data DIR`, `--out DIR`
 * (train elsewhere; eval and bench read `--models DIR`).
 *
 * The protocol (split, what dev chooses, test read once) is in languagesData.ts and
 * docs/languages.md. The model is the English one's kind: hashed word 1-2-grams and character
 * n-grams of the normaliser's tokens (with the language's script handling, `ScriptOptions`),
 * naive-Bayes-weighted logistic regression (fit.ts), Platt calibration (calibration.ts), the same
 * weight file codec (format.ts) and runtime (ModelSet). Deterministic: the same data gives the
 * same bytes.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { ModelLabel } from "@decorum/local"
import { fitPlatt, type Calibration } from "@decorum/local/Calibration"
import { Featurizer, type FeatureConfig } from "@decorum/local/Featurizer"
import { encodeWeights, type LabelEntry, type Manifest } from "@decorum/local/ModelFormat"
import { Normalizer } from "@decorum/local/Normalizer"
import { LANGUAGE_INDEX, type LanguageIndex } from "@decorum/local"
import { loadModelSet } from "@decorum/local"
import { fitLogistic, trainPlainBaseline } from "./baseline.js"
import * as D from "./data.js"
import { rocAuc, SparseMatrix, trainLogistic, type LinearModel } from "./fit.js"
import { LANGUAGES, MIN_POSITIVES, splitOf, type LanguageData } from "./languagesData.js"
import { dataDir, JIGSAW_PREVALENCE, MODELS_DIR } from "./pipeline.js"

const log = (s: string) => process.stderr.write(s + "\n")
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex")
const round = (x: number) => Number(x.toFixed(6))
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}

/** The release date in every language's version, `local-<code>-<DATE>`. */
export const LANGUAGE_RELEASE = "2026.11.28"
export const LANGUAGES_DIR = join(MODELS_DIR, "languages")
/** The hashed feature space the featuriser hashes into; the weight files fold it to the chosen bits. */
const FEATURE_BITS = 20

/** The features dev chooses per language: the file size (bits) and the character n-gram range. */
export interface Recipe {
  readonly bits: number
  readonly charMin: number
  readonly charMax: number
  /** The featuriser's global features (length, shouting, exclamation marks, links), or none. */
  readonly globals: boolean
  /** Latin letters with diacritics kept (`ScriptOptions.accents`) or folded to their base letters. */
  readonly accents: boolean
}

/**
 * How a head is fitted: `nb`, the English heads' naive-Bayes-weighted logistic regression with
 * Adagrad (fit.ts), or `idf`, the plain baseline's weighting and solver on the same hashed
 * features: each slot scaled by its inverse document frequency on the train rows, L2-regularised
 * logistic regression to convergence with L-BFGS (baseline.ts `fitLogistic`, C = 4), the idf
 * folded into the shipped weights. The shipped head is `alpha * nb + (1 - alpha) * idf` (weights
 * and bias: one linear head, so the runtime is unchanged), alpha chosen per head on dev.
 */
export type Solver = { readonly kind: "nb"; readonly nbAlpha: number } | { readonly kind: "idf"; readonly C: number }

/** The naive-Bayes smoothing: 4 (more) was better on Spanish dev, 1 (the English heads') on Turkish; dev chooses per head. */
const NBS: ReadonlyArray<Solver> = [
  { kind: "nb", nbAlpha: 1 },
  { kind: "nb", nbAlpha: 4 }
]
/** The baseline's C (4) and one step either side. */
const IDFS: ReadonlyArray<Solver> = [
  { kind: "idf", C: 1 },
  { kind: "idf", C: 4 },
  { kind: "idf", C: 16 }
]
const ALPHAS = [1, 0.75, 0.5, 0.25, 0]

/** The better `nb` head on dev (fast: chooses the features and the file size). */
const bestNb = (X: { train: SparseMatrix; dev: SparseMatrix }, y: Float32Array, yd: Float32Array, bits: number) =>
  Math.max(...NBS.map((solver) => aucOn(scoreAll(X.dev, fitHead(X.train, y, bits, solver)), yd)))

/** Both solvers' heads on train and their best blend on dev (the first tried on a tie). */
const bestBlend = (X: { train: SparseMatrix; dev: SparseMatrix }, y: Float32Array, yd: Float32Array, bits: number) => {
  const nbs = NBS.map((solver) => ({ solver, model: fitHead(X.train, y, bits, solver) }))
  const tried = IDFS.flatMap((idfSolver) => {
    const idf = fitHead(X.train, y, bits, idfSolver)
    const C = (idfSolver as { C: number }).C
    return nbs.flatMap(({ model: nb, solver }) =>
      ALPHAS.filter((alpha) => alpha < 1 || C === 4).map((alpha) => {
        const model = blend(nb, idf, alpha)
        const zDev = scoreAll(X.dev, model)
        const name = alpha === 1 ? `nb ${(solver as { nbAlpha: number }).nbAlpha}` : `nb ${(solver as { nbAlpha: number }).nbAlpha} x ${alpha} + idf C ${C}`
        return { name, alpha, model, zDev, auc: aucOn(zDev, yd) }
      })
    )
  })
  const best = tried.reduce((a, b) => (b.auc > a.auc ? b : a))
  return { ...best, tried }
}

const blend = (a: LinearModel, b: LinearModel, alpha: number): LinearModel => {
  const weights = new Float32Array(a.weights.length)
  for (let j = 0; j < weights.length; j++) weights[j] = alpha * a.weights[j]! + (1 - alpha) * b.weights[j]!
  return { weights, bias: alpha * a.bias + (1 - alpha) * b.bias, bits: a.bits }
}

/** 20 epochs at 0.05 (the English heads: 12 at 0.1) were better on Spanish, Turkish and German dev. */
const TRAIN_BASE = { epochs: 20, learningRate: 0.05, l2: 1e-5, nbClip: 3, seed: 20261128, averageFrom: 10 } as const

/** Han text: the n-grams ending on each character run from 3 to charMax (1 and 2 are its unigrams and bigrams). */
const charRanges = (lang: LanguageData): Array<[number, number]> =>
  lang.script.ideographs === true ? [[3, 3], [3, 4], [3, 5]] : [[1, 5], [2, 5], [3, 5]]

/** Fit one head on `X`'s rows that label it. */
const fitHead = (X: SparseMatrix, y: Float32Array, bits: number, solver: Solver): LinearModel => {
  if (solver.kind === "nb") return trainLogistic(X, y, new Float32Array(X.rows).fill(1), { ...TRAIN_BASE, bits, nbAlpha: solver.nbAlpha })
  const size = 1 << bits
  const mask = size - 1
  const rows: Array<number> = []
  for (let r = 0; r < X.rows; r++) if (!Number.isNaN(y[r]!)) rows.push(r)
  // document frequency per slot over the rows, then idf as scikit-learn's smooth_idf
  const df = new Float64Array(size)
  const seen = new Int32Array(size).fill(-1)
  for (const r of rows) {
    for (let k = X.rowPtr[r]!; k < X.rowPtr[r + 1]!; k++) {
      const j = X.idx[k]! & mask
      if (seen[j] !== r) {
        seen[j] = r
        df[j]! += 1
      }
    }
  }
  const idf = new Float64Array(size)
  for (let j = 0; j < size; j++) idf[j] = Math.log((1 + rows.length) / (1 + df[j]!)) + 1
  const col = new Int32Array(X.nnz)
  const val = new Float32Array(X.nnz)
  for (let k = 0; k < X.nnz; k++) {
    const j = X.idx[k]! & mask
    col[k] = j
    val[k] = X.val[k]! * idf[j]!
  }
  const M = { rows: X.rows, rowPtr: X.rowPtr.subarray(0, X.rows + 1), col, val }
  const yy = new Float64Array(X.rows)
  for (const r of rows) yy[r] = y[r]!
  const fit = fitLogistic(M, rows, yy, { C: solver.C, gtol: 1e-4, maxIterations: 500 })
  const weights = new Float32Array(size)
  for (let j = 0; j < Math.min(size, fit.weights.length); j++) weights[j] = fit.weights[j]! * idf[j]!
  return { weights, bias: fit.bias, bits }
}

const featureConfig = (lang: LanguageData, recipe: Omit<Recipe, "bits">, maskWords: ReadonlyArray<string> | undefined): FeatureConfig => ({
  bits: FEATURE_BITS,
  charMin: recipe.charMin,
  charMax: recipe.charMax,
  // the negators are English words ("no" opens a scope in Spanish and Italian text on every
  // other line): no negation scope for the other languages
  negationScope: 0,
  globals: recipe.globals,
  script: { ...lang.script, ...(recipe.accents ? { accents: true } : {}), ...(maskWords !== undefined && maskWords.length > 0 ? { maskWords } : {}) }
})

/**
 * The words a masked token is restored to: letter-only tokens of four or more characters found
 * in at least 5 TOXICITY-positive training rows, of which at least 85% are positive, the 150 most
 * frequent (the language's own abusive words, from the training rows only).
 */
export const chooseMaskWords = (lang: LanguageData, rows: ReadonlyArray<D.Example>): Array<string> => {
  const norm = new Normalizer({ script: lang.script })
  const all = new Map<string, number>()
  const pos = new Map<string, number>()
  for (const e of rows) {
    const y = e.labels.TOXICITY
    if (y === undefined || Number.isNaN(y)) continue
    const n = norm.run(e.text)
    const seen = new Set<string>()
    for (let i = 0; i < n; i++) seen.add(norm.tokens[i]!)
    for (const t of seen) {
      if (t.length < 4 || !/^\p{L}+$/u.test(t)) continue
      all.set(t, (all.get(t) ?? 0) + 1)
      if (y >= 0.5) pos.set(t, (pos.get(t) ?? 0) + 1)
    }
  }
  return [...pos]
    .filter(([t, p]) => p >= 5 && p / all.get(t)! >= 0.85)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 150)
    .map(([t]) => t)
    .sort()
}

const featurise = (f: Featurizer, rows: ReadonlyArray<D.Example>): SparseMatrix => {
  const X = new SparseMatrix()
  for (const e of rows) {
    f.run(e.text)
    X.pushFeatures(f)
  }
  return X
}

const targets = (rows: ReadonlyArray<D.Example>, label: ModelLabel): Float32Array => {
  const y = new Float32Array(rows.length)
  rows.forEach((e, r) => {
    const v = e.labels[label]
    y[r] = v === undefined || Number.isNaN(v) ? Number.NaN : v >= 0.5 ? 1 : 0
  })
  return y
}

const scoreAll = (X: SparseMatrix, m: LinearModel): Float64Array => {
  const mask = (1 << m.bits) - 1
  const out = new Float64Array(X.rows)
  for (let r = 0; r < X.rows; r++) {
    let z = m.bias
    for (let k = X.rowPtr[r]!; k < X.rowPtr[r + 1]!; k++) z += m.weights[X.idx[k]! & mask]! * X.val[k]!
    out[r] = z
  }
  return out
}

/** AUC over the rows that label `label`. */
const aucOn = (scores: ArrayLike<number>, y: Float32Array): number => {
  const s: Array<number> = []
  const t: Array<number> = []
  for (let r = 0; r < y.length; r++) {
    if (Number.isNaN(y[r]!)) continue
    s.push(scores[r]!)
    t.push(y[r]!)
  }
  return rocAuc(s, t)
}

const positives = (rows: ReadonlyArray<D.Example>, label: ModelLabel): number => rows.filter((e) => (e.labels[label] ?? 0) >= 0.5).length
const labelled = (rows: ReadonlyArray<D.Example>, label: ModelLabel): number => rows.filter((e) => e.labels[label] !== undefined && !Number.isNaN(e.labels[label]!)).length

export interface LanguageSplits {
  readonly train: Array<D.Example>
  readonly dev: Array<D.Example>
  readonly test: Array<D.Example>
}

export const splitRows = (rows: ReadonlyArray<D.Example>): LanguageSplits => {
  const out: LanguageSplits = { train: [], dev: [], test: [] }
  for (const e of rows) if (e.text.trim() !== "") out[splitOf(e.text)].push(e)
  return out
}

/** The attributes a language trains: TOXICITY, and the others with `MIN_POSITIVES` in dev and in test. */
export const trainedLabels = (lang: LanguageData, s: LanguageSplits): Array<ModelLabel> =>
  lang.labels.filter((l) => l === "TOXICITY" || (positives(s.dev, l) >= MIN_POSITIVES && positives(s.test, l) >= MIN_POSITIVES))

/**
 * The prevalence a head is calibrated at: Jigsaw's random-sample rate of the label (`JIGSAW_PREVALENCE`,
 * 9.6% for TOXICITY), the prior of the English INSULT, PROFANITY and SEVERE_TOXICITY heads. The
 * sets' own rates are set by how they were collected (balanced, keyword-filtered), not by how
 * often a site sees such comments, so each is re-weighted to the same rate. (The English heads
 * calibrated to Perspective's enrichment of the rate, odds x 8.3, put a thank-you at 0.25-0.46 in
 * Spanish, Italian and Arabic on dev: too high for Perspective's scale, where the English model
 * gives a thank-you 0.02.)
 */
export const targetPrevalence = (label: ModelLabel): number => JIGSAW_PREVALENCE[label] ?? JIGSAW_PREVALENCE.TOXICITY!

/** Platt scaling with the rows re-weighted to prevalence `prevalence`. */
const plattAt = (z: ArrayLike<number>, y: Float32Array, prevalence: number): Calibration => {
  const zs: Array<number> = []
  const ys: Array<number> = []
  for (let r = 0; r < y.length; r++) {
    if (Number.isNaN(y[r]!)) continue
    zs.push(z[r]!)
    ys.push(y[r]!)
  }
  const rate = ys.reduce((a, b) => a + b, 0) / ys.length
  const w = ys.map((v) => (v === 1 ? prevalence / rate : (1 - prevalence) / (1 - rate)))
  const c = fitPlatt(zs, ys, w)
  return c.kind === "platt" ? { kind: "platt", a: round(c.a), b: round(c.b) } : c
}

const only = (): ReadonlyArray<LanguageData> => {
  const list = arg("--only")?.split(",")
  return list === undefined ? LANGUAGES : LANGUAGES.filter((l) => list.includes(l.code))
}

/** Train one language into `outDir/<code>/`; returns its index entry. */
const trainLanguage = (lang: LanguageData, dir: string, outDir: string) => {
  const t0 = Date.now()
  const s = splitRows(lang.rows(dir))
  const labels = trainedLabels(lang, s)
  log(`${lang.code} (${lang.name}): train ${s.train.length}, dev ${s.dev.length}, test ${s.test.length} rows`)
  for (const l of lang.labels) {
    log(`  ${l}: positives train ${positives(s.train, l)}, dev ${positives(s.dev, l)}, test ${positives(s.test, l)}${labels.includes(l) ? "" : ` -> not trained (< ${MIN_POSITIVES} in dev or test)`}`)
  }
  const maskWords = lang.maskWords ? chooseMaskWords(lang, s.train) : undefined
  if (maskWords !== undefined) log(`  mask words: ${maskWords.length} (${maskWords.slice(0, 12).join(", ")}${maskWords.length > 12 ? ", ..." : ""})`)
  // dev, 1: the features (character range, globals), on TOXICITY's better nb head at 2^18
  const yTrain = targets(s.train, "TOXICITY")
  const yDev = targets(s.dev, "TOXICITY")
  // keeping diacritics is tried where the train rows have them (Latin-script languages)
  const accented = s.train.reduce((n, e) => n + (e.text.match(/[\u00c0-\u024f]/g)?.length ?? 0), 0)
  const accentChoices = accented >= 100 ? [false, true] : [false]
  let chosen: { range: [number, number]; globals: boolean; accents: boolean; auc: number; X: { train: SparseMatrix; dev: SparseMatrix } } | undefined
  for (const range of charRanges(lang)) {
    for (const globals of [true, false]) {
      for (const accents of accentChoices) {
        const f = new Featurizer(featureConfig(lang, { charMin: range[0], charMax: range[1], globals, accents }, maskWords))
        const X = { train: featurise(f, s.train), dev: featurise(f, s.dev) }
        const auc = bestNb(X, yTrain, yDev, 18)
        log(`  dev TOXICITY AUC (nb), characters ${range[0]}-${range[1]}, ${globals ? "with" : "no"} globals, accents ${accents ? "kept" : "folded"}, 2^18: ${auc.toFixed(4)}`)
        if (chosen === undefined || auc > chosen.auc) chosen = { range, globals, accents, auc, X }
      }
    }
  }
  // dev, 2: the smallest file whose TOXICITY dev AUC is within 0.002 of 2^18's
  const X = chosen!.X
  let bits = 18
  for (const b of [16, 17]) {
    const auc = bestNb(X, yTrain, yDev, b)
    log(`  dev TOXICITY AUC (nb), 2^${b}: ${auc.toFixed(4)}`)
    if (auc >= chosen!.auc - 0.002) {
      bits = b
      break
    }
  }
  const recipe: Recipe = { bits, charMin: chosen!.range[0], charMax: chosen!.range[1], globals: chosen!.globals, accents: chosen!.accents }
  log(`  chosen: characters ${recipe.charMin}-${recipe.charMax}, ${recipe.globals ? "with" : "no"} globals, accents ${recipe.accents ? "kept" : "folded"}, 2^${recipe.bits}`)
  const features = featureConfig(lang, recipe, maskWords)
  // dev, 3: each head's blend of the two solvers; the head is fitted on train, calibrated on dev
  const columns: Array<Float32Array> = []
  const biases: Array<number> = []
  const entries: Partial<Record<ModelLabel, LabelEntry>> = {}
  for (const label of labels) {
    const yd = targets(s.dev, label)
    const best = bestBlend(X, targets(s.train, label), yd, recipe.bits)
    const prevalence = targetPrevalence(label)
    const calibration = plattAt(best.zDev, yd, prevalence)
    log(`  ${label}: dev AUC by head: ${best.tried.map((t) => `${t.name} ${t.auc.toFixed(4)}`).join("; ")} -> ${best.name}; calibrated on ${labelled(s.dev, label)} dev rows at prevalence ${(100 * prevalence).toFixed(1)}% (${JSON.stringify(calibration)})`)
    columns.push(best.model.weights)
    biases.push(best.model.bias)
    entries[label] = { kind: "trained", family: lang.code, calibration }
  }
  const bytes = encodeWeights(recipe.bits, columns, biases)
  const version = `local-${lang.code}-${LANGUAGE_RELEASE}`
  const manifest: Manifest = {
    format: 1,
    version,
    features,
    respell: {},
    families: [
      {
        name: lang.code,
        file: `${lang.code}.bin`,
        sha256: sha256(bytes),
        bits: recipe.bits,
        labels,
        sources: lang.sources,
        ...(lang.flag !== undefined ? { flag: lang.flag } : {})
      }
    ],
    labels: entries
  }
  const out = join(outDir, lang.code)
  mkdirSync(out, { recursive: true })
  writeFileSync(join(out, `${lang.code}.bin`), bytes)
  writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n")
  log(`  wrote ${out}: ${lang.code}.bin ${bytes.length} bytes, ${((Date.now() - t0) / 1000).toFixed(0)} s`)
  return { version, labels }
}

const train = () => {
  const dir = dataDir()
  const outDir = arg("--out") ?? LANGUAGES_DIR
  mkdirSync(outDir, { recursive: true })
  const indexPath = join(outDir, LANGUAGE_INDEX)
  const previous: LanguageIndex = existsSync(indexPath) ? (JSON.parse(readFileSync(indexPath, "utf8")) as LanguageIndex) : { format: 1, languages: {} }
  const languages: Record<string, LanguageIndex["languages"][string]> = { ...previous.languages }
  for (const lang of only()) {
    const { labels, version } = trainLanguage(lang, dir, outDir)
    languages[lang.code] = { version, labels, directory: lang.code }
  }
  // index order: the order of LANGUAGES
  const ordered: Record<string, LanguageIndex["languages"][string]> = {}
  for (const l of LANGUAGES) if (languages[l.code] !== undefined) ordered[l.code] = languages[l.code]!
  const index: LanguageIndex = { format: 1, languages: ordered }
  writeFileSync(indexPath, JSON.stringify(index, null, 1) + "\n")
  log(`wrote ${indexPath}`)
}

const fmt = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(4))

/**
 * The model beside the plain baseline (trained on the same train rows) on one split: `test` for
 * `eval` (read once, for the report), `dev` for `dev` (choices: where the model trails the
 * baseline on dev, the recipe changes, never the rule).
 */
const evaluate = (split: "dev" | "test") => {
  const dir = dataDir()
  const models = arg("--models") ?? LANGUAGES_DIR
  const lines: Array<string> = [
    `| language | attribute | train rows | ${split} rows | ${split} positives | model AUC | baseline AUC | model - baseline | weights |`,
    "|---|---|---:|---:|---:|---:|---:|---:|---:|"
  ]
  let failures = 0
  let done = 0
  for (const lang of only()) {
    const path = join(models, lang.code)
    if (!existsSync(join(path, "manifest.json"))) {
      log(`${lang.code}: no model in ${path} (run.mjs languages train)`)
      failures++
      continue
    }
    const set = loadModelSet(path)
    const s = splitRows(lang.rows(dir))
    const labels = set.labels
    const t0 = Date.now()
    const baseline = trainPlainBaseline(
      s.train.map((e) => ({ text: e.text, labels: e.labels })),
      labels,
      { charMin: 1, log: (m) => log(`  ${lang.code} ${m}`) }
    )
    log(`${lang.code}: baseline trained in ${((Date.now() - t0) / 1000).toFixed(0)} s`)
    const rowsOf = s[split]
    const texts = rowsOf.map((e) => e.text)
    const base = baseline.score(texts)
    const size = statSync(join(path, set.manifest.families[0]!.file)).size
    for (const label of labels) {
      const y = targets(rowsOf, label)
      const mine = texts.map((t) => set.score(t, [label])[label]!)
      const a = aucOn(mine, y)
      const b = aucOn(base.get(label)!, y)
      if (!(a >= b)) failures++
      lines.push(`| ${lang.code} | ${label} | ${labelled(s.train, label)} | ${labelled(rowsOf, label)} | ${positives(rowsOf, label)} | ${fmt(a)} | ${fmt(b)} | ${(a - b >= 0 ? "+" : "") + (a - b).toFixed(4)} | ${(size / 1024).toFixed(0)} KiB |`)
      // a language trained on more than one set: each set's test rows on their own too
      const sources = [...new Set(rowsOf.map((e) => e.source))]
      if (sources.length > 1) {
        for (const src of sources) {
          const idx = rowsOf.map((e, i) => (e.source === src ? i : -1)).filter((i) => i >= 0)
          const ys = Float32Array.from(idx.map((i) => y[i]!))
          const as = aucOn(idx.map((i) => mine[i]!), ys)
          const bs = aucOn(idx.map((i) => base.get(label)![i]!), ys)
          lines.push(`| ${lang.code} (${src} only) | ${label} |  | ${idx.filter((i) => !Number.isNaN(y[i]!)).length} | ${idx.filter((i) => y[i]! >= 0.5).length} | ${fmt(as)} | ${fmt(bs)} | ${Number.isNaN(as - bs) ? "n/a" : (as - bs >= 0 ? "+" : "") + (as - bs).toFixed(4)} |  |`)
        }
      }
    }
    log(lines.slice(2 + done).join("\n"))
    done = lines.length - 2
  }
  console.log("\n" + lines.join("\n"))
  console.log(failures === 0 ? `\nevery language scores at least its plain baseline on the ${split} split` : `\n${failures} language attribute(s) below the plain baseline on the ${split} split (or missing)`)
  process.exitCode = failures === 0 ? 0 : 1
}

/** Load time, memory and scoring cost of each language's set, in this process, one after the other. */
const bench = () => {
  const models = arg("--models") ?? LANGUAGES_DIR
  const sample = ["Das ist ein Test", "你是个傻逼", "Ты тупой урод", "तुम बेवकूफ़ हो", "이 새끼야", "أنت غبي", "Sei un coglione di merda"]
  console.log("| language | weight file | load (ms) | memory after load (MiB, heap + array buffers) | score (µs per comment) |")
  console.log("|---|---:|---:|---:|---:|")
  for (const lang of only()) {
    const path = join(models, lang.code)
    if (!existsSync(join(path, "manifest.json"))) continue
    const before = process.memoryUsage()
    const t0 = process.hrtime.bigint()
    const set = loadModelSet(path)
    const loadMs = Number(process.hrtime.bigint() - t0) / 1e6
    const after = process.memoryUsage()
    const mem = (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 1048576
    const n = 2000
    const t1 = process.hrtime.bigint()
    for (let i = 0; i < n; i++) set.score(sample[i % sample.length]!, set.labels)
    const us = Number(process.hrtime.bigint() - t1) / 1e3 / n
    const size = statSync(join(path, set.manifest.families[0]!.file)).size
    console.log(`| ${lang.code} | ${(size / 1024).toFixed(0)} KiB | ${loadMs.toFixed(1)} | ${mem.toFixed(1)} | ${us.toFixed(1)} |`)
  }
}

const command = process.argv[2]
if (command === "train") train()
else if (command === "eval") evaluate("test")
else if (command === "dev") evaluate("dev")
else if (command === "bench") bench()
else {
  console.error("usage: run.mjs languages train|dev|eval|bench [--only de,fr] [--data DIR] [--out DIR | --models DIR]")
  process.exitCode = 2
}
