import { describe, expect, it } from "vitest"
import { blendsOf, chooseBlend, combine, convexTrainingRows } from "../../training/convex.js"

describe("local-2026.12 toxicity recipe (training/convex.ts)", () => {
  it("never trains on the Wikipedia CAT rows, whose targets are Perspective's scores", () => {
    const rows = [
      { source: "jigsaw-toxic-comment-2018-random-11k", text: "a" },
      { source: "wikipedia-talk-context-toxicity-cat", text: "b" },
      { source: "paradetox", text: "c" }
    ]
    expect(convexTrainingRows(rows).map((e) => e.text)).toEqual(["a", "c"])
  })

  it("chooses a blend that beats the references on every required measure over one with the best average", () => {
    const table: Record<string, ReadonlyArray<readonly [string, number, number, boolean]>> = {
      // wins big on natural, loses on enriched
      a: [["natural", 0.99, 0.9, true], ["enriched", 0.89, 0.9, true]],
      // wins everywhere by a little
      b: [["natural", 0.91, 0.9, true], ["enriched", 0.905, 0.9, true]],
      // same smallest margin as b, larger sum: the tie-break
      c: [["natural", 0.93, 0.9, true], ["enriched", 0.905, 0.9, true]]
    }
    expect(chooseBlend(["a", "b"], (k) => table[k]!).blend).toBe("b")
    expect(chooseBlend(["a", "b", "c"], (k) => table[k]!).blend).toBe("c")
    expect(() => chooseBlend([], () => [])).toThrow()
  })

  it("uses optional measures (CAT against Perspective) only to break ties between equal required margins", () => {
    const table: Record<string, ReadonlyArray<readonly [string, number, number, boolean]>> = {
      // best on the optional measure but loses a required one
      a: [["enriched", 0.899, 0.9, true], ["CAT", 0.8, 0.84, false]],
      b: [["enriched", 0.95, 0.9, true], ["CAT", 0.7, 0.84, false]],
      c: [["enriched", 0.95, 0.9, true], ["CAT", 0.75, 0.84, false]],
      d: [["enriched", 0.85, 0.9, true]],
      e: [["enriched", 0.88, 0.9, true]]
    }
    expect(chooseBlend(["a", "b"], (k) => table[k]!).blend).toBe("b")
    expect(chooseBlend(["a", "b", "c"], (k) => table[k]!).blend).toBe("c")
    // nothing wins: the smallest loss
    expect(chooseBlend(["d", "e"], (k) => table[k]!).blend).toBe("e")
  })

  it("tries every combination of a head's grid", () => {
    const blends = blendsOf([[["jig", "TOXICITY"], [0, 1]], [["all", "INSULT"], [0, 0.5, 1]]])
    expect(blends).toHaveLength(6)
    expect(blends[5]).toEqual([[["jig", "TOXICITY"], 1], [["all", "INSULT"], 1]])
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
