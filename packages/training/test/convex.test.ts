import { assert, describe, it } from "@effect/vitest"
import { BALANCE_CAP, BALANCE_MIN_ROWS, blendsOf, chooseBlend, chooseReadWeight, combine, convexTrainingRows, devParts, gridOf, identityBalance, identityTermsOf, nbRatios, NB_CLIP, READ_GRID, TOXICITY_FLOOR, type DevSets } from "../convex.js"
import { Normalizer } from "@decorum/local/Normalizer"

describe("local-2026.12 toxicity recipe (training/convex.ts)", () => {
  it("never trains on the Wikipedia CAT rows, whose targets are Perspective's scores", () => {
    const rows = [
      { source: "jigsaw-toxic-comment-2018-random-11k", text: "a" },
      { source: "wikipedia-talk-context-toxicity-cat", text: "b" },
      { source: "paradetox", text: "c" }
    ]
    assert.deepStrictEqual(convexTrainingRows(rows).map((e) => e.text), ["a", "c"])
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
    assert.strictEqual(chooseBlend(["a", "b"], (k) => table[k]!).blend, "b")
    assert.strictEqual(chooseBlend(["a", "b", "c"], (k) => table[k]!).blend, "c")
    assert.throws(() => chooseBlend([], () => []))
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
    assert.strictEqual(chooseBlend(["a", "b"], (k) => table[k]!).blend, "b")
    assert.strictEqual(chooseBlend(["a", "b", "c"], (k) => table[k]!).blend, "c")
    // nothing wins: the smallest loss
    assert.strictEqual(chooseBlend(["d", "e"], (k) => table[k]!).blend, "e")
  })

  it("tries every combination of a head's grid", () => {
    const blends = blendsOf([[["jig", "TOXICITY"], [0, 1]], [["all", "INSULT"], [0, 0.5, 1]]])
    assert.lengthOf(blends, 6)
    assert.deepStrictEqual<unknown>(blends[5], [[["jig", "TOXICITY"], 1], [["all", "INSULT"], 1]])
  })

  it("sums weighted components into one linear model over the same features", () => {
    const u = { weights: Float64Array.from([1, 2, 0, -1]), bias: 0.5 }
    const v = { weights: Float64Array.from([0, 1, 4, 1]), bias: -1 }
    const m = combine([[u, 1], [v, 0.5]], 2)
    assert.deepStrictEqual(Array.from(m.weights), [1, 2.5, 2, -0.5])
    assert.strictEqual(m.bias, 0)
    assert.strictEqual(m.bits, 2)
  })

  it("with a floor, prefers the best optional measure among blends whose smallest required margin reaches it", () => {
    const table: Record<string, ReadonlyArray<readonly [string, number, number, boolean]>> = {
      // the largest smallest margin, but ranks CAT worst
      safest: [["enriched", 0.91, 0.9, true], ["CAT", 0.74, 0.84, false]],
      // above the floor, better on CAT
      good: [["enriched", 0.902, 0.9, true], ["CAT", 0.76, 0.84, false]],
      // best on CAT but under the floor
      thin: [["enriched", 0.9001, 0.9, true], ["CAT", 0.78, 0.84, false]],
      // loses a required measure
      loses: [["enriched", 0.89, 0.9, true], ["CAT", 0.8, 0.84, false]]
    }
    const blends = ["safest", "good", "thin", "loses"]
    assert.strictEqual(chooseBlend(blends, (k) => table[k]!, 0.0005).blend, "good")
    // without a floor the smallest margin decides, as before
    assert.strictEqual(chooseBlend(blends, (k) => table[k]!).blend, "safest")
    // a floor nothing reaches: the largest smallest margin again
    assert.strictEqual(chooseBlend(blends, (k) => table[k]!, 0.5).blend, "safest")
  })

  it("chooses TOXICITY's blend on dev rows only: among the safe blends the natural dev set decides (12.3)", () => {
    // blend -> [natural, enriched, cross-domain sets] dev AUCs, baseline 0.9 / 0.9 / 0.7 and 0.8
    const dev: Record<string, readonly [number, number, number, number]> = {
      safest: [0.91, 0.91, 0.72, 0.82],
      natural: [0.95, 0.902, 0.71, 0.81],
      thin: [0.99, 0.9001, 0.71, 0.81]
    }
    const parts = (k: string) => {
      const [n, e, c1, c2] = dev[k]!
      return devParts("TOXICITY", [["natural", n, 0.9], ["enriched", e, 0.9]], [["OLID", c1, 0.7], ["Gab", c2, 0.8]])
    }
    const p = parts("safest")
    // every in-domain set and the cross-domain mean are required; the only optional measure is the natural dev set
    assert.deepStrictEqual(p.filter((x) => x[3]).map((x) => x[0]), ["natural", "enriched", "cross-domain"])
    assert.deepStrictEqual(p.filter((x) => !x[3]).map((x) => [x[1], x[2]]), [[0.91, 0.9]])
    assert.closeTo(p.find((x) => x[0] === "cross-domain")![1], 0.77, 5e-13)
    assert.strictEqual(chooseBlend(Object.keys(dev), parts, TOXICITY_FLOOR).blend, "natural")
    // the other heads have no optional measure: the largest smallest margin decides
    assert.isTrue(devParts("INSULT", [["natural", 0.9, 0.8]], []).every((x) => x[3]))
    assert.throws(() => devParts("TOXICITY", [["enriched", 0.9, 0.8]], []))
  })

  it("NB-LR ratios: log-count ratio of the rows using a column, clipped, 1 for unused columns", () => {
    // rows 0, 1 positive, rows 2, 3 negative; column 0 only in positives, 1 everywhere, 2 only in negatives, 3 unused
    const X = {
      rows: 4,
      rowPtr: Int32Array.from([0, 2, 4, 6, 8]),
      col: Int32Array.from([0, 1, 0, 1, 1, 2, 1, 2]),
      val: Float32Array.from([0.5, 0.5, 0.7, 0.7, 0.6, 0.6, 0.8, 0.8])
    }
    const y = [1, 1, 0, 0]
    const r = nbRatios(X, 4, [0, 1, 2, 3], y)
    // |p|_1 = 4 (column 0 twice, column 1 twice), |q|_1 = 4
    const lp = Math.log(5)
    assert.closeTo(r[0]!, Math.log(3) - lp - (Math.log(1) - lp), 5e-13)
    assert.closeTo(r[1]!, 0, 5e-13)
    assert.closeTo(r[2]!, -(Math.log(3) - lp - (Math.log(1) - lp)), 5e-13)
    assert.strictEqual(r[3], 1)
    // sample weights count rows, and the clip bounds every ratio
    const heavy = nbRatios(X, 4, [0, 1, 2, 3], y, [1, 1, 1e9, 1e9])
    assert.strictEqual(heavy[0], NB_CLIP)
    assert.closeTo(heavy[2]!, Math.log(1) - Math.log(5) - (Math.log(2e9 + 1) - Math.log(4e9 + 1)), 5e-10)
    // rows left out of idx do not count
    const one = nbRatios(X, 4, [0, 2], y)
    assert.closeTo(one[0]!, Math.log(2 / 3) - Math.log(1 / 3), 5e-13)
  })

  it("reads identity terms as the identity evidence does: group words, colour words only before a people noun, no political labels", () => {
    const norm = new Normalizer()
    assert.deepStrictEqual(identityTermsOf(norm, "My wife and I are both Jewish, and Jewish friends came."), ["jewish"])
    assert.deepStrictEqual(identityTermsOf(norm, "Black people and gay men"), ["black people", "gay"])
    assert.deepStrictEqual(identityTermsOf(norm, "a black cat voted with the liberals"), [])
  })

  it("balances each over-represented identity term so its toxic share matches the corpus's, by weighting its non-toxic rows up", () => {
    // 100 rows: 20 toxic overall; "jews" in 40 rows of which 16 toxic (40%), "gay" in 40 rows of which 4 toxic (10%)
    const terms: Array<Array<string>> = []
    const y: Array<number> = []
    for (let i = 0; i < 40; i++) {
      terms.push(["jews"])
      y.push(i < 16 ? 1 : 0)
    }
    for (let i = 0; i < 40; i++) {
      terms.push(["gay"])
      y.push(i < 4 ? 1 : 0)
    }
    for (let i = 0; i < 20; i++) {
      terms.push([])
      y.push(0)
    }
    const idx = y.map((_, r) => r)
    const { factor, k } = identityBalance(terms, idx, y)
    // p = 0.2; k = 16 * 0.8 / (0.2 * 24) = 2.667: the toxic share among "jews" rows becomes 16 / (16 + 24 k) = 0.2
    assert.closeTo(k.get("jews")!, 16 * 0.8 / (0.2 * 24), 5e-11)
    assert.closeTo(16 / (16 + 24 * factor[39]!), 0.2, 5e-11)
    // toxic rows, under-represented terms and rows without a term keep weight 1
    assert.strictEqual(factor[0], 1)
    assert.isFalse(k.has("gay"))
    assert.strictEqual(factor[60], 1)
    assert.strictEqual(factor[90], 1)
    // sample weights count: the toxic "jews" rows at half weight make p = 12 / 92 and pos_t = 8
    const sw = y.map((_, r) => (r < 16 ? 0.5 : 1))
    assert.closeTo(identityBalance(terms, idx, y, sw).k.get("jews")!, (8 * (1 - 12 / 92)) / ((12 / 92) * 24), 5e-11)
  })

  it("leaves rare terms alone, caps the factor, and gives a row mentioning several terms the largest", () => {
    const terms: Array<Array<string>> = []
    const y: Array<number> = []
    // "muslims": 40 rows, 39 toxic (k over the cap); "rare": below BALANCE_MIN_ROWS, all toxic but one
    for (let i = 0; i < 40; i++) {
      terms.push(i === 39 ? ["muslims", "jews"] : ["muslims"])
      y.push(i < 39 ? 1 : 0)
    }
    for (let i = 0; i < BALANCE_MIN_ROWS - 1; i++) {
      terms.push(["rare"])
      y.push(i === 0 ? 0 : 1)
    }
    for (let i = 0; i < 400; i++) {
      terms.push([])
      y.push(0)
    }
    const { factor, k } = identityBalance(terms, y.map((_, r) => r), y)
    assert.strictEqual(k.get("muslims"), BALANCE_CAP)
    assert.strictEqual(factor[39], BALANCE_CAP)
    assert.isFalse(k.has("rare"))
    assert.strictEqual(factor[40], 1)
  })

  it("12.6: TOXICITY's grid takes the balanced fits (its INSULT direction too) and the THREAT and IDENTITY_ATTACK directions only when asked, never below 0", () => {
    const names = (o: Parameters<typeof gridOf>[1]) => gridOf("TOXICITY", o).map(([[n, l]]) => `${n}[${l}]`)
    assert.include(names({}), "all[TOXICITY]")
    assert.notInclude(names({}), "all+ev[THREAT]")
    const both = gridOf("TOXICITY", { balance: true, stack: true })
    assert.includeMembers(both.map(([[n, l]]) => `${n}[${l}]`), ["allB[TOXICITY]", "wtB[TOXICITY]", "anbB[TOXICITY]", "allB[INSULT]", "all+ev[THREAT]"])
    // balanced, TOXICITY reads no unbalanced fit that has a balanced form
    assert.notInclude(both.map(([[n, l]]) => `${n}[${l}]`), "all[TOXICITY]")
    assert.notInclude(both.map(([[n, l]]) => `${n}[${l}]`), "all[INSULT]")
    assert.include(names({ stack: true }), "all[INSULT]")
    // balanced, TOXICITY reads the balanced IDENTITY_ATTACK direction; unbalanced, the plain one
    assert.include(both.map(([[n, l]]) => `${n}[${l}]`), "allB[IDENTITY_ATTACK]")
    assert.includeMembers(names({ stack: true }), ["all[TOXICITY]", "all+ev[THREAT]", "all[IDENTITY_ATTACK]"])
    for (const [[, l], values] of both) if (l === "THREAT" || l === "IDENTITY_ATTACK") assert.strictEqual(Math.min(...values), 0)
    // the other heads are not changed by the options
    assert.deepStrictEqual(gridOf("INSULT", { balance: true, stack: true }), gridOf("INSULT", {}))
  })

  describe("12.7: the weight with which TOXICITY reads IDENTITY_ATTACK, chosen on dev (chooseReadWeight)", () => {
    // per text: [target, TOXICITY's raw log-odds, max(0, z_IA)]
    const rows: Record<string, readonly [number, number, number]> = {
      n1: [1, 3, 0], n2: [1, -1, 2], n3: [0, 0, 0], n4: [0, 0.5, 0], n5: [0, -2, 0], n6: [0, -3, 0],
      e1: [1, 2, 0], e2: [0, -1, 0], c1: [1, 1, 0], c2: [0, -1, 0],
      p1: [1, 1, 0], p2: [0, 0, 5]
    }
    const set = (name: string, texts: ReadonlyArray<string>, reference: number) => ({ name, texts, y: texts.map((t) => rows[t]![0]), reference })
    const dev: DevSets = {
      inDomain: [set("natural", ["n1", "n2", "n3", "n4", "n5", "n6"], 0.8), set("enriched", ["e1", "e2"], 0.8)],
      cross: [set("OLID", ["c1", "c2"], 0.8)],
      pairs: set("contrastive dev pairs", ["p1", "p2"], 0.5)
    }
    const asked: Array<string> = []
    const score = (texts: ReadonlyArray<string>) => {
      asked.push(...texts)
      return { base: texts.map((t) => rows[t]![1]), read: texts.map((t) => rows[t]![2]) }
    }

    it("takes the read that lifts a confident identity attack ranked below benign texts, and logs every grid point", () => {
      const lines: Array<string> = []
      // without the read natural dev AUC is 0.75, below the baseline's 0.8; from 0.5 on it wins, at 1 by most
      const { parts, weight } = chooseReadWeight("TOXICITY", READ_GRID, dev, score, (l) => lines.push(l))
      assert.strictEqual(weight, 1)
      assert.strictEqual(parts.find(([n]) => n === "natural")![1], 1)
      assert.lengthOf(lines, READ_GRID.length)
      assert.include(lines[0]!, "read weight 0: smallest required margin -0.05000")
      // the choice scores the dev sets' texts and nothing else
      assert.deepStrictEqual(new Set(asked), new Set(Object.keys(rows)))
    })

    it("leaves the read out (0) when it only lifts negatives, or changes nothing", () => {
      // the read fires on the counter-speech pair's benign side only: the pairs fall, nothing else moves
      const hurts = { ...dev, inDomain: [set("natural", ["n1", "n3", "n4", "n5"], 0.8), dev.inDomain[1]!] }
      assert.strictEqual(chooseReadWeight("TOXICITY", READ_GRID, hurts, score).weight, 0)
      const inert = { inDomain: [set("natural", ["n1", "n3"], 0.8)], cross: [] }
      assert.strictEqual(chooseReadWeight("TOXICITY", READ_GRID, inert, score).weight, 0)
      assert.strictEqual(READ_GRID[0], 0)
    })
  })
})
