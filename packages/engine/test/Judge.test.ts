/**
 * The judge in the composed engine (issue 27): `DECORUM_JUDGE` reaches it, its status reaches
 * `EngineInfo` (what `/readyz` shows), a judge that cannot start leaves the engine serving the
 * linear scores, and a judged answer names the judge in its provenance.
 */
import { readdirSync, readFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Analyze, EngineInfo } from "@decorum/core"
import { Engine } from "@decorum/engine"
import { defaultModelDirectory } from "@decorum/local"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"

const SHIPPED = defaultModelDirectory()
const VERSION = (JSON.parse(readFileSync(join(SHIPPED, "manifest.json"), "utf8")) as { readonly version: string }).version
const SHA256 = "47f832de878c466ebbe6f4b508811727c29d4ff930e6b81b09ed449a68e52ddb"

/** The shipped models directory (links), with a judge.json of one TOXICITY head naming `sha256` as the encoder's. */
const modelsWithJudge = (sha256: string) => {
  const root = mkdtempSync(join(tmpdir(), "decorum-engine-judge-"))
  for (const entry of readdirSync(SHIPPED)) if (entry !== "encoder") symlinkSync(join(SHIPPED, entry), join(root, entry))
  mkdirSync(join(root, "encoder"))
  for (const file of ["use-lite.fp16.onnx", "vocab.json"]) symlinkSync(join(SHIPPED, "encoder", file), join(root, "encoder", file))
  writeFileSync(
    join(root, "encoder", "judge.json"),
    JSON.stringify({
      release: "judge-engine-test",
      encoder: { file: "use-lite.fp16.onnx", sha256, vocab: "vocab.json", maxTokens: 128 },
      linearRelease: VERSION,
      dimensions: 512,
      heads: { TOXICITY: { weights: Array.from({ length: 512 }, (_, i) => (i === 0 ? 1 : 0)), bias: 0, combine: { head: 1, linear: 1, bias: 0 } } }
    })
  )
  return root
}

const analyze = Analyze.analyze({ comment: { text: "You are a stupid idiot." }, requestedAttributes: { TOXICITY: {}, INSULT: {} }, languages: ["en"] }, "compat")

/** An analyze answer and the `EngineInfo` of an engine on the models of `modelsWithJudge(sha256)` in `judge` mode. */
const engineWith = (sha256: string, judge: "linear" | "cascade" | "neural") =>
  Effect.gen(function*() {
    const directory = modelsWithJudge(sha256)
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(directory, { recursive: true, force: true })))
    return yield* Effect.all({ answer: analyze, info: EngineInfo }).pipe(Effect.provide(Engine.layerOptions({ db: "memory", model: { directory }, judge })))
  })

describe("the engine's judge", () => {
  it.scoped("neural: a judged answer names the judge; EngineInfo says it is ready", () =>
    Effect.gen(function*() {
      const { answer, info } = yield* engineWith(SHA256, "neural")
      assert.deepStrictEqual(info.judge, { mode: "neural", state: "ready", model: "judge-engine-test", backend: "built-in" })
      assert.strictEqual(answer.provenance.model, `${VERSION}+judge-engine-test`)
    }))

  it.scoped("a damaged model file: the engine starts, serves the linear scores, and says why", () =>
    Effect.gen(function*() {
      const { answer, info } = yield* engineWith("0".repeat(64), "cascade")
      assert.strictEqual(info.judge?.state, "unavailable")
      assert.match(info.judge?.reason ?? "", /is damaged/)
      assert.strictEqual(answer.provenance.model, VERSION)
      assert.isDefined(answer.value.attributeScores?.["TOXICITY"])
    }))

  it.scoped("linear: the judge is off and never started", () =>
    Effect.gen(function*() {
      const { answer, info } = yield* engineWith(SHA256, "linear")
      assert.deepStrictEqual(info.judge, { mode: "linear", state: "off" })
      assert.strictEqual(answer.provenance.model, VERSION)
    }))
})
