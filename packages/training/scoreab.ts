/**
 * The comment scorer of two builds in one process, so that both see the same machine load: the
 * whole scorer (fallacy detector and toxic-span tagger) and the scorer before the detector
 * (fallacy patterns, the heads' cuts: bench:models' last row), each build's, over the first 2,000
 * comments of the Jigsaw pool (bench:models' sample), in interleaved blocks of 100 whose order
 * rotates. Prints comments per CPU-second per pass and over all passes but the first (warm-up),
 * after checking on 300 comments that both builds give the same outputs. With `--cold` each pass
 * reads the next 1,000 comments of the pool instead (every comment new to the word caches, as in
 * bench:models' single pass; the pool's 7,537 comments allow six passes).
 *
 *   rm -rf /tmp/before && mkdir -p /tmp/before && git archive BASE packages/local packages/core tsconfig.base.json | tar -x -C /tmp/before
 *   cp packages/training/scoreab.ts /tmp/before/packages/training/
 *   npx esbuild /tmp/before/packages/training/scoreab.ts --bundle --platform=node --format=esm --packages=external \
 *     --alias:@decorum/core=/tmp/before/packages/core/src/index.ts --outfile=packages/training/.out/scoreab-before.mjs
 *   npx esbuild packages/training/scoreab.ts --bundle --platform=node --format=esm --packages=external \
 *     --alias:@decorum/core=./packages/core/src/index.ts --outfile=packages/training/.out/scoreab.mjs
 *   node packages/training/.out/scoreab.mjs packages/training/.out/scoreab-before.mjs [passes] [--cold] [--patterns-only]
 *
 * `--patterns-only` checks only the patterns scorers' outputs, for a build whose tagger decodes
 * differently: b8e0192, the issue's reference for the patterns row, predates spans-2026.11.3's
 * `relative` limit, so its whole scorer quotes differently by design; its patterns row is what
 * this build's whole scorer is held to.
 *
 * (The bundle that is run is the build after; the other is imported. Each bundles its own
 * `@decorum/core` from source, as the alias says: without it both would share the built one.
 * Both read this worktree's models directory.)
 */
import { Effect, Option } from "effect"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { scoreComment } from "@decorum/local"
import { fallacyModelIn } from "@decorum/local"
import { spanModelIn } from "@decorum/local"
import { fromModelSet, loadModelSet } from "@decorum/local"
import { article } from "../local/test/evaluators/fixtures.js"
import { table } from "./data.js"

type Score = (comment: string) => { readonly overall_score: number }

/** This build's scorer, whole and with the patterns, on the models of `dir`. */
export const make = (dir: string): { readonly whole: Score; readonly patterns: Score } => {
  const service = fromModelSet(loadModelSet(dir))
  const fallacies = Option.getOrUndefined(Effect.runSync(fallacyModelIn(dir)))
  const spans = Option.getOrUndefined(Effect.runSync(spanModelIn(dir)))
  if (fallacies === undefined || spans === undefined) throw new Error(`${dir} lacks the fallacy detector or the span tagger`)
  return {
    whole: (comment) => scoreComment(service, { comment, replyTo: null, article }, fallacies, { spans }),
    patterns: (comment) => scoreComment(service, { comment, replyTo: null, article })
  }
}

const main = async () => {
  const other = process.argv[2]
  if (other === undefined) throw new Error("usage: scoreab.mjs BEFORE.mjs [passes]")
  const cold = process.argv.includes("--cold")
  // `--patterns-only`: hold only the patterns scorers to each other (b8e0192's tagger code
  // ignores spans-2026.11.3's `relative` decoding: its whole scorer quotes differently by design)
  const patternsOnly = process.argv.includes("--patterns-only")
  const passes = Number(process.argv.slice(3).find((a) => !a.startsWith("--")) ?? 7)
  // run from the repository root (the bundles sit in packages/training/.out)
  const dir = resolve("packages/local/models")
  const before = ((await import(pathToFileURL(resolve(other)).href)) as { make: typeof make }).make(dir)
  const after = make(dir)
  const data = process.env.DECORUM_DATA ?? resolve("../shared/data")
  const pool = table(join(data, "jigsaw-toxic-severity-2021-PARTIAL/comments_to_score.csv.gz")).map((r) => r.text!)
  // `table` builds each field a character at a time (a rope of a few hundred pieces): the first
  // read of a comment flattens it, about 5% of a cold run's CPU in whichever scorer of the block
  // reads it first (the tokenizer's first character read, in the profile). Flatten them all here,
  // as a request's comment (from JSON.parse) and bench:models' (read by its predict passes) are.
  for (const text of pool) text.charCodeAt(0)
  const slice = cold ? 1000 : 2000
  if (cold && pool.length < slice * (passes + 1)) throw new Error(`--cold: the pool holds ${pool.length} comments, fewer than ${passes + 1} slices of ${slice}`)
  let texts = pool.slice(0, 2000)
  for (const t of texts.slice(0, 300)) {
    if (!patternsOnly && JSON.stringify(before.whole(t)) !== JSON.stringify(after.whole(t))) throw new Error(`the whole scorers differ on ${JSON.stringify(t)}`)
    if (JSON.stringify(before.patterns(t)) !== JSON.stringify(after.patterns(t))) throw new Error(`the pattern scorers differ on ${JSON.stringify(t)}`)
  }
  const variants: Record<string, Score> = { beforeWhole: before.whole, beforePatterns: before.patterns, afterWhole: after.whole, afterPatterns: after.patterns }
  const names = Object.keys(variants)
  const total: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]))
  let sink = 0
  for (let p = 0; p < passes; p++) {
    // --cold: a new slice each pass (the first 300 comments, checked above, warmed the JIT)
    if (cold) texts = pool.slice(slice * (p + 1), slice * (p + 2))
    const cpu: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]))
    for (let b = 0; b < texts.length; b += 100) {
      const block = texts.slice(b, b + 100)
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + b / 100 + p) % names.length]!
        const score = variants[name]!
        const c0 = process.cpuUsage()
        for (const t of block) sink += score(t).overall_score
        const c = process.cpuUsage(c0)
        cpu[name]! += (c.user + c.system) / 1000
      }
    }
    if (p > 0) for (const n of names) total[n]! += cpu[n]!
    console.log(`pass ${p + 1}${p === 0 ? " (warm-up)" : ""}: ${names.map((n) => `${n} ${(texts.length / (cpu[n]! / 1000)).toFixed(0)}`).join(", ")} per CPU-second`)
  }
  const rate = (n: string) => (texts.length * (passes - 1)) / (total[n]! / 1000)
  console.log(`passes 2-${passes}: ${names.map((n) => `${n} ${rate(n).toFixed(0)}`).join(", ")} per CPU-second`)
  console.log(`afterWhole / beforeWhole ${(rate("afterWhole") / rate("beforeWhole")).toFixed(3)}, afterWhole / beforePatterns ${(rate("afterWhole") / rate("beforePatterns")).toFixed(3)}, afterWhole / afterPatterns ${(rate("afterWhole") / rate("afterPatterns")).toFixed(3)}, beforeWhole / beforePatterns ${(rate("beforeWhole") / rate("beforePatterns")).toFixed(3)}`)
  if (sink === Number.NEGATIVE_INFINITY) console.log()
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main()
