/**
 * A tiny ONNX sequence classifier and its tokenizer, built by the tests (no downloaded model), in
 * the shape of a Hugging Face export: inputs `input_ids` and `attention_mask` (int64, [batch,
 * tokens]), optionally `token_type_ids`, and float outputs of shape [batch, classes].
 *
 * The graph is a masked mean of 2-d token embeddings (dimension 0 "hostile", 1 "friendly") followed
 * by linear maps, so every score can be computed by hand:
 *   mean   = sum_t mask_t E[id_t] / sum_t mask_t         (+ (0.5, 0) per token with token types)
 *   toxic  = [2 mean_0 - 1, mean_1 - mean_0]             ([batch, 2])
 *   classes = [mean_0, mean_1, -mean_0]                  ([batch, 3])
 *   probs  = sigmoid(toxic)                               ([batch, 2])
 *   single = [mean_0]                                     ([batch, 1])
 * [PAD]'s embedding is (5, 5), so a padded token that leaked past the mask would show.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { DataType, encodeModel, floatTensor, int64Tensor, type Node } from "../../../training/encoder/onnx.js"

/** The WordPiece vocabulary, and each token's embedding (hostile, friendly). */
export const VOCAB: ReadonlyArray<readonly [string, number, number]> = [
  ["[PAD]", 5, 5],
  ["[UNK]", 0, 0],
  ["[CLS]", 0, 0],
  ["[SEP]", 0, 0],
  ["you", 1, 0],
  ["are", 0, 0],
  ["an", 0, 0],
  ["idiot", 4, 0],
  ["thanks", 0, 2],
  ["##s", 0, 0],
  ["great", 0, 2],
  ["post", 0, 0],
  ["!", 1, 1]
]

const special = (content: string, id: number) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })

/** A BERT-style tokenizer.json (lower-casing normaliser, WordPiece, [CLS] text [SEP]). */
export const tokenizerJson = () => ({
  version: "1.0",
  truncation: null,
  padding: null,
  added_tokens: VOCAB.slice(0, 4).map(([t], id) => special(t, id)),
  normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
  pre_tokenizer: { type: "BertPreTokenizer" },
  post_processor: {
    type: "TemplateProcessing",
    single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
    pair: [
      { SpecialToken: { id: "[CLS]", type_id: 0 } },
      { Sequence: { id: "A", type_id: 0 } },
      { SpecialToken: { id: "[SEP]", type_id: 0 } },
      { Sequence: { id: "B", type_id: 1 } },
      { SpecialToken: { id: "[SEP]", type_id: 1 } }
    ],
    special_tokens: {
      "[CLS]": { id: "[CLS]", ids: [2], tokens: ["[CLS]"] },
      "[SEP]": { id: "[SEP]", ids: [3], tokens: ["[SEP]"] }
    }
  },
  decoder: { type: "WordPiece", prefix: "##", cleanup: true },
  model: {
    type: "WordPiece",
    unk_token: "[UNK]",
    continuing_subword_prefix: "##",
    max_input_chars_per_word: 100,
    vocab: Object.fromEntries(VOCAB.map(([t], id) => [t, id]))
  }
})

/** The classifier's ONNX bytes; `tokenTypes` adds a `token_type_ids` input (type 0 adds (0.5, 0) per token). */
export const classifierOnnx = (options: { readonly tokenTypes?: boolean } = {}): Uint8Array => {
  const E = VOCAB.flatMap(([, h, f]) => [h, f])
  const nodes: Array<Node> = [
    { op: "Gather", inputs: ["E", "input_ids"], outputs: ["tokens"] },
    ...(options.tokenTypes === true
      ? [
        { op: "Gather", inputs: ["T", "token_type_ids"], outputs: ["types"] },
        { op: "Add", inputs: ["tokens", "types"], outputs: ["embedded"] }
      ]
      : [{ op: "Identity", inputs: ["tokens"], outputs: ["embedded"] }]),
    { op: "Cast", inputs: ["attention_mask"], outputs: ["maskf"], attributes: { to: { kind: "int", value: DataType.FLOAT } } },
    { op: "Unsqueeze", inputs: ["maskf", "axis2"], outputs: ["mask3"] },
    { op: "Mul", inputs: ["embedded", "mask3"], outputs: ["masked"] },
    { op: "ReduceSum", inputs: ["masked", "axis1"], outputs: ["sum"], attributes: { keepdims: { kind: "int", value: 0 } } },
    { op: "ReduceSum", inputs: ["mask3", "axis1"], outputs: ["count"], attributes: { keepdims: { kind: "int", value: 0 } } },
    { op: "Div", inputs: ["sum", "count"], outputs: ["mean"] },
    { op: "MatMul", inputs: ["mean", "W1"], outputs: ["toxic0"] },
    { op: "Add", inputs: ["toxic0", "b1"], outputs: ["toxic"] },
    { op: "MatMul", inputs: ["mean", "W2"], outputs: ["classes"] },
    { op: "Sigmoid", inputs: ["toxic"], outputs: ["probs"] },
    { op: "MatMul", inputs: ["mean", "W3"], outputs: ["single"] }
  ]
  const ids = (name: string) => ({ name, type: DataType.INT64, shape: ["batch", "tokens"] })
  const out = (name: string, classes: number) => ({ name, type: DataType.FLOAT, shape: ["batch", classes] })
  return encodeModel({
    graphName: "tiny-classifier",
    nodes,
    initializers: [
      floatTensor("E", [VOCAB.length, 2], E),
      ...(options.tokenTypes === true ? [floatTensor("T", [2, 2], [0.5, 0, 0, 0])] : []),
      int64Tensor("axis1", [1], [1]),
      int64Tensor("axis2", [1], [2]),
      floatTensor("W1", [2, 2], [2, -1, 0, 1]),
      floatTensor("b1", [2], [-1, 0]),
      floatTensor("W2", [2, 3], [1, 0, -1, 0, 1, 0]),
      floatTensor("W3", [2, 1], [1, 0])
    ],
    inputs: [ids("input_ids"), ids("attention_mask"), ...(options.tokenTypes === true ? [ids("token_type_ids")] : [])],
    outputs: [out("toxic", 2), out("classes", 3), out("probs", 2), out("single", 1)],
    opset: 13,
    producer: "decorum-test",
    docString: "",
    metadata: {}
  })
}

/**
 * The smallest mapping of the tiny classifier: TOXICITY is the sigmoid of output "toxic"'s first
 * column (`2 mean_0 - 1`; "You are an idiot!" scores 5/7).
 */
export const TINY_MAPPING = {
  name: "tiny-classifier-1",
  model: "model.onnx",
  tokenizer: "tokenizer.json",
  output: "toxic",
  maxLength: 16,
  attributes: [{ attribute: "TOXICITY", index: 0, activation: "sigmoid" }]
}

/** Writes `model.onnx`, `tokenizer.json` and `mapping.json` (the given mapping) into `dir`; returns the mapping's path. */
export const writeClassifier = (
  dir: string,
  mapping: unknown,
  options: { readonly tokenTypes?: boolean } = {}
): string => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, "model.onnx"), classifierOnnx(options))
  writeFileSync(join(dir, "tokenizer.json"), JSON.stringify(tokenizerJson()))
  writeFileSync(join(dir, "mapping.json"), typeof mapping === "string" ? mapping : JSON.stringify(mapping))
  return join(dir, "mapping.json")
}

/** A RoBERTa-style tokenizer.json (byte-level BPE, <s> text </s>, <pad> = 1), for the tokenizer's framing alone. */
export const robertaTokenizerJson = () => ({
  version: "1.0",
  truncation: null,
  padding: null,
  added_tokens: ["<s>", "<pad>", "</s>", "<unk>"].map((t, id) => special(t, id)),
  normalizer: null,
  pre_tokenizer: { type: "ByteLevel", add_prefix_space: false, trim_offsets: true, use_regex: true },
  post_processor: { type: "RobertaProcessing", sep: ["</s>", 2], cls: ["<s>", 0], trim_offsets: true, add_prefix_space: false },
  decoder: { type: "ByteLevel", add_prefix_space: true, trim_offsets: true, use_regex: true },
  model: {
    type: "BPE",
    dropout: null,
    unk_token: null,
    continuing_subword_prefix: "",
    end_of_word_suffix: "",
    fuse_unk: false,
    byte_fallback: false,
    vocab: { "<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3, y: 4, o: 5, u: 6, "Ġ": 7, yo: 8, you: 9, "Ġyou": 10, a: 11, r: 12, e: 13, "Ġa": 14, "Ġar": 15, "Ġare": 16 },
    merges: ["y o", "yo u", "Ġ you", "Ġ a", "Ġa r", "Ġar e"]
  }
})
