import { assert, describe, it } from "@effect/vitest"
import { Featurizer } from "@decorum/local/Featurizer"
import { decodeWeights, encodeWeights } from "@decorum/local/ModelFormat"
import {
  accuracy, agreement, rocAuc, scoreRow, shuffled, SparseMatrix, spearman, trainLogistic
} from "../fit.js"
import { applyCalibration, fitIsotonic, fitPlatt } from "@decorum/local/Calibration"

const POSITIVE = ["you are a stupid idiot", "shut up moron", "what an idiot you are", "stupid moron go away", "idiot idiot idiot", "you moron"]
const NEGATIVE = ["thanks for the helpful edit", "the article cites two sources", "i agree with the change", "good point about the sources", "see the talk page", "nice work on the edit"]

const fixture = () => {
  const f = new Featurizer({ bits: 14, charMin: 3, charMax: 5, negationScope: 3 })
  const X = new SparseMatrix()
  const texts = [...POSITIVE, ...NEGATIVE]
  for (const t of texts) {
    f.run(t)
    X.pushFeatures(f)
  }
  const y = Float32Array.from(texts.map((_, i) => (i < POSITIVE.length ? 1 : 0)))
  return { f, X, y, w: new Float32Array(texts.length).fill(1) }
}

const options = { bits: 14, epochs: 30, learningRate: 0.3, l2: 1e-6, seed: 7 }

describe("trainLogistic", () => {
  it("separates a small fixture and generalises to an unseen insult", () => {
    const { f, X, y, w } = fixture()
    for (const nbAlpha of [undefined, 1]) {
      const m = trainLogistic(X, y, w, { ...options, nbAlpha })
      const scores = Array.from({ length: X.rows }, (_, r) => scoreRow(X, r, m))
      assert.strictEqual(rocAuc(scores, y), 1)
      const score = (t: string) => {
        const Y = new SparseMatrix()
        f.run(t)
        Y.pushFeatures(f)
        return scoreRow(Y, 0, m)
      }
      assert.isAbove(score("what a stupid moron"), score("helpful sources on the talk page"))
    }
  })

  it("is bit-for-bit deterministic for a seed", () => {
    const { X, y, w } = fixture()
    const a = trainLogistic(X, y, w, { ...options, nbAlpha: 1 })
    const b = trainLogistic(X, y, w, { ...options, nbAlpha: 1 })
    assert.isTrue(Buffer.from(a.weights.buffer).equals(Buffer.from(b.weights.buffer)))
    assert.strictEqual(a.bias, b.bias)
    assert.deepStrictEqual(Array.from(shuffled(10, 3)), Array.from(shuffled(10, 3)))
    assert.notDeepEqual(Array.from(shuffled(10, 3)), Array.from(shuffled(10, 4)))
  })

  it("averages the weights and bias of the epochs from averageFrom on", () => {
    const { X, y, w } = fixture()
    const short = { ...options, epochs: 3 }
    // a run of k epochs is the first k epochs of a longer run (same seed per epoch)
    const second = trainLogistic(X, y, w, { ...short, epochs: 2 })
    const third = trainLogistic(X, y, w, short)
    const averaged = trainLogistic(X, y, w, { ...short, averageFrom: 1 })
    assert.closeTo(averaged.bias, (second.bias + third.bias) / 2, 5e-7)
    let moved = 0
    for (let j = 0; j < averaged.weights.length; j++) {
      assert.closeTo(averaged.weights[j]!, (second.weights[j]! + third.weights[j]!) / 2, 5e-7)
      if (Math.abs(averaged.weights[j]! - third.weights[j]!) > 1e-4) moved++
    }
    assert.isAbove(moved, 0)
    // averaging the last epoch alone is the last iterate
    const last = trainLogistic(X, y, w, { ...short, averageFrom: 2 })
    assert.isTrue(Buffer.from(last.weights.buffer).equals(Buffer.from(third.weights.buffer)))
  })

  it("masks labels: rows whose target is NaN do not move the model", () => {
    const { X, y, w } = fixture()
    const masked = Float32Array.from(y)
    const base = trainLogistic(X, masked, w, options)
    // flip two rows but mask them: same model as without them
    const flipped = Float32Array.from(y)
    flipped[0] = Number.NaN
    flipped[POSITIVE.length] = Number.NaN
    const dropped = Float32Array.from(y)
    dropped[0] = Number.NaN
    dropped[POSITIVE.length] = Number.NaN
    const a = trainLogistic(X, flipped, w, options)
    const b = trainLogistic(X, dropped, w, options)
    assert.deepStrictEqual(Array.from(a.weights), Array.from(b.weights))
    assert.notDeepEqual(Array.from(a.weights), Array.from(base.weights))
  })
})

describe("calibration and metrics", () => {
  it("Platt scaling recovers a known logistic relation", () => {
    const z: Array<number> = []
    const y: Array<number> = []
    for (let i = -40; i <= 40; i++) {
      const x = i / 10
      z.push(x)
      y.push(1 / (1 + Math.exp(-(2 * x - 1)))) // soft targets
    }
    const c = fitPlatt(z, y)
    assert.strictEqual(c.kind, "platt")
    if (c.kind === "platt") {
      assert.closeTo(c.a, 2, 0.0005)
      assert.closeTo(c.b, -1, 0.0005)
    }
  })

  it("isotonic maps are monotone and clamp outside the fitted range", () => {
    const z = Array.from({ length: 400 }, (_, i) => i / 40)
    const y = z.map((x) => (x > 5 ? 0.9 : 0.1) + (Math.sin(x * 7) * 0.05))
    const c = fitIsotonic(z, y, 20, 10)
    let last = -1
    for (let x = -1; x <= 11; x += 0.25) {
      const v = applyCalibration(c, x)
      assert.isAtLeast(v, last)
      last = v
    }
    assert.isBelow(applyCalibration(c, -100), 0.2)
    assert.isAbove(applyCalibration(c, 100), 0.8)
  })

  it("computes AUC with ties, Spearman, agreement and accuracy", () => {
    assert.strictEqual(rocAuc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]), 0.75)
    assert.strictEqual(rocAuc([0.5, 0.5], [0, 1]), 0.5)
    assert.closeTo(spearman([1, 2, 3, 4], [10, 20, 30, 40]), 1, 5e-11)
    assert.closeTo(spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1, 5e-11)
    assert.closeTo(agreement([0.1, 0.6, 0.9], [0.2, 0.4, 0.95], 0.5), 2 / 3, 5e-11)
    assert.closeTo(accuracy([0.1, 0.6, 0.9], [0, 1, 0]), 2 / 3, 5e-11)
  })
})

describe("weight file format", () => {
  it("round-trips quantised weights within one quantisation step", () => {
    const bits = 6
    const cols = [0, 1].map((l) => Float32Array.from({ length: 1 << bits }, (_, j) => Math.sin(j + l) * (l + 1)))
    const bytes = encodeWeights(bits, cols, [0.5, -1.25])
    const t = decodeWeights(bytes)
    assert.strictEqual(t.bits, bits)
    assert.strictEqual(t.labels, 2)
    assert.deepStrictEqual(Array.from(t.bias), [0.5, -1.25])
    for (let j = 0; j < 1 << bits; j++) {
      for (let l = 0; l < 2; l++) assert.isBelow(Math.abs(t.weights[j * 2 + l]! - cols[l]![j]!), ((l + 1) / 32767) * 1.01)
    }
    assert.throws(() => decodeWeights(bytes.slice(0, bytes.length - 2)), /truncated/)
    const bad = bytes.slice()
    bad[0] = 0
    assert.throws(() => decodeWeights(bad), /not a Decorum/)
  })
})

describe("quantile mapping", () => {
  it("gives mapped scores the target's distribution and stays monotone", async () => {
    const { fitQuantileMap } = await import("@decorum/local/Calibration")
    const z = Array.from({ length: 1000 }, (_, i) => i - 500) // uniform raw scores
    const target = Array.from({ length: 1000 }, (_, i) => (i / 999) ** 3) // skewed target scale
    const c = fitQuantileMap(z, target)
    const mapped = z.map((v) => applyCalibration(c, v))
    const above = (a: Array<number>, t: number) => a.filter((v) => v >= t).length
    assert.isAtMost(Math.abs(above(mapped, 0.5) - above(target, 0.5)), 10)
    for (let i = 1; i < mapped.length; i++) assert.isAtLeast(mapped[i]!, mapped[i - 1]!)
  })
})
