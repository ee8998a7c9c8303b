import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { SentencePiece, type Vocabulary } from "../../src/internal/encoder/sentencepiece.js"
import { GOLDEN_TEXTS } from "../models/goldenTexts.js"
import { variedTexts } from "../models/variedTexts.js"

const RESERVED: Vocabulary = [["\ufffd", 0], ["<s>", 0], ["</s>", 0], ["e1", 0], ["e2", 0], ["e3", 0]]

describe("SentencePiece", () => {
  it("chooses the segmentation with the highest total score", () => {
    // every symbol has a piece: the reference scores an unknown symbol 0, above any piece
    // ids:                          6               7              8          9          10          11         12
    const sp = new SentencePiece([...RESERVED, ["\u2581ab", -1], ["\u2581a", -1], ["b", -1], ["c", -5], ["bc", -2], ["a", -4], ["\u2581", -4]])
    expect(sp.encode("abc")).toEqual([7, 10]) // ▁a + bc (-3) beats ▁ab + c (-6)
    expect(sp.encode("ab")).toEqual([6]) // ▁ab (-1) beats ▁a + b (-2)
  })

  it("maps unknown symbols to id 0, merges consecutive unknowns, and turns spaces into the separator", () => {
    const sp = new SentencePiece([...RESERVED, ["\u2581a", -1], ["\u2581", -2], ["a", -3]])
    expect(sp.encode("a")).toEqual([6])
    expect(sp.encode("a zz a")).toEqual([6, 7, 0, 6])
    expect(sp.encode("")).toEqual([])
  })

  it("NFKC-normalises first", () => {
    const sp = new SentencePiece([...RESERVED, ["\u2581fi", -1], ["\u2581", -3], ["f", -3], ["i", -3]])
    expect(sp.encode("\ufb01")).toEqual([6]) // the ligature ﬁ is "fi" after NFKC
  })

  // The ids the encoder was trained and converted with come from the package's tokenizer; the
  // shipped vocabulary (models/encoder/vocab.json) must give the same ids for any text.
  it("gives the ids of @energetic-ai/embeddings' tokenizer on the shipped vocabulary", () => {
    const vocabulary = JSON.parse(readFileSync(join(__dirname, "../../models/encoder/vocab.json"), "utf8")) as Vocabulary
    const require = createRequire(import.meta.url)
    const { EmbeddingsModel } = require("@energetic-ai/embeddings") as {
      EmbeddingsModel: new (data: { vocabulary: Vocabulary; model: unknown }) => { tokenizer: { encode: (t: string) => Array<number> } }
    }
    const theirs = new EmbeddingsModel({ vocabulary, model: null }).tokenizer
    const ours = new SentencePiece(vocabulary)
    const texts = [...GOLDEN_TEXTS, ...variedTexts(60), "", " ", "  two  spaces ", "emoji 🤬🤬 and ＦＵＬＬＷＩＤＴＨ", "naïve café – “quotes”", "\u0000\u0001 control", "日本語のテキスト"]
    for (const t of texts) expect(ours.encode(t), t).toEqual(theirs.encode(t))
    expect(ours.encode("You are an idiot.").length).toBeGreaterThan(3)
  })
})
