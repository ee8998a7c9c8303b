import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
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
      assert.include(out, "admin@localhost")
      const key = /^\s+(dk_\S+)\s*$/m.exec(out)?.[1]
      assert.isDefined(key)
      const curl = out.split("\n").find((l) => l.trim().startsWith("curl -s") && l.includes("/v0.2/antispam"))!
      const answer = JSON.parse(await runPrintedCurl(curl))
      // With the language it judged (issue 28): English, nothing English-only to report.
      expect(answer).toEqual({ reasoning: expect.any(String), confidence: expect.any(Number), is_spam: true, detected_language: "en", english_only_fields: [] })
      const analyze = out.split("\n").find((l) => l.includes("comments:analyze"))!
      const scores = JSON.parse(await runPrintedCurl(analyze))
      assert.isAbove(scores.attributeScores.TOXICITY.summaryScore.value, 0.5)
      // Node's own parser rejections come with the family's envelope here too (issue 10 item 8).
      const rejected = await raw(server.url.replace("localhost", "127.0.0.1"), "POST /v1alpha1/comments:analyze HTTP/1.1\r\nHost: x\r\nExpect: 100-foo\r\n\r\n")
      assert.match(rejected, /^HTTP\/1\.1 417 /)
      assert.deepInclude(JSON.parse(rejected.slice(rejected.indexOf("\r\n\r\n") + 4)).error, { code: 417, status: "FAILED_PRECONDITION" })
    } finally {
      await stop(server)
    }
    // A second start finds the account and prints no new key.
    const again = await startServe(["--db", db])
    try {
      assert.notMatch(again.output(), /^\s+dk_/m)
      assert.include(again.output(), "keys create")
    } finally {
      await stop(again)
    }
  })

  it("says so and exits 1 when its port is taken or its database cannot be opened", async () => {
    const server = await startServe(["--db", join(dir, "port.db")])
    try {
      const port = new URL(server.url).port
      const taken = await runCli(["serve", "--port", port, "--host", "127.0.0.1", "--db", join(dir, "port2.db")])
      assert.strictEqual(taken.code, 1)
      assert.include(taken.stderr, "already in use")
    } finally {
      await stop(server)
    }
    // Two workers: the path where the other worker, stopped while it waited for its port, once kept the command from ever exiting.
    const nodir = await runCli(["serve", "--port", "0", "--workers", "2", "--db", join(dir, "missing", "x.db")])
    assert.strictEqual(nodir.code, 1)
    assert.include(nodir.stderr, "directory does not exist")
  })

  it("keeps a score suggestion answered 200 after the server is killed with SIGKILL", async () => {
    const db = join(dir, "durable.db")
    const created = await runCli(["keys", "create", "--email", "moderator@example.com", "--json", "--db", db])
    assert.strictEqual(created.code, 0)
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
    assert.strictEqual(res.status, 200)
    await stop(server, "SIGKILL")
    const exported = await runCli(["feedback", "export", "--format", "jsonl", "--db", db])
    assert.strictEqual(exported.code, 0)
    const rows = exported.stdout.trim().split("\n").map((l) => JSON.parse(l))
    assert.lengthOf(rows, 1)
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
      assert.strictEqual((await post("first, with a comma", { TOXICITY: 1, INSULT: 0.5 })).status, 200)
      assert.strictEqual((await post("second", { TOXICITY: 0 })).status, 200)
      const csv = await runCli(["feedback", "export", "--format", "csv", "--db", db])
      assert.strictEqual(csv.code, 0)
      const lines = csv.stdout.trim().split("\n")
      assert.strictEqual(lines[0], "id,created_at,email,community_id,session_id,client_token,languages,attribute,value,comment_text,context_json,key_id")
      assert.lengthOf(lines, 4)
      // The key that sent each correction, last (so the older columns keep their places).
      assert.isTrue(lines[1]!.endsWith(`,${key.split("_")[1]}`))
      assert.include(lines[1]!, "\"site, \"\"quoted\"\"\"")
      assert.include(lines[1]!, "\"first, with a comma\"")
      const since = await runCli(["feedback", "export", "--since", before.toISOString(), "--db", db])
      const rows = since.stdout.trim().split("\n").map((l) => JSON.parse(l))
      assert.deepStrictEqual(rows.map((r: { comment_text: string }) => r.comment_text), ["first, with a comma", "second"])
      const future = await runCli(["feedback", "export", "--since", "2999-01-01", "--db", db])
      assert.strictEqual(future.code, 0)
      assert.strictEqual(future.stdout, "")
    } finally {
      await stop(server)
    }
  })
})

describe("decorum keys and topics", () => {
  it("creates, lists and revokes keys", async () => {
    const db = join(dir, "keys.db")
    const created = await runCli(["keys", "create", "--email", "Dana@Example.com", "--json", "--db", db])
    assert.strictEqual(created.code, 0)
    const body = JSON.parse(created.stdout)
    expect(body).toEqual({ email: "dana@example.com", key: expect.stringMatching(/^dk_/), key_id: expect.any(String) })
    const listed = await runCli(["keys", "list", "--json", "--db", db])
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ key_id: body.key_id, email: "dana@example.com", revoked_at: null })])
    assert.notInclude(listed.stdout, body.key)
    assert.strictEqual((await runCli(["keys", "revoke", body.key_id, "--db", db])).code, 0)
    const again = await runCli(["keys", "revoke", body.key_id, "--db", db])
    assert.strictEqual(again.code, 1)
    assert.include(again.stderr, "No active key")
  })

  it("creates a topic from text and from a file, and lists and deletes it", async () => {
    const db = join(dir, "topics.db")
    await runCli(["keys", "create", "--email", "ed@example.com", "--db", db])
    const created = await runCli(["topics", "create", "--email", "ed@example.com", "--text", "Bees pollinate crops and wild flowers.", "--json", "--db", db])
    assert.strictEqual(created.code, 0)
    const { article_id } = JSON.parse(created.stdout)
    assert.match(article_id, /^[0-9a-f-]{36}$/)
    const listed = await runCli(["topics", "list", "--email", "ed@example.com", "--json", "--db", db])
    assert.deepStrictEqual(JSON.parse(listed.stdout).map((c: { article_id: string }) => c.article_id), [article_id])
    assert.strictEqual((await runCli(["topics", "delete", "--email", "ed@example.com", article_id, "--db", db])).code, 0)
    assert.deepStrictEqual(JSON.parse((await runCli(["topics", "list", "--email", "ed@example.com", "--json", "--db", db])).stdout), [])
  })

  it("reports usage errors with exit code 2 and failures with exit code 1", async () => {
    const db = join(dir, "usage.db")
    assert.strictEqual((await runCli(["keys", "create", "--db", db])).code, 2)
    assert.strictEqual((await runCli(["nonsense"])).code, 2)
    assert.strictEqual((await runCli(["keys", "create", "--email", "x@y", "--bogus", "--db", db])).code, 2)
    assert.strictEqual((await runCli(["topics", "create", "--email", "nobody@example.com", "--text", "x", "--db", db])).code, 1)
    assert.strictEqual((await runCli(["feedback", "export", "--format", "xml", "--db", db])).code, 2)
  })
})
