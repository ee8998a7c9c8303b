/**
 * A load-independent throughput measure for comparing two model sets: predicts every label for the
 * first N comments of the unlabelled severity pool and nothing else, to be run under callgrind
 * twice per set (N = 0 and N = 500); the difference in instructions is the cost of N predictions.
 *
 *   npm run build   # with --packages=external the bundle loads @decorum/* from their dist/
 *   npx esbuild packages/training/predictcount.ts --bundle --platform=node --format=esm \
 *     --packages=external --outfile=packages/training/.out/predictcount.mjs
 *   valgrind --tool=callgrind --smc-check=all-non-file node --single-threaded --predictable \
 *     packages/training/.out/predictcount.mjs DIR N [LABELS]
 *
 * `--predictable` (V8: no timing-driven GC or compilation decisions) makes the count repeatable:
 * two runs of the same set and N differed by 703 instructions in 9.45 billion (12.7's
 * measurement, docs/experiments/toxicity-log.md); without it runs of the same set differed by up to 0.9 billion
 * (start-up and GC work outside the scored loop), as much as 500 comments cost. Two sets can
 * still differ by a whole major GC at start-up; `node packages/training/callgrindOutsideGc.mjs
 * callgrind.out.*` prints each count with the collector's instructions taken out.
 *
 * LABELS (comma-separated, e.g. TOXICITY) counts a request for those labels only; every label by default.
 */
import { join } from "node:path"
import { loadModelSet } from "@decorum/local"
import { table } from "./data.js"
import { REPO_DIR } from "./pipeline.js"

const dir = process.argv[2]!
const n = Number(process.argv[3])
const set = loadModelSet(dir)
const pool = join(process.env.DECORUM_DATA ?? join(REPO_DIR, "../shared/data"), "jigsaw-toxic-severity-2021-PARTIAL/comments_to_score.csv.gz")
const corpus = table(pool).map((r) => r.text!).slice(0, n)
let checksum = 0
const labels = process.argv[4] === undefined ? set.labels : (process.argv[4].split(",") as typeof set.labels)
for (const text of corpus) checksum += set.predict(text, labels).TOXICITY ?? 0
console.log(set.version, n, checksum.toFixed(3))
