/**
 * Refactoring the model code must not move a single score of the shipped release. The fixture
 * (`node packages/training/run.mjs golden <file>`) holds, for 100+ texts, every label's
 * probability, every label's explanation, the native comment score, attribute scores with spans
 * and the spam check, as the code scored them when local-2026.12.7 shipped (issue 30). The
 * comparison is exact (JSON keeps doubles bit for bit); probabilities keep an allowance of 1e-15
 * relative (a few units in the last place), which the previous fixture needed when the word-weight
 * heads moved to the package's one `sigmoid`.
 *
 * Against the previous release's fixture (local-2026.11.3) only the toxicity heads, the labels
 * built on them (aliases, LIKELY_TO_REJECT) and what the comment scorer derives from them moved:
 * SPAM, the C3 heads, every spam check and every explanation of a non-toxicity label are
 * identical (their weight files are byte-identical), and the word-weight heads differ by at most
 * 2.2e-16 relative (that sigmoid change).
 *
 * The fixture belongs to one release: after a retrain the manifest version differs and this test
 * fails, telling you to record a new fixture for the new release (before refactoring, not after).
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import type { ModelLabel } from "../../src/AttributeModel.js"
import { analyzeAttributes } from "../../src/evaluators/LocalAttributeScorer.js"
import { scoreComment } from "../../src/evaluators/LocalCommentScorer.js"
import { checkSpam } from "../../src/evaluators/LocalSpamChecker.js"
import { fromModelSet, loadModelSet } from "../../src/models/TrainedModel.js"
import { goldenInputs } from "./goldenTexts.js"

interface GoldenRow {
  readonly text: string
  readonly predict: Record<string, number>
  readonly explain: Record<string, unknown>
  readonly comment: unknown
  readonly attributes: unknown
  readonly spam: unknown
}
const fixture = JSON.parse(readFileSync(new URL("./golden-local-2026.12.7.json", import.meta.url), "utf8")) as {
  readonly version: string
  readonly labels: ReadonlyArray<ModelLabel>
  readonly rows: ReadonlyArray<GoldenRow>
}

describe("shipped release scores, recorded before refactoring", () => {
  const set = loadModelSet()
  const model = fromModelSet(set)

  it("is the release the fixture was recorded from", () => {
    assert.strictEqual(set.version, fixture.version)
    assert.deepStrictEqual([...set.labels], fixture.labels)
    assert.isAbove(fixture.rows.length, 100)
  })

  it("predicts every label as before (to 1e-15 relative)", () => {
    for (const row of fixture.rows) {
      const p = set.predict(row.text, fixture.labels)
      assert.deepStrictEqual(Object.keys(p).sort(), Object.keys(row.predict).sort())
      for (const [label, before] of Object.entries(row.predict)) {
        const now = p[label as ModelLabel]!
        if (Math.abs(now - before) > 1e-15 * Math.max(before, 1e-300)) assert.deepStrictEqual({ text: row.text, label, now }, { text: row.text, label, now: before })
      }
    }
  })

  it("explains every label exactly as before", () => {
    for (const row of fixture.rows) {
      const explain = Object.fromEntries(fixture.labels.map((l) => [l, set.explain(row.text, l, 5)]))
      assert.deepStrictEqual({ text: row.text, explain }, { text: row.text, explain: row.explain })
    }
  })

  it("scores comments, attributes and spam exactly as before", () => {
    for (const row of fixture.rows) {
      const input = goldenInputs(row.text)
      assert.deepStrictEqual({ text: row.text, comment: scoreComment(model, input.comment) }, { text: row.text, comment: row.comment })
      assert.deepStrictEqual({ text: row.text, attributes: analyzeAttributes(model, input.attributes) }, { text: row.text, attributes: row.attributes })
      assert.deepStrictEqual({ text: row.text, spam: checkSpam(model, input.spam) }, { text: row.text, spam: row.spam })
    }
  })
})
