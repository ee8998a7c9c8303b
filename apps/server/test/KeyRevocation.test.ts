/**
 * Keys are cached in memory by the server, and a revocation still takes effect on the next request:
 * `decorum keys revoke` runs in another process while the server is answering a steady stream of
 * requests with that key, and every request sent after the command has exited is refused with 401.
 * On SQLite always; on PostgreSQL when DATABASE_URL is set (`.ci/start-postgres.sh`).
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Redacted } from "effect"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { runCli, START_DEADLINE_MS, startServe, stop } from "./process.js"

const EMAIL = "revoke@example.com"

/** Keeps `workers` requests in flight until stopped; records each answer's status with its start time. */
const underLoad = (url: string, key: string, workers = 8) => {
  const answers: Array<{ readonly sentAt: number; readonly status: number }> = []
  let running = true
  let firstOk: () => void
  const warmedUp = new Promise<void>((resolve) => (firstOk = resolve))
  const worker = async () => {
    while (running) {
      const sentAt = performance.now()
      const response = await fetch(`${url}/v0.2/usercheck`, { headers: { "x-user-email": EMAIL, "x-api-key": key } })
      await response.arrayBuffer()
      answers.push({ sentAt, status: response.status })
      if (answers.filter((a) => a.status === 200).length >= 200) firstOk()
    }
  }
  const done = Promise.all(Array.from({ length: workers }, worker))
  return {
    answers,
    warmedUp,
    stop: async () => {
      running = false
      await done
    }
  }
}

const revokeUnderLoad = async (db: string) => {
  const created = await runCli(["keys", "create", "--email", EMAIL, "--json", "--db", db])
  assert.strictEqual(created.code, 0, created.stderr)
  const { key, key_id } = JSON.parse(created.stdout) as { key: string; key_id: string }
  // The revoked key is sent hundreds of times from one address: without the limit on failed
  // authentications (tested on its own in packages/http) each answer shows what revocation does.
  const server = await startServe(["--db", db], { DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE: "0" })
  try {
    const load = underLoad(server.url, key)
    await load.warmedUp
    const revoked = await runCli(["keys", "revoke", key_id, "--db", db])
    const revokedAt = performance.now()
    assert.strictEqual(revoked.code, 0, revoked.stderr)
    // The load keeps running after the command returned, then the next request is checked alone too.
    const before = load.answers.length
    while (load.answers.length < before + 50) await new Promise((resolve) => setImmediate(resolve))
    await load.stop()
    const next = await fetch(`${server.url}/v0.2/usercheck`, { headers: { "x-user-email": EMAIL, "x-api-key": key } })
    assert.strictEqual(next.status, 401)
    const late = load.answers.filter((a) => a.sentAt > revokedAt)
    assert.isAbove(late.length, 0)
    assert.deepStrictEqual(late.filter((a) => a.status !== 401), [])
    assert.isTrue(load.answers.some((a) => a.status === 200))
  } finally {
    await stop(server)
  }
}

describe("revoking a key while the server is under load", () => {
  const dir = mkdtempSync(join(tmpdir(), "decorum-revoke-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("SQLite: the next request after `keys revoke` is 401", () => revokeUnderLoad(join(dir, "revoke.db")), START_DEADLINE_MS + 60_000)

  const databaseUrl = process.env["DATABASE_URL"]
  const schema = `decorum_test_${randomUUID().replace(/-/g, "").slice(0, 12)}_revoke`
  const admin = (url: string, statement: string) =>
    Effect.runPromise(
      Effect.scoped(Effect.flatMap(PgClient.make({ url: Redacted.make(url) }), (sql) => sql.unsafe(statement))).pipe(Effect.provide(Reactivity.layer))
    )
  it.runIf(databaseUrl)("PostgreSQL: the next request after `keys revoke` is 401", async () => {
    const u = new URL(databaseUrl!)
    u.searchParams.set("options", `-c search_path=${schema}`)
    await admin(databaseUrl!, `create schema ${schema}`)
    try {
      await revokeUnderLoad(u.toString())
    } finally {
      await admin(databaseUrl!, `drop schema if exists ${schema} cascade`)
    }
  }, START_DEADLINE_MS + 60_000)
})
