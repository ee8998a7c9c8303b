import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { raw } from "../../../packages/http/test/wire.js"
import { runCli, startServe, stop } from "./process.js"

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "decorum-server-"))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The curl line the server prints, run the way a newcomer would paste it (through a shell). */
const runPrintedCurl = async (line: string) => {
  const { execFileSync } = await import("node:child_process")
  return execFileSync("sh", ["-c", line.trim()], { encoding: "utf8", timeout: 60_000 })
}

describe("decorum serve", () => {
  it("on first start creates an account, prints a key once and a curl line that returns a real evaluation", async () => {
    const db = join(dir, "first.db")
    const server = await startServe(["--db", db])
    try {
      const out = server.output()
      expect(out).toContain("admin@localhost")
      const key = /^\s+(dk_\S+)\s*$/m.exec(out)?.[1]
      expect(key).toBeDefined()
      const curl = out.split("\n").find((l) => l.trim().startsWith("curl -s") && l.includes("/v0.2/antispam"))!
      const answer = JSON.parse(await runPrintedCurl(curl))
      // With the language it judged (issue 28): English, nothing English-only to report.
      expect(answer).toEqual({ reasoning: expect.any(String), confidence: expect.any(Number), is_spam: true, detected_language: "en", english_only_fields: [] })
      const analyze = out.split("\n").find((l) => l.includes("comments:analyze"))!
      const scores = JSON.parse(await runPrintedCurl(analyze))
      expect(scores.attributeScores.TOXICITY.summaryScore.value).toBeGreaterThan(0.5)
      // Node's own parser rejections come with the family's envelope here too (issue 10 item 8).
      const rejected = await raw(server.url.replace("localhost", "127.0.0.1"), "POST /v1alpha1/comments:analyze HTTP/1.1\r\nHost: x\r\nExpect: 100-foo\r\n\r\n")
      expect(rejected).toMatch(/^HTTP\/1\.1 417 /)
      expect(JSON.parse(rejected.slice(rejected.indexOf("\r\n\r\n") + 4)).error).toMatchObject({ code: 417, status: "FAILED_PRECONDITION" })
    } finally {
      await stop(server)
    }
    // A second start finds the account and prints no new key.
    const again = await startServe(["--db", db])
    try {
      expect(again.output()).not.toMatch(/^\s+dk_/m)
      expect(again.output()).toContain("keys create")
    } finally {
      await stop(again)
    }
  })

  it("says so and exits 1 when its port is taken or its database cannot be opened", async () => {
    const server = await startServe(["--db", join(dir, "port.db")])
    try {
      const port = new URL(server.url).port
      const taken = await runCli(["serve", "--port", port, "--host", "127.0.0.1", "--db", join(dir, "port2.db")])
      expect(taken.code).toBe(1)
      expect(taken.stderr).toContain("already in use")
    } finally {
      await stop(server)
    }
    // Two workers: the path where the other worker, stopped while it waited for its port, once kept the command from ever exiting.
    const nodir = await runCli(["serve", "--port", "0", "--workers", "2", "--db", join(dir, "missing", "x.db")])
    expect(nodir.code).toBe(1)
    expect(nodir.stderr).toContain("directory does not exist")
  })

  it("keeps a score suggestion answered 200 after the server is killed with SIGKILL", async () => {
    const db = join(dir, "durable.db")
    const created = await runCli(["keys", "create", "--email", "moderator@example.com", "--json", "--db", db])
    expect(created.code).toBe(0)
    const { key } = JSON.parse(created.stdout)
    const server = await startServe(["--db", db])
    const res = await fetch(`${server.url}/v1alpha1/comments:suggestscore?key=${key}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        comment: { text: "this is fine" },
        attributeScores: { TOXICITY: { summaryScore: { value: 0 } } },
        communityId: "site-1",
        clientToken: "durable-1"
      })
    })
    expect(res.status).toBe(200)
    await stop(server, "SIGKILL")
    const exported = await runCli(["feedback", "export", "--format", "jsonl", "--db", db])
    expect(exported.code).toBe(0)
    const rows = exported.stdout.trim().split("\n").map((l) => JSON.parse(l))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      email: "moderator@example.com",
      community_id: "site-1",
      client_token: "durable-1",
      attribute_scores: { TOXICITY: 0 },
      key_id: key.split("_")[1]
    })
  })
})

describe("decorum feedback export", () => {
  it("writes CSV (one row per attribute) and honours --since", async () => {
    const db = join(dir, "feedback.db")
    const { key } = JSON.parse((await runCli(["keys", "create", "--email", "mod@example.com", "--json", "--db", db])).stdout)
    const server = await startServe(["--db", db])
    try {
      const post = (text: string, scores: Record<string, number>) =>
        fetch(`${server.url}/v1alpha1/comments:suggestscore?key=${key}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            comment: { text },
            attributeScores: Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, { summaryScore: { value: v } }])),
            communityId: "site, \"quoted\""
          })
        })
      const before = new Date()
      expect((await post("first, with a comma", { TOXICITY: 1, INSULT: 0.5 })).status).toBe(200)
      expect((await post("second", { TOXICITY: 0 })).status).toBe(200)
      const csv = await runCli(["feedback", "export", "--format", "csv", "--db", db])
      expect(csv.code).toBe(0)
      const lines = csv.stdout.trim().split("\n")
      expect(lines[0]).toBe("id,created_at,email,community_id,session_id,client_token,languages,attribute,value,comment_text,context_json,key_id")
      expect(lines).toHaveLength(4)
      // The key that sent each correction, last (so the older columns keep their places).
      expect(lines[1]!.endsWith(`,${key.split("_")[1]}`)).toBe(true)
      expect(lines[1]).toContain("\"site, \"\"quoted\"\"\"")
      expect(lines[1]).toContain("\"first, with a comma\"")
      const since = await runCli(["feedback", "export", "--since", before.toISOString(), "--db", db])
      const rows = since.stdout.trim().split("\n").map((l) => JSON.parse(l))
      expect(rows.map((r: { comment_text: string }) => r.comment_text)).toEqual(["first, with a comma", "second"])
      const future = await runCli(["feedback", "export", "--since", "2999-01-01", "--db", db])
      expect(future.code).toBe(0)
      expect(future.stdout).toBe("")
    } finally {
      await stop(server)
    }
  })
})

describe("decorum keys and topics", () => {
  it("creates, lists and revokes keys", async () => {
    const db = join(dir, "keys.db")
    const created = await runCli(["keys", "create", "--email", "Dana@Example.com", "--json", "--db", db])
    expect(created.code).toBe(0)
    const body = JSON.parse(created.stdout)
    expect(body).toEqual({ email: "dana@example.com", key: expect.stringMatching(/^dk_/), key_id: expect.any(String) })
    const listed = await runCli(["keys", "list", "--json", "--db", db])
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ key_id: body.key_id, email: "dana@example.com", revoked_at: null })])
    expect(listed.stdout).not.toContain(body.key)
    expect((await runCli(["keys", "revoke", body.key_id, "--db", db])).code).toBe(0)
    const again = await runCli(["keys", "revoke", body.key_id, "--db", db])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("No active key")
  })

  it("creates a topic from text and from a file, and lists and deletes it", async () => {
    const db = join(dir, "topics.db")
    await runCli(["keys", "create", "--email", "ed@example.com", "--db", db])
    const created = await runCli(["topics", "create", "--email", "ed@example.com", "--text", "Bees pollinate crops and wild flowers.", "--json", "--db", db])
    expect(created.code).toBe(0)
    const { article_id } = JSON.parse(created.stdout)
    expect(article_id).toMatch(/^[0-9a-f-]{36}$/)
    const listed = await runCli(["topics", "list", "--email", "ed@example.com", "--json", "--db", db])
    expect(JSON.parse(listed.stdout).map((c: { article_id: string }) => c.article_id)).toEqual([article_id])
    expect((await runCli(["topics", "delete", "--email", "ed@example.com", article_id, "--db", db])).code).toBe(0)
    expect(JSON.parse((await runCli(["topics", "list", "--email", "ed@example.com", "--json", "--db", db])).stdout)).toEqual([])
  })

  it("reports usage errors with exit code 2 and failures with exit code 1", async () => {
    const db = join(dir, "usage.db")
    expect((await runCli(["keys", "create", "--db", db])).code).toBe(2)
    expect((await runCli(["nonsense"])).code).toBe(2)
    expect((await runCli(["keys", "create", "--email", "x@y", "--bogus", "--db", db])).code).toBe(2)
    expect((await runCli(["topics", "create", "--email", "nobody@example.com", "--text", "x", "--db", db])).code).toBe(1)
    expect((await runCli(["feedback", "export", "--format", "xml", "--db", db])).code).toBe(2)
  })
})
