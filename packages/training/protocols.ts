/**
 * The evaluation protocols of issue 11, shared by `npm run eval` and the dev scripts.
 *
 * In-domain (rows of the training corpora that no weight was trained on):
 * - `natural`: Wikipedia talk comments at natural prevalence (~10% toxic). Dev = the Jigsaw dev
 *   quarter of the uniform 5k sample; test = the head of the Jigsaw training file minus anything
 *   in the random sample.
 * - `enriched`: the natural rows plus the held-out slice (1 in 12 posts, by id) of every other
 *   training corpus (toxic spans, ConvAbuse, Davidson, EDOS, HateXplain, implicit hate, ParaDetox,
 *   Ruddit, SBIC): mostly toxic, harder, several domains. Dev/test = halves of that slice by id.
 *
 * Cross-domain (corpora nothing trains on: the score is for a domain the model never saw): OLID
 * tweets, the Gab Hate Corpus, DynaHate, ETHOS, the Unhealthy Comments Corpus and Stormfront, each
 * cut in a dev and a test half by id. Exact duplicates of training texts (after lower-casing and
 * dropping everything but letters and digits) are removed first.
 *
 * Recipe choices read the dev halves only. `--test` reads the test halves and adds one to the
 * release's count in `models/test-reads.json`, which every report prints.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { ModelLabel } from "@decorum/local"
import * as D from "./data.js"

export type Split = "dev" | "test"

export interface EvalSet {
  readonly protocol: "in-domain" | "cross-domain"
  readonly name: string
  readonly rows: ReadonlyArray<D.Example>
}

const num = (s: string | undefined): number => (s === undefined || s === "" ? Number.NaN : Number(s))
const half = (key: string): Split => (D.hash32(`heldout:${key}`) % 2 === 0 ? "dev" : "test")

// ---------------------------------------------------------------- cross-domain corpora

/** OLID (tweets): OFF -> TOXICITY; untargeted -> PROFANITY; targeted at a person -> INSULT; at a group -> IDENTITY_ATTACK. */
export const olid = (dir: string): Array<D.Example> =>
  D.table(join(dir, "olid-offenseval2019/olid-training-v1.0.tsv.gz"), "\t", false).map((r) => {
    const off = r.subtask_a === "OFF"
    const b = r.subtask_b
    const c = r.subtask_c
    return {
      text: r.tweet!,
      source: "olid-offenseval2019",
      id: r.id!,
      labels: {
        TOXICITY: off ? 1 : 0,
        PROFANITY: !off ? 0 : b === "UNT" ? 1 : Number.NaN,
        INSULT: !off ? 0 : b === "TIN" && c === "IND" ? 1 : Number.NaN,
        IDENTITY_ATTACK: !off ? 0 : b === "TIN" && c === "GRP" ? 1 : Number.NaN
      }
    }
  })

/** Gab Hate Corpus: hd (attack on human dignity) -> IDENTITY_ATTACK, cv (call for violence) -> THREAT, vo (vulgar) -> PROFANITY; any -> TOXICITY. */
export const gab = (dir: string): Array<D.Example> =>
  D.table(join(dir, "gab-hate-corpus/ghc_train.tsv"), "\t").map((r, i) => {
    const hd = num(r.hd)
    const cv = num(r.cv)
    const vo = num(r.vo)
    return {
      text: r.text!,
      source: "gab-hate-corpus",
      id: String(i),
      labels: { IDENTITY_ATTACK: hd, THREAT: cv, PROFANITY: vo, TOXICITY: hd + cv + vo > 0 ? 1 : 0 }
    }
  })

/** DynaHate (adversarial, with perturbation pairs): hate -> IDENTITY_ATTACK; threatening hate -> THREAT (other hate unlabelled for THREAT). */
export const dynahate = (dir: string): Array<D.Example> =>
  D.table(join(dir, "dynahate-dev-test-PARTIAL/db_dev.csv")).map((r) => {
    const hate = r.label === "hate"
    return {
      text: r.text!,
      source: "dynahate-dev-test-PARTIAL",
      id: r["acl.id"]!,
      labels: { IDENTITY_ATTACK: hate ? 1 : 0, THREAT: !hate ? 0 : r.type === "threatening" ? 1 : Number.NaN }
    }
  })

/** ETHOS: isHate >= 0.5 -> IDENTITY_ATTACK and TOXICITY (0 below 0.5); violence >= 0.5 among hateful comments -> THREAT. */
export const ethos = (dir: string): Array<D.Example> => {
  const violence = new Map<string, number>()
  for (const r of D.table(join(dir, "ethos-hate-speech/Ethos_Dataset_Multi_Label.csv"), ";")) violence.set(r.comment!.trim(), num(r.violence))
  return D.table(join(dir, "ethos-hate-speech/Ethos_Dataset_Binary.csv"), ";").map((r, i) => {
    const hate = num(r.isHate) >= 0.5 ? 1 : 0
    const v = violence.get(r.comment!.trim())
    return {
      text: r.comment!,
      source: "ethos-hate-speech",
      id: String(i),
      labels: { IDENTITY_ATTACK: hate, TOXICITY: hate, THREAT: hate === 0 ? 0 : v === undefined ? Number.NaN : v >= 0.5 ? 1 : 0 }
    }
  })
}

/** Unhealthy Comments Corpus (news comments, CC BY-NC-SA: evaluation only): hostile -> TOXICITY, antagonize -> INSULT. */
export const ucc = (dir: string): Array<D.Example> =>
  D.table(join(dir, "unhealthy-comments-ucc-PARTIAL/val.csv")).map((r) => ({
    text: r.comment!,
    source: "unhealthy-comments-ucc-PARTIAL",
    id: r._unit_id!,
    labels: { TOXICITY: num(r.hostile), INSULT: num(r.antagonize) }
  }))

/** Stormfront sentences: hate -> IDENTITY_ATTACK, noHate -> 0 (relation / idk unlabelled). */
export const stormfront = (dir: string): Array<D.Example> =>
  D.table(join(dir, "stormfront-hate-speech/stormfront_hate_speech.csv")).map((r) => ({
    text: r.text!,
    source: "stormfront-hate-speech",
    id: r.file_id!,
    labels: { IDENTITY_ATTACK: r.label === "hate" ? 1 : r.label === "noHate" ? 0 : Number.NaN }
  }))

export const CROSS_DOMAIN: ReadonlyArray<readonly [string, (dir: string) => Array<D.Example>]> = [
  ["OLID tweets", olid],
  ["Gab Hate Corpus", gab],
  ["DynaHate", dynahate],
  ["ETHOS", ethos],
  ["UCC news comments", ucc],
  ["Stormfront", stormfront]
]

// ---------------------------------------------------------------- protocols

const squash = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")

export interface Protocols {
  readonly split: Split
  readonly sets: ReadonlyArray<EvalSet>
  readonly droppedDuplicates: number
}

/**
 * The evaluation sets of one split. `natural` are the in-domain natural-prevalence rows of that
 * split, `heldOutOthers` the training corpora's held-out slice (both from pipeline.loadSplits),
 * `training` every text any model trains on (for the duplicate filter).
 */
export const protocols = (
  dir: string,
  split: Split,
  natural: ReadonlyArray<D.Example>,
  heldOutOthers: ReadonlyArray<D.Example>,
  training: Iterable<string>
): Protocols => {
  const seen = new Set<string>()
  for (const t of training) seen.add(squash(t))
  let dropped = 0
  const fresh = (rows: ReadonlyArray<D.Example>) =>
    rows.filter((e) => {
      const k = squash(e.text)
      if (k === "" || seen.has(k)) {
        dropped++
        return false
      }
      return true
    })
  const others = heldOutOthers.filter((e) => half(`${e.source}:${e.group ?? e.id}`) === split)
  const sets: Array<EvalSet> = [
    { protocol: "in-domain", name: "natural", rows: natural },
    { protocol: "in-domain", name: "enriched", rows: [...natural, ...others] }
  ]
  for (const [name, load] of CROSS_DOMAIN) {
    const rows = fresh(load(dir).filter((e) => half(`${e.source}:${e.id}`) === split))
    sets.push({ protocol: "cross-domain", name, rows })
  }
  return { split, sets, droppedDuplicates: dropped }
}

/** The Jigsaw 2018 random sample: the in-domain natural rows (its dev part sits in the calibration pool). */
export const JIGSAW_RANDOM = "jigsaw-toxic-comment-2018-random-11k"

/**
 * The evaluation sets of one split as `npm run eval` builds them from pipeline.loadSplits: the
 * natural rows are the Jigsaw part of the calibration pool (dev) or the held-out Jigsaw test rows
 * (test), the other held-out rows are the rest of the calibration pool.
 */
export const splitProtocols = (
  dir: string,
  split: Split,
  splits: { readonly toxCalib: ReadonlyArray<D.Example>; readonly jigsawTest: ReadonlyArray<D.Example>; readonly toxTrain: ReadonlyArray<D.Example> }
): Protocols =>
  protocols(
    dir,
    split,
    split === "dev" ? splits.toxCalib.filter((e) => e.source === JIGSAW_RANDOM) : splits.jigsawTest,
    splits.toxCalib.filter((e) => e.source !== JIGSAW_RANDOM),
    splits.toxTrain.map((e) => e.text)
  )

/** Rows of `set` that carry `label`, with their 0/1 targets. */
export const labelled = (set: EvalSet, label: ModelLabel): { rows: Array<number>; y: Array<number> } => {
  const rows: Array<number> = []
  const y: Array<number> = []
  set.rows.forEach((e, i) => {
    const v = e.labels[label]
    if (v === undefined || Number.isNaN(v)) return
    rows.push(i)
    y.push(v >= 0.5 ? 1 : 0)
  })
  return { rows, y }
}

// ---------------------------------------------------------------- test-read counter

/** How many times each release's test split has been read (`models/test-reads.json`). */
export const testReads = (modelsDir: string): Record<string, number> => {
  const path = join(modelsDir, "test-reads.json")
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Record<string, number>) : {}
}

/** Count one more read of `version`'s test split; returns the new count. */
export const recordTestRead = (modelsDir: string, version: string): number => {
  const reads = testReads(modelsDir)
  reads[version] = (reads[version] ?? 0) + 1
  writeFileSync(join(modelsDir, "test-reads.json"), JSON.stringify(reads, null, 1) + "\n")
  return reads[version]!
}
