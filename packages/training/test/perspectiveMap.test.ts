import { assert, describe, it } from "@effect/vitest"
import { applyCalibration } from "@decorum/local/Calibration"
import { crossFitError, perspectiveMap, quantileMap, tailMap } from "../perspectiveMap.js"

/** A deterministic sample: raw scores spread over [-12, 8], Perspective = sigmoid(0.6 * raw - 1) plus fixed jitter. */
const sample = (n = 2000) => {
  const z: Array<number> = []
  const y: Array<number> = []
  for (let i = 0; i < n; i++) {
    const x = -12 + (20 * ((i * 7919) % n)) / n
    const jitter = (((i * 104729) % 97) / 97 - 0.5) * 0.04
    z.push(x)
    y.push(Math.min(1, Math.max(0, 1 / (1 + Math.exp(-(0.6 * x - 1))) + jitter)))
  }
  return { z, y, fold: z.map((_, i) => i % 2) }
}

describe("the map onto Perspective's scale (training/perspectiveMap.ts)", () => {
  it("tailMap is monotone, stays in [0, 1] and keeps rising past the largest raw score", () => {
    const { z, y } = sample()
    const map = tailMap(z, y)
    let prev = -1
    for (let x = -15; x <= 14; x += 0.25) {
      const p = applyCalibration(map, x)
      assert.isAtLeast(p, prev)
      assert.isAtMost(p, 1)
      prev = p
    }
    assert.isAbove(applyCalibration(map, 10), applyCalibration(map, 8))
  })

  it("above the 0.95 quantile it follows a logistic through the whole tail (Perspective's shape at the top), continuous with the quantile knots below", () => {
    const { z, y } = sample()
    const map = tailMap(z, y)
    const truth = (x: number) => 1 / (1 + Math.exp(-(0.6 * x - 1)))
    // the top 5% of raw scores lie above 7; the map recovers the generating logistic there and past the largest score
    for (const x of [7.2, 7.6, 7.9, 9]) assert.isBelow(Math.abs(applyCalibration(map, x) - truth(x)), 0.02)
    // below the tail it is the quantile map
    for (const x of [-8, -2, 3]) assert.closeTo(applyCalibration(map, x), applyCalibration(quantileMap(z, y), x), 5e-7)
  })

  it("perspectiveMap ships the map with the smaller cross-fitted error and logs both", () => {
    const { z, y, fold } = sample()
    const lines: Array<string> = []
    const chosen = perspectiveMap(z, y, fold, (s) => lines.push(s))
    const tailWins = crossFitError(tailMap, z, y, fold) < crossFitError(quantileMap, z, y, fold)
    assert.deepStrictEqual(chosen, tailWins ? tailMap(z, y) : quantileMap(z, y))
    assert.lengthOf(lines, 1)
    assert.match(lines[0]!, /quantile map \d\.\d{4}, logistic tail above q=0\.95 \d\.\d{4}/)
  })
})
