/**
 * The shared word tokenizer: word tokens with UTF-16 offsets into the text as given, and ranges
 * over it.
 */
export { tokenize } from "./internal/text/words.js"
export type { Token, Range } from "./internal/text/words.js"
