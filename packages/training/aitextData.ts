/**
 * The AI-written-text corpora in ../shared/data (read each folder's SOURCE.md), as one list of
 * rows with their generator, domain and split:
 * - `l2r-llm-rewrites`: human texts and their GPT-3.5 / GPT-4o / Llama-3-70B rewrites, 15 domains.
 *   A human text and its rewrites share a group (`domain:index_in_file`) and so a split: a
 *   rewrite is never tested while its original (or a sibling rewrite) was trained on.
 * - `grid-gpt-reddit`: Reddit answers, human or GPT-3.5 (rows marked `dup_of_earlier` dropped).
 * - `tweepfake`: tweets, human or bot (GPT-2, RNN, others); `validation.csv` is the test split
 *   (the official test split is held out upstream), `train.csv` is split into train and dev.
 * - `hc3-indicating-words`: the English ChatGPT and human phrase lists (CC BY-SA).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { hash32, table } from "./data.js"

export type AiSource = "l2r" | "grid" | "tweepfake"
export type AiSplit = "train" | "dev" | "test"

export interface AiRow {
  readonly text: string
  /** 1 machine-written, 0 human. */
  readonly label: number
  readonly source: AiSource
  /** `human` for human rows; otherwise the generator (`GPT-3-Turbo`, `GPT-4o`, `Llama-3-70B`, `GPT-3.5` (GRiD), `gpt2`, `rnn`, `others`). */
  readonly generator: string
  /** L2R domain; `reddit` / `twitter` for the others. */
  readonly domain: string
  /** Rows of one group are always in one split (an L2R human text and its rewrites). */
  readonly group: string
  readonly split: AiSplit
}

/** 70 / 15 / 15 by a hash of the group. */
export const splitOfGroup = (group: string): AiSplit => {
  const b = hash32(group) % 20
  return b < 14 ? "train" : b < 17 ? "dev" : "test"
}

/** TweepFake writes emoji as `<U+0001F624>`: the characters themselves. */
const emoji = (s: string) => s.replace(/<U\+([0-9A-Fa-f]{4,8})>/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))

export const l2rRows = (dir: string): Array<AiRow> =>
  table(join(dir, "l2r-llm-rewrites/l2r_shared.csv.gz")).map((r) => {
    const group = `l2r:${r.domain}:${r.index_in_file}`
    return { text: r.text!, label: Number(r.label), source: "l2r", generator: r.generator!, domain: r.domain!, group, split: splitOfGroup(group) }
  })

export const gridRows = (dir: string): Array<AiRow> =>
  table(join(dir, "grid-gpt-reddit/grid_reddit_cleaned_shared.csv.gz"))
    .filter((r) => r.dup_of_earlier !== "1" && r.text!.trim() !== "")
    .map((r) => {
      const group = `grid:${r.id}`
      return { text: r.text!, label: Number(r.label), source: "grid", generator: r.label === "1" ? "GPT-3.5" : "human", domain: "reddit", group, split: splitOfGroup(group) }
    })

export const tweepfakeRows = (dir: string): Array<AiRow> => {
  const rows: Array<AiRow> = []
  for (const file of ["train", "validation"] as const) {
    table(join(dir, `tweepfake/${file}.csv.gz`), ";").forEach((r, i) => {
      const group = `tweepfake:${file}:${i}`
      const split: AiSplit = file === "validation" ? "test" : hash32(group) % 10 === 0 ? "dev" : "train"
      const human = r["account.type"] === "human"
      rows.push({ text: emoji(r.text!), label: human ? 0 : 1, source: "tweepfake", generator: human ? "human" : r.class_type!, domain: "twitter", group, split })
    })
  }
  return rows.filter((r) => r.text.trim() !== "")
}

export const aiTextRows = (dir: string): Array<AiRow> => [...l2rRows(dir), ...gridRows(dir), ...tweepfakeRows(dir)]

export interface Hc3Lists {
  readonly llm: ReadonlyArray<string>
  readonly human: ReadonlyArray<string>
}

/**
 * HC3's English indicating phrases, lower case, de-duplicated. From the human list, entries that
 * are not phrases of the text itself (`@`, `comments`, URLs' stand-ins) or too common to mean
 * anything ("your", "i say", "let me") are left out.
 */
export const hc3Lists = (dir: string): Hc3Lists => {
  const read = (f: string) => [...new Set(readFileSync(join(dir, "hc3-indicating-words", f), "utf8").split("\n").map((l) => l.trim().toLowerCase().replace(/\u2019/g, "'")).filter((l) => l !== ""))]
  const tooCommon = new Set(["your", "i say", "let me", "@", "comments", "inc.", "so...", "i believe"])
  return {
    llm: read("indicating_words_en_chatgpt.txt").filter((p) => !tooCommon.has(p)),
    human: read("indicating_words_en_human.txt").filter((p) => !tooCommon.has(p))
  }
}
