/**
 * `decorum score` as a command: the same scores as the HTTP API for the same text, on worker
 * threads started from the command itself; usage errors exit 2. (The scorer itself, `Archive`, is
 * tested in packages/engine/test/Archive.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Csv } from "@decorum/engine/csv"
import { runCli, START_DEADLINE_MS, startServe, stop } from "./process.js"

const dir = mkdtempSync(join(tmpdir(), "decorum-score-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Written through the command's own CSV writer: commas, quotes and a line break inside a field.
const TEXTS = [
  "You are a complete idiot, and \"everyone\" here knows it.",
  "Thanks for the article;\nI learned a lot.",
  "I will find you and hurt you.",
  "What a stupid, stupid plan."
]

const jsonLines = (path: string) =>
  readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)

describe("decorum score", () => {
  it("gives the HTTP API's scores for the same texts, with two worker threads", async () => {
    const input = join(dir, "same.csv")
    writeFileSync(input, ["id,text", ...TEXTS.map((t, i) => `c${i},${Csv.csvCell(t)}`)].join("\n") + "\n")
    const output = join(dir, "same.jsonl")
    const attributes = ["TOXICITY", "INSULT", "THREAT"]
    const run = await runCli(["score", input, "--output", output, "--attributes", attributes.join(","), "--workers", "2"])
    assert.strictEqual(run.code, 0, run.stderr)
    assert.lengthOf(run.stderr.trim().split("\n"), 1)
    assert.match(run.stderr, /Scored 4 rows .*2 workers/)
    const rows = jsonLines(output)
    assert.deepStrictEqual(rows.map((r) => r["id"]), TEXTS.map((_, i) => `c${i}`))

    const server = await startServe(["--db", join(dir, "same.db")])
    try {
      const key = /^\s+(dk_\S+)\s*$/m.exec(server.output())![1]!
      for (const [i, text] of TEXTS.entries()) {
        const response = await fetch(`${server.url}/v1alpha1/comments:analyze?key=${key}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ comment: { text }, requestedAttributes: Object.fromEntries(attributes.map((a) => [a, {}])) })
        })
        assert.strictEqual(response.status, 200)
        const body = (await response.json()) as { attributeScores: Record<string, { summaryScore: { value: number } }> }
        for (const a of attributes) assert.strictEqual(rows[i]![a], body.attributeScores[a]!.summaryScore.value)
        assert.strictEqual(rows[i]!["model"], response.headers.get("x-model-version"))
      }
    } finally {
      await stop(server)
    }
  }, START_DEADLINE_MS + 120_000)

  it("refuses an unknown attribute and a missing text column as usage errors (exit 2)", async () => {
    const input = join(dir, "usage.csv")
    writeFileSync(input, "id,comment\n1,hello\n")
    const unknown = await runCli(["score", input, "--attributes", "TOXICITY,NOPE"])
    assert.strictEqual(unknown.code, 2)
    assert.include(unknown.stderr, "unknown attribute \"NOPE\"")
    const column = await runCli(["score", input])
    assert.strictEqual(column.code, 2)
    assert.include(column.stderr, "no \"text\" column")
  }, 60_000)
})

