/**
 * The encoder fine-tune's plumbing (issue 27): the weights file round trip that `encoder convert
 * --from` builds the served model from, and finetune.py's PyTorch copy of the graph against the
 * ONNX graph convert.ts builds (when a Python with torch is on this machine: training's tool, not a
 * dependency of the project). Random weights of the package's shapes (fixtures/use-lite-shapes.json),
 * so neither the npm package nor ../shared is needed.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { buildModel, type Weight } from "../encoder/convert.js"
import { writeReference, writeRows } from "../encoder/finetuneData.js"
import { missingEncoderPackages } from "../encoder/optional.js"
import { readSource, readWeightsFile, writeWeights } from "../encoder/weightsFile.js"

const SHAPES = JSON.parse(readFileSync(join(__dirname, "fixtures", "use-lite-shapes.json"), "utf8")) as Record<string, Array<number>>

/** Weights of the package's names and shapes, from a seeded generator, at the package's scale. */
const randomWeights = (seed: number): Map<string, Weight> => {
  let s = seed >>> 0
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32 - 0.5
  }
  const out = new Map<string, Weight>()
  for (const [name, shape] of Object.entries(SHAPES)) {
    const n = shape.reduce((a, b) => a * b, 1)
    const scale = name.endsWith("ExpandDims_1") ? 0 : 0.1
    const data = Float32Array.from({ length: n }, () => scale * next())
    // the timing signal's inverse frequencies, as the package has them (positive, decreasing)
    if (name.endsWith("ExpandDims_1")) data.forEach((_, i) => (data[i] = Math.exp(-Math.log(10000) * i / n)))
    if (/layer_norm_scale/.test(name)) data.forEach((v, i) => (data[i] = 1 + v))
    out.set(name, { shape, data })
  }
  return out
}

const python = ["/usr/bin/python3", "python3"].find((p) => (p === "python3" || existsSync(p)) && spawnSync(p, ["-c", "import torch, numpy"], { stdio: "ignore" }).status === 0)
const noOrt = missingEncoderPackages(["onnxruntime-node"]).length > 0

describe("encoder fine-tune", () => {
  it("the weights file gives back every weight bit for bit, and the model built from it is the same file", () => {
    const dir = mkdtempSync(join(tmpdir(), "decorum-ft-"))
    try {
      const weights = randomWeights(27)
      writeWeights(dir, weights)
      const back = readWeightsFile(dir)
      assert.deepStrictEqual([...back.keys()].sort(), [...weights.keys()].sort())
      for (const [name, w] of weights) {
        assert.deepStrictEqual(back.get(name)!.shape, w.shape)
        assert.isTrue(Buffer.from(back.get(name)!.data.buffer).equals(Buffer.from(w.data.buffer)), name)
      }
      const model = buildModel(back, { weights: "fp32" })
      assert.isTrue(Buffer.from(model).equals(Buffer.from(buildModel(weights, { weights: "fp32" }))))
      assert.strictEqual(readSource(dir), undefined)
      writeFileSync(join(dir, "source.txt"), "fine-tuned by a test\n")
      assert.strictEqual(readSource(dir), "fine-tuned by a test")
      const described = Buffer.from(buildModel(back, { weights: "fp32", source: readSource(dir)! })).toString("latin1")
      assert.include(described, "fine-tuned by a test")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("a damaged weights file is refused", () => {
    const dir = mkdtempSync(join(tmpdir(), "decorum-ft-"))
    try {
      writeWeights(dir, randomWeights(1))
      const bin = readFileSync(join(dir, "weights.bin"))
      writeFileSync(join(dir, "weights.bin"), bin.subarray(0, bin.length - 4))
      assert.throws(() => readWeightsFile(dir), /too short/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  // finetune.py trains a PyTorch copy of convert.ts's graph; a copy that drifts would train one model and ship another
  it.skipIf(python === undefined || noOrt)("finetune.py's PyTorch graph computes the ONNX graph's embeddings", async () => {
    const dir = mkdtempSync(join(tmpdir(), "decorum-ft-"))
    try {
      const weights = randomWeights(5)
      writeWeights(dir, weights)
      // rows of different lengths (padding), one over the 128-token cap's half, unknown piece 0 included
      const tokens = [[5, 17, 0, 300], [7999, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], Array.from({ length: 90 }, (_, i) => (i * 37) % 8000), [42]]
      const L = 6
      writeRows(dir, "train", { tokens, labels: new Float32Array(tokens.length * L).fill(Number.NaN), weights: new Float32Array(tokens.length * L), heldOut: new Uint8Array(tokens.length) })
      await writeReference(dir, weights, tokens)
      const r = spawnSync(python!, [join(__dirname, "..", "encoder", "finetune.py"), "--data", dir, "--check-only"], { encoding: "utf8" })
      assert.strictEqual(r.status, 0, r.stderr + r.stdout)
      const cosine = Number(/cosine min ([\d.]+)/.exec(r.stdout)![1])
      assert.isAbove(cosine, 0.9999)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
