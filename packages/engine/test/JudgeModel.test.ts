/**
 * Bring your own model (issue 27) through the composition root: `DECORUM_JUDGE_MODEL` names the
 * mapping of an operator's ONNX classifier (here the tiny one the local package's tests build), the
 * engine's judge runs it, and `EngineInfo.judge` (what `/readyz` shows) says whose model serves;
 * a missing or broken model leaves the built-in judge's place to it and says why.
 */
import { AttributeScorer, EngineInfo } from "@decorum/core"
import type { Perspective } from "@decorum/domain"
import { Engine } from "@decorum/engine"
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Logger } from "effect"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { TINY_MAPPING, writeClassifier } from "../../local/test/classifier/tinyClassifier.js"

const LOCAL_MODELS = join(__dirname, "../../local/models")
const root = mkdtempSync(join(tmpdir(), "decorum-judge-model-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const MAPPING = TINY_MAPPING

// [CLS] you are an idiot ! [SEP]: the tiny classifier's TOXICITY log-odds is 5/7 (tinyClassifier.ts).
const TEXT = "You are an idiot!"

const input = (text: string, attributes: ReadonlyArray<Perspective.Attribute> = ["TOXICITY"]) => ({
  text,
  attributes,
  spans: [{ begin: 0, end: text.length }],
  context: { article: null, parent: null, entries: [] },
  language: "en"
})

const engineWith = (env: Record<string, string>) =>
  Engine.layerConfig.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries({ DECORUM_DB: "memory", ...env }))))))

const scoreAndInfo = Effect.gen(function*() {
  const scored = yield* Effect.flatMap(AttributeScorer, (s) => s.analyze(input(TEXT)))
  return { info: yield* EngineInfo, scored }
})

describe("DECORUM_JUDGE_MODEL", () => {
  it.scopedLive("runs the operator's classifier as the judge, and EngineInfo names it", () =>
    Effect.gen(function*() {
      const mapping = writeClassifier(join(root, "ok"), MAPPING)
      const { info, scored } = yield* scoreAndInfo.pipe(Effect.provide(engineWith({ DECORUM_JUDGE: "neural", DECORUM_JUDGE_MODEL: mapping })))
      assert.deepStrictEqual(info.judge, { mode: "neural", state: "ready", model: "tiny-classifier-1", backend: "operator" })
      // combine "replace": the classifier's own probability, sigmoid(5/7)
      assert.closeTo(scored.value.TOXICITY!.summary, 1 / (1 + Math.exp(-5 / 7)), 1e-5)
      assert.match(scored.provenance.model, /\+tiny-classifier-1$/)
    }))

  it.scopedLive("falls back to the built-in judge when the model is missing or broken, and says why", () =>
    Effect.gen(function*() {
      const builtIn = (JSON.parse(readFileSync(join(LOCAL_MODELS, "encoder", "judge.json"), "utf8")) as { readonly release: string }).release
      const missing = writeClassifier(join(root, "missing"), { ...MAPPING, model: "absent.onnx" })
      const broken = writeClassifier(join(root, "broken"), MAPPING)
      writeFileSync(join(root, "broken", "model.onnx"), "not a model")
      for (const [mapping, why] of [[missing, "absent.onnx: model file not found"], [broken, "model.onnx: does not load"]] as const) {
        const lines: Array<string> = []
        const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => lines.push(String(message))))
        const { info, scored } = yield* scoreAndInfo.pipe(Effect.provide(engineWith({ DECORUM_JUDGE: "neural", DECORUM_JUDGE_MODEL: mapping })), Effect.provide(capture))
        // The built-in judge (the shipped models/encoder/judge.json) serves in its place.
        const { fallback, ...judge } = info.judge!
        assert.deepStrictEqual(judge, { mode: "neural", state: "ready", model: builtIn, backend: "built-in" })
        assert.include(fallback, `DECORUM_JUDGE_MODEL=${mapping} did not load (model `)
        assert.include(fallback, why)
        assert.isTrue(lines.some((l) => l.includes(why)), "one warning at start names the reason")
        assert.strictEqual(scored.provenance.model.split("+")[1], builtIn)
      }
    }))

  it.scopedLive("is never loaded when the judge is off (DECORUM_JUDGE=linear)", () =>
    Effect.gen(function*() {
      const mapping = writeClassifier(join(root, "linear"), MAPPING)
      const { info } = yield* scoreAndInfo.pipe(Effect.provide(engineWith({ DECORUM_JUDGE: "linear", DECORUM_JUDGE_MODEL: mapping })))
      assert.deepStrictEqual(info.judge, { mode: "linear", state: "off" })
    }))
})
