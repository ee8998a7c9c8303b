import { describe, expect, it } from "vitest"
import { chooseBlend, combine, convexTrainingRows } from "../../training/convex.js"

describe("local-2026.12 toxicity recipe (training/convex.ts)", () => {
  it("never trains on the Wikipedia CAT rows, whose targets are Perspective's scores", () => {
    const rows = [
      { source: "jigsaw-toxic-comment-2018-random-11k", text: "a" },
      { source: "wikipedia-talk-context-toxicity-cat", text: "b" },
      { source: "paradetox", text: "c" }
    ]
    expect(convexTrainingRows(rows).map((e) => e.text)).toEqual(["a", "c"])
  })

  it("chooses the blend with the largest worst-case margin over the references, not the best average", () => {
    const table: Record<string, ReadonlyArray<readonly [string, number, number]>> = {
      // wins big on natural, loses on enriched
      a: [["natural", 0.99, 0.9], ["enriched", 0.89, 0.9]],
      // wins everywhere by a little
      b: [["natural", 0.91, 0.9], ["enriched", 0.905, 0.9]],
      // same worst margin as b, larger sum: the tie-break
      c: [["natural", 0.93, 0.9], ["enriched", 0.905, 0.9]]
    }
    expect(chooseBlend(["a", "b"], (k) => table[k]!).blend).toBe("b")
    expect(chooseBlend(["a", "b", "c"], (k) => table[k]!).blend).toBe("c")
    expect(() => chooseBlend([], () => [])).toThrow()
  })

  it("sums weighted components into one linear model over the same features", () => {
    const u = { weights: Float64Array.from([1, 2, 0, -1]), bias: 0.5 }
    const v = { weights: Float64Array.from([0, 1, 4, 1]), bias: -1 }
    const m = combine([[u, 1], [v, 0.5]], 2)
    expect(Array.from(m.weights)).toEqual([1, 2.5, 2, -0.5])
    expect(m.bias).toBe(0)
    expect(m.bits).toBe(2)
  })
})
