/**
 * The fallacy corpora of `../shared/data`, mapped onto the one catalogue (`Fallacies` in
 * @decorum/domain). Each row is a text that argues fallaciously (`fallacy` 1, with its catalogue
 * type when the corpus's label names one) or not (`fallacy` 0).
 *
 * Licences (each folder's SOURCE.md): Reddit informal fallacies MIT, Argotario CC0; CoCoLoFa,
 * LOGIC/LogicClimate, ElecDeb60to20 and MAFALDA state none. MAFALDA is evaluation only (its gold
 * spans measure the quotes); the detector trained on the unlicensed sources is flagged in its
 * manifest and the model card.
 */
import { Fallacies } from "@decorum/domain"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { hash32, parseDelimited, table } from "./data.js"

export interface FallacyRow {
  readonly text: string
  readonly source: string
  /** Split key: the article for CoCoLoFa, the text's hash otherwise. */
  readonly group: string
  /** 1 = fallacious, 0 = not. */
  readonly fallacy: number
  /** The catalogue type, when the corpus's label names one. */
  readonly type?: Fallacies.FallacyType
  /** The corpus's own label. */
  readonly label: string
}

export interface FallacySource {
  readonly dataset: string
  readonly license: string
  readonly commercial: string
}

export const FALLACY_SOURCES: ReadonlyArray<FallacySource> = [
  { dataset: "cocolofa", license: "not stated (articles: Global Voices, CC BY 3.0)", commercial: "unknown" },
  { dataset: "reddit-informal-fallacies", license: "MIT", commercial: "yes" },
  { dataset: "argotario", license: "CC0", commercial: "yes" },
  { dataset: "logical-fallacy-logic", license: "not stated", commercial: "unknown" },
  { dataset: "elecdeb60to20-fallacy", license: "not stated", commercial: "unknown" }
]

/** Labels that mean "fallacious" but name no catalogue type (LOGIC's catch-alls, ElecDeb's "Without Evidence"). */
const UNTYPED = new Set(["fallacy of logic", "intentional", "miscellaneous", "without evidence", "fallacy"])

/** The catalogue type of a corpus label, `undefined` for an untyped fallacy; throws on a label nobody mapped. */
export const typeOfLabel = (label: string): Fallacies.FallacyType | undefined => {
  const t = Fallacies.fallacyOf(label)
  if (t !== undefined) return t
  if (UNTYPED.has(label.trim().toLowerCase())) return undefined
  throw new Error(`fallacy label "${label}" is not mapped onto the catalogue`)
}

const readText = (path: string): string => {
  const buf = readFileSync(path)
  return (path.endsWith(".gz") ? gunzipSync(buf) : buf).toString("utf8")
}

const clean = (s: string): string => s.replace(/\r\n?/g, "\n").trim()
const hashGroup = (source: string, text: string) => `${source}:${hash32(text)}`

interface CocoArticle {
  readonly id: string
  readonly comments: ReadonlyArray<{ readonly id: string; readonly fallacy: string; readonly comment: string }>
}

/** CoCoLoFa (dev split as published): news comments written to show one fallacy type or none. */
export const cocolofa = (dir: string): Array<FallacyRow> => {
  const articles = JSON.parse(readText(join(dir, "cocolofa/dev.json.gz"))) as ReadonlyArray<CocoArticle>
  return articles.flatMap((a) =>
    a.comments.map((c) => {
      const none = c.fallacy === "none"
      const type = none ? undefined : typeOfLabel(c.fallacy)
      return { text: clean(c.comment), source: "cocolofa", group: `cocolofa:${a.id}`, fallacy: none ? 0 : 1, label: c.fallacy, ...(type ? { type } : {}) }
    })
  ).filter((r) => r.text !== "")
}

const REDDIT_FILES: ReadonlyArray<readonly [string, string]> = [
  ["authority", "appeal to authority"],
  ["blackwhite", "false dilemma"],
  ["hasty_generalization", "hasty generalization"],
  ["natural", "appeal to nature"],
  ["population", "appeal to majority"],
  ["slippery_slope", "slippery slope"],
  ["tradition", "appeal to tradition"],
  ["worse_problems", "appeal to worse problems"]
]

/**
 * Reddit informal fallacies: the judged comment is `parent`; crowd-verified positives and
 * negatives of the annotated files, plus the sampled negatives.
 */
export const reddit = (dir: string): Array<FallacyRow> => {
  const out: Array<FallacyRow> = []
  for (const [file, label] of REDDIT_FILES) {
    const type = typeOfLabel(label)
    for (const r of table(join(dir, `reddit-informal-fallacies/${file}_annotated.csv.gz`))) {
      const text = clean(r.parent ?? "")
      if (text === "" || text === "[deleted]" || text === "[removed]") continue
      const yes = r.fallacy_exists === "1"
      out.push({ text, source: "reddit-informal-fallacies", group: hashGroup("reddit", text), fallacy: yes ? 1 : 0, label: yes ? label : "none", ...(yes && type ? { type } : {}) })
    }
    for (const r of table(join(dir, `reddit-informal-fallacies/${file}_negative-samples.csv.gz`), "\t")) {
      const text = clean(r.parent ?? "")
      if (text === "" || text === "[deleted]" || text === "[removed]") continue
      out.push({ text, source: "reddit-informal-fallacies", group: hashGroup("reddit", text), fallacy: 0, label: "none" })
    }
  }
  return out
}

/** Argotario (English): short arguments written to show a fallacy or none (`Intended Fallacy`). */
export const argotario = (dir: string): Array<FallacyRow> => {
  const lines = readText(join(dir, "argotario/arguments-en-2018-01-15.tsv")).split("\n")
  // records that contain raw newlines continue on lines that do not start with a row number
  const records: Array<string> = []
  for (const line of lines.slice(1)) {
    if (/^\d+\t/.test(line) || records.length === 0) records.push(line)
    else records[records.length - 1] += `\n${line}`
  }
  const out: Array<FallacyRow> = []
  for (const rec of records) {
    const f = rec.split("\t")
    if (f.length < 9) continue
    const label = f[5]!.trim()
    const text = clean(f.slice(8).join("\t"))
    if (text === "") continue
    const none = label === "No Fallacy"
    const type = none ? undefined : typeOfLabel(label)
    out.push({ text, source: "argotario", group: hashGroup("argotario", text), fallacy: none ? 0 : 1, label, ...(type ? { type } : {}) })
  }
  return out
}

/** LOGIC (educational examples) and LogicClimate (news sentences): every row is fallacious. */
export const logic = (dir: string): Array<FallacyRow> => {
  const out: Array<FallacyRow> = []
  const seen = new Set<string>()
  const push = (text: string, label: string) => {
    const t = clean(text)
    if (t === "" || seen.has(t)) return
    seen.add(t)
    const type = typeOfLabel(label)
    out.push({ text: t, source: "logical-fallacy-logic", group: hashGroup("logic", t), fallacy: 1, label, ...(type ? { type } : {}) })
  }
  for (const split of ["train", "dev", "test"]) {
    for (const r of table(join(dir, `logical-fallacy-logic/edu_${split}.csv`))) push(r.source_article ?? "", r.updated_label ?? "")
  }
  for (const r of table(join(dir, "logical-fallacy-logic/climate_all.csv"))) push(r.source_article ?? "", r.logical_fallacies ?? "")
  return out
}

/** ElecDeb60to20: fallacious snippets of US presidential debates (subcategory first, then category). */
export const elecdeb = (dir: string): Array<FallacyRow> => {
  const out: Array<FallacyRow> = []
  const seen = new Set<string>()
  for (const r of table(join(dir, "elecdeb60to20-fallacy/fallacy_second_version.csv"), ";")) {
    const t = clean(r.text ?? "")
    if (t === "" || seen.has(t)) continue
    seen.add(t)
    const sub = (r.subcategory ?? "").trim()
    const label = sub !== "" && (Fallacies.fallacyOf(sub) !== undefined || UNTYPED.has(sub.toLowerCase())) ? sub : (r.fallacy ?? "").trim()
    const type = typeOfLabel(label)
    out.push({ text: t, source: "elecdeb60to20-fallacy", group: hashGroup("elecdeb", t), fallacy: 1, label, ...(type ? { type } : {}) })
  }
  return out
}

/** Every training corpus (not MAFALDA). */
export const fallacyCorpora = (dir: string): Array<FallacyRow> => [...cocolofa(dir), ...reddit(dir), ...argotario(dir), ...logic(dir), ...elecdeb(dir)]

export interface MafaldaText {
  readonly text: string
  /** Gold fallacy spans, `[begin, end)` in UTF-16 units of `text`. */
  readonly spans: ReadonlyArray<{ readonly begin: number; readonly end: number; readonly label: string }>
}

/**
 * MAFALDA's gold standard: texts with character spans of their fallacies (label "nothing" is
 * dropped). Offsets are in Python code points; they are converted to UTF-16 units here.
 */
export const mafalda = (dir: string): Array<MafaldaText> =>
  readText(join(dir, "mafalda/gold_standard_dataset.jsonl"))
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => {
      const o = JSON.parse(l) as { text: string; labels: ReadonlyArray<[number, number, string]> }
      const toUnits = codePointToUnit(o.text)
      return {
        text: o.text,
        spans: o.labels.filter(([, , label]) => label.toLowerCase() !== "nothing").map(([b, e, label]) => ({ begin: toUnits(b), end: toUnits(e), label }))
      }
    })

const codePointToUnit = (text: string) => {
  const map: Array<number> = []
  let u = 0
  for (const ch of text) {
    map.push(u)
    u += ch.length
  }
  map.push(u)
  return (cp: number) => map[Math.min(cp, map.length - 1)]!
}

/** The toxic-spans corpus's SemEval files: text and the toxic character offsets (code points in the source; UTF-16 here). */
export const toxicSpans = (dir: string, split: "train" | "trial"): Array<{ readonly text: string; readonly offsets: ReadonlySet<number> }> =>
  parseDelimited(readText(join(dir, `civil-comments-toxic-spans/tsd_${split}.csv.gz`)))
    .slice(1)
    .filter((r) => r.length >= 2)
    .map((r) => {
      const text = r[1]!
      const toUnits = codePointToUnit(text)
      const offsets = new Set<number>()
      for (const cp of JSON.parse(r[0]!) as Array<number>) {
        const b = toUnits(cp)
        const e = toUnits(cp + 1)
        for (let i = b; i < e; i++) offsets.add(i)
      }
      return { text, offsets }
    })
