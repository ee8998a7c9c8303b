import { describe, expect, it } from "@effect/vitest"
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
    expect(e.strength).toBe(1)
    expect(text.slice(e.begin, e.end)).toBe("immigrants are f1lthy")
    expect(identity("I hate all muslims").strength).toBe(1)
    expect(identity("I don't think Muslims are terrorists.").strength).toBe(0)
    expect(identity("Women are not inferior to men.").strength).toBe(0)
    expect(identity("Muslims are my neighbours.").strength).toBe(0)
    expect(identity("Liberals are idiots.").strength).toBe(0)
  })

  it("finds threats and drops negated ones", () => {
    expect(threatEvidence("I am going to kill you").strength).toBeGreaterThan(0.9)
    expect(threatEvidence("I would never hurt you").strength).toBe(0)
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
    expect(fit.weight).toBeGreaterThan(1)
    expect(fit.a).toBeGreaterThan(0)
    const none = fitPlatt2(z, z.map(() => 0), y)
    expect(none.weight).toBe(0)
  })
})
