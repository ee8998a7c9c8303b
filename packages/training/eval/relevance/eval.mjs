// The relevance evaluation: on-topic accuracy and banned-topic precision/recall on the curated set
// in ./data (written for Decorum). Run from the repository root:
//
//   npm run eval:relevance            # dev and test (held out) separately, then all
//   npm run eval:relevance -- --errors   # also list every miss
//
// It runs the compiled package (`tsc -b packages/local` first; the npm script does that).
import { readFileSync } from "node:fs"
import { performance } from "node:perf_hooks"
import { buildProfile, checkRelevance, judgeBannedTopics, judgeOnTopic, Thresholds } from "@decorum/local"

const showErrors = process.argv.includes("--errors")
const grid = process.argv.includes("--grid")
const load = (name) => JSON.parse(readFileSync(new URL(`./data/${name}`, import.meta.url), "utf8"))
const pct = (x) => (Number.isFinite(x) ? (100 * x).toFixed(1) + "%" : "n/a")
const fmt = (x) => x.toFixed(2)

let timing = { n: 0, ms: 0 }

const onTopicEval = (file, th = Thresholds) => {
  const data = load(file)
  const rows = []
  for (const a of data.articles) {
    const profile = buildProfile({ text: a.text, title: a.title, topicDescription: a.topic_description })
    const article = { id: a.id, accountId: "eval", text: a.text, title: a.title, topicDescription: a.topic_description, sourceUrl: null, profile, createdAt: new Date(0) }
    for (const c of a.comments) {
      const t0 = performance.now()
      const r = judgeOnTopic(c.text, article, c.reply_to ?? null, th)
      timing.ms += performance.now() - t0
      timing.n++
      rows.push({ article: a.id, ...c, got: r.on_topic, confidence: r.confidence, reasoning: r.reasoning, coverage: r.coverage, strength: r.strength, info: r.info })
    }
  }
  return { split: data.split, rows }
}

const reportOnTopic = (label, rows) => {
  // Positive class: off-topic (what a moderator would act on).
  const tp = rows.filter((r) => !r.on_topic && !r.got).length
  const fp = rows.filter((r) => r.on_topic && !r.got).length
  const fn = rows.filter((r) => !r.on_topic && r.got).length
  const tn = rows.filter((r) => r.on_topic && r.got).length
  const acc = (tp + tn) / rows.length
  console.log(`  ${label.padEnd(6)} n=${String(rows.length).padStart(3)}  accuracy ${pct(acc)}  | off-topic precision ${pct(tp / (tp + fp))} recall ${pct(tp / (tp + fn))}  | confusion: off->off ${tp}, on->off ${fp}, off->on ${fn}, on->on ${tn}`)
  const kinds = [...new Set(rows.map((r) => r.kind))]
  console.log(
    "         by kind: " +
      kinds
        .map((k) => {
          const ks = rows.filter((r) => r.kind === k)
          return `${k} ${ks.filter((r) => r.got === r.on_topic).length}/${ks.length}`
        })
        .join(", ")
  )
  const generic = rows.filter((r) => r.kind === "generic")
  if (generic.length > 0) {
    console.log(`         generic reactions: max confidence ${fmt(Math.max(...generic.map((r) => r.confidence)))}, called off-topic ${generic.filter((r) => !r.got).length}`)
  }
  const wrong = rows.filter((r) => r.got !== r.on_topic)
  const right = rows.filter((r) => r.got === r.on_topic)
  const mean = (xs) => (xs.length === 0 ? NaN : xs.reduce((s, x) => s + x, 0) / xs.length)
  console.log(`         mean confidence: right ${fmt(mean(right.map((r) => r.confidence)))}, wrong ${wrong.length === 0 ? "n/a" : fmt(mean(wrong.map((r) => r.confidence)))}`)
  if (showErrors) {
    for (const r of wrong) {
      console.log(`           MISS [${r.article}/${r.kind}] expected ${r.on_topic ? "on" : "off"} conf ${r.confidence} cov ${fmt(r.coverage)} str ${fmt(r.strength)} info ${fmt(r.info)}: ${r.text}\n                ${r.reasoning}`)
    }
  }
}

const bannedEval = (file) => {
  const data = load(file)
  const rows = []
  for (const c of data.cases) {
    const t0 = performance.now()
    const r = judgeBannedTopics(c.text, c.topics)
    timing.ms += performance.now() - t0
    timing.n++
    rows.push({ ...c, got: r.banned_topics, gotQuantity: r.quantity_on_banned_topics, confidence: r.confidence, reasoning: r.reasoning })
  }
  return { split: data.split, rows }
}

const reportBanned = (label, rows) => {
  let tp = 0, fp = 0, fn = 0, tn = 0
  for (const r of rows) {
    for (const t of r.topics) {
      const expected = r.expected.includes(t)
      const got = r.got.includes(t)
      if (expected && got) tp++
      else if (!expected && got) fp++
      else if (expected && !got) fn++
      else tn++
    }
  }
  const exact = rows.filter((r) => [...r.got].sort().join("|") === [...r.expected].sort().join("|")).length
  const traps = rows.filter((r) => r.kind === "trap")
  const trapsFlagged = traps.filter((r) => r.got.length > 0).length
  const withQ = rows.filter((r) => typeof r.quantity === "number")
  const mae = withQ.reduce((s, r) => s + Math.abs(r.quantity - r.gotQuantity), 0) / withQ.length
  console.log(`  ${label.padEnd(6)} cases=${rows.length} (topic checks ${tp + fp + fn + tn})  precision ${pct(tp / (tp + fp))}  recall ${pct(tp / (tp + fn))}  accuracy ${pct((tp + tn) / (tp + fp + fn + tn))}  exact-set ${pct(exact / rows.length)}`)
  console.log(`         confusion: hit ${tp}, false alarm ${fp}, missed ${fn}, correct clear ${tn}  | traps flagged ${trapsFlagged}/${traps.length}  | quantity MAE ${fmt(mae)}`)
  const kinds = [...new Set(rows.map((r) => r.kind))]
  console.log(
    "         by kind (exact-set): " +
      kinds.map((k) => {
        const ks = rows.filter((r) => r.kind === k)
        return `${k} ${ks.filter((r) => [...r.got].sort().join("|") === [...r.expected].sort().join("|")).length}/${ks.length}`
      }).join(", ")
  )
  if (showErrors) {
    for (const r of rows) {
      if ([...r.got].sort().join("|") === [...r.expected].sort().join("|")) continue
      console.log(`           MISS [${r.kind}] topics ${JSON.stringify(r.topics)} expected ${JSON.stringify(r.expected)} got ${JSON.stringify(r.got)}: ${r.text}\n                ${r.reasoning}`)
    }
  }
}

if (grid) {
  // Threshold search on the dev split only; the test split is never looked at here.
  const results = []
  for (const coverage of [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4]) {
    for (const strength of [0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3]) {
      for (const replyFactor of [0.5, 0.75, 1]) {
        const th = { ...Thresholds, coverage, strength, replyFactor }
        const rows = onTopicEval("dev-articles.json", th).rows
        results.push({ coverage, strength, replyFactor, acc: rows.filter((r) => r.got === r.on_topic).length / rows.length })
      }
    }
  }
  results.sort((a, b) => b.acc - a.acc)
  for (const r of results.slice(0, 15)) console.log(`dev accuracy ${pct(r.acc)}  coverage ${r.coverage} strength ${r.strength} replyFactor ${r.replyFactor}`)
  console.log(`current: coverage ${Thresholds.coverage} strength ${Thresholds.strength} replyFactor ${Thresholds.replyFactor}`)
  process.exit(0)
}

const devOn = onTopicEval("dev-articles.json")
const testOn = onTopicEval("test-articles.json")
const devBan = bannedEval("dev-banned.json")
const testBan = bannedEval("test-banned.json")

console.log("On-topic (positive class = off-topic)")
reportOnTopic("dev", devOn.rows)
reportOnTopic("test", testOn.rows)
reportOnTopic("all", [...devOn.rows, ...testOn.rows])
console.log("Banned topics (per requested topic)")
reportBanned("dev", devBan.rows)
reportBanned("test", testBan.rows)
reportBanned("all", [...devBan.rows, ...testBan.rows])
console.log(`Speed: ${(1000 * timing.ms / timing.n).toFixed(1)} µs per check on average (${timing.n} checks, first calls included)`)
{
  // Steady state: the full check (on-topic and three banned topics) on every comment, warm caches.
  const data = load("dev-articles.json")
  const a = data.articles[0]
  const profile = buildProfile({ text: a.text, title: a.title, topicDescription: a.topic_description })
  const article = { id: a.id, accountId: "eval", text: a.text, title: a.title, topicDescription: a.topic_description, sourceUrl: null, profile, createdAt: new Date(0) }
  const comments = [...data.articles.flatMap((x) => x.comments.map((c) => c.text))]
  const topics = ["politics", "cryptocurrency", "religion"]
  for (const c of comments) checkRelevance({ comment: c, article, bannedTopics: topics, replyTo: null })
  const rounds = 50
  const t0 = performance.now()
  for (let i = 0; i < rounds; i++) for (const c of comments) checkRelevance({ comment: c, article, bannedTopics: topics, replyTo: null })
  const us = (1000 * (performance.now() - t0)) / (rounds * comments.length)
  console.log(`       ${us.toFixed(1)} µs per full relevance check when warm (on-topic + 3 banned topics, ${rounds * comments.length} checks)`)
}
