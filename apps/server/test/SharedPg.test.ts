/**
 * Two `decorum serve` processes on one PostgreSQL database behave as one service: a key made with
 * the CLI works on both, an article context created through one is used through the other, and a
 * suggestion posted to one is exported by the CLI. Needs DATABASE_URL (`.ci/start-postgres.sh`);
 * works in a schema of its own (the URL's search_path), dropped at the end.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import { randomUUID } from "node:crypto"
import { Effect, Redacted } from "effect"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { runCli, startServe, stop } from "./process.js"

const databaseUrl = process.env["DATABASE_URL"]
if (!databaseUrl) console.warn("Two-server PostgreSQL test skipped: set DATABASE_URL (see .ci/start-postgres.sh)")

const schema = `decorum_test_${randomUUID().replace(/-/g, "").slice(0, 12)}_serve`

const admin = (url: string, statement: string) =>
  Effect.runPromise(
    Effect.scoped(Effect.flatMap(PgClient.make({ url: Redacted.make(url) }), (sql) => sql.unsafe(statement))).pipe(Effect.provide(Reactivity.layer))
  )

describe("two decorum serve processes on one PostgreSQL", () => {
  const url = (() => {
    const u = new URL(databaseUrl ?? "postgres://unset/unset")
    u.searchParams.set("options", `-c search_path=${schema}`)
    return u.toString()
  })()

  beforeAll(async () => {
    if (databaseUrl) await admin(databaseUrl, `create schema ${schema}`)
  })
  afterAll(async () => {
    if (databaseUrl) await admin(databaseUrl, `drop schema if exists ${schema} cascade`)
  })

  it.runIf(databaseUrl)("share keys, article contexts and suggestions", async () => {
    const created = await runCli(["keys", "create", "--email", "shared@example.com", "--json", "--db", url])
    assert.strictEqual(created.code, 0, created.stderr)
    const { key } = JSON.parse(created.stdout) as { key: string }
    const [a, b] = await Promise.all([startServe(["--db", url]), startServe(["--db", url])])
    try {
      const auth = { "x-user-email": "shared@example.com", "x-api-key": key }
      const call = (base: string, path: string, body?: unknown) =>
        fetch(base + path, body === undefined ? { headers: auth } : {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify(body)
        })
      // The key the CLI made is known to both servers.
      for (const server of [a, b]) assert.strictEqual((await call(server.url, "/v0.2/usercheck")).status, 200)

      // A context created through A is read and used through B.
      const init = await call(a.url, "/v0.2/inittopic", { text: "The council extended library opening hours for students.", title: "Library hours" })
      assert.strictEqual(init.status, 200)
      const { article_id } = (await init.json()) as { article_id: string }
      const read = await call(b.url, `/v0.2/article-contexts/${article_id}`)
      assert.strictEqual(read.status, 200)
      assert.strictEqual(((await read.json()) as { title: string }).title, "Library hours")
      const scored = await call(b.url, "/v0.2/commentrelevance", { article_context_id: article_id, comment: "Longer library hours help students." })
      assert.strictEqual(scored.status, 200)
      assert.isTrue(((await scored.json()) as { on_topic: { on_topic: boolean } }).on_topic.on_topic)

      // A suggestion posted to A is exported by the CLI (from the shared store).
      const suggested = await fetch(`${a.url}/v1alpha1/comments:suggestscore?key=${key}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ comment: { text: "this is fine" }, attributeScores: { TOXICITY: { summaryScore: { value: 0.05 } } }, clientToken: "shared-1" })
      })
      assert.strictEqual(suggested.status, 200)
      const exported = await runCli(["feedback", "export", "--format", "jsonl", "--db", url])
      assert.strictEqual(exported.code, 0, exported.stderr)
      const rows = exported.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
      expect(rows).toEqual([expect.objectContaining({ email: "shared@example.com", client_token: "shared-1", attribute_scores: { TOXICITY: 0.05 } })])

      // And a context deleted through B is gone for A.
      assert.strictEqual((await fetch(`${b.url}/v0.2/article-contexts/${article_id}`, { method: "DELETE", headers: auth })).status, 200)
      assert.strictEqual((await call(a.url, `/v0.2/article-contexts/${article_id}`)).status, 404)
    } finally {
      await Promise.all([stop(a), stop(b)])
    }
  })
})
