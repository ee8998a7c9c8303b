/**
 * `npm run bench:models`: load time, memory and single-core throughput of the shipped model set.
 * Corpus: the unlabelled Jigsaw severity pool (real Wikipedia comments) when ../shared is there,
 * otherwise the guardrail sentences. Every label the set scores is requested for every comment.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { scoreComment } from "@decorum/local"
import { fromModelSet, loadModelSet } from "@decorum/local"
import { fallacyModelIn } from "@decorum/local"
import { spanModelIn } from "@decorum/local"
import { Effect, Option } from "effect"
import { GUARDRAILS, OBFUSCATIONS } from "../local/test/models/guardrails.js"
import { table } from "./data.js"
import { article } from "../local/test/evaluators/fixtures.js"
import { MODELS_DIR, REPO_DIR } from "./pipeline.js"

const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`

const main = () => {
  const before = process.memoryUsage()
  const t0 = performance.now()
  // `--models DIR` benchmarks another model set (a candidate) the same way
  const modelsDir = process.argv.includes("--models") ? process.argv[process.argv.indexOf("--models") + 1]! : MODELS_DIR
  const set = loadModelSet(modelsDir)
  const loadMs = performance.now() - t0
  const after = process.memoryUsage()

  const pool = join(process.env.DECORUM_DATA ?? join(REPO_DIR, "../shared/data"), "jigsaw-toxic-severity-2021-PARTIAL/comments_to_score.csv.gz")
  let corpus: Array<string>
  let corpusName: string
  if (existsSync(pool)) {
    corpus = table(pool).map((r) => r.text!).slice(0, 5000)
    corpusName = "jigsaw-toxic-severity-2021-PARTIAL (first 5,000 comments)"
  } else {
    corpus = [...GUARDRAILS.flatMap((g) => g.texts), ...OBFUSCATIONS.flatMap((o) => [o.plain, ...o.variants])]
    corpusName = "guardrail sentences (../shared not found)"
  }
  const chars = corpus.reduce((a, t) => a + t.length, 0)
  const sorted = corpus.map((t) => t.length).sort((a, b) => a - b)
  const labels = set.labels

  // warm-up
  for (let i = 0; i < Math.min(corpus.length, 2000); i++) set.predict(corpus[i]!, labels)
  const passes = 3
  let checksum = 0
  const c1 = process.cpuUsage()
  const t1 = performance.now()
  for (let p = 0; p < passes; p++) for (const text of corpus) checksum += set.predict(text, labels).TOXICITY ?? 0
  const predictMs = performance.now() - t1
  const predictCpu = process.cpuUsage(c1)
  const predictCpuMs = (predictCpu.user + predictCpu.system) / 1000
  const n = corpus.length * passes
  const perSecond = n / (predictMs / 1000)

  const short = corpus.filter((t) => t.length <= 1000)
  const t2 = performance.now()
  for (let p = 0; p < passes; p++) for (const text of short) checksum += set.predict(text, labels).TOXICITY ?? 0
  const shortMs = performance.now() - t2
  const shortPerSecond = (short.length * passes) / (shortMs / 1000)

  const t3 = performance.now()
  const sample = corpus.slice(0, 2000)
  for (const text of sample) checksum += set.explain(text, "TOXICITY", 5).length
  const explainMs = performance.now() - t3

  // the comment scorer's model work: one analysis, every label, the objectionable labels explained
  const OBJECTIONABLE = ["THREAT", "IDENTITY_ATTACK", "INSULT", "PROFANITY", "TOXICITY"] as const
  const t4 = performance.now()
  for (const text of sample) {
    const a = set.analyse(text)
    checksum += set.predict(a, labels).TOXICITY ?? 0
    for (const l of OBJECTIONABLE) checksum += set.explain(a, l, 6).length
  }
  const commentMs = performance.now() - t4

  // the whole comment scorer (model work plus phrases, tone, fallacies, quality), as a request runs it:
  // with the trained fallacy detector when the models directory has one (fallacy.json) and the
  // toxic-span tagger when it has one (spans.json); with the detector but the heads' cuts for
  // objectionable phrases (the scorer before the tagger); and with the fallacy patterns (the scorer
  // before the detector), interleaved in blocks of 100 comments so all see the same machine load
  const service = fromModelSet(set)
  const fallacies = Option.getOrUndefined(Effect.runSync(fallacyModelIn(modelsDir)))
  const spans = Option.getOrUndefined(Effect.runSync(spanModelIn(modelsDir)))
  type Variant = "shipped" | "noTagger" | "patterns"
  const scorer = (v: Variant) => (text: string) =>
    scoreComment(service, { comment: text, replyTo: null, article }, v === "patterns" ? undefined : fallacies, { spans: v === "shipped" ? spans : undefined }).overall_score
  const variants: ReadonlyArray<Variant> = ["shipped", "noTagger", "patterns"]
  for (const text of sample.slice(0, 200)) for (const v of variants) checksum += scorer(v)(text)
  const timing: Record<Variant, { ms: number; cpu: number }> = { shipped: { ms: 0, cpu: 0 }, noTagger: { ms: 0, cpu: 0 }, patterns: { ms: 0, cpu: 0 } }
  for (let b = 0; b < sample.length; b += 100) {
    for (const v of variants) {
      const score = scorer(v)
      const c0 = process.cpuUsage()
      const t = performance.now()
      for (const text of sample.slice(b, b + 100)) checksum += score(text)
      timing[v].ms += performance.now() - t
      const c = process.cpuUsage(c0)
      timing[v].cpu += (c.user + c.system) / 1000
    }
  }
  const end = process.memoryUsage()

  console.log(`# Decorum local models ${set.version}: benchmark (one core, node ${process.version})\n`)
  console.log(`| measure | value |`)
  console.log(`|---|---|`)
  console.log(`| load (manifest + weight files, sha256 checked) | ${loadMs.toFixed(0)} ms |`)
  console.log(`| memory added by the model set (RSS / array buffers) | ${mb(after.rss - before.rss)} / ${mb(after.arrayBuffers - before.arrayBuffers)} |`)
  console.log(`| process RSS after the benchmark | ${mb(end.rss)} |`)
  console.log(`| corpus | ${corpusName} |`)
  console.log(`| comment length (UTF-16 units): median / p90 / mean | ${sorted[Math.floor(sorted.length / 2)]} / ${sorted[Math.floor(sorted.length * 0.9)]} / ${(chars / corpus.length).toFixed(0)} |`)
  console.log(`| labels per comment | ${labels.length} (all) |`)
  console.log(`| predict, all labels: comments per second | ${perSecond.toFixed(0)} (${((predictMs * 1000) / n).toFixed(1)} µs per comment) |`)
  console.log(`| predict, all labels: comments per CPU-second (load-independent) | ${(n / (predictCpuMs / 1000)).toFixed(0)} |`)
  console.log(`| predict, comments up to 1,000 characters (${short.length}) | ${shortPerSecond.toFixed(0)} per second (${((shortMs * 1000) / (short.length * passes)).toFixed(1)} µs) |`)
  console.log(`| explain TOXICITY (top 5 spans) | ${(sample.length / (explainMs / 1000)).toFixed(0)} per second |`)
  console.log(`| comment scoring's model work (analyse once, all labels, explain 5 labels) | ${(sample.length / (commentMs / 1000)).toFixed(0)} per second |`)
  const rate = (t: { ms: number; cpu: number }) => `${(sample.length / (t.ms / 1000)).toFixed(0)} per second wall, ${(sample.length / (t.cpu / 1000)).toFixed(0)} per CPU-second`
  const parts = [fallacies?.version, spans?.version].filter((x) => x !== undefined).join(" + ")
  console.log(`| comment scorer, whole (scoreComment${parts === "" ? "" : ` with ${parts}`}, ${sample.length} comments) | ${rate(timing.shipped)} |`)
  console.log(`| comment scorer, whole, the heads' cuts for objectionable phrases (the scorer before the tagger) | ${rate(timing.noTagger)} |`)
  console.log(`| comment scorer, whole, fallacy patterns and the heads' cuts (the scorer before the detector) | ${rate(timing.patterns)} |`)
  console.log()
  if (checksum === Number.NEGATIVE_INFINITY) console.log("")
}

main()
