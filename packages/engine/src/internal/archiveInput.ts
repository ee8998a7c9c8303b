/**
 * The archive scorer's input (`Archive.score`): the bytes of a file or standard input as UTF-8 text
 * chunk by chunk, and JSON lines or CSV records as rows, each with its line number and its id and
 * text or why it cannot be scored. Bounded on hostile input (see `Archive.ts`).
 */
import { createReadStream, existsSync } from "node:fs"
import type { Readable } from "node:stream"
import { CsvReader, type CsvRecord } from "../Csv.js"
import { INVALID, Utf8Decoder } from "../Utf8.js"

/** A usage problem (exit 2): an unknown attribute, a missing column, a bad worker count. */
export class ScoreUsageError extends Error {}

/** One input record: its first line number, and its id and text or why it has none. */
export type Row = { readonly line: number; readonly id: string; readonly text: string } | { readonly line: number; readonly id: string; readonly error: string }

/** The longest input record (CSV record or JSON line) read, in UTF-16 units; longer ones are bad rows. */
export const MAX_RECORD_CHARS = 1 << 20

/** The input's text, chunk by chunk; bytes that are not UTF-8 become `INVALID` (a character split across chunks is kept whole). */
export async function* chunks(stream: Readable, onBytes: (n: number) => void): AsyncGenerator<string> {
  const decoder = new Utf8Decoder()
  for await (const chunk of stream) {
    const buffer = chunk as Buffer
    onBytes(buffer.length)
    const text = decoder.decode(buffer)
    if (text !== "") yield text
  }
  const rest = decoder.end()
  if (rest !== "") yield rest
}

const NOT_UTF8 = "the text is not valid UTF-8"

/** A row's text, or its error when the record had bytes that are not UTF-8 (in its text or its id). */
const textRow = (line: number, id: string, text: string): Row =>
  id.includes(INVALID)
    ? { line, id: String(line), error: NOT_UTF8 }
    : text.includes(INVALID)
    ? { line, id, error: NOT_UTF8 }
    : { line, id, text }

const LINE_TOO_LONG = `the line is longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters`

/** Splits text into lines (LF or CRLF), each with its number; a line past the bound is reported, not kept. */
class LineReader {
  private carry: Array<string> = []
  private carried = 0
  private line = 0
  private tooLong = false

  push(chunk: string, out: Array<{ line: number; text: string } | { line: number; error: string }>) {
    let from = 0
    for (;;) {
      const nl = chunk.indexOf("\n", from)
      if (nl < 0) break
      this.line++
      if (this.tooLong || this.carried + (nl - from) > MAX_RECORD_CHARS) out.push({ line: this.line, error: LINE_TOO_LONG })
      else {
        const piece = chunk.slice(from, nl)
        const text = this.carry.length === 0 ? piece : this.carry.join("") + piece
        out.push({ line: this.line, text })
      }
      this.carry = []
      this.carried = 0
      this.tooLong = false
      from = nl + 1
    }
    if (from < chunk.length && !this.tooLong) {
      this.carried += chunk.length - from
      if (this.carried > MAX_RECORD_CHARS) {
        this.tooLong = true
        this.carry = []
      } else this.carry.push(chunk.slice(from))
    }
  }

  end(out: Array<{ line: number; text: string } | { line: number; error: string }>) {
    if (this.tooLong) out.push({ line: this.line + 1, error: LINE_TOO_LONG })
    else if (this.carry.length > 0) out.push({ line: this.line + 1, text: this.carry.join("") })
  }
}

/** JSON lines into rows, a chunk's worth at a time. */
export async function* jsonRows(text: AsyncGenerator<string>, columns: { text: string; id: string }): AsyncGenerator<Array<Row>> {
  const reader = new LineReader()
  const parse = (raw: { line: number; text: string } | { line: number; error: string }): Row | undefined => {
    const n = raw.line
    if ("error" in raw) return { line: n, id: String(n), error: raw.error }
    const trimmed = raw.text.trim()
    if (trimmed === "") return undefined
    // Checked before parsing: JSON's own escapes (`\\udfff`) are ASCII here, so cannot be mistaken for it.
    if (trimmed.includes(INVALID)) return { line: n, id: String(n), error: NOT_UTF8 }
    let value: unknown
    try {
      value = JSON.parse(trimmed)
    } catch {
      return { line: n, id: String(n), error: "not valid JSON" }
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { line: n, id: String(n), error: "not a JSON object" }
    const record = value as Record<string, unknown>
    const rawId = record[columns.id]
    const id = typeof rawId === "string" || typeof rawId === "number" ? String(rawId) : String(n)
    const body = record[columns.text]
    if (typeof body !== "string") return { line: n, id, error: `no "${columns.text}" string` }
    return textRow(n, id, body)
  }
  const rows = (lines: Array<{ line: number; text: string } | { line: number; error: string }>) => {
    const out: Array<Row> = []
    for (const l of lines) {
      const row = parse(l)
      if (row) out.push(row)
    }
    return out
  }
  for await (const chunk of text) {
    const lines: Array<{ line: number; text: string } | { line: number; error: string }> = []
    reader.push(chunk, lines)
    if (lines.length > 0) yield rows(lines)
  }
  const last: Array<{ line: number; text: string } | { line: number; error: string }> = []
  reader.end(last)
  if (last.length > 0) yield rows(last)
}

/** CSV records into rows, a chunk's worth at a time; the first record is the header. */
export async function* csvRows(
  text: AsyncGenerator<string>,
  columns: { text: string; id: string; idGiven: boolean },
  separator = ","
): AsyncGenerator<Array<Row>> {
  const reader = new CsvReader({ separator, maxRecordChars: MAX_RECORD_CHARS })
  let header: Array<string> | undefined
  let textAt = -1
  let idAt = -1
  const rows = (records: Array<CsvRecord>): Array<Row> => {
    const out: Array<Row> = []
    for (const record of records) {
      if (header === undefined) {
        if ("error" in record) throw new ScoreUsageError(`the CSV header (line ${record.line}) cannot be read: ${record.error}`)
        header = record.fields.map((f) => f.trim())
        textAt = header.indexOf(columns.text)
        idAt = header.indexOf(columns.id)
        if (textAt < 0) throw new ScoreUsageError(`the CSV header has no "${columns.text}" column (it has: ${header.join(", ")}); name it with --text-column`)
        if (idAt < 0 && columns.idGiven) throw new ScoreUsageError(`the CSV header has no "${columns.id}" column (it has: ${header.join(", ")})`)
        continue
      }
      if ("error" in record) {
        out.push({ line: record.line, id: String(record.line), error: record.error })
        continue
      }
      const fields = record.fields
      const id = idAt >= 0 && fields[idAt] !== undefined && fields[idAt] !== "" ? fields[idAt]! : String(record.line)
      const body = fields[textAt]
      if (body === undefined) out.push({ line: record.line, id, error: `the row has ${fields.length} field${fields.length === 1 ? "" : "s"}, none in column "${columns.text}"` })
      else out.push(textRow(record.line, id, body))
    }
    return out
  }
  for await (const chunk of text) {
    const out = rows(reader.push(chunk))
    if (out.length > 0) yield out
  }
  const out = rows(reader.end())
  if (out.length > 0) yield out
}

/** The ids already in an output file (for `--resume`). */
export const existingIds = async (path: string, csv: boolean): Promise<Set<string>> => {
  const ids = new Set<string>()
  if (!existsSync(path)) return ids
  const text = chunks(createReadStream(path), () => {})
  const rows = csv ? csvRows(text, { text: "id", id: "id", idGiven: true }) : jsonRows(text, { text: "id", id: "id" })
  for await (const batch of rows) for (const row of batch) ids.add(row.id)
  return ids
}
