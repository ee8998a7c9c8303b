/**
 * The per-language model sets (issue 28): `node packages/training/run.mjs languages train`
 * builds `packages/local/models/languages/<code>/` (manifest.json, <code>.bin, <code>.idf) and
 * `languages/index.json` from ../shared/data; `... languages eval` (`npm run eval:languages`) reads
 * the shipped files and prints, per language and attribute, the test AUC of the model beside the
 * plain baseline trained on the same rows; `... languages bench` prints each language's load time,
 * memory and scoring cost; `... languages score --only fr TEXT...` a language's scores of texts. Options: `--only de,fr` (some languages), `--data DIR`, `--out DIR`
 * (train elsewhere; eval and bench read `--models DIR`). Every set is versioned
 * `local-<code>-<LANGUAGE_RELEASE>` (languageRelease.ts: a new id for new weights, even the same day).
 *
 * The protocol (round 3: 3-fold cross-validation on train + dev chooses, test read once) is in
 * docs/experiments/languages-log.md and docs/languages.md. The model is the English one's kind:
 * hashed word 1-2-grams and character n-grams of the normaliser's tokens (with the language's
 * script handling, `ScriptOptions`) on the even slots, and the plain baseline's own tokens
 * (`FeatureConfig.plain`) on the odd ones, weighted by a shipped idf table before the block norms
 * (the plain baseline's TF-IDF); each head is logistic regression with L-BFGS (baseline.ts),
 * optionally blended with the naive-Bayes head (fit.ts), over either set or the log-odds average
 * of both, chosen by cross-validation; Platt calibration (calibration.ts), the same weight file
 * codec (format.ts) and runtime (ModelSet). Deterministic: the same data gives the same bytes.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import type { ModelLabel } from "@decorum/local"
import { fitPlatt, type Calibration } from "@decorum/local/Calibration"
import { Featurizer, type FeatureConfig } from "@decorum/local/Featurizer"
import { encodeIdf, encodeWeights, type LabelEntry, type Manifest } from "@decorum/local/ModelFormat"
import { Normalizer } from "@decorum/local/Normalizer"
import { LANGUAGE_INDEX, type LanguageIndex } from "@decorum/local"
import { loadModelSet } from "@decorum/local"
import { fitLogistic, trainPlainBaseline } from "./baseline.js"
import { hash32 } from "./data.js"
import * as D from "./data.js"
import { rocAuc, SparseMatrix, trainLogistic, type LinearModel } from "./fit.js"
import { filesOf, LANGUAGE_RELEASE, languageVersion, nextRelease, releaseConflict, RELEASES_FILE, type LanguageReleases } from "./languageRelease.js"
import { compact, idfOf, parityPart, type Compact } from "./languageFeatures.js"
import { inRound2Test, LANGUAGES, MIN_POSITIVES, splitOf, type LanguageData } from "./languagesData.js"
import { pairedBootstrap } from "./resample.js"
import { dataDir, JIGSAW_PREVALENCE, MODELS_DIR, TRAINING_DIR } from "./pipeline.js"

const log = (s: string) => process.stderr.write(s + "\n")
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex")
const round = (x: number) => Number(x.toFixed(6))
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}

export const LANGUAGES_DIR = join(MODELS_DIR, "languages")
/** Each released version's files and sha256 (languageRelease.ts). */
const RELEASES_PATH = join(TRAINING_DIR, RELEASES_FILE)
/** The hashed feature space the featuriser hashes into; the weight files fold it to the chosen bits. */
const FEATURE_BITS = 20

/** The normaliser's features of a language's set: the character n-gram range, globals, diacritics. */
export interface Recipe {
  readonly charMin: number
  readonly charMax: number
  /** The featuriser's global features (length, shouting, exclamation marks, links), or none. */
  readonly globals: boolean
  /** Latin letters with diacritics kept (`ScriptOptions.accents`) or folded to their base letters. */
  readonly accents: boolean
}

/**
 * Round 2's chosen recipes (3-fold CV, docs/experiments/languages-log.md): round 3's normaliser
 * features (candidate R), fixed. The baseline's tokens (candidate P) come beside them.
 */
const ROUND2: Readonly<Record<string, Recipe>> = {
  de: { charMin: 1, charMax: 5, globals: false, accents: true },
  es: { charMin: 3, charMax: 5, globals: false, accents: false },
  it: { charMin: 1, charMax: 5, globals: false, accents: true },
  tr: { charMin: 1, charMax: 5, globals: false, accents: true },
  fr: { charMin: 1, charMax: 5, globals: false, accents: true },
  ar: { charMin: 1, charMax: 5, globals: false, accents: true },
  pt: { charMin: 1, charMax: 5, globals: true, accents: false },
  hi: { charMin: 1, charMax: 5, globals: false, accents: true },
  "hi-Latn": { charMin: 2, charMax: 5, globals: true, accents: false },
  id: { charMin: 1, charMax: 5, globals: false, accents: true },
  zh: { charMin: 3, charMax: 3, globals: true, accents: false },
  ko: { charMin: 1, charMax: 5, globals: false, accents: false },
  pl: { charMin: 1, charMax: 5, globals: false, accents: true },
  ru: { charMin: 1, charMax: 5, globals: false, accents: true }
}

/** The plain baseline's tokens beside the recipe's: `\w\w+` word 1-2-grams and char_wb 1-5-grams (baseline.ts). */
const PLAIN = { charMin: 1, charMax: 5 } as const

/** The weight file sizes cross-validation chooses from (round 3), smallest first: a tie keeps the smaller. */
export const BITS = [18, 19, 20] as const

/** Cross-validation folds on train + dev (round 2 protocol, docs/experiments/languages-log.md). */
export const FOLDS = 3
export const foldOf = (text: string): number => hash32("cv28:" + text.replace(/\s+/g, " ").trim().toLowerCase()) % FOLDS

/** A head: L-BFGS logistic regression at `C` on the TF-IDF features, blended with the naive-Bayes head at `alpha`. */
interface HeadChoice {
  readonly C: number
  readonly alpha: number
}
/**
 * Tried in this order; a tie keeps the first (the baseline's solver: alpha 0, C 4). C 0.25 and
 * 0.0625 were added after the first round-2 CV run, where French's best C was the grid's lowest (1).
 */
const CS = [4, 1, 16, 0.25, 0.0625]
const ALPHAS = [0, 0.25, 0.5]

const blend = (a: LinearModel, b: LinearModel, alpha: number): LinearModel => {
  const weights = new Float32Array(a.weights.length)
  for (let j = 0; j < weights.length; j++) weights[j] = alpha * a.weights[j]! + (1 - alpha) * b.weights[j]!
  return { weights, bias: alpha * a.bias + (1 - alpha) * b.bias, bits: a.bits }
}

/** 20 epochs at 0.05 (the English heads: 12 at 0.1) were better on Spanish, Turkish and German dev (round 1). */
const TRAIN_BASE = { epochs: 20, learningRate: 0.05, l2: 1e-5, nbClip: 3, seed: 20261128, averageFrom: 10, nbAlpha: 1 } as const

/** The naive-Bayes Adagrad head on the rows with weight 1 (fit.ts). */
const fitNb = (X: SparseMatrix, y: Float32Array, use: Float32Array, bits: number): LinearModel =>
  trainLogistic(X, y, use, { ...TRAIN_BASE, bits })

/** One feature set of a language's rows: its entries (for the naive-Bayes head and scoring) and compacted (for L-BFGS). */
interface Part {
  readonly X: SparseMatrix
  readonly M: Compact
}
const partOf = (X: SparseMatrix, parity: 0 | 1, bits: number): Part => {
  const P = parityPart(X, parity)
  return { X: P, M: compact(P, bits) }
}

/** The baseline's solver (L-BFGS to convergence, baseline.ts `fitLogistic`) on the rows `rows`. */
const fitLr = (M: Compact, rows: ReadonlyArray<number>, y: Float32Array, bits: number, C: number): LinearModel => {
  const yy = new Float64Array(M.rows)
  for (const r of rows) yy[r] = y[r]!
  const fit = fitLogistic(M, rows, yy, { C, gtol: 1e-4, maxIterations: 500 })
  const weights = new Float32Array(1 << bits)
  for (let c = 0; c < fit.weights.length; c++) weights[M.slots[c]!] = fit.weights[c]!
  return { weights, bias: fit.bias, bits }
}

const featureConfig = (lang: LanguageData, recipe: Recipe, maskWords: ReadonlyArray<string> | undefined): FeatureConfig => ({
  bits: FEATURE_BITS,
  charMin: recipe.charMin,
  charMax: recipe.charMax,
  // the negators are English words ("no" opens a scope in Spanish and Italian text on every
  // other line): no negation scope for the other languages
  negationScope: 0,
  globals: recipe.globals,
  script: { ...lang.script, ...(recipe.accents ? { accents: true } : {}), ...(maskWords !== undefined && maskWords.length > 0 ? { maskWords } : {}) },
  plain: PLAIN
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
  /** train + dev: every choice is made by cross-validation on these rows. */
  readonly train: Array<D.Example>
  readonly test: Array<D.Example>
}

export const splitRows = (rows: ReadonlyArray<D.Example>): LanguageSplits => {
  const out: LanguageSplits = { train: [], test: [] }
  for (const e of rows) if (e.text.trim() !== "") out[splitOf(e.text)].push(e)
  return out
}

/** The attributes a language trains: TOXICITY, and the others with `MIN_POSITIVES` in test and twice that in train + dev. */
export const trainedLabels = (lang: LanguageData, s: LanguageSplits): Array<ModelLabel> =>
  lang.labels.filter((l) => l === "TOXICITY" || (positives(s.test, l) >= MIN_POSITIVES && positives(s.train, l) >= 2 * MIN_POSITIVES))

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

/** Mean over the folds of the AUC of `scoreFold(k)` on fold k's labelled rows. */
const meanFoldAuc = (oof: Float64Array, y: Float32Array, fold: ReadonlyArray<number>): number => {
  let sum = 0
  for (let k = 0; k < FOLDS; k++) {
    const s: Array<number> = []
    const t: Array<number> = []
    for (let r = 0; r < y.length; r++) {
      if (fold[r] !== k || Number.isNaN(y[r]!)) continue
      s.push(oof[r]!)
      t.push(y[r]!)
    }
    sum += rocAuc(s, t)
  }
  return sum / FOLDS
}

/** The rows of the folds other than `k` (all rows for k = -1) that label the head. */
const fitRows = (y: Float32Array, fold: ReadonlyArray<number>, k: number): Array<number> => {
  const rows: Array<number> = []
  for (let r = 0; r < y.length; r++) if (fold[r] !== k && !Number.isNaN(y[r]!)) rows.push(r)
  return rows
}

/** The language's featuriser and its TF-IDF rows for `recipe`: tf over the rows gives the idf, then the rows again with it. */
const tfidfRows = (lang: LanguageData, recipe: Recipe, maskWords: ReadonlyArray<string> | undefined, rows: ReadonlyArray<D.Example>, bits: number) => {
  const features = featureConfig(lang, recipe, maskWords)
  const f = new Featurizer(features)
  const idf = idfOf(featurise(f, rows), bits)
  f.useIdf(idf)
  return { features, idf, X: featurise(f, rows) }
}

/**
 * The out-of-fold log-odds of every head candidate (`CS` x `ALPHAS`) for one label; with
 * `onlyBaselineSolver`, only alpha 0, C 4 (choosing the features).
 */
const crossValidate = (X: SparseMatrix, M: Compact, y: Float32Array, fold: ReadonlyArray<number>, bits: number, onlyBaselineSolver: boolean) => {
  const candidates: Array<HeadChoice> = onlyBaselineSolver ? [{ C: 4, alpha: 0 }] : CS.flatMap((C) => ALPHAS.map((alpha) => ({ C, alpha })))
  const oof = candidates.map(() => new Float64Array(y.length))
  for (let k = 0; k < FOLDS; k++) {
    const rows = fitRows(y, fold, k)
    const use = new Float32Array(y.length)
    for (const r of rows) use[r] = 1
    const nb = onlyBaselineSolver ? undefined : fitNb(X, y, use, bits)
    const lrs = new Map<number, LinearModel>()
    candidates.forEach((c, i) => {
      if (!lrs.has(c.C)) lrs.set(c.C, fitLr(M, rows, y, bits, c.C))
      const model = c.alpha === 0 ? lrs.get(c.C)! : blend(nb!, lrs.get(c.C)!, c.alpha)
      const z = scoreAll(X, model)
      for (let r = 0; r < y.length; r++) if (fold[r] === k) oof[i]![r] = z[r]!
    })
  }
  return candidates.map((choice, i) => ({ choice, oof: oof[i]!, auc: meanFoldAuc(oof[i]!, y, fold) }))
}

const nameOf = (c: HeadChoice) => (c.alpha === 0 ? `lr C ${c.C}` : `nb x ${c.alpha} + lr C ${c.C}`)
const recipeName = (r: Recipe) => `characters ${r.charMin}-${r.charMax}, ${r.globals ? "with" : "no"} globals, accents ${r.accents ? "kept" : "folded"}`

/** A head candidate of round 3: a model of the baseline's tokens (P), of the recipe's (R), or their log-odds average (A). */
interface Tried {
  readonly kind: "P" | "R" | "A"
  readonly choice: HeadChoice
  readonly oof: Float64Array
  readonly auc: number
}
const triedName = (t: Tried, p: Tried, r: Tried) => (t.kind === "A" ? `A = (P ${nameOf(p.choice)} + R ${nameOf(r.choice)}) / 2` : `${t.kind} ${nameOf(t.choice)}`)

/**
 * Train one language into `outDir/<code>/` (round 3 protocol, docs/experiments/languages-log.md):
 * on train + dev, 3-fold CV chooses the weight file size (2^18-2^20, on TOXICITY with the
 * baseline's recipe hashed) and per head the model: the baseline's tokens (P) or round 2's recipe
 * (R), each at every C and naive-Bayes blend, or the log-odds average of the best of each (A).
 * Platt on the out-of-fold scores; the final heads are fitted on all train + dev rows. Returns its
 * index entry.
 */
const trainLanguage = (lang: LanguageData, dir: string, outDir: string) => {
  const t0 = Date.now()
  const s = splitRows(lang.rows(dir))
  const labels = trainedLabels(lang, s)
  const rows = s.train
  const fold = rows.map((e) => foldOf(e.text))
  log(`${lang.code} (${lang.name}): train + dev ${rows.length} rows in ${FOLDS} folds (${[0, 1, 2].map((k) => fold.filter((f) => f === k).length).join(", ")}); test ${s.test.length} rows not read`)
  for (const l of lang.labels) {
    log(`  ${l}: positives train + dev ${positives(rows, l)}${labels.includes(l) ? "" : ` -> not trained (< ${MIN_POSITIVES} in test or < ${2 * MIN_POSITIVES} in train + dev)`}`)
  }
  const maskWords = lang.maskWords ? chooseMaskWords(lang, rows) : undefined
  if (maskWords !== undefined) log(`  mask words: ${maskWords.length} (${maskWords.slice(0, 12).join(", ")}${maskWords.length > 12 ? ", ..." : ""})`)
  const recipe = ROUND2[lang.code]!
  log(`  recipe (R, round 2's): ${recipeName(recipe)}; baseline's tokens (P): \\w\\w+ words 1-2, char_wb ${PLAIN.charMin}-${PLAIN.charMax}`)
  // CV, 1: the file size, on TOXICITY with the baseline's recipe hashed (P, lr C 4)
  const yTox = targets(rows, "TOXICITY")
  let chosen: { bits: number; auc: number; data: ReturnType<typeof tfidfRows>; P: Part } | undefined
  for (const bits of BITS) {
    const data = tfidfRows(lang, recipe, maskWords, rows, bits)
    const P = partOf(data.X, 1, bits)
    const auc = crossValidate(P.X, P.M, yTox, fold, bits, true)[0]!.auc
    log(`  CV TOXICITY AUC (P, lr C 4), 2^${bits} slots (${P.M.slots.length} used by P): ${auc.toFixed(4)}`)
    if (chosen === undefined || auc > chosen.auc) chosen = { bits, auc, data, P }
  }
  const { bits, data, P } = chosen!
  const R = partOf(data.X, 0, bits)
  log(`  chosen: 2^${bits}`)
  // CV, 2: each head: P or R at every C and blend, or the average of the best of each; refitted on all rows, calibrated on its out-of-fold scores
  const columns: Array<Float32Array> = []
  const biases: Array<number> = []
  const entries: Partial<Record<ModelLabel, LabelEntry>> = {}
  const all = new Float32Array(rows.length).fill(1)
  const best = (t: ReadonlyArray<Tried>) => t.reduce((a, b) => (b.auc > a.auc ? b : a))
  const fitPart = (part: Part, y: Float32Array, c: HeadChoice): LinearModel => {
    const lr = fitLr(part.M, fitRows(y, fold, -1), y, bits, c.C)
    return c.alpha === 0 ? lr : blend(fitNb(part.X, y, all, bits), lr, c.alpha)
  }
  for (const label of labels) {
    const y = targets(rows, label)
    const onP = crossValidate(P.X, P.M, y, fold, bits, false).map((t): Tried => ({ kind: "P", ...t }))
    const onR = crossValidate(R.X, R.M, y, fold, bits, false).map((t): Tried => ({ kind: "R", ...t }))
    const bp = best(onP)
    const br = best(onR)
    const avg = Float64Array.from(bp.oof, (z, r) => (z + br.oof[r]!) / 2)
    const averaged: Tried = { kind: "A", choice: bp.choice, oof: avg, auc: meanFoldAuc(avg, y, fold) }
    // tie order: P at alpha 0, C 4 (the baseline's recipe hashed), the rest of P, R, A
    const win = best([...onP, ...onR, averaged])
    const model = win.kind === "P" ? fitPart(P, y, win.choice) : win.kind === "R" ? fitPart(R, y, win.choice) : blend(fitPart(P, y, bp.choice), fitPart(R, y, br.choice), 0.5)
    const prevalence = targetPrevalence(label)
    const calibration = plattAt(win.oof, y, prevalence)
    log(`  ${label}: CV AUC: P ${onP.map((t) => `${nameOf(t.choice)} ${t.auc.toFixed(4)}`).join("; ")}`)
    log(`  ${label}: CV AUC: R ${onR.map((t) => `${nameOf(t.choice)} ${t.auc.toFixed(4)}`).join("; ")}`)
    log(`  ${label}: CV AUC: ${triedName(averaged, bp, br)} ${averaged.auc.toFixed(4)} -> ${triedName(win, bp, br)} ${win.auc.toFixed(4)} (P lr C 4: ${onP[0]!.auc.toFixed(4)}); calibrated on ${labelled(rows, label)} out-of-fold scores at prevalence ${(100 * prevalence).toFixed(1)}% (${JSON.stringify(calibration)})`)
    columns.push(model.weights)
    biases.push(model.bias)
    entries[label] = { kind: "trained", family: lang.code, calibration }
  }
  const bytes = encodeWeights(bits, columns, biases)
  const idfBytes = encodeIdf(data.idf)
  const version = languageVersion(lang.code, LANGUAGE_RELEASE)
  const manifest: Manifest = {
    format: 1,
    version,
    features: data.features,
    respell: {},
    families: [
      {
        name: lang.code,
        file: `${lang.code}.bin`,
        sha256: sha256(bytes),
        bits,
        labels,
        sources: lang.sources,
        ...(lang.flag !== undefined ? { flag: lang.flag } : {})
      }
    ],
    labels: entries,
    idf: { file: `${lang.code}.idf`, sha256: sha256(idfBytes), bits }
  }
  // one version names one weight set: never overwrite the shipped files under a released name
  const releases = JSON.parse(readFileSync(RELEASES_PATH, "utf8")) as LanguageReleases
  const conflict = releaseConflict(releases, manifest)
  const shipped = resolve(outDir) === resolve(LANGUAGES_DIR)
  if (conflict !== undefined) {
    let next = nextRelease(LANGUAGE_RELEASE)
    while (releases.versions[languageVersion(lang.code, next)] !== undefined) next = nextRelease(next)
    const fix = `set LANGUAGE_RELEASE (training/languageRelease.ts) to ${next} or a later day's id and train again`
    if (shipped) throw new Error(`${conflict}: ${fix}`)
    log(`  warning: ${conflict}; not shipped here (--out), but to ship these files ${fix}`)
  }
  const out = join(outDir, lang.code)
  mkdirSync(out, { recursive: true })
  if (shipped && releases.versions[version] === undefined) {
    const recorded: LanguageReleases = { ...releases, versions: { ...releases.versions, [version]: filesOf(manifest) } }
    writeFileSync(RELEASES_PATH, JSON.stringify(recorded, null, 1) + "\n")
  }
  writeFileSync(join(out, `${lang.code}.bin`), bytes)
  writeFileSync(join(out, `${lang.code}.idf`), idfBytes)
  writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n")
  log(`  wrote ${out}: ${lang.code}.bin ${bytes.length} bytes, ${lang.code}.idf ${idfBytes.length} bytes, ${((Date.now() - t0) / 1000).toFixed(0)} s`)
  return { version, labels }
}

const train = () => {
  const dir = dataDir()
  const outDir = arg("--out") ?? LANGUAGES_DIR
  mkdirSync(outDir, { recursive: true })
  const indexPath = join(outDir, LANGUAGE_INDEX)
  const trained: Record<string, LanguageIndex["languages"][string]> = {}
  for (const lang of only()) {
    const { labels, version } = trainLanguage(lang, dir, outDir)
    trained[lang.code] = { version, labels, directory: lang.code }
  }
  // read the index only now: a trainer of other languages (--only) may have written it meanwhile
  const previous: LanguageIndex = existsSync(indexPath) ? (JSON.parse(readFileSync(indexPath, "utf8")) as LanguageIndex) : { format: 1, languages: {} }
  const languages: Record<string, LanguageIndex["languages"][string]> = { ...previous.languages, ...trained }
  // index order: the order of LANGUAGES
  const ordered: Record<string, LanguageIndex["languages"][string]> = {}
  for (const l of LANGUAGES) if (languages[l.code] !== undefined) ordered[l.code] = languages[l.code]!
  const index: LanguageIndex = { format: 1, languages: ordered }
  writeFileSync(indexPath, JSON.stringify(index, null, 1) + "\n")
  log(`wrote ${indexPath}`)
}

const fmt = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(4))

/** Paired bootstrap resamples of each test AUC difference (round 3's rule, docs/experiments/languages-log.md). */
const BOOTSTRAP = 2000

/**
 * The model beside the plain baseline (trained on the same train + dev rows) on the test split,
 * with the 95% paired-bootstrap interval of the difference, read once for the report
 * (`npm run eval:languages`). Round 3's rule: a head fails when the interval's upper end is below
 * 0 (measurably worse than the baseline); exit code 1 if any head fails.
 */
const evaluate = (split: "test") => {
  const dir = dataDir()
  const models = arg("--models") ?? LANGUAGES_DIR
  const lines: Array<string> = [
    `| language | attribute | train + dev rows | ${split} rows | ${split} positives | model AUC | baseline AUC | model - baseline | 95% interval | passes | weights + idf |`,
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|"
  ]
  let failures = 0
  let below = 0
  let better = 0
  let heads = 0
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
    // the model is fitted on train + dev: the baseline on the same rows
    const fitted = s.train
    log(`${lang.code}: ${s[split].length} ${split} rows, ${s[split].filter((e) => inRound2Test(e.text)).length} of them in round 2's test split`)
    const baseline = trainPlainBaseline(
      fitted.map((e) => ({ text: e.text, labels: e.labels })),
      labels,
      { charMin: 1, log: (m) => log(`  ${lang.code} ${m}`) }
    )
    log(`${lang.code}: baseline trained in ${((Date.now() - t0) / 1000).toFixed(0)} s`)
    const rowsOf = s[split]
    const texts = rowsOf.map((e) => e.text)
    const base = baseline.score(texts)
    const size = statSync(join(path, set.manifest.families[0]!.file)).size + (set.manifest.idf !== undefined ? statSync(join(path, set.manifest.idf.file)).size : 0)
    for (const label of labels) {
      const y = targets(rowsOf, label)
      const mine = texts.map((t) => set.score(t, [label])[label]!)
      const a = aucOn(mine, y)
      const b = aucOn(base.get(label)!, y)
      // how far the difference is from noise: paired stratified bootstrap over the labelled test rows
      const at: Array<number> = []
      for (let i = 0; i < y.length; i++) if (!Number.isNaN(y[i]!)) at.push(i)
      const ci = pairedBootstrap(at.map((i) => mine[i]!), at.map((i) => base.get(label)![i]!), at.map((i) => y[i]!), BOOTSTRAP, 28)
      const signed = (x: number) => (x >= 0 ? "+" : "") + x.toFixed(4)
      heads++
      if (!(a >= b)) below++
      if (ci.lo > 0) better++
      const passes = ci.hi >= 0
      if (!passes) failures++
      lines.push(`| ${lang.code} | ${label} | ${labelled(fitted, label)} | ${labelled(rowsOf, label)} | ${positives(rowsOf, label)} | ${fmt(a)} | ${fmt(b)} | ${signed(a - b)} | ${signed(ci.lo)} to ${signed(ci.hi)} | ${passes ? "yes" : "**no**"} | ${(size / 1024).toFixed(0)} KiB |`)
      // a language trained on more than one set: each set's test rows on their own too
      const sources = [...new Set(rowsOf.map((e) => e.source))]
      if (sources.length > 1) {
        for (const src of sources) {
          const idx = rowsOf.map((e, i) => (e.source === src ? i : -1)).filter((i) => i >= 0)
          const ys = Float32Array.from(idx.map((i) => y[i]!))
          const as = aucOn(idx.map((i) => mine[i]!), ys)
          const bs = aucOn(idx.map((i) => base.get(label)![i]!), ys)
          lines.push(`| ${lang.code} (${src} only) | ${label} |  | ${idx.filter((i) => !Number.isNaN(y[i]!)).length} | ${idx.filter((i) => y[i]! >= 0.5).length} | ${fmt(as)} | ${fmt(bs)} | ${Number.isNaN(as - bs) ? "n/a" : (as - bs >= 0 ? "+" : "") + (as - bs).toFixed(4)} |  |  |  |`)
        }
      }
    }
    log(lines.slice(2 + done).join("\n"))
    done = lines.length - 2
  }
  console.log("\n" + lines.join("\n"))
  console.log(`\n${heads} heads: ${heads - failures} pass (95% interval's upper end >= 0), ${failures} fail; ${heads - below} at or above the baseline's point AUC, ${below} below; ${better} measurably better (lower end > 0)`)
  console.log(failures === 0 ? `every language scores at least as well as its plain baseline on the ${split} split (round 3's rule)` : `${failures} language attribute(s) measurably below the plain baseline on the ${split} split (or missing)`)
  process.exitCode = failures === 0 ? 0 : 1
}

/** Load time, memory and scoring cost of each language's set, in this process, one after the other. */
const bench = () => {
  const models = arg("--models") ?? LANGUAGES_DIR
  const sample = ["Das ist ein Test", "你是个傻逼", "Ты тупой урод", "तुम बेवकूफ़ हो", "이 새끼야", "أنت غبي", "Sei un coglione di merda"]
  console.log("| language | weights + idf | load (ms) | memory after load (MiB, heap + array buffers) | score (µs per comment) |")
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
    const size = statSync(join(path, set.manifest.families[0]!.file)).size + (set.manifest.idf !== undefined ? statSync(join(path, set.manifest.idf.file)).size : 0)
    console.log(`| ${lang.code} | ${(size / 1024).toFixed(0)} KiB | ${loadMs.toFixed(1)} | ${mem.toFixed(1)} | ${us.toFixed(1)} |`)
  }
}

/** `score --only fr "text" ...`: each language's calibrated scores of the texts (the shipped files, or `--models DIR`). */
const scoreTexts = () => {
  const models = arg("--models") ?? LANGUAGES_DIR
  const texts = process.argv.slice(3).filter((t, i, all) => !t.startsWith("--") && !all[i - 1]?.startsWith("--"))
  for (const lang of only()) {
    const path = join(models, lang.code)
    if (!existsSync(join(path, "manifest.json"))) continue
    const set = loadModelSet(path)
    for (const t of texts) {
      const scores = set.score(t, set.labels)
      console.log(`${lang.code} ${set.labels.map((l) => `${l} ${scores[l]!.toFixed(3)}`).join(", ")} | ${t}`)
    }
  }
}

const command = process.argv[2]
if (command === "train") train()
else if (command === "eval") evaluate("test")
else if (command === "bench") bench()
else if (command === "score") scoreTexts()
else {
  console.error("usage: run.mjs languages train|eval|bench|score [--only de,fr] [--data DIR] [--out DIR | --models DIR]")
  process.exitCode = 2
}
