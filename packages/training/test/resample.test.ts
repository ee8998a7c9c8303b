import { assert, describe, it } from "@effect/vitest"
import { mulberry32, rocAuc } from "../fit.js"
import { bootstrapAuc, inFraction, lineFit, pairedBootstrap, quantileSorted, stratifiedResample } from "../resample.js"

/** Six positives and six negatives, 27 of the 36 pairs ranked right: AUC = 0.75. */
const SCORES = [0.9, 0.8, 0.7, 0.6, 0.35, 0.2, 0.5, 0.4, 0.3, 0.25, 0.1, 0.65]
const LABELS = [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]

describe("catcurve statistics (training/resample.ts)", () => {
  it("quantileSorted interpolates linearly between order statistics (numpy's default)", () => {
    assert.strictEqual(quantileSorted([1, 2, 3, 4], 0), 1)
    assert.strictEqual(quantileSorted([1, 2, 3, 4], 1), 4)
    assert.strictEqual(quantileSorted([1, 2, 3, 4], 0.5), 2.5)
    assert.strictEqual(quantileSorted([1, 2, 3, 4], 0.25), 1.75)
    assert.isNaN(quantileSorted([], 0.5))
  })

  it("lineFit is ordinary least squares", () => {
    const exact = lineFit([0, 1, 2, 3], [1, 3, 5, 7])
    assert.closeTo(exact.slope, 2, 1e-12)
    assert.closeTo(exact.intercept, 1, 1e-12)
    const noisy = lineFit([1, 2, 3], [1, 2, 2])
    assert.closeTo(noisy.slope, 0.5, 1e-12)
    assert.closeTo(noisy.intercept, 2 / 3, 1e-12)
    assert.isNaN(lineFit([2, 2], [0.6, 0.7]).slope)
  })

  it("stratifiedResample draws positives among positives, then negatives among negatives", () => {
    const draws = [0, 0.99, 0.5, 0, 0.7]
    let k = 0
    const idx = stratifiedResample([0, 3], [1, 2, 4], () => draws[k++]!)
    assert.deepStrictEqual(Array.from(idx), [0, 3, 2, 1, 4])
    const rnd = mulberry32(7)
    for (let r = 0; r < 20; r++) {
      const s = stratifiedResample([0, 1, 2], [3, 4, 5, 6, 7], rnd)
      assert.strictEqual(s.length, 8)
      assert.isTrue(Array.from(s.subarray(0, 3)).every((i) => i <= 2))
      assert.isTrue(Array.from(s.subarray(3)).every((i) => i >= 3))
    }
  })

  it("bootstrapAuc reports the full-sample AUC inside its interval, and is seeded", () => {
    const a = bootstrapAuc(SCORES, LABELS, 500, 1)
    assert.closeTo(a.auc, 27 / 36, 1e-12)
    assert.closeTo(a.auc, rocAuc(SCORES, LABELS), 1e-12)
    assert.isTrue(a.lo < a.auc && a.auc <= a.hi && a.hi <= 1)
    assert.deepStrictEqual(bootstrapAuc(SCORES, LABELS, 500, 1), a)
    assert.notDeepEqual(bootstrapAuc(SCORES, LABELS, 500, 2), a)
    const perfect = bootstrapAuc([0.9, 0.8, 0.1, 0.2], [1, 1, 0, 0], 100, 3)
    assert.deepStrictEqual(perfect, { auc: 1, lo: 1, hi: 1 })
  })

  it("pairedBootstrap scores both models on the same resampled rows", () => {
    // a monotone transform ranks every resample identically: the paired difference is exactly 0
    const same = pairedBootstrap(SCORES, SCORES.map((s) => 2 * s + 1), LABELS, 300, 5)
    assert.deepStrictEqual(same, { diff: 0, lo: 0, hi: 0, shareBAtLeastA: 1 })
    // the reversed scorer is behind by 2 AUC - 1 of each resample: 0.5 here, exactly 1 when a separates perfectly
    const reversed = pairedBootstrap(SCORES, SCORES.map((s) => -s), LABELS, 300, 5)
    assert.closeTo(reversed.diff, 2 * 0.75 - 1, 1e-12)
    assert.isTrue(reversed.lo <= reversed.diff && reversed.diff <= reversed.hi && reversed.shareBAtLeastA < 0.2)
    const perfect = [0.9, 0.8, 0.7, 0.1, 0.2, 0.3]
    assert.deepStrictEqual(pairedBootstrap(perfect, perfect.map((s) => -s), [1, 1, 1, 0, 0, 0], 100, 5), { diff: 1, lo: 1, hi: 1, shareBAtLeastA: 0 })
    // b ranks one positive below every negative: it is never better than a, sometimes tied
    const worse = SCORES.map((s, i) => (i === 0 ? 0 : s))
    const w = pairedBootstrap(SCORES, worse, LABELS, 300, 5)
    assert.closeTo(w.diff, 27 / 36 - 21 / 36, 1e-12)
    assert.isTrue(w.lo >= 0)
    assert.isTrue(w.shareBAtLeastA > 0 && w.shareBAtLeastA < 1)
    assert.deepStrictEqual(pairedBootstrap(SCORES, worse, LABELS, 300, 5), w)
  })

  it("inFraction chooses nested subsets by hash and keeps every row at 1", () => {
    const keys = Array.from({ length: 2000 }, (_, i) => `src:${i}`)
    const eighth = keys.filter((k) => inFraction(k, 0.125))
    const quarter = new Set(keys.filter((k) => inFraction(k, 0.25)))
    assert.isTrue(eighth.every((k) => quarter.has(k)))
    assert.isTrue(eighth.length > 200 && eighth.length < 300)
    assert.isTrue(quarter.size > 450 && quarter.size < 550)
    assert.strictEqual(keys.filter((k) => inFraction(k, 1)).length, 2000)
  })
})
