/**
 * `node packages/training/run.mjs golden <file.json>`: records what the current code scores
 * for the golden texts on the shipped release (predict, explain, comment score, attributes, spam),
 * for test/models/golden.test.ts. Record before a refactoring, never to make a failing test pass.
 */
import { writeFileSync } from "node:fs"
import { loadModelSet, fromModelSet } from "@decorum/local"
import { scoreComment } from "@decorum/local"
import { analyzeAttributes } from "@decorum/local"
import { checkSpam } from "@decorum/local"
import { GOLDEN_TEXTS, goldenInputs } from "../local/test/models/goldenTexts.js"
import { MODELS_DIR } from "./pipeline.js"
// the directory named, not loadModelSet()'s default: that is found from the module's URL, the bundle's in .out/
const set = loadModelSet(MODELS_DIR)
const model = fromModelSet(set)
const labels = [...set.labels]
const rows = GOLDEN_TEXTS.map((text) => ({
  text,
  predict: set.predict(text, labels),
  explain: Object.fromEntries(labels.map((l) => [l, set.explain(text, l, 5)])),
  comment: scoreComment(model, goldenInputs(text).comment),
  attributes: analyzeAttributes(model, goldenInputs(text).attributes),
  spam: checkSpam(model, goldenInputs(text).spam)
}))
writeFileSync(process.argv[2]!, `{"version":${JSON.stringify(set.version)},"labels":${JSON.stringify(labels)},"rows":[\n${rows.map((r) => JSON.stringify(r)).join(",\n")}\n]}\n`)
