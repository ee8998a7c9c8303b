/**
 * The whole comment scorer (`scoreComment` with the shipped fallacy detector and toxic-span
 * tagger, as a request runs it) over a fixed set of comments, for load-independent before/after
 * CPU comparisons and for holding two builds' outputs to each other bit for bit.
 *
 * Corpus (in this order, all of it deterministic): the first N comments of the unlabelled Jigsaw
 * severity pool (what `bench:models` times), 300 CoCoLoFa dev comments (arguments: the fallacy
 * items path) each also scored as a reply, and 300 of the tests' varied texts (obfuscations,
 * Unicode, long texts).
 *
 * Instruction counts: run under callgrind twice (N = 0 and N = 500) and take the difference, the
 * cost of N comments with start-up and the fixed extra corpus cancelled out. Caution: on 26 Nov
 * the N = 0 count moved by 1.4 G instructions between two builds that differed in one function,
 * as much as 500 comments cost, so small differences are not resolved this way (docs/performance.md;
 * `scoreab.ts` times two builds in one process instead):
 *
 *   npm run build   # with --packages=external the bundle loads @decorum/* from their dist/
 *   npx esbuild packages/training/scorecount.ts --bundle --platform=node --format=esm \
 *     --packages=external --outfile=packages/training/.out/scorecount.mjs
 *   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p --smc-check=all-non-file \
 *     node --single-threaded packages/training/.out/scorecount.mjs 500
 *
 * `--patterns` scores with the fallacy patterns and the heads' cuts instead (the scorer before the
 * detector and the tagger: bench:models' last row).
 *
 * Differential check: `node packages/training/.out/scorecount.mjs 2000 --dump out.jsonl`
 * writes every output (one JSON line per comment); compare two builds' files with `cmp`.
 * The last line printed is a hash of all outputs.
 */
import { createHash } from "node:crypto"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Option } from "effect"
import { scoreComment } from "@decorum/local"
import { fallacyModelIn } from "@decorum/local"
import { spanModelIn } from "@decorum/local"
import { fromModelSet, loadModelSet } from "@decorum/local"
import { article } from "../local/test/evaluators/fixtures.js"
import { variedTexts } from "../local/test/models/variedTexts.js"
import { table } from "./data.js"
import { cocolofa } from "./fallacyData.js"
import { MODELS_DIR, REPO_DIR } from "./pipeline.js"

const n = Number(process.argv[2] ?? 500)
const dumpAt = process.argv.indexOf("--dump")
// `--patterns`: the scorer before the detector (fallacy patterns, the heads' cuts), as bench:models' last row
const patterns = process.argv.includes("--patterns")
const data = process.env.DECORUM_DATA ?? join(REPO_DIR, "../shared/data")
const service = fromModelSet(loadModelSet(MODELS_DIR))
const fallacies = Option.getOrUndefined(Effect.runSync(fallacyModelIn(MODELS_DIR)))
const spans = Option.getOrUndefined(Effect.runSync(spanModelIn(MODELS_DIR)))
if (fallacies === undefined || spans === undefined) throw new Error(`${MODELS_DIR} lacks the fallacy detector or the span tagger`)

const pool = table(join(data, "jigsaw-toxic-severity-2021-PARTIAL/comments_to_score.csv.gz")).map((r) => r.text!).slice(0, n)
const args = cocolofa(data).filter((_, i) => i % 7 === 0).slice(0, 300).map((r) => r.text)
const inputs = [
  ...pool.map((comment) => ({ comment, replyTo: null })),
  ...args.map((comment) => ({ comment, replyTo: null })),
  ...args.map((comment, i) => ({ comment, replyTo: i % 3 === 0 ? comment : args[(i + 1) % args.length]! })),
  ...variedTexts(300).map((comment) => ({ comment, replyTo: null }))
]
const hash = createHash("sha256")
const lines: Array<string> = []
for (const input of inputs) {
  const line = JSON.stringify(patterns ? scoreComment(service, { ...input, article }) : scoreComment(service, { ...input, article }, fallacies, { spans }))
  hash.update(line).update("\n")
  if (dumpAt > 0) lines.push(line)
}
if (dumpAt > 0) writeFileSync(process.argv[dumpAt + 1]!, lines.join("\n") + "\n")
console.log(`${inputs.length} comments (${n} from the pool${patterns ? ", patterns" : ""}), outputs sha256 ${hash.digest("hex")}`)
