/**
 * The archive scorer (`Archive.score`, what `decorum score` runs): rows it cannot score reported
 * with their line numbers and written with an error; `resume`; CSV that quotes commas, quotes and
 * newlines; hostile files; the progress line; and the engine it scores with (`Engine.analyzeLayer`)
 * answering exactly what the whole engine answers.
 */
import { Analyze } from "@decorum/core"
import { afterAll, assert, describe, it, it as effect } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PassThrough, Readable } from "node:stream"
import { Engine, EngineConfig } from "../src/index.js"
import { MAX_RECORD_CHARS, progressLine, score, scoreBatch } from "../src/Archive.js"

const dir = mkdtempSync(join(tmpdir(), "decorum-score-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const TEXTS = [
  "You are a complete idiot and everyone here knows it.",
  "Thanks for the thoughtful article, I learned a lot.",
  "I will find you and hurt you.",
  "The council meeting is on Tuesday at <b>7pm</b>, see you there",
  "What a stupid, stupid plan."
]

const csvCell = (s: string) => `"${s.replace(/"/g, "\"\"")}"`

const captured = () => {
  const stream = new PassThrough()
  let text = ""
  stream.on("data", (c: Buffer) => (text += c.toString()))
  return { stream, text: () => text }
}

const jsonLines = (path: string) =>
  readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)

describe("Archive.score", () => {
  it("reports rows it cannot score with their line numbers and writes them with an error", async () => {
    const input = join(dir, "bad.csv")
    // Line 2: fine; lines 3-4: one quoted comment over two lines; line 5: empty; line 6: too long.
    writeFileSync(input, `id,text\na,"fine, thanks"\nb,"two\nlines"\nc,\nd,${"x".repeat(20_481)}\n`)
    const output = join(dir, "bad.jsonl")
    const err = captured()
    const summary = await score({ input, output, workers: 1, stderr: err.stream })
    assert.deepInclude(summary, { rows: 4, scored: 2, failed: 2 })
    const rows = jsonLines(output)
    assert.deepStrictEqual(rows.map((r) => r["id"]), ["a", "b", "c", "d"])
    assert.deepStrictEqual(rows[2], { id: "c", line: 5, error: "Comment must be non-empty." })
    assert.deepInclude(rows[3], { id: "d", line: 6 })
    assert.include(String(rows[3]!["error"]), "too long")
    assert.include(err.text(), "line 5 (id c): Comment must be non-empty.")
    assert.include(err.text(), "line 6 (id d)")
  }, 30_000)

  it("reads JSON lines from standard input; rows without an id are named by their line", async () => {
    const stdin = new PassThrough()
    stdin.end(`{"id": 7, "text": "you idiot"}\nnot json\n\n{"text": "lovely"}\n{"id": "x"}\n`)
    const stdout = captured()
    const err = captured()
    await score({ input: "-", stdin, stdout: stdout.stream, stderr: err.stream, workers: 1, attributes: ["insult"] })
    const rows = stdout.text().trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
    assert.deepStrictEqual(rows.map((r) => r["id"]), ["7", "2", "4", "x"])
    assert.isNumber(rows[0]!["INSULT"])
    assert.deepStrictEqual(rows[1], { id: "2", line: 2, error: "not valid JSON" })
    assert.deepStrictEqual(rows[3], { id: "x", line: 5, error: "no \"text\" string" })
    assert.match(err.text().trim().split("\n").at(-1)!, /^Scored 2 rows, 2 could not be scored/)
  }, 30_000)

  it("--resume skips the ids already in the output and appends the rest (CSV output)", async () => {
    const input = join(dir, "resume.csv")
    writeFileSync(input, ["comment_id,body", ...TEXTS.map((t, i) => `r${i},${csvCell(t)}`)].join("\n") + "\n")
    const output = join(dir, "resume.csv.out.csv")
    const first = join(dir, "first.csv")
    writeFileSync(first, ["comment_id,body", ...TEXTS.slice(0, 2).map((t, i) => `r${i},${csvCell(t)}`)].join("\n") + "\n")
    const columns = { textColumn: "body", idColumn: "comment_id", workers: 1, stderr: captured().stream }
    await score({ ...columns, input: first, output })
    const resumed = await score({ ...columns, input, output, resume: true })
    assert.deepInclude(resumed, { rows: 3, skipped: 2 })
    const lines = readFileSync(output, "utf8").trim().split("\n")
    assert.strictEqual(lines[0], "id,TOXICITY,model,error")
    assert.deepStrictEqual(lines.slice(1).map((l) => l.split(",")[0]), ["r0", "r1", "r2", "r3", "r4"])
  }, 30_000)

})

/** Deterministic varied comments: plain, abusive, obfuscated, Unicode, long, empty and too long. */
const variedComments = (): Array<string> => {
  let seed = 11
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  const words = ["you", "idiot", "not", "stupid", "thanks", "f*ck", "sh1t", "i d i o t", "ｉｄｉｏｔ", "іdіоt", "I will hurt you", "muslims", "vermin",
    "http://x.example/a", "12345", "!!!", "\n", "😀", "naïve", "z̷a̷l̷g̷o̷", "\u0000", "<b>bold</b>", "STOP", "great", "article", "but", "never"]
  const out = [...TEXTS, "", "   ", "\n\t", "x".repeat(20_480), "x".repeat(20_481), "You idiot. ".repeat(1800)]
  for (let i = 0; i < 200; i++) out.push(Array.from({ length: 1 + Math.floor(next() * 30) }, () => words[Math.floor(next() * words.length)]!).join(" "))
  return out
}

describe("Engine.analyzeLayer", () => {
  // The archive scorer loads only what analyze reads: its answers (scores bit for bit, models,
  // error messages) are the whole engine's for varied comments, English and not, empty and too long.
  effect.live("answers analyze as the whole engine does", () =>
    Effect.gen(function*() {
      const attributes = ["TOXICITY", "INSULT", "THREAT", "TOXICITY_EXPERIMENTAL", "SPAM"]
      const texts = variedComments()
      // No judge budget: with one, which comments the judge sheds depends on timing, not on the layer.
      const settings = { ...(yield* EngineConfig.config), judgeBudgetMs: 0 }
      const memory = { ...settings, store: { ...settings.store, db: Redacted.make("memory") } }
      const light = yield* scoreBatch(texts, attributes).pipe(Effect.provide(Engine.analyzeLayer(settings)))
      const whole = yield* scoreBatch(texts, attributes).pipe(Effect.provide(Engine.fromSettings(memory)))
      assert.deepStrictEqual(light, whole)
      // The empty and over-long comments; and (issue 28) the word salads identified as a language
      // without a model, or as none: Analyze refuses those, and so do both.
      assert.strictEqual(whole.filter((r) => "error" in r && !/language/.test(r.error)).length, 4)
      assert.isAbove(whole.filter((r) => "scores" in r).length, 100)
      light.forEach((r, i) => {
        const w = whole[i]!
        if ("scores" in r && "scores" in w) r.scores.forEach((v, k) => assert.isTrue(Object.is(v, w.scores[k]), texts[i]))
      })
      // And the scores are Analyze.analyze's own (the scorer adds nothing of its own).
      const direct = yield* Analyze.analyze({ comment: { text: texts[0]! }, requestedAttributes: { TOXICITY: {} } }, "compat").pipe(Effect.provide(Engine.analyzeLayer(settings)))
      assert.strictEqual((light[0] as { scores: ReadonlyArray<number> }).scores[0], direct.value.attributeScores!["TOXICITY"]!.summaryScore.value)
    }).pipe(Effect.provide(Layer.setTracerEnabled(false))), 60_000)
})

describe("decorum score on hostile files", () => {
  it("reports each bad CSV row with its line and scores the rest: unterminated quote, over-long line, invalid UTF-8, NUL, missing and too many columns", async () => {
    const input = join(dir, "hostile.csv")
    const parts: Array<Buffer> = [
      Buffer.from("id,text\n"),
      Buffer.from("a,fine\n"), // line 2
      Buffer.from(`b,${"y".repeat(MAX_RECORD_CHARS + 10)}\n`), // line 3: longer than the bound
      Buffer.from("c,"), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from("\n"), // line 4: not UTF-8
      Buffer.from("d,nul \u0000 inside\n"), // line 5: a NUL is a character like any other
      Buffer.from("e\n"), // line 6: no text column
      Buffer.from(`f,${",".repeat(5000)}\n`), // line 7: too many fields
      Buffer.from("g,\"still fine\"\n"), // line 8
      Buffer.from("h,\"never closed\n"), // line 9: an unterminated quote
      Buffer.from("i,after the quote\n") // line 10: read again
    ]
    writeFileSync(input, Buffer.concat(parts))
    const output = join(dir, "hostile.jsonl")
    const err = captured()
    const summary = await score({ input, output, workers: 1, stderr: err.stream })
    const rows = jsonLines(output)
    assert.deepStrictEqual(rows.map((r) => [r["id"], r["line"] ?? null, r["error"] === undefined ? "scored" : "error"]), [
      ["a", null, "scored"],
      ["3", 3, "error"],
      ["c", 4, "error"],
      ["d", null, "scored"],
      ["e", 6, "error"],
      ["7", 7, "error"],
      ["g", null, "scored"],
      ["9", 9, "error"],
      ["i", null, "scored"]
    ])
    assert.deepInclude(summary, { rows: 9, scored: 4, failed: 5 })
    assert.strictEqual(rows[2]!["error"], "the text is not valid UTF-8")
    for (const line of [3, 4, 6, 7, 9]) assert.include(err.text(), `line ${line} `)
    assert.include(err.text(), "a quoted field is never closed")
  }, 30_000)

  it("reads a character split across two chunks as itself, and flags bytes that are not UTF-8 however the chunks fall", async () => {
    const euro = Buffer.from("\u20ac") // e2 82 ac
    const replacement = Buffer.from("\ufffd") // a real U+FFFD, which is valid UTF-8
    const stdin = Readable.from([
      Buffer.from("id,text\na,costs 5 "), euro.subarray(0, 1), // line 2: the euro sign split across chunks
      Buffer.concat([euro.subarray(1), Buffer.from(" and "), replacement, Buffer.from("\nb,half a char "), euro.subarray(0, 2)]),
      Buffer.from("\nc,real "), replacement, Buffer.from(" only\n"), // line 3 ends in a cut character; line 4 is valid
      Buffer.from("d,ok\ne,end "), euro.subarray(0, 1) // line 6: the input ends inside a character
    ], { objectMode: true })
    const stdout = captured()
    const summary = await score({ input: "-", stdin, stdout: stdout.stream, workers: 1, stderr: captured().stream })
    const rows = stdout.text().trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
    assert.deepStrictEqual(rows.map((r) => [r["id"], r["error"] ?? "scored"]), [
      ["a", "scored"],
      ["b", "the text is not valid UTF-8"],
      ["c", "scored"],
      ["d", "scored"],
      ["e", "the text is not valid UTF-8"]
    ])
    assert.deepInclude(summary, { rows: 5, scored: 3, failed: 2 })
  }, 30_000)

  it("flags a JSON line with bytes that are not UTF-8 but not one with a real U+FFFD", async () => {
    const stdin = Readable.from([
      Buffer.from("{\"id\":1,\"text\":\"caf"), Buffer.from([0xc3]), // an \u00e9 cut short by the next chunk
      Buffer.from("\"}\n{\"id\":2,\"text\":\"\ufffd fine\"}\n{\"id\":3,\"text\":\"\u00e9 "), Buffer.from([0xed, 0xa0, 0x80]), // an encoded surrogate
      Buffer.from("\"}\n")
    ], { objectMode: true })
    const stdout = captured()
    await score({ input: "-", stdin, stdout: stdout.stream, workers: 1, stderr: captured().stream })
    const rows = stdout.text().trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
    assert.deepStrictEqual(rows.map((r) => [r["id"], r["error"] ?? "scored"]), [
      ["1", "the text is not valid UTF-8"],
      ["2", "scored"],
      ["3", "the text is not valid UTF-8"]
    ])
  }, 30_000)

  it("reports an over-long or broken JSON line with its line number and scores the rest", async () => {
    const stdin = new PassThrough()
    stdin.end(`{"id":1,"text":"ok"}\n{"id":2,"text":"${"z".repeat(MAX_RECORD_CHARS + 1)}"}\n{"id":3,"text":\n{"id":4,"text":"fine"}`)
    const stdout = captured()
    const summary = await score({ input: "-", stdin, stdout: stdout.stream, stderr: captured().stream, workers: 1 })
    const rows = stdout.text().trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
    assert.deepStrictEqual(rows.map((r) => [r["id"], r["error"] ?? "scored"]), [
      ["1", "scored"],
      ["2", `the line is longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters`],
      ["3", "not valid JSON"],
      ["4", "scored"]
    ])
    assert.deepInclude(summary, { scored: 2, failed: 2 })
  }, 30_000)
})

describe("progressLine", () => {
  it("shows a bar, rows, rows/s and an ETA when the size is known, and rows and rows/s otherwise", () => {
    assert.strictEqual(progressLine({ rows: 50_000, seconds: 2, bytes: 250, totalBytes: 1000 }), "[######------------------]  25%  50,000 rows  25,000 rows/s  ETA 6s")
    assert.strictEqual(progressLine({ rows: 1200, seconds: 4, bytes: 10, totalBytes: undefined }), "1,200 rows  300 rows/s")
  })
})
