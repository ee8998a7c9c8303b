/**
 * The SentencePiece (unigram) tokenizer of the shipped sentence encoder
 * (`models/encoder/vocab.json`), in plain TypeScript.
 */
export { SentencePiece } from "./internal/encoder/sentencepiece.js"
export type { Vocabulary } from "./internal/encoder/sentencepiece.js"
