/**
 * `decorum score` as a command: the same scores as the HTTP API for the same text, on worker
 * threads started from the command itself; usage errors exit 2. (The scorer itself, `Archive`, is
 * tested in packages/engine/test/Archive.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
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
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr.trim().split("\n")).toHaveLength(1)
    expect(run.stderr).toMatch(/Scored 4 rows .*2 workers/)
    const rows = jsonLines(output)
    expect(rows.map((r) => r["id"])).toEqual(TEXTS.map((_, i) => `c${i}`))

    const server = await startServe(["--db", join(dir, "same.db")])
    try {
      const key = /^\s+(dk_\S+)\s*$/m.exec(server.output())![1]!
      for (const [i, text] of TEXTS.entries()) {
        const response = await fetch(`${server.url}/v1alpha1/comments:analyze?key=${key}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ comment: { text }, requestedAttributes: Object.fromEntries(attributes.map((a) => [a, {}])) })
        })
        expect(response.status).toBe(200)
        const body = (await response.json()) as { attributeScores: Record<string, { summaryScore: { value: number } }> }
        for (const a of attributes) expect(rows[i]![a]).toBe(body.attributeScores[a]!.summaryScore.value)
        expect(rows[i]!["model"]).toBe(response.headers.get("x-model-version"))
      }
    } finally {
      await stop(server)
    }
  }, START_DEADLINE_MS + 120_000)

  it("refuses an unknown attribute and a missing text column as usage errors (exit 2)", async () => {
    const input = join(dir, "usage.csv")
    writeFileSync(input, "id,comment\n1,hello\n")
    const unknown = await runCli(["score", input, "--attributes", "TOXICITY,NOPE"])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("unknown attribute \"NOPE\"")
    const column = await runCli(["score", input])
    expect(column.code).toBe(2)
    expect(column.stderr).toContain("no \"text\" column")
  }, 60_000)
})

