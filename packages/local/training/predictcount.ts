/**
 * A load-independent throughput measure for comparing two model sets: predicts every label for the
 * first N comments of the unlabelled severity pool and nothing else, to be run under callgrind
 * twice per set (N = 0 and N = 500); the difference in instructions is the cost of N predictions.
 *
 *   npx esbuild packages/local/training/predictcount.ts --bundle --platform=node --format=esm \
 *     --packages=external --outfile=packages/local/training/.out/predictcount.mjs
 *   valgrind --tool=callgrind --smc-check=all-non-file node --single-threaded \
 *     packages/local/training/.out/predictcount.mjs DIR N [LABELS]
 *
 * LABELS (comma-separated, e.g. TOXICITY) counts a request for those labels only; every label by default.
 */
import { join } from "node:path"
import { loadModelSet } from "../src/models/TrainedModel.js"
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
