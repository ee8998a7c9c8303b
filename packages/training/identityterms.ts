/**
 * `node packages/training/run.mjs identityterms [WORD ...]`: per identity term (the terms
 * `identityBalance` reads, training/convex.ts) and per extra WORD (any normalised token), how many
 * TOXICITY training rows mention it (Wikipedia CAT left out, as the recipe trains), its toxic
 * share against the overall share, the balance factor k of the unweighted `allB` fit, and the
 * sources of its toxic rows. Training rows only; a diagnosis aid for identity-word bias.
 */
import { convexTrainingRows, identityBalance, identityTermsOf } from "./convex.js"
import { dataDir, loadSplits, makeFeaturizer, respellFrom, YOUTUBE_TEST_VIDEO } from "./pipeline.js"

const words = process.argv.slice(2).filter((w) => !w.startsWith("--"))
const splits = loadSplits(dataDir())
const rows = convexTrainingRows(splits.toxTrain).filter((e) => e.labels.TOXICITY !== undefined && !Number.isNaN(e.labels.TOXICITY))
// the normaliser of `npm run train` (its respelling map), so the terms are the ones the balance read
const norm = makeFeaturizer(respellFrom([...convexTrainingRows(splits.toxTrain), ...splits.spam.filter((e) => e.group !== YOUTUBE_TEST_VIDEO), ...splits.c3Train].map((e) => e.text))).normalizer
const terms = rows.map((e) => identityTermsOf(norm, e.text))
const y: Array<number> = rows.map((e) => (e.labels.TOXICITY! >= 0.5 ? 1 : 0))
const { k } = identityBalance(terms, rows.map((_, r) => r), y)
const stats = new Map<string, { rows: number; toxic: number; sources: Map<string, number> }>()
const count = (t: string, r: number) => {
  const c = stats.get(t) ?? { rows: 0, toxic: 0, sources: new Map<string, number>() }
  c.rows++
  if (y[r] === 1) {
    c.toxic++
    c.sources.set(rows[r]!.source, (c.sources.get(rows[r]!.source) ?? 0) + 1)
  }
  stats.set(t, c)
}
rows.forEach((e, r) => {
  for (const t of terms[r]!) count(t, r)
  if (words.length > 0) {
    const n = norm.run(e.text)
    const seen = new Set(norm.tokens.slice(0, n))
    for (const w of words) if (seen.has(w) && !terms[r]!.includes(w)) count(w, r)
  }
})
const p = y.reduce((a, v) => a + v, 0) / y.length
console.log(`${rows.length} TOXICITY training rows, toxic share ${p.toFixed(3)}\n`)
console.log("| term | rows | toxic share | k (allB) | sources of its toxic rows (top 3) |")
console.log("|---|---:|---:|---:|---|")
const order = [...words.filter((w) => stats.has(w)), ...[...stats.keys()].filter((t) => !words.includes(t)).sort((a, b) => stats.get(b)!.rows - stats.get(a)!.rows)]
for (const t of order) {
  const c = stats.get(t)!
  const top = [...c.sources].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([s, v]) => `${s} ${v}`).join(", ")
  console.log(`| ${t} | ${c.rows} | ${(c.toxic / c.rows).toFixed(3)} | ${k.has(t) ? k.get(t)!.toFixed(2) : "1"} | ${top} |`)
}
