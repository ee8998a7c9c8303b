import { readFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { SentencePiece, type Vocabulary } from "../../src/internal/encoder/sentencepiece.js"
import { missingEncoderPackages, missingMessage, requireEncoderPackage } from "../../../training/encoder/optional.js"
import { GOLDEN_TEXTS } from "../models/goldenTexts.js"
import { variedTexts } from "../models/variedTexts.js"

// @energetic-ai/embeddings is optional (`npm run encoder:deps`): without it the id-for-id comparison
// with its tokenizer is reported as skipped; the recorded ids below are checked either way.
const missing = missingEncoderPackages(["@energetic-ai/embeddings"])
if (missing.length > 0) console.warn(`SentencePiece comparison with the package's tokenizer skipped. ${missingMessage(missing)}`)

const shippedVocabulary = () => JSON.parse(readFileSync(join(__dirname, "../../models/encoder/vocab.json"), "utf8")) as Vocabulary

// Ids from @energetic-ai/embeddings@0.2.0's tokenizer on the shipped vocabulary (EmbeddingsModel
// tokenizer.encode), recorded so the tokenizer is checked without the package installed.
const RECORDED: ReadonlyArray<readonly [string, ReadonlyArray<number>]> = [
  ["You are an idiot and everyone knows it.", [110, 31, 58, 4583, 12, 686, 2608, 21, 6]],
  ["Thanks for the thoughtful article, I learned a lot.", [1604, 22, 9, 489, 696, 1565, 8, 16, 2600, 11, 249, 6]],
  ["  two  spaces ", [30, 30, 174, 30, 1016, 7, 30]],
  ["emoji \u{1F92C}\u{1F92C} and \uFF26\uFF35\uFF2C\uFF2C\uFF37\uFF29\uFF24\uFF34\uFF28", [299, 451, 2501, 30, 0, 12, 189, 4664, 277, 331, 2609, 3651]],
  ["na\u00efve caf\u00e9 \u2013 \u201cquotes\u201d", [1216, 0, 105, 976, 209, 1133, 432, 77, 1699, 5070, 7, 236]],
  ["\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8", [30, 0]],
  ["", []]
]

const RESERVED: Vocabulary = [["\ufffd", 0], ["<s>", 0], ["</s>", 0], ["e1", 0], ["e2", 0], ["e3", 0]]

describe("SentencePiece", () => {
  it("chooses the segmentation with the highest total score", () => {
    // every symbol has a piece: the reference scores an unknown symbol 0, above any piece
    // ids:                          6               7              8          9          10          11         12
    const sp = new SentencePiece([...RESERVED, ["\u2581ab", -1], ["\u2581a", -1], ["b", -1], ["c", -5], ["bc", -2], ["a", -4], ["\u2581", -4]])
    assert.deepStrictEqual(sp.encode("abc"), [7, 10]) // ▁a + bc (-3) beats ▁ab + c (-6)
    assert.deepStrictEqual(sp.encode("ab"), [6]) // ▁ab (-1) beats ▁a + b (-2)
  })

  it("maps unknown symbols to id 0, merges consecutive unknowns, and turns spaces into the separator", () => {
    const sp = new SentencePiece([...RESERVED, ["\u2581a", -1], ["\u2581", -2], ["a", -3]])
    assert.deepStrictEqual(sp.encode("a"), [6])
    assert.deepStrictEqual(sp.encode("a zz a"), [6, 7, 0, 6])
    assert.deepStrictEqual(sp.encode(""), [])
  })

  it("NFKC-normalises first", () => {
    const sp = new SentencePiece([...RESERVED, ["\u2581fi", -1], ["\u2581", -3], ["f", -3], ["i", -3]])
    assert.deepStrictEqual(sp.encode("\ufb01"), [6]) // the ligature ﬁ is "fi" after NFKC
  })

  it("gives the recorded ids of the package's tokenizer on the shipped vocabulary", () => {
    const ours = new SentencePiece(shippedVocabulary())
    for (const [text, ids] of RECORDED) assert.deepStrictEqual(ours.encode(text), ids, text)
  })

  // The encoder reads the first 128 ids: encodeFirst gives them without encoding a long text whole.
  it("encodeFirst gives encode's first ids on long texts of every shape, and on a vocabulary where spaces do not split", () => {
    const ours = new SentencePiece(shippedVocabulary())
    const words = [...GOLDEN_TEXTS, ...variedTexts(40)].join(" ")
    const texts = [
      words.repeat(4),
      words.replace(/ /g, "  ").repeat(3), // doubled spaces
      "x".repeat(20_000), // one word: no space to cut at
      `${"\u{1F92C}".repeat(3000)} ${words}`, // unknowns merge: the prefix gives few ids
      `${"a".repeat(5000)} ${words.repeat(2)}`,
      "\uFF26\uFF35 ".repeat(4000), // NFKC changes the text first
      "short text"
    ]
    for (const text of texts) {
      for (const count of [1, 128, 700]) assert.deepStrictEqual(ours.encodeFirst(text, count), ours.encode(text).slice(0, count), `${text.slice(0, 30)}... (${count})`)
    }
    // A separator inside a piece: spaces are not boundaries, and encodeFirst encodes the whole text.
    const joined = new SentencePiece([...RESERVED, ["\u2581", -1], ["a", -1], ["a\u2581a", -0.5]])
    assert.deepStrictEqual(joined.encodeFirst("a a ".repeat(2000), 3), joined.encode("a a ".repeat(2000)).slice(0, 3))
  })

  // The ids the encoder was trained and converted with come from the package's tokenizer; the
  // shipped vocabulary (models/encoder/vocab.json) must give the same ids for any text.
  it.skipIf(missing.length > 0)("gives the ids of @energetic-ai/embeddings' tokenizer on the shipped vocabulary", () => {
    const vocabulary = shippedVocabulary()
    const { EmbeddingsModel } = requireEncoderPackage<{
      EmbeddingsModel: new (data: { vocabulary: Vocabulary; model: unknown }) => { tokenizer: { encode: (t: string) => Array<number> } }
    }>("@energetic-ai/embeddings")
    const theirs = new EmbeddingsModel({ vocabulary, model: null }).tokenizer
    const ours = new SentencePiece(vocabulary)
    const texts = [...GOLDEN_TEXTS, ...variedTexts(60), "", " ", "  two  spaces ", "emoji 🤬🤬 and ＦＵＬＬＷＩＤＴＨ", "naïve café – “quotes”", "\u0000\u0001 control", "日本語のテキスト"]
    for (const t of texts) assert.deepStrictEqual(ours.encode(t), theirs.encode(t), t)
    assert.isAbove(ours.encode("You are an idiot.").length, 3)
  })
})
