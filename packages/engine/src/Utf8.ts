/**
 * UTF-8 input read in chunks, exactly: a character split across two chunks decodes as itself, and
 * every byte sequence that is not UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past
 * U+10FFFF) becomes `INVALID`, a lone surrogate that no UTF-8 input can produce. So a reader can
 * tell a record holding bytes that were not UTF-8 (it contains `INVALID`) from one holding a real
 * U+FFFD, which a replacing decoder cannot. Valid chunks (the normal case) are checked by Node's
 * `isUtf8` and decoded in one call.
 */
import { isUtf8 } from "node:buffer"

/** What a byte that is not UTF-8 decodes to: a lone low surrogate (never the result of decoding UTF-8). */
export const INVALID = "\uDFFF"

/** The length of the UTF-8 sequence at `i` if it is one and complete, else 0. */
const sequenceLength = (bytes: Uint8Array, i: number): number => {
  const b0 = bytes[i]!
  if (b0 < 0x80) return 1
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < bytes.length && bytes[i + k]! >= lo && bytes[i + k]! <= hi
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [lo, hi] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf]
    return cont(1, lo, hi) && cont(2) ? 3 : 0
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [lo, hi] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf]
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0
  }
  return 0
}

/** Where the last bytes of `bytes` start a character that the next chunk may complete (else its length). */
const incompleteTail = (bytes: Uint8Array): number => {
  const n = bytes.length
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = bytes[n - back]!
    if (b >= 0x80 && b <= 0xbf) continue // a continuation byte: look further back for its lead
    const needed = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
    return needed > back ? n - back : n
  }
  return n
}

/** `bytes` decoded, each byte that does not belong to a UTF-8 sequence as `INVALID`. */
const decodeMarked = (bytes: Buffer): string => {
  let out = ""
  let start = 0
  for (let i = 0; i < bytes.length;) {
    const length = sequenceLength(bytes, i)
    if (length > 0) {
      i += length
      continue
    }
    out += bytes.toString("utf8", start, i) + INVALID
    start = ++i
  }
  return out + bytes.toString("utf8", start, bytes.length)
}

/** A streaming decoder: `decode` each chunk, then `end`. */
export class Utf8Decoder {
  private pending: Buffer | undefined

  /** The text of `chunk`, less a character it ends in the middle of (decoded with the next chunk). */
  decode(chunk: Buffer): string {
    const bytes = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk])
    const cut = incompleteTail(bytes)
    this.pending = cut < bytes.length ? Buffer.from(bytes.subarray(cut)) : undefined
    const body = cut < bytes.length ? bytes.subarray(0, cut) : bytes
    return isUtf8(body) ? body.toString("utf8") : decodeMarked(body)
  }

  /** What is left at the end of the input: a character cut short is not UTF-8. */
  end(): string {
    const rest = this.pending
    this.pending = undefined
    return rest === undefined ? "" : decodeMarked(rest)
  }
}

/** The 1-based line of `text` (LF-separated) where `INVALID` first stands, or undefined when it does not. */
export const invalidLine = (text: string): number | undefined => {
  const at = text.indexOf(INVALID)
  if (at < 0) return undefined
  let line = 1
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) line++
  return line
}
