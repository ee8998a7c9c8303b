/**
 * The one CSV reader (`decorum score`, `decorum feedback import`, the adaptation benchmark): RFC
 * 4180 fields, line numbers, chunk boundaries anywhere, and bounded, recoverable handling of
 * hostile input (over-long records, too many fields, unterminated quotes).
 */
import { assert, describe, it } from "@effect/vitest"
import { CsvReader, type CsvRecord, parseCsv } from "../src/Csv.js"

const chunked = (text: string, cuts: ReadonlyArray<number>, options = {}): Array<CsvRecord> => {
  const reader = new CsvReader(options)
  const out: Array<CsvRecord> = []
  let from = 0
  for (const cut of [...cuts, text.length]) {
    out.push(...reader.push(text.slice(from, cut)))
    from = cut
  }
  return [...out, ...reader.end()]
}

describe("parseCsv", () => {
  it("reads quoted fields with separators, doubled quotes and line breaks, with each record's first line", () => {
    const text = `\uFEFFid,text\r\n1,"a, ""b""\nc"\n2,plain\r3,"end"`
    assert.deepStrictEqual(parseCsv(text), [
      { line: 1, fields: ["id", "text"] },
      { line: 2, fields: ["1", "a, \"b\"\nc"] },
      { line: 4, fields: ["2", "plain"] },
      { line: 5, fields: ["3", "end"] }
    ])
  })

  it("skips blank lines but keeps a record of one empty quoted field, and counts lines across both", () => {
    assert.deepStrictEqual(parseCsv("a,b\n\n\r\n1,2\n\"\"\n,\n"), [
      { line: 1, fields: ["a", "b"] },
      { line: 4, fields: ["1", "2"] },
      { line: 5, fields: [""] },
      { line: 6, fields: ["", ""] }
    ])
  })

  it("reads quotes inside an unquoted field and text after a closing quote as ordinary characters", () => {
    assert.deepStrictEqual(parseCsv(`a"b,"c"d,e""\n`), [{ line: 1, fields: ["a\"b", "cd", "e\"\""] }])
  })

  it("takes another separator (tab), and refuses a quote or a line break as one", () => {
    assert.deepStrictEqual(parseCsv("a\tb,c\n\"x\ty\"\tz\n", { separator: "\t" }), [
      { line: 1, fields: ["a", "b,c"] },
      { line: 2, fields: ["x\ty", "z"] }
    ])
    assert.throws(() => new CsvReader({ separator: "\"" }), /separator/)
    assert.throws(() => new CsvReader({ separator: ",," }), /separator/)
  })

  it("gives the same records wherever the input is cut into chunks", () => {
    const text = `\uFEFFid,text\r\n1,"a, ""b""\r\nc"\r\n2,plain\r3,"end"\r\n\r\n4,"x""\n"`
    const whole = parseCsv(text)
    assert.deepStrictEqual(whole.at(-1), { line: 7, fields: ["4", "x\"\n"] })
    for (let a = 0; a < text.length; a++) {
      for (let b = a; b < text.length; b += 3) assert.deepStrictEqual(chunked(text, [a, b]), whole, `cut at ${a}, ${b}`)
    }
  })

  it("agrees with itself on random inputs cut at random places (quotes, separators, CR, LF)", () => {
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    const alphabet = ["a", "b", ",", "\"", "\n", "\r", "\r\n", "\"\""]
    for (let round = 0; round < 400; round++) {
      const text = Array.from({ length: Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]!).join("")
      const cuts = Array.from({ length: 3 }, () => Math.floor(next() * (text.length + 1))).sort((x, y) => x - y)
      assert.deepStrictEqual(chunked(text, cuts), parseCsv(text), JSON.stringify(text))
    }
  })
})

describe("CsvReader on hostile input", () => {
  it("turns a record longer than the bound into an error for its line, without keeping it, and reads on", () => {
    const long = "x".repeat(5000)
    const text = `id,text\n1,${long}\n2,"${long}\n${long}"\n3,fine\n`
    const expected = [
      { line: 1, fields: ["id", "text"] },
      { line: 2, error: "the record is longer than 1,000 characters" },
      { line: 3, error: "the record is longer than 1,000 characters" },
      { line: 5, fields: ["3", "fine"] }
    ]
    assert.deepStrictEqual(parseCsv(text, { maxRecordChars: 1000 }), expected)
    const cuts = Array.from({ length: Math.floor(text.length / 300) }, (_, k) => (k + 1) * 300)
    assert.deepStrictEqual(chunked(text, cuts, { maxRecordChars: 1000 }), expected)
  })

  it("reads a 16 MiB line in 64 KiB chunks in bounded memory", () => {
    const reader = new CsvReader()
    const chunk = "y".repeat(1 << 16)
    const before = process.memoryUsage().heapUsed
    const out: Array<CsvRecord> = [...reader.push("id,text\n1,")]
    for (let k = 0; k < 256; k++) out.push(...reader.push(chunk))
    const grown = process.memoryUsage().heapUsed - before
    out.push(...reader.push("\n2,next\n"), ...reader.end())
    assert.deepStrictEqual(out, [
      { line: 1, fields: ["id", "text"] },
      { line: 2, error: "the record is longer than 1,048,576 characters" },
      { line: 3, fields: ["2", "next"] }
    ])
    // 16 MiB of text went through; what stays is the bound (1 MiB of UTF-16), not the line.
    assert.isBelow(grown, 16 * 1024 * 1024)
  })

  it("turns a record with too many fields into an error and reads on", () => {
    assert.deepStrictEqual(parseCsv(`a,b\n${",".repeat(100)}\nc,d\n`, { maxFields: 10 }), [
      { line: 1, fields: ["a", "b"] },
      { line: 2, error: "the record has more than 10 fields" },
      { line: 3, fields: ["c", "d"] }
    ])
  })

  it("reports an unterminated quote on its line and reads the lines after it again", () => {
    const text = `id,text\n1,"never closed\n2,fine\n3,also fine\n4,ok`
    const expected = [
      { line: 1, fields: ["id", "text"] },
      { line: 2, error: "a quoted field is never closed" },
      { line: 3, fields: ["2", "fine"] },
      { line: 4, fields: ["3", "also fine"] },
      { line: 5, fields: ["4", "ok"] }
    ]
    assert.deepStrictEqual(parseCsv(text), expected)
    for (let cut = 1; cut < text.length; cut++) assert.deepStrictEqual(chunked(text, [cut]), expected, `cut at ${cut}`)
  })

  it("keeps NUL bytes and other control characters as field content", () => {
    assert.deepStrictEqual(parseCsv("a\u0000b,\u0001\n"), [{ line: 1, fields: ["a\u0000b", "\u0001"] }])
  })
})
