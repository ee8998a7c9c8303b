/**
 * `decorum feedback import` on hostile files: all or nothing, and the refusal names the bad line
 * (the line a record starts on, counting line breaks inside quoted fields), never a crash.
 */
import { Either } from "effect"
import { assert, describe, it } from "@effect/vitest"
import { parseDecisions } from "../src/cli/Feedback.js"

const refusal = (content: string, format: "csv" | "jsonl" = "csv") => {
  const result = parseDecisions(content, format)
  return Either.isLeft(result) ? result.left : `imported ${result.right.length}`
}

describe("feedback import: reading decisions", () => {
  it("reads quoted multi-line texts and a byte-order mark, and names a bad row by the line it starts on", () => {
    const ok = parseDecisions("\uFEFFtext,attribute,score\n\"two\nlines, quoted\",TOXICITY,1\r\nplain,INSULT,0\n", "csv")
    assert.deepStrictEqual(Either.getOrThrow(ok), [
      { line: 2, text: "two\nlines, quoted", scores: { TOXICITY: 1 } },
      { line: 4, text: "plain", scores: { INSULT: 0 } }
    ])
    assert.strictEqual(refusal("text,attribute,score\n\"a\nb\nc\",TOXICITY,1\nbad,TOXICITY,7\n"), "line 5: the score of TOXICITY must be a number between 0 and 1, got \"7\"")
  })

  it("refuses an unterminated quote, an over-long line, too many columns and missing columns, naming the line", () => {
    assert.strictEqual(refusal("text,attribute,score\nfine,TOXICITY,0\n\"never closed,TOXICITY,1\nok,TOXICITY,0\n"), "line 3: a quoted field is never closed")
    assert.strictEqual(refusal(`text,attribute,score\nfine,TOXICITY,0\n${"x".repeat(2_000_000)},TOXICITY,1\n`), "line 3: the record is longer than 1,048,576 characters")
    assert.strictEqual(refusal(`text,attribute,score\n${"a,".repeat(5000)}\n`), "line 2: the record has more than 4,096 fields")
    assert.strictEqual(refusal("text,attribute,score\nfine,TOXICITY\n"), "line 2: the score of TOXICITY must be a number between 0 and 1, got undefined")
    assert.match(refusal("text,attribute,score\nfine\n"), /^line 2: /)
    assert.strictEqual(refusal("text\nfine\n"), "the CSV header must name text, attribute and score")
  })

  it("keeps NUL characters as text and refuses an over-long JSON line by number", () => {
    assert.strictEqual(refusal("text,attribute,score\na\u0000b,TOXICITY,1\n"), "imported 1")
    const long = JSON.stringify({ text: "y".repeat(2_000_000), attribute: "TOXICITY", score: 1 })
    assert.strictEqual(refusal(`{"text":"ok","attribute":"TOXICITY","score":0}\n${long}\n`, "jsonl"), "line 2: longer than 1,048,576 characters")
    assert.strictEqual(refusal("{\"text\":\"ok\",\"attribute\":\"TOXICITY\",\"score\":0}\n{\"text\":\n", "jsonl"), "line 2: not JSON")
  })
})
