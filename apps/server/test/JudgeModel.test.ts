/**
 * Bring your own model (issue 27), as an operator runs it: `decorum serve` with
 * `DECORUM_JUDGE_MODEL` naming the mapping of an ONNX classifier (the tiny one the local package's
 * tests build). `/readyz` says whose judge serves; analyze answers the classifier's scores; a
 * broken model leaves the server ready, the built-in judge serving, and `/readyz` says why.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { TINY_MAPPING, writeClassifier } from "../../../packages/local/test/classifier/tinyClassifier.js"
import { startServeKilledAfterEach, stop } from "./process.js"

const dir = mkdtempSync(join(tmpdir(), "decorum-judge-model-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const startServe = startServeKilledAfterEach()

const MAPPING = TINY_MAPPING

describe("decorum serve with DECORUM_JUDGE_MODEL", () => {
  it("serves the operator's classifier as the judge and /readyz names it", async () => {
    const mapping = writeClassifier(join(dir, "ok"), MAPPING)
    const server = await startServe(["--db", join(dir, "ok.db")], { DECORUM_JUDGE: "neural", DECORUM_JUDGE_MODEL: mapping })
    try {
      const ready = await fetch(`${server.url}/readyz`)
      assert.strictEqual(ready.status, 200)
      assert.deepStrictEqual((await ready.json()).judge, { mode: "neural", state: "ready", model: "tiny-classifier-1", backend: "operator" })
      const key = /^\s+(dk_\S+)\s*$/m.exec(server.output())?.[1]
      assert.isDefined(key)
      const answer = await fetch(`${server.url}/v1alpha1/comments:analyze?key=${key}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ comment: { text: "You are an idiot!" }, languages: ["en"], requestedAttributes: { TOXICITY: {} } })
      })
      assert.strictEqual(answer.status, 200)
      // [CLS] you are an idiot ! [SEP]: log-odds 5/7, served alone ("replace")
      assert.closeTo((await answer.json()).attributeScores.TOXICITY.summaryScore.value, 1 / (1 + Math.exp(-5 / 7)), 1e-4)
    } finally {
      await stop(server)
    }
  })

  it("stays ready without a broken model, and /readyz says why", async () => {
    const mapping = writeClassifier(join(dir, "broken"), MAPPING)
    writeFileSync(join(dir, "broken", "model.onnx"), "not a model")
    const server = await startServe(["--db", join(dir, "broken.db")], { DECORUM_JUDGE_MODEL: mapping })
    try {
      const ready = await fetch(`${server.url}/readyz`)
      assert.strictEqual(ready.status, 200)
      const { judge } = await ready.json()
      // the built-in judge (the shipped models/encoder/judge.json) in its place
      assert.deepInclude(judge, { mode: "cascade", state: "ready", backend: "built-in" })
      assert.notStrictEqual(judge.model, "tiny-classifier-1")
      assert.include(judge.fallback, `DECORUM_JUDGE_MODEL=${mapping} did not load (model `)
      assert.include(server.output(), "model.onnx: does not load")
    } finally {
      await stop(server)
    }
  })
})
