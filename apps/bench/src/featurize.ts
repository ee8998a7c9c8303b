/**
 * `npm run bench:featurize`: the model work of `decorum score` per comment, in process, on one core:
 * the shipped model set scoring the attributes of `bench:score`'s comments through
 * `analyzeAttributes` (what the local attribute scorer runs for every HTTP analyze request and
 * every `decorum score` row). Reports wall time and CPU time (`process.cpuUsage`) per comment.
 *
 * For a load-independent count, run it under callgrind twice, with BENCH_ROWS=0 (start-up and
 * model loading only) and with BENCH_ROWS=N, and divide the difference in instructions by N:
 *
 *     BENCH_ROWS=20000 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out node apps/bench/dist/featurize.js
 *
 * Options (env): BENCH_ROWS (default 100,000), BENCH_ATTRIBUTES (default TOXICITY,INSULT,PROFANITY),
 * BENCH_PASSES (default 1; the first pass over 2,000 comments warms the JIT and is not counted),
 * BENCH_PATH=analysis (score through a full analysis, `predict(analyse(text))`, as before the
 * score-only path existed), BENCH_LABEL_SETS=N (after the run, the first request of each of N label
 * sets not asked before, as a client choosing its attributes sends them: CPU time of that one
 * call, which once included gathering the set's weight table; default 8, 0 skips it).
 */
import type { Perspective } from "@decorum/domain"
import { analyzeAttributes, fromModelSet, loadModelSet } from "@decorum/local"
import { benchComments } from "./comments.js"

const rows = Number(process.env["BENCH_ROWS"] ?? 100_000)
const passes = Number(process.env["BENCH_PASSES"] ?? 1)
const attributes = (process.env["BENCH_ATTRIBUTES"] ?? "TOXICITY,INSULT,PROFANITY").split(",") as Array<Perspective.Attribute>

const set = loadModelSet()
const full = fromModelSet(set)
const { score: _score, ...analysisOnly } = full
const model = process.env["BENCH_PATH"] === "analysis" ? analysisOnly : full
const texts = benchComments(Math.max(rows, 2000))
const scoreAll = (list: ReadonlyArray<string>) => {
  let checksum = 0
  for (const text of list) {
    const result = analyzeAttributes(model, { text, attributes, spans: [], context: { article: null, parent: null, entries: [] } })
    checksum += result[attributes[0]!]!.summary
  }
  return checksum
}

scoreAll(texts.slice(0, 2000))
// The weight table of the measured attributes is gathered in the background after their first
// request (as between a server's requests); the measured loop never yields, so wait for it here.
await set.whenGathered()
if (rows > 0) {
  const measured = texts.slice(0, rows)
  const cpu = process.cpuUsage()
  const t0 = performance.now()
  let checksum = 0
  for (let p = 0; p < passes; p++) checksum += scoreAll(measured)
  const wall = performance.now() - t0
  const used = process.cpuUsage(cpu)
  const n = rows * passes
  console.log(
    `${n.toLocaleString("en-US")} comments, ${attributes.join(",")}, model ${model.version}: ` +
      `${((wall * 1000) / n).toFixed(2)} µs/comment wall (${Math.round(n / (wall / 1000)).toLocaleString("en-US")}/s), ` +
      `${((used.user + used.system) / n).toFixed(2)} µs/comment CPU; checksum ${checksum.toFixed(6)}`
  )
}

// A label set the model has not seen: its first request. Set i is four attributes of the pool
// from the i-th on (a window moved along it), so that each reads another set of heads.
const labelSets = Number(process.env["BENCH_LABEL_SETS"] ?? 8)
if (labelSets > 0) {
  const pool = ["TOXICITY", "SEVERE_TOXICITY", "IDENTITY_ATTACK", "INSULT", "PROFANITY", "THREAT", "SEXUALLY_EXPLICIT", "FLIRTATION", "SPAM", "INFLAMMATORY", "OBSCENE", "ATTACK_ON_AUTHOR", "ATTACK_ON_COMMENTER", "INCOHERENT"] as Array<Perspective.Attribute>
  const usable = pool.filter((a) => full.labels.includes(a))
  const text = texts[0]!
  const firsts: Array<number> = []
  const seconds: Array<number> = []
  const call = (set: ReadonlyArray<Perspective.Attribute>) => {
    const before = process.cpuUsage()
    analyzeAttributes(model, { text, attributes: set, spans: [], context: { article: null, parent: null, entries: [] } })
    const used = process.cpuUsage(before)
    return used.user + used.system
  }
  for (let i = 0; i < labelSets; i++) {
    const set = [...new Set(Array.from({ length: Math.min(4, usable.length) }, (_, k) => usable[(i + k) % usable.length]!))]
    firsts.push(call(set))
    seconds.push(call(set))
  }
  const sorted = (xs: Array<number>) => [...xs].sort((a, b) => a - b)
  const median = (xs: Array<number>) => sorted(xs)[Math.floor(xs.length / 2)]!
  console.log(
    `first request of ${labelSets} new label sets: CPU median ${median(firsts).toFixed(0)} µs, max ${Math.max(...firsts).toFixed(0)} µs ` +
      `(the same sets again: median ${median(seconds).toFixed(0)} µs, max ${Math.max(...seconds).toFixed(0)} µs)`
  )
}
