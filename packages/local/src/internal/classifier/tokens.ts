/**
 * From comments to the rows an ONNX sequence classifier reads: the Hugging Face tokenizer's ids of
 * the comment, cut into windows of at most `size` tokens (or to the first `maxLength` when the
 * mapping has no window), each wrapped in the model's special tokens ([CLS] ... [SEP], <s> ... </s>)
 * as the tokenizer's post-processor places them; then a batch of rows padded to its longest row.
 */

/**
 * What this loader uses of @huggingface/tokenizers' `Tokenizer` (its declarations import their
 * files without extensions, which NodeNext resolution does not follow, so they type as `any`).
 */
export interface Tokenizer {
  readonly encode: (text: string, options: { readonly add_special_tokens: boolean }) => { readonly ids: ReadonlyArray<number> }
  readonly token_to_id: (token: string) => number | undefined
}

/** The special tokens the tokenizer puts before and after a single text. */
export interface Frame {
  readonly prefix: ReadonlyArray<number>
  readonly suffix: ReadonlyArray<number>
}

const PROBE = "a b c"

/**
 * Where the tokenizer's post-processor puts its special tokens around one text, found by encoding a
 * probe with and without them (a template, BERT or RoBERTa processor: the same for every text).
 */
export const frameOf = (tokenizer: Tokenizer): Frame => {
  const bare = tokenizer.encode(PROBE, { add_special_tokens: false }).ids
  const framed = tokenizer.encode(PROBE, { add_special_tokens: true }).ids
  if (bare.length === 0) throw new Error(`encodes "${PROBE}" to no tokens`)
  for (let at = 0; at + bare.length <= framed.length; at++) {
    if (bare.every((id, i) => framed[at + i] === id)) return { prefix: framed.slice(0, at), suffix: framed.slice(at + bare.length) }
  }
  throw new Error("adds special tokens inside the text, not only around it: its post-processor is not one this loader reads")
}

/** The padding token: the tokenizer's own (`padding.pad_id`), else [PAD] or <pad>, else 0. */
export const padIdOf = (tokenizerJson: unknown, tokenizer: Tokenizer): number => {
  const padding = (tokenizerJson as { readonly padding?: { readonly pad_id?: unknown } | null }).padding
  if (padding != null && typeof padding.pad_id === "number") return padding.pad_id
  return tokenizer.token_to_id("[PAD]") ?? tokenizer.token_to_id("<pad>") ?? 0
}

/**
 * The starts of the windows of `size` tokens, `stride` apart, that cover `n` tokens; the last is
 * moved back to end at the last token, so that it is a full window rather than a short tail. With
 * `limit`, a comment that would need more windows gets `limit` of them spread evenly from its first
 * token to its last (wider apart than `stride`, so some tokens between them go unread): the cost of
 * one comment stays bounded whatever its length.
 */
export const windowStarts = (n: number, size: number, stride: number, limit = Infinity): Array<number> => {
  if (n <= size) return [0]
  const starts: Array<number> = []
  for (let start = 0; ; start += stride) {
    if (start + size >= n) {
      starts.push(n - size)
      break
    }
    starts.push(start)
  }
  if (starts.length <= limit) return starts
  if (limit <= 1) return [0]
  return Array.from({ length: limit }, (_, i) => Math.round((i * (n - size)) / (limit - 1)))
}

export interface Windowing {
  /** Tokens of the comment per row; a longer comment is cut (no `stride`) or windowed. */
  readonly size: number
  readonly stride?: number
  /** Windows of one comment at most. */
  readonly limit?: number
}

/** The rows of one comment: one per window, each framed by the model's special tokens. */
export const rowsOf = (tokenizer: Tokenizer, frame: Frame, windowing: Windowing, text: string): Array<Array<number>> => {
  const ids = tokenizer.encode(text, { add_special_tokens: false }).ids
  const frameRow = (from: number) => [...frame.prefix, ...ids.slice(from, from + windowing.size), ...frame.suffix]
  if (windowing.stride === undefined) return [frameRow(0)]
  return windowStarts(ids.length, windowing.size, windowing.stride, windowing.limit).map(frameRow)
}

/** A batch of rows padded to the longest: ids, attention mask and segment ids, row-major. */
export interface Batch {
  readonly rows: number
  readonly width: number
  readonly ids: Array<number>
  readonly mask: Array<number>
  readonly types: Array<number>
}

export const padBatch = (rows: ReadonlyArray<ReadonlyArray<number>>, padId: number): Batch => {
  const width = Math.max(1, ...rows.map((r) => r.length))
  const ids = new Array<number>(rows.length * width).fill(padId)
  const mask = new Array<number>(rows.length * width).fill(0)
  rows.forEach((row, r) =>
    row.forEach((id, t) => {
      ids[r * width + t] = id
      mask[r * width + t] = 1
    })
  )
  return { rows: rows.length, width, ids, mask, types: new Array<number>(rows.length * width).fill(0) }
}
