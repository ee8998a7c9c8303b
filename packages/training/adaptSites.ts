/**
 * The simulated sites of `npm run eval:adapt` (and of the encoder-feature experiment,
 * packages/training/encoder/adapters.ts): which labelled corpora, what each site calls
 * unacceptable, and the deterministic stratified halves (corrections, held-out).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Csv } from "@decorum/engine/csv"

export interface Row {
  readonly text: string
  readonly label: boolean
}

const table = (file: string, sep: string) => {
  // Records the reader refuses (over-long, unterminated quote) and rows of another width are left out.
  const [header, ...rows] = Csv.parseCsv(readFileSync(file, "utf8"), { separator: sep, maxRecordChars: 1 << 24 }).flatMap((r) => ("fields" in r ? [r.fields] : []))
  return rows.filter((r) => r.length === header!.length).map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])))
}

/** The corpora: each with what its site calls unacceptable. */
export const corpora: ReadonlyArray<{ readonly name: string; readonly norm: string; readonly load: (data: string) => Array<Row> }> = [
  {
    name: "unhealthy-comments-ucc-PARTIAL",
    norm: "unhealthy (healthy = 0): antagonising, condescending, dismissive, hostile, sarcastic news comments",
    load: (data) => table(join(data, "unhealthy-comments-ucc-PARTIAL", "val.csv"), ",").map((r) => ({ text: r["comment"]!, label: r["healthy"] === "0" }))
  },
  {
    name: "gab-hate-corpus",
    norm: "hate: an assault on human dignity (hd) or a call for violence (cv)",
    load: (data) => table(join(data, "gab-hate-corpus", "ghc_train.tsv"), "\t").map((r) => ({ text: r["text"]!, label: r["hd"] === "1" || r["cv"] === "1" }))
  }
]

/** A deterministic shuffle (xorshift), so every run splits the same way. */
const shuffle = <A>(items: ReadonlyArray<A>, seed: number): Array<A> => {
  const out = [...items]
  let s = seed
  for (let i = out.length - 1; i > 0; i--) {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    const j = (s >>> 0) % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** Stratified halves of at most `n` rows each, keeping the corpus's positive rate. */
export const split = (rows: ReadonlyArray<Row>, n: number) => {
  const clean = rows.filter((r) => r.text.trim().length > 0 && r.text.length < 3000)
  const pos = shuffle(clean.filter((r) => r.label), 7)
  const neg = shuffle(clean.filter((r) => !r.label), 11)
  const take = Math.min(n * 2, clean.length)
  const nPos = Math.round((take * pos.length) / clean.length)
  const chosen = shuffle([...pos.slice(0, nPos), ...neg.slice(0, take - nPos)], 13)
  return { train: chosen.filter((_, i) => i % 2 === 0), test: chosen.filter((_, i) => i % 2 === 1) }
}
