/**
 * From comments to classifier rows (internal/classifier/tokens.ts) on the two tokenizer families
 * operators export: BERT's WordPiece with a [CLS] ... [SEP] template, and RoBERTa's byte-level BPE
 * with <s> ... </s>; the padding token each names; windows framed by the special tokens.
 */
import { assert, describe, it } from "@effect/vitest"
import { Tokenizer as HfTokenizer } from "@huggingface/tokenizers"
import { frameOf, padBatch, padIdOf, rowsOf, type Tokenizer } from "../../src/internal/classifier/tokens.js"
import { robertaTokenizerJson, tokenizerJson } from "../classifier/tinyClassifier.js"

const load = (json: object): Tokenizer => new HfTokenizer(json, {})

describe("classifier rows", () => {
  it("finds the special tokens around a text for a BERT template and a RoBERTa processor", () => {
    assert.deepStrictEqual(frameOf(load(tokenizerJson())), { prefix: [2], suffix: [3] })
    assert.deepStrictEqual(frameOf(load(robertaTokenizerJson())), { prefix: [0], suffix: [2] })
    const bare = { ...tokenizerJson(), post_processor: null }
    assert.deepStrictEqual(frameOf(load(bare)), { prefix: [], suffix: [] })
  })

  it("pads with the tokenizer's own padding token, else [PAD] or <pad>", () => {
    assert.strictEqual(padIdOf(tokenizerJson(), load(tokenizerJson())), 0)
    assert.strictEqual(padIdOf(robertaTokenizerJson(), load(robertaTokenizerJson())), 1)
    const declared = { ...robertaTokenizerJson(), padding: { pad_id: 3, pad_token: "<unk>" } }
    assert.strictEqual(padIdOf(declared, load(declared)), 3)
  })

  it("frames every window of a comment and pads a batch to its longest row", () => {
    const roberta = load(robertaTokenizerJson())
    const frame = frameOf(roberta)
    // you are you are you: 9 16 10 16 10 (you, Ġare, Ġyou, Ġare, Ġyou)
    assert.deepStrictEqual(rowsOf(roberta, frame, { size: 3, stride: 2 }, "you are you are you"), [
      [0, 9, 16, 10, 2],
      [0, 10, 16, 10, 2]
    ])
    assert.deepStrictEqual(rowsOf(roberta, frame, { size: 2 }, "you are you are you"), [[0, 9, 16, 2]])
    const batch = padBatch([[0, 9, 2], [0, 9, 16, 10, 2]], 1)
    assert.strictEqual(batch.width, 5)
    assert.deepStrictEqual(batch.ids, [0, 9, 2, 1, 1, 0, 9, 16, 10, 2])
    assert.deepStrictEqual(batch.mask, [1, 1, 1, 0, 0, 1, 1, 1, 1, 1])
  })
})
