import { assert, describe, it } from "@effect/vitest"
import { identityEvidence, threatEvidence } from "../../src/internal/model/evidence.js"
import { Normalizer } from "../../src/internal/model/normalize.js"
import { fitPlatt2, sigmoid } from "../../src/internal/calibration.js"

const identity = (text: string) => {
  const n = new Normalizer()
  n.run(text)
  return identityEvidence(n)
}

describe("pattern evidence", () => {
  it("finds group attacks, quotes them verbatim, and skips negated or neutral statements", () => {
    const text = "Honestly, immigrants are f1lthy vermin."
    const e = identity(text)
    assert.strictEqual(e.strength, 1)
    assert.strictEqual(text.slice(e.begin, e.end), "immigrants are f1lthy")
    assert.strictEqual(identity("I hate all muslims").strength, 1)
    assert.strictEqual(identity("I don't think Muslims are terrorists.").strength, 0)
    assert.strictEqual(identity("Women are not inferior to men.").strength, 0)
    assert.strictEqual(identity("Muslims are my neighbours.").strength, 0)
    assert.strictEqual(identity("Liberals are idiots.").strength, 0)
  })

  it("finds threats and drops negated ones", () => {
    assert.isAbove(threatEvidence("I am going to kill you").strength, 0.9)
    assert.strictEqual(threatEvidence("I would never hurt you").strength, 0)
  })

  it("fitPlatt2 learns a positive weight for evidence that carries signal beyond the score", () => {
    const z: Array<number> = []
    const s: Array<number> = []
    const y: Array<number> = []
    for (let i = 0; i < 400; i++) {
      const zi = ((i * 37) % 100) / 25 - 2
      const si = i % 5 === 0 ? 1 : 0
      z.push(zi)
      s.push(si)
      y.push(sigmoid(zi + 3 * si - 1) > ((i * 53) % 97) / 97 ? 1 : 0)
    }
    const fit = fitPlatt2(z, s, y)
    assert.isAbove(fit.weight, 1)
    assert.isAbove(fit.a, 0)
    const none = fitPlatt2(z, z.map(() => 0), y)
    assert.strictEqual(none.weight, 0)
  })
})
