/**
 * The dog-whistle detector's data: the curated term resource built from the Allen AI glossary
 * (`dogwhistles-glossary`, MIT), the coded / literal uses of Silent Signals (informal Reddit part,
 * CC BY-SA 4.0, silver labels), clean comments from other sets (C3 news comments, Jigsaw
 * non-toxic Wikipedia comments, implicit-hate `not_hate`), and the by-term split.
 */
import { join } from "node:path"
import type { DogWhistleTerm } from "@decorum/local/DogWhistleFormat"
import { type FormSpec, matchTokens, numberVariants } from "@decorum/local/DogWhistleFormat"
import { hash32, implicitHate, jigsaw, table } from "./data.js"

/** `term_key` as the glossary computes it. */
export const termKey = (term: string): string => term.toLowerCase().replace(/[^a-z0-9]/g, "")

/**
 * Surface forms the glossary lists that are not watched for: descriptions rather than forms
 * ("Medieval (European) imagery, insignia, symbols", "bear emoji"), and everyday words whose coded
 * use the context cannot tell from the literal one at any useful rate ("single", "blue",
 * "extremist", "handout", "echo" without its parentheses, the time zone "EST").
 */
export const EXCLUDED_FORMS: ReadonlySet<string> = new Set([
  "single", "never married", "never-married", "has no children", "blue", "bluish", "echo", "the echo sign",
  "extremism", "extremist", "extremists", "terrorist", "terrorists", "handout", "handouts", "entitlement", "entitlements",
  "government spending", "disloyalty", "shut it down", "est", "e.s.t", "41", "109", "110", "single mom", "single mother",
  "the fed", "take back", "grooming", "urban", "google", "skype", "coincidence", "coincidences",
  "steroids", "hygienic", "octopus", "pepe", "feels good man", "goody", "bing", "bings",
  "chicago", "detroit", "cleveland", "baltimore", "xx", "aap", "aaps"
])

/** Descriptions, not forms: a form naming an emoji or imagery instead of being it. */
const DESCRIPTIVE = /\b(emojis?|imagery|insignia|symbols?)\b/i

const SUBTLETY_BY_TYPE: Readonly<Record<string, number>> = {
  "concept (policy)": 0.85, "concept (values)": 0.8, "concept (other)": 0.75, "representative (Bogeyman)": 0.7,
  "stereotype-based descriptor": 0.65, "persona signal (self-referential)": 0.6, "persona signal (shared culture)": 0.6,
  "stereotype-based target group label": 0.55, "persona signal (symbol)": 0.5, "humor/mockery/sarcasm": 0.45,
  "arbitrary target group label": 0.45, "phonetic-based target group label": 0.35
}
const HARM_BY_TYPE: Readonly<Record<string, number>> = {
  "arbitrary target group label": 0.8, "phonetic-based target group label": 0.8, "stereotype-based target group label": 0.75,
  "humor/mockery/sarcasm": 0.7, "stereotype-based descriptor": 0.65, "persona signal (symbol)": 0.65, "representative (Bogeyman)": 0.6,
  "persona signal (shared culture)": 0.55, "persona signal (self-referential)": 0.5, "concept (other)": 0.55, "concept (values)": 0.45,
  "concept (policy)": 0.45
}
/** In-groups whose coded language targets people for who they are (more harm than a political in-group's). */
const TARGETING = new Set(["racist", "antisemitic", "white supremacist", "transphobic", "Islamophobic", "anti-Latino", "homophobic", "anti-Asian", "anti-LGBTQ", "xenophobic", "misogynistic"])

const clamp = (x: number) => Math.max(0, Math.min(1, Math.round(x * 100) / 100))

/** The subtlety of a glossary term: its type's, a little higher for the formal (offline) register. */
export const subtletyOf = (type: string, register: string): number =>
  clamp((SUBTLETY_BY_TYPE[type] ?? 0.6) + (register.startsWith("Formal") ? 0.1 : -0.05))
/** Its potential for harm: its type's, higher for an in-group that targets people, lower for a political one. */
export const harmOf = (type: string, category: string): number =>
  clamp((HARM_BY_TYPE[type] ?? 0.6) + (TARGETING.has(category) ? 0.1 : -0.2))

/** Whether the plural or singular of a form's last word makes an excluded form (`Googles` -> `google`). */
const otherNumberExcluded = (form: string): boolean => {
  const tokens = matchTokens(form)
  const last = tokens.at(-1)
  if (last === undefined || !last.word) return false
  const prefix = tokens.slice(0, -1).map((t) => t.key).join(" ")
  return numberVariants(last.key).some((v) => v !== last.key && EXCLUDED_FORMS.has(prefix === "" ? v : `${prefix} ${v}`))
}

export interface GlossaryRow {
  readonly term_key: string
  readonly Dogwhistle: string
  readonly "Surface Forms": string
  readonly "Persona/In-Group": string
  readonly Type: string
  readonly Register: string
  readonly "Covert (in-group) meaning": string
}

/** The curated term resource from the glossary rows. */
export const buildTerms = (rows: ReadonlyArray<Record<string, string>>): Array<DogWhistleTerm> => {
  const out: Array<DogWhistleTerm> = []
  // a form that is another term's name belongs to that term only ("George Soros")
  const roots = new Map(rows.map((r) => [r.Dogwhistle!.trim().toLowerCase(), r.Dogwhistle!.trim()]))
  for (const r of rows) {
    const root = r.Dogwhistle!.trim()
    const surface = (r["Surface Forms"] ?? "").split(/[;]|,(?= )/).map((s) => s.trim()).filter((s) => s !== "")
    const allHash = surface.length > 0 && surface.every((s) => s.startsWith("#"))
    const seen = new Set<string>()
    const forms: Array<FormSpec> = []
    for (const s of [root, ...surface]) {
      if (DESCRIPTIVE.test(s) || EXCLUDED_FORMS.has(s.toLowerCase()) || s.split(/\s+/).length > 8) continue
      if (/^references to /.test(s) || /^attacks on /.test(s) || root === "triple parentheses" && /^[a-z ]+$/i.test(s) && !/^triple/.test(s)) continue
      if (seen.has(s) || (roots.has(s.toLowerCase()) && roots.get(s.toLowerCase()) !== root)) continue
      seen.add(s)
      const hashOnly = allHash || (s.startsWith("#") && s.length <= 4)
      forms.push({ text: s, ...(hashOnly ? { hashOnly } : {}), ...(otherNumberExcluded(s) ? { exact: true } : {}) })
    }
    const type = r.Type!.trim()
    const register = r.Register!.trim()
    const category = r["Persona/In-Group"]!.trim()
    out.push({
      root,
      key: r.term_key || termKey(root),
      category,
      type,
      register,
      meaning: (r["Covert (in-group) meaning"] ?? "").trim(),
      subtlety: subtletyOf(type, register),
      harm: harmOf(type, category),
      forms,
      ...(root === "triple parentheses" ? { echo: true } : {})
    })
  }
  return out
}

export const glossary = (dir: string): Array<Record<string, string>> =>
  table(join(dir, "dogwhistles-glossary/glossary_shared.tsv"), "\t", true)

export interface SignalRow {
  readonly id: string
  readonly label: number
  /** The surface form found in the text. */
  readonly form: string
  readonly root: string
  readonly ingroup: string
  readonly text: string
  readonly subreddit: string
}

export const silentSignals = (dir: string): Array<SignalRow> =>
  table(join(dir, "silent-signals-informal/silent_signals_informal.csv.gz")).map((r) => ({
    id: r.id!,
    label: Number(r.label),
    form: r.dog_whistle!,
    root: r.dog_whistle_root!,
    ingroup: r.ingroup!,
    text: r.content!,
    subreddit: r.subreddit!
  }))

export type Split = "train" | "dev" | "test"

/** The by-term split: a term's rows are all in one split (about 60 / 20 / 20 of the terms). */
export const termSplit = (root: string): Split => {
  const h = hash32(`dogwhistle-term:${termKey(root)}`) % 5
  return h === 0 ? "test" : h === 1 ? "dev" : "train"
}

/** The split of a clean comment (by its id). */
export const rowSplit = (id: string): Split => {
  const h = hash32(`dogwhistle-clean:${id}`) % 5
  return h === 0 ? "test" : h === 1 ? "dev" : "train"
}

export interface CleanRow {
  readonly id: string
  readonly text: string
  readonly source: string
}

/**
 * Clean comments (no coded language expected): C3 news comments of crowd toxicity level 1-2
 * (not / mildly toxic), Jigsaw random-sample comments with no toxicity label, implicit-hate `not_hate`.
 */
export const cleanComments = (dir: string): Array<CleanRow> => {
  const out: Array<CleanRow> = []
  for (const r of table(join(dir, "constructive-comments-c3/C3_anonymized.csv.gz"))) {
    const level = Number(r.crowd_toxicity_level)
    if (Number.isFinite(level) && level <= 2 && (r.comment_text ?? "").trim() !== "") out.push({ id: `c3:${r.comment_counter}`, text: r.comment_text!, source: "c3-news" })
  }
  for (const e of jigsaw(dir, "random")) {
    const l = e.labels
    if (l.TOXICITY === 0 && l.SEVERE_TOXICITY === 0 && l.INSULT === 0 && l.IDENTITY_ATTACK === 0 && l.PROFANITY === 0 && l.THREAT === 0) {
      out.push({ id: `jigsaw:${e.id}`, text: e.text, source: "jigsaw-nontoxic" })
    }
  }
  for (const e of implicitHate(dir)) if (e.labels.IDENTITY_ATTACK === 0) out.push({ id: `ih:${e.id}`, text: e.text, source: "implicit-hate-not-hate" })
  return out
}

/**
 * Benign news comments never trained on (measured only; both non-commercial or partial): UCC
 * validation comments labelled healthy, SFU constructiveness comments of toxicity 1-2.
 */
export const unseenNewsComments = (dir: string): Array<CleanRow> => {
  const out: Array<CleanRow> = []
  for (const r of table(join(dir, "unhealthy-comments-ucc-PARTIAL/val.csv"))) {
    if (r.healthy === "1" && (r.comment ?? "").trim() !== "") out.push({ id: `ucc:${r._unit_id}`, text: r.comment!, source: "ucc-healthy" })
  }
  for (const r of table(join(dir, "sfu-constructiveness-toxicity/SFU_constructiveness_toxicity.csv"))) {
    const level = Number(r.is_toxic_popular_answer_1)
    if (Number.isFinite(level) && level <= 2 && (r.comment ?? "").trim() !== "") out.push({ id: `sfu:${r._unit_id}`, text: r.comment!, source: "sfu-news" })
  }
  return out
}
