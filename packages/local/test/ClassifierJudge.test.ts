/**
 * Bring your own model (issue 27): the loader of an operator's ONNX sequence classifier, on a tiny
 * classifier and tokenizer the test builds (test/classifier/tinyClassifier.ts: every score below is
 * worked out by hand from its weights), and every way its mapping or files can be wrong.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ClassifierJudge, Judge, JudgeBackend } from "@decorum/local"
import { windowStarts } from "../src/internal/classifier/tokens.js"
import { TINY_MAPPING, writeClassifier } from "./classifier/tinyClassifier.js"
import { fakeBackend } from "./judge/fakeBackend.js"

const root = mkdtempSync(join(tmpdir(), "decorum-classifier-"))
let dirs = 0
const fresh = () => join(root, `m${dirs++}`)
afterAll(() => rmSync(root, { recursive: true, force: true }))

const BASE = TINY_MAPPING

const FULL = {
  ...BASE,
  attributes: [
    { attribute: "TOXICITY", index: 0, activation: "sigmoid" },
    { attribute: "INSULT", index: 1, activation: "sigmoid", calibration: { a: 2, b: 1 }, combine: "average" },
    { attribute: "PROFANITY", output: "probs", index: 0, activation: "probability", combine: { head: 2, linear: 0.25 } },
    { attribute: "RESPECT_EXPERIMENTAL", output: "classes", index: 1, activation: "softmax" }
  ]
}

// "You are an idiot!" is [CLS] you are an idiot ! [SEP]: mean embedding (6/7, 1/7).
const IDIOT = "You are an idiot!"
// "great post" is [CLS] great post [SEP]: mean embedding (0, 1/2).
const GREAT = "great post"
// Six tokens of text: great post great post you idiot.
const LONG = "Great post great POST you idiot"

const loaded = (mapping: unknown, options: { readonly tokenTypes?: boolean } = {}) =>
  ClassifierJudge.make(writeClassifier(fresh(), mapping, options))

const CLOSE = 1e-5

describe("ClassifierJudge", () => {
  it.scoped("reads each output as its mapping says: sigmoid, calibrated, probability, softmax", () =>
    Effect.gen(function*() {
      const judge = yield* loaded(FULL)
      const [idiot, great, empty] = yield* Effect.promise(() => judge.logits([IDIOT, GREAT, ""]))
      // toxic = [2 h - 1, f - h]; classes = [h, f, -h]; probs = sigmoid(toxic)
      assert.closeTo(idiot!.TOXICITY!, 2 * 6 / 7 - 1, CLOSE)
      assert.closeTo(idiot!.INSULT!, 2 * (1 / 7 - 6 / 7) + 1, CLOSE) // Platt a=2, b=1
      assert.closeTo(idiot!.PROFANITY!, 5 / 7, CLOSE) // logit(sigmoid(5/7))
      assert.closeTo(idiot!.RESPECT_EXPERIMENTAL!, 1 / 7 - Math.log(Math.exp(6 / 7) + Math.exp(-6 / 7)), CLOSE)
      assert.closeTo(great!.TOXICITY!, -1, CLOSE)
      assert.closeTo(great!.INSULT!, 2 * 0.5 + 1, CLOSE)
      assert.closeTo(great!.RESPECT_EXPERIMENTAL!, 0.5 - Math.log(2), CLOSE)
      assert.closeTo(empty!.TOXICITY!, -1, CLOSE) // [CLS] [SEP] only
      assert.strictEqual(judge.model, "tiny-classifier-1")
      assert.deepStrictEqual(Object.fromEntries(judge.heads), {
        TOXICITY: { head: 1, linear: 0, bias: 0 },
        INSULT: { head: 0.5, linear: 0.5, bias: 0 },
        PROFANITY: { head: 2, linear: 0.25, bias: 0 },
        RESPECT_EXPERIMENTAL: { head: 1, linear: 0, bias: 0 }
      })
      // "replace" serves the classifier's own probability whatever the linear model said
      assert.closeTo(JudgeBackend.combine(judge.heads.get("TOXICITY")!, idiot!.TOXICITY!, 0.01), 1 / (1 + Math.exp(-5 / 7)), CLOSE)
      assert.deepStrictEqual(yield* Effect.promise(() => judge.logits([])), [])
    }))

  it.scoped("scores a comment alike alone and in a padded batch", () =>
    Effect.gen(function*() {
      const judge = yield* loaded(FULL)
      const [alone] = yield* Effect.promise(() => judge.logits([IDIOT]))
      const batch = yield* Effect.promise(() => judge.logits([GREAT, IDIOT, "", "thanks thanks you are great!!"]))
      for (const a of ["TOXICITY", "INSULT", "PROFANITY", "RESPECT_EXPERIMENTAL"] as const) {
        assert.closeTo(batch[1]![a]!, alone![a]!, 1e-6)
      }
      assert.closeTo(batch[0]!.TOXICITY!, -1, CLOSE) // the shorter row, padded with [PAD] (embedding (5, 5)) under mask 0
    }))

  it.scoped("feeds token type ids when the graph takes them", () =>
    Effect.gen(function*() {
      const judge = yield* loaded({ ...BASE, inputs: { tokenTypes: "token_type_ids" } }, { tokenTypes: true })
      const [idiot] = yield* Effect.promise(() => judge.logits([IDIOT]))
      assert.closeTo(idiot!.TOXICITY!, 2 * (6 / 7 + 0.5) - 1, CLOSE) // type 0 adds (0.5, 0) to every token
    }))

  it("places windows of `size` tokens `stride` apart, the last ending at the last token", () => {
    assert.deepStrictEqual(windowStarts(0, 3, 2), [0])
    assert.deepStrictEqual(windowStarts(3, 3, 2), [0])
    assert.deepStrictEqual(windowStarts(6, 3, 2), [0, 2, 3])
    assert.deepStrictEqual(windowStarts(10, 4, 3), [0, 3, 6])
    assert.deepStrictEqual(windowStarts(11, 4, 3), [0, 3, 6, 7])
    assert.deepStrictEqual(windowStarts(5, 2, 2), [0, 2, 3])
    // at most `limit` windows, spread evenly from the first token to the last
    assert.deepStrictEqual(windowStarts(100, 10, 5, 4), [0, 30, 60, 90])
    assert.deepStrictEqual(windowStarts(100, 10, 5, 1), [0])
    assert.deepStrictEqual(windowStarts(12, 4, 4, 3), [0, 4, 8])
  })

  // Windows of 3 tokens, 2 apart, over great post great post you idiot: [great post great],
  // [great post you], [post you idiot]; 5 tokens a row with [CLS] and [SEP]; mean hostility 0,
  // 1/5, 5/5, so TOXICITY (2 h - 1) is -1, -0.6 and 1.
  const windowed = (pool: "max" | "mean") => ({ ...BASE, maxLength: 5, window: { size: 3, stride: 2, pool } })
  const sigmoid = (z: number) => 1 / (1 + Math.exp(-z))

  it.scoped("windows a long comment and pools its windows by max or mean probability", () =>
    Effect.gen(function*() {
      const max = yield* loaded(windowed("max"))
      const mean = yield* loaded(windowed("mean"))
      const cut = yield* loaded({ ...BASE, maxLength: 5 })
      const [maxLong, maxGreat] = yield* Effect.promise(() => max.logits([LONG, GREAT]))
      assert.closeTo(maxLong!.TOXICITY!, 1, CLOSE)
      const p = (sigmoid(-1) + sigmoid(-0.6) + sigmoid(1)) / 3
      const [meanLong] = yield* Effect.promise(() => mean.logits([LONG]))
      assert.closeTo(meanLong!.TOXICITY!, Math.log(p / (1 - p)), CLOSE)
      // without a window, the comment is cut to its first maxLength - 2 tokens: great post great
      const [cutLong] = yield* Effect.promise(() => cut.logits([LONG]))
      assert.closeTo(cutLong!.TOXICITY!, -1, CLOSE)
      // a comment shorter than a window is one window
      assert.closeTo(maxGreat!.TOXICITY!, -1, CLOSE)
      // limited to two windows, the first and the last: [great post great] (-1), [post you idiot] (1)
      const limited = yield* loaded({ ...BASE, maxLength: 5, window: { size: 3, stride: 1, pool: "mean", limit: 2 } })
      const [limitedLong] = yield* Effect.promise(() => limited.logits([LONG]))
      assert.closeTo(limitedLong!.TOXICITY!, 0, CLOSE) // logit((sigmoid(-1) + sigmoid(1)) / 2)
      // and a windowed comment's rows pad with the batch's others
      const [, alone] = yield* Effect.promise(() => max.logits(["you", LONG, ""]))
      assert.closeTo(alone!.TOXICITY!, 1, CLOSE)
    }))

  it.scoped("gives the judge the cascade band of each attribute whose mapping has one", () =>
    Effect.gen(function*() {
      const mapping = { ...FULL, attributes: FULL.attributes.map((a, i) => (i === 1 ? { ...a, band: [0.1, 0.6] } : a)) }
      const source = yield* ClassifierJudge.source(writeClassifier(fresh(), mapping))
      assert.deepStrictEqual(source.cascade, { INSULT: [0.1, 0.6] })
      assert.strictEqual(source.backend.model, "tiny-classifier-1")
    }))

  it.scoped("is the judge when it loads, and leaves the built-in judge serving, saying why, when it does not", () =>
    Effect.gen(function*() {
      const builtIn = fakeBackend({ TOXICITY: 2 }, "judge-built-in")
      const fallback = Effect.succeed<Judge.Source>({ backend: builtIn, status: { backend: "built-in" } })
      const ok = yield* Judge.make(ClassifierJudge.orBuiltIn(writeClassifier(fresh(), BASE), fallback), { mode: "neural" })
      assert.deepStrictEqual(ok.status, { mode: "neural", state: "ready", model: "tiny-classifier-1", backend: "operator" })
      assert.closeTo((yield* ok.judge(IDIOT, { TOXICITY: 0.01 })).TOXICITY!, 1 / (1 + Math.exp(-5 / 7)), CLOSE)

      const dir = fresh()
      const missing = writeClassifier(dir, { ...BASE, model: "absent.onnx" })
      const served = yield* Judge.make(ClassifierJudge.orBuiltIn(missing, fallback), { mode: "neural" })
      assert.deepStrictEqual(served.status, {
        mode: "neural",
        state: "ready",
        model: "judge-built-in",
        backend: "built-in",
        fallback: `DECORUM_JUDGE_MODEL=${missing} did not load (model ${join(dir, "absent.onnx")}: model file not found)`
      })
      assert.closeTo((yield* served.judge(IDIOT, { TOXICITY: 0.01 })).TOXICITY!, 1 / (1 + Math.exp(-2)), CLOSE)
      assert.deepStrictEqual(builtIn.calls, [[IDIOT]])

      const neither = yield* Judge.make(
        ClassifierJudge.orBuiltIn(missing, Effect.fail(new Judge.JudgeUnavailable({ reason: "no encoder/judge.json" }))),
        { mode: "cascade" }
      )
      assert.strictEqual(neither.status.state, "unavailable")
      assert.include(neither.status.reason, "model file not found), and the built-in judge is unavailable: no encoder/judge.json")
    }))

  it.effect("as a layer of its own, is the judge, or unavailable naming why", () =>
    Effect.gen(function*() {
      const ready = yield* Effect.provide(Judge.Judge, ClassifierJudge.layer(writeClassifier(fresh(), BASE), { mode: "cascade" }))
      assert.deepStrictEqual(ready.status, { mode: "cascade", state: "ready", model: "tiny-classifier-1" })
      const missing = join(fresh(), "mapping.json")
      const unavailable = yield* Effect.provide(Judge.Judge, ClassifierJudge.layer(missing, { mode: "cascade" }))
      assert.deepStrictEqual(unavailable.status, { mode: "cascade", state: "unavailable", reason: `mapping ${missing}: mapping file not found` })
    }))

  it.effect("releases its session when closed", () =>
    Effect.gen(function*() {
      const judge = yield* ClassifierJudge.load(writeClassifier(fresh(), BASE))
      yield* Effect.promise(() => judge.close())
      const after = yield* Effect.exit(Effect.tryPromise(() => judge.logits([IDIOT])))
      assert.isTrue(Exit.isFailure(after))
    }))
})

/** The load error of a mapping (object, or raw text), or of files changed after writing. */
const failure = (mapping: unknown, options: { readonly tokenTypes?: boolean; readonly change?: (dir: string) => void } = {}) =>
  Effect.gen(function*() {
    const dir = fresh()
    const path = writeClassifier(dir, mapping, options)
    options.change?.(dir)
    return yield* Effect.flip(ClassifierJudge.load(path))
  })

const attribute = (patch: Record<string, unknown>) => ({ ...BASE, attributes: [{ ...BASE.attributes[0], ...patch }] })

describe("ClassifierJudge errors name what is wrong", () => {
  const cases: ReadonlyArray<readonly [string, unknown, "mapping" | "tokenizer" | "model", string]> = [
    ["a mapping that is not JSON", "{ \"model\": ", "mapping", "JSON"],
    ["another format", { ...BASE, format: 2 }, "mapping", "format"],
    ["no model", { ...BASE, model: undefined }, "mapping", "model"],
    ["no attributes", { ...BASE, attributes: [] }, "mapping", "attributes"],
    ["an unknown attribute", attribute({ attribute: "TOXIC" }), "mapping", "attributes.0.attribute: must be an attribute Decorum serves"],
    ["an unknown activation", attribute({ activation: "relu" }), "mapping", "attributes.0.activation: must be \"sigmoid\", \"softmax\" or \"probability\""],
    ["a misspelt field", attribute({ activation: undefined, activaton: "sigmoid" }), "mapping", "attributes.0.activat"],
    ["a field the format does not have", { ...BASE, threshold: 0.5 }, "mapping", "threshold"],
    ["a negative index", attribute({ index: -1 }), "mapping", "attributes.0.index"],
    ["a fractional index", attribute({ index: 0.5 }), "mapping", "attributes.0.index"],
    ["a calibration that is not numbers", attribute({ calibration: { a: "1", b: 0 } }), "mapping", "attributes.0.calibration.a"],
    ["an unknown combination", attribute({ combine: "mean" }), "mapping", "attributes.0.combine: must be \"replace\", \"average\" or {"],
    ["a combination without its linear weight", attribute({ combine: { head: 1 } }), "mapping", "attributes.0.combine"],
    ["an attribute mapped twice", { ...BASE, attributes: [BASE.attributes[0], { ...BASE.attributes[0], index: 1 }] }, "mapping", "attributes.1.attribute: TOXICITY is mapped twice"],
    ["a band upside down", attribute({ band: [0.8, 0.2] }), "mapping", "attributes.0.band: must be [low, high] with low <= high"],
    ["a band outside [0, 1]", attribute({ band: [0.2, 2] }), "mapping", "attributes.0.band.1"],
    ["a stride longer than the window", { ...BASE, window: { size: 4, stride: 5 } }, "mapping", "window.stride"],
    ["a window limit of none", { ...BASE, window: { size: 4, stride: 2, limit: 0 } }, "mapping", "window.limit"],
    ["an unknown pooling", { ...BASE, window: { size: 4, stride: 2, pool: "median" } }, "mapping", "window.pool: must be \"max\" or \"mean\""],
    ["a window wider than maxLength allows", { ...BASE, maxLength: 8, window: { size: 7, stride: 2 } }, "mapping", "window.size: 7 tokens and the 2 special tokens exceed maxLength (8)"],
    ["a maxLength with no room for text", { ...BASE, maxLength: 2 }, "mapping", "maxLength"],
    ["an index past the output's columns", attribute({ index: 2 }), "mapping", "attributes.0.index: 2 is past the last column of output \"toxic\" (2 columns)"],
    ["a softmax over one column", attribute({ output: "single", activation: "softmax" }), "mapping", "attributes.0.activation: softmax needs"],
    ["an output the model does not have", { ...BASE, output: "logits" }, "model", "has no output \"logits\" (output)"],
    ["an attribute's output the model does not have", attribute({ output: "scores" }), "model", "(attributes.0.output)"],
    ["an input the model does not have", { ...BASE, inputs: { ids: "ids" } }, "model", "has no input \"ids\" (inputs.ids)"],
    ["token types fed to a graph without them", { ...BASE, inputs: { tokenTypes: "token_type_ids" } }, "model", "(inputs.tokenTypes)"]
  ]
  for (const [what, mapping, part, says] of cases) {
    it.effect(what, () =>
      Effect.gen(function*() {
        const error = yield* failure(mapping)
        assert.strictEqual(error._tag, "ClassifierJudgeError")
        assert.strictEqual(error.part, part)
        assert.include(error.message, says)
      }))
  }

  it.effect("a graph that needs token types the mapping does not feed", () =>
    Effect.gen(function*() {
      const error = yield* failure(BASE, { tokenTypes: true })
      assert.strictEqual(error.part, "model")
      assert.include(error.message, "needs inputs the mapping does not feed: token_type_ids (set inputs.tokenTypes)")
    }))

  it.effect("a missing mapping file", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(ClassifierJudge.load(join(fresh(), "mapping.json")))
      assert.strictEqual(error.part, "mapping")
      assert.include(error.message, "mapping file not found")
    }))

  const files: ReadonlyArray<readonly [string, (dir: string) => void, "tokenizer" | "model", string]> = [
    ["a missing model file", (dir) => rmSync(join(dir, "model.onnx")), "model", "model.onnx: model file not found"],
    ["a broken model file", (dir) => writeFileSync(join(dir, "model.onnx"), Buffer.from("not an onnx model at all")), "model", "model.onnx: does not load"],
    ["a truncated model file", (dir) => writeFileSync(join(dir, "model.onnx"), Buffer.alloc(0)), "model", "does not load"],
    ["a missing tokenizer", (dir) => rmSync(join(dir, "tokenizer.json")), "tokenizer", "tokenizer.json: tokenizer file not found"],
    ["a tokenizer that is not JSON", (dir) => writeFileSync(join(dir, "tokenizer.json"), "{"), "tokenizer", "tokenizer.json"],
    ["a tokenizer.json of something else", (dir) => writeFileSync(join(dir, "tokenizer.json"), "{}"), "tokenizer", "does not load"]
  ]
  for (const [what, change, part, says] of files) {
    it.effect(what, () =>
      Effect.gen(function*() {
        const error = yield* failure(BASE, { change })
        assert.strictEqual(error.part, part)
        assert.include(error.message, says)
      }))
  }
})
