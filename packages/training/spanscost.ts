/**
 * `node packages/training/run.mjs spanscost --flags FILE` then, under callgrind,
 * `node --single-threaded packages/training/.out/spanscost.mjs --run FILE --models DIR --rows N`:
 * the toxic-span tagger's own work per comment, as the comment scorer calls it (full spans when the
 * heads' explanations flag the comment, else the confident words only), on the first N comments of
 * the Jigsaw severity pool (unlabelled Wikipedia comments). `--flags` runs the heads once and writes
 * the comments and whether the heads flag each; `--run` loads only the tagger and those flags, so
 * the difference between N and 0 rows, over N, is the tagger's instruction count per comment
 * (tokenizing included, the same for any tagger).
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { scoreComment } from "@decorum/local"
import { tokenize } from "@decorum/local/Words"
import { fromSpanWeights, loadSpanWeights } from "@decorum/local"
import { fromModelSet, loadModelSet } from "@decorum/local"
import { article } from "../local/test/evaluators/fixtures.js"
import { table } from "./data.js"
import { dataDir, MODELS_DIR } from "./pipeline.js"

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}

const flagsFile = arg("--flags")
if (flagsFile !== undefined) {
  const model = fromModelSet(loadModelSet(MODELS_DIR))
  const texts = table(join(dataDir(), "jigsaw-toxic-severity-2021-PARTIAL/comments_to_score.csv.gz")).map((r) => r.text!).slice(0, 2000)
  // the heads flag a comment when their explanations alone find an objectionable phrase
  const flagged = texts.map((t) => scoreComment(model, { comment: t, replyTo: null, article }).objectionable_phrases.length > 0)
  writeFileSync(flagsFile, JSON.stringify({ texts, flagged }))
  console.log(`${texts.length} comments, ${flagged.filter(Boolean).length} flagged by the heads`)
} else {
  const { texts, flagged } = JSON.parse(readFileSync(arg("--run")!, "utf8")) as { texts: Array<string>; flagged: Array<boolean> }
  const tagger = fromSpanWeights(loadSpanWeights(arg("--models") ?? MODELS_DIR))
  const rows = Number(arg("--rows") ?? "0")
  let quoted = 0
  for (let i = 0; i < rows; i++) {
    const text = texts[i % texts.length]!
    const tokens = tokenize(text)
    const spans = flagged[i % texts.length] ? tagger.spans(text, tokens) : tagger.confidentSpans(text, tokens)
    if (spans.length > 0) quoted++
  }
  console.log(`${tagger.version}: ${rows} comments, ${quoted} quoted`)
}
