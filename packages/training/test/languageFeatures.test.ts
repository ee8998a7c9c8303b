import { assert, describe, it } from "@effect/vitest"
import { BLOCK_PLAIN_CHAR, BLOCK_PLAIN_WORD, Featurizer, type FeatureConfig } from "@decorum/local/Featurizer"
import { decodeIdf, decodeIdfUnits, encodeIdf } from "@decorum/local/ModelFormat"
import { Tfidf } from "../baseline.js"
import { SparseMatrix } from "../fit.js"
import { compact, idfOf, parityPart } from "../languageFeatures.js"
import { splitOf } from "../languagesData.js"

// texts with punctuation, apostrophes, digits, accents, Cyrillic, Han and a repeated word
const TEXTS = [
  "Tu es un connard, l'article est nul!!",
  "Sei un coglione di merda... sei proprio un coglione",
  "Ты тупой урод 2 раза",
  "你是个傻逼 真的",
  "Vielen Dank für den hilfreichen Artikel :)",
  "x  y_z ok"
]

const config: FeatureConfig = { bits: 20, charMin: 1, charMax: 5, negationScope: 0, globals: false, script: { accents: true }, plain: { charMin: 1, charMax: 5 } }

const rowsOf = (f: Featurizer, texts: ReadonlyArray<string>): SparseMatrix => {
  const X = new SparseMatrix()
  for (const t of texts) {
    f.run(t)
    X.pushFeatures(f)
  }
  return X
}

describe("the plain baseline's tokens in the language featuriser (issue 28, round 3)", () => {
  it("gives each text the baseline's TF-IDF values (word 1-2-grams, char_wb 1-5), block by block", () => {
    const f = new Featurizer(config)
    f.useIdf(idfOf(rowsOf(f, TEXTS), 20))
    const tfidf = Tfidf.fit(TEXTS, 1)
    const M = tfidf.transform(TEXTS)
    TEXTS.forEach((text, r) => {
      f.run(text)
      const mine = { word: [] as Array<number>, char: [] as Array<number> }
      for (let p = 0; p < f.nnz; p++) {
        if (f.block(p) === BLOCK_PLAIN_WORD) mine.word.push(f.val[p]!)
        else if (f.block(p) === BLOCK_PLAIN_CHAR) mine.char.push(f.val[p]!)
      }
      const theirs = { word: [] as Array<number>, char: [] as Array<number> }
      for (let k = M.rowPtr[r]!; k < M.rowPtr[r + 1]!; k++) (M.col[k]! < tfidf.wordColumns ? theirs.word : theirs.char).push(M.val[k]!)
      for (const block of ["word", "char"] as const) {
        const a = mine[block].sort((x, y) => x - y)
        const b = theirs[block].sort((x, y) => x - y)
        assert.strictEqual(a.length, b.length, `${text}: ${block} n-grams`)
        // the idf file keeps idf * 4096 as an integer
        a.forEach((v, i) => assert.closeTo(v, b[i]!, 1e-3, `${text}: ${block} value ${i}`))
      }
    })
  })

  it("puts the normaliser's features on even slots and the baseline's on odd ones", () => {
    const f = new Featurizer(config)
    f.run(TEXTS[0]!)
    for (let p = 0; p < f.nnz; p++) {
      const plain = f.block(p) === BLOCK_PLAIN_WORD || f.block(p) === BLOCK_PLAIN_CHAR
      assert.strictEqual(f.idx[p]! & 1, plain ? 1 : 0)
    }
    // without `plain`, the same normaliser features on the same slots, minus the parity bit
    const { plain: _, ...recipeOnly } = config
    const g = new Featurizer(recipeOnly)
    g.run(TEXTS[0]!)
    const even = new Set<number>()
    for (let p = 0; p < f.nnz; p++) if ((f.idx[p]! & 1) === 0) even.add(f.idx[p]!)
    const folded = new Set<number>()
    for (let p = 0; p < g.nnz; p++) folded.add(g.idx[p]! & ~1)
    assert.deepStrictEqual([...even].sort(), [...folded].sort())
  })

  it("weights by the idf file's u16 units (as the runtime keeps them) exactly as by its floats", () => {
    const f = new Featurizer(config)
    const bytes = encodeIdf(idfOf(rowsOf(f, TEXTS), 20))
    const g = new Featurizer(config)
    f.useIdf(decodeIdf(bytes))
    g.useIdf(decodeIdfUnits(bytes))
    for (const text of TEXTS) {
      f.run(text)
      g.run(text)
      assert.deepStrictEqual([...g.val.subarray(0, g.nnz)], [...f.val.subarray(0, f.nnz)])
    }
  })

  it("splits rows by slot parity and numbers the used slots compactly", () => {
    const X = new SparseMatrix()
    X.push([2, 3, 6, 7], [1, 2, 3, 4], 4)
    X.push([7, 10], [5, 6], 2)
    const odd = parityPart(X, 1)
    assert.deepStrictEqual([...odd.idx.subarray(0, odd.nnz)], [3, 7, 7])
    assert.deepStrictEqual([...odd.rowPtr.subarray(0, 3)], [0, 2, 3])
    const M = compact(parityPart(X, 0), 2) // slots 2, 6, 10 fold to 2, 2, 2 at 2 bits
    assert.deepStrictEqual([...M.slots], [2])
    assert.deepStrictEqual([...M.col], [0, 0, 0])
    assert.deepStrictEqual([...M.val], [1, 3, 6])
  })

  it("splits texts 80 / 20 by their hash, duplicates (case, spaces) on one side", () => {
    let test = 0
    for (let i = 0; i < 5000; i++) if (splitOf(`comment number ${i}`) === "test") test++
    assert.isAbove(test / 5000, 0.18)
    assert.isBelow(test / 5000, 0.22)
    for (let i = 0; i < 200; i++) assert.strictEqual(splitOf(`Some  Text ${i}`), splitOf(`some text ${i} `))
  })
})
