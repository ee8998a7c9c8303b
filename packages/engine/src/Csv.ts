/**
 * The one CSV reader of the `decorum` command (`score`, `feedback import`) and its benchmarks:
 * RFC 4180 with the usual leniencies, streaming, and bounded on hostile input.
 *
 * - Fields are separated by `separator` (default `,`; `\t` for TSV); records end at LF, CRLF or a
 *   lone CR. A field that starts with `"` is quoted: it may hold separators, line breaks and
 *   doubled quotes (`""` is one `"`). A quote anywhere else is an ordinary character, and so is
 *   anything after a closing quote before the next separator (`"a"b` reads `ab`).
 * - A byte-order mark at the start is dropped. Blank lines (nothing at all between two line
 *   breaks) are skipped; every record carries the line it starts on (1-based, counting the line
 *   breaks inside quoted fields).
 * - Bounds: a record longer than `maxRecordChars` characters, or with more than `maxFields`
 *   fields, is not kept: it is read to its end (quotes still count) and returned as an error
 *   record, so memory stays bounded whatever the file holds and the records after it are read as
 *   usual. A quoted field still open at the end of the input is an error record for its line, and
 *   the lines after that record's first line are read again as records of their own (when the
 *   record was within bounds), so one stray quote costs one row, not the rest of the file.
 *
 * `CsvReader` is fed chunks (`push`) and returns the records each completes; `end()` returns the
 * last. `parseCsv` reads a whole string.
 */

export interface CsvOptions {
  /** One character (default `,`). */
  readonly separator?: string | undefined
  /** The longest record kept, in UTF-16 units (default 1 MiB). */
  readonly maxRecordChars?: number | undefined
  /** The most fields a record may have (default 4,096). */
  readonly maxFields?: number | undefined
}

/** A record: its fields, or why it has none (too long, too many fields, an unterminated quote). */
export type CsvRecord =
  | { readonly line: number; readonly fields: Array<string> }
  | { readonly line: number; readonly error: string }

export const DEFAULT_MAX_RECORD_CHARS = 1 << 20
export const DEFAULT_MAX_FIELDS = 4096

const QUOTE = 34
const LF = 10
const CR = 13

/** How many times `end()` reads the lines after an unterminated quote again before it gives up. */
const MAX_RECOVERIES = 100

export class CsvReader {
  private readonly sep: number
  private readonly maxChars: number
  private readonly maxFields: number
  private fields: Array<string> = []
  private field = ""
  /** Inside a quoted field. */
  private quoted = false
  /** The previous character was a quote inside a quoted field (a closing or the first of a doubled quote). */
  private quoteSeen = false
  /** The previous chunk ended with a CR ending a record: a LF right after it belongs to it. */
  private afterCr = false
  /** The previous chunk ended with a CR inside a quoted field (one line break with a LF after it). */
  private quotedCr = false
  /** The current field has no character yet (so a quote opens a quoted field). */
  private fieldEmpty = true
  /** The current record has any character. */
  private started = false
  private line = 1
  private recordLine = 1
  /** The current record's characters in earlier chunks. */
  private recordChars = 0
  /** Why the current record is being skipped (too long, too many fields), if it is. */
  private skipping: string | undefined
  /** The current record's raw text in earlier chunks, while it is within bounds. */
  private raw: Array<string> = []
  private first = true

  constructor(options: CsvOptions = {}) {
    const sep = options.separator ?? ","
    if (sep.length !== 1 || sep === "\"" || sep === "\n" || sep === "\r") {
      throw new Error(`a CSV separator is one character other than a quote or a line break, got ${JSON.stringify(sep)}`)
    }
    this.sep = sep.charCodeAt(0)
    this.maxChars = options.maxRecordChars ?? DEFAULT_MAX_RECORD_CHARS
    this.maxFields = options.maxFields ?? DEFAULT_MAX_FIELDS
  }

  /** Feeds a chunk; returns the records it completed. */
  push(chunk: string): Array<CsvRecord> {
    const out: Array<CsvRecord> = []
    this.scan(chunk, out)
    return out
  }

  /** The last records: the one the input ends in without a line break, or an unterminated quote's. */
  end(): Array<CsvRecord> {
    const out: Array<CsvRecord> = []
    for (let recoveries = 0; ; recoveries++) {
      if (!(this.quoted && !this.quoteSeen)) {
        if (this.started) this.finishRecord(out, 0)
        return out
      }
      // A quoted field still open: an error for its record, and what followed the record's first
      // line read again (when it was kept, and not too many times).
      const line = this.recordLine
      const raw = this.skipping === undefined && recoveries < MAX_RECOVERIES ? this.raw.join("") : undefined
      const next = raw === undefined ? -1 : firstLineEnd(raw)
      out.push({ line, error: next < 0 && raw === undefined ? "a quoted field is never closed (the rest of the input is in it)" : "a quoted field is never closed" })
      this.reset()
      if (raw === undefined || next < 0) return out
      this.line = line + 1
      this.afterCr = false
      this.quotedCr = false
      this.scan(raw.slice(next), out)
    }
  }

  private reset() {
    this.fields = []
    this.field = ""
    this.quoted = false
    this.quoteSeen = false
    this.fieldEmpty = true
    this.started = false
    this.recordChars = 0
    this.skipping = undefined
    this.raw = []
  }

  /** Ends the current record, `inChunk` of its characters in the current chunk. */
  private finishRecord(out: Array<CsvRecord>, inChunk: number) {
    if (this.skipping === undefined && this.recordChars + inChunk > this.maxChars) this.skip(tooLong(this.maxChars))
    if (this.skipping !== undefined) out.push({ line: this.recordLine, error: this.skipping })
    else {
      this.fields.push(this.field)
      if (this.fields.length > this.maxFields) out.push({ line: this.recordLine, error: tooMany(this.maxFields) })
      else out.push({ line: this.recordLine, fields: this.fields })
    }
    this.reset()
  }

  /** From now to its end, the current record is read but not kept. */
  private skip(reason: string) {
    this.skipping = reason
    this.fields = []
    this.field = ""
    this.raw = []
  }

  private scan(chunk: string, out: Array<CsvRecord>) {
    const n = chunk.length
    let i = 0
    if (this.first && n > 0) {
      this.first = false
      if (chunk.charCodeAt(0) === 0xfeff) i = 1
    }
    if (this.afterCr && i < n) {
      this.afterCr = false
      if (chunk.charCodeAt(i) === LF) i++
    }
    if (this.quotedCr && i < n) {
      this.quotedCr = false
      if (chunk.charCodeAt(i) !== LF) this.line++
    }
    const sep = this.sep
    // Where the current field's pending characters start in this chunk, and where the record does.
    let seg = i
    let recordStart = i
    while (i < n) {
      const c = chunk.charCodeAt(i)
      if (!this.started) {
        this.started = true
        this.recordLine = this.line
        recordStart = i
        seg = i
      }
      if (this.quoted) {
        if (!this.quoteSeen) {
          if (c === QUOTE) {
            if (this.skipping === undefined) this.field += chunk.slice(seg, i)
            this.quoteSeen = true
            seg = i + 1
          } else if (c === LF) this.line++
          else if (c === CR) {
            // a lone CR is a line break too; a CRLF counts once (at its LF)
            if (i + 1 === n) this.quotedCr = true
            else if (chunk.charCodeAt(i + 1) !== LF) this.line++
          }
          i++
          continue
        }
        this.quoteSeen = false
        if (c === QUOTE) {
          // a doubled quote: one quote in the field (the next segment starts with it)
          seg = i
          i++
          continue
        }
        // the quote closed the field; this character is read outside quotes
        this.quoted = false
      }
      if (c === sep) {
        if (this.skipping === undefined) {
          this.fields.push(this.field + chunk.slice(seg, i))
          if (this.fields.length > this.maxFields) this.skip(tooMany(this.maxFields))
        }
        this.field = ""
        this.fieldEmpty = true
        i++
        seg = i
        continue
      }
      if (c === LF || c === CR) {
        if (this.skipping === undefined) this.field += chunk.slice(seg, i)
        this.line++
        if (this.fields.length === 0 && this.fieldEmpty && this.skipping === undefined) this.reset() // a blank line
        else this.finishRecord(out, i - recordStart)
        i++
        if (c === CR) {
          if (i === n) this.afterCr = true
          else if (chunk.charCodeAt(i) === LF) i++
        }
        seg = i
        recordStart = i
        continue
      }
      if (c === QUOTE && this.fieldEmpty) {
        this.quoted = true
        this.fieldEmpty = false
        i++
        seg = i
        continue
      }
      this.fieldEmpty = false
      i++
      if (this.skipping === undefined && this.recordChars + (i - recordStart) > this.maxChars) this.skip(tooLong(this.maxChars))
    }
    // The chunk ended inside a record: keep its pending characters (bounded).
    if (this.started) {
      if (this.skipping === undefined) {
        this.field += chunk.slice(seg, n)
        if (n > recordStart) this.raw.push(chunk.slice(recordStart, n))
      }
      this.recordChars += n - recordStart
      if (this.skipping === undefined && this.recordChars > this.maxChars) this.skip(tooLong(this.maxChars))
    }
  }
}

const tooLong = (max: number) => `the record is longer than ${max.toLocaleString("en-US")} characters`
const tooMany = (max: number) => `the record has more than ${max.toLocaleString("en-US")} fields`

/** Where the text after the first line break of `raw` starts, or -1 when it has none. */
const firstLineEnd = (raw: string): number => {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i)
    if (c === LF) return i + 1
    if (c === CR) return raw.charCodeAt(i + 1) === LF ? i + 2 : i + 1
  }
  return -1
}

/** Every record of a whole text. */
export const parseCsv = (text: string, options: CsvOptions = {}): Array<CsvRecord> => {
  const reader = new CsvReader(options)
  return [...reader.push(text), ...reader.end()]
}

/** One CSV field as written (RFC 4180): quoted when it holds a quote, comma or line break; null and undefined are empty. */
export const csvCell = (v: unknown): string => {
  const s = v === null || v === undefined ? "" : String(v)
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, "\"\"")}"` : s
}
