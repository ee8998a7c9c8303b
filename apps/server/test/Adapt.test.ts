/**
 * Per-account adapters end to end, with the real server and the real `decorum` command:
 * corrections through both suggestscore paths, `decorum adapt`, the running server picking the
 * adapter up without a restart, another account untouched, `--reset` back to the shipped scores
 * exactly, and too few corrections reported and ignored. On SQLite always; on PostgreSQL when
 * DATABASE_URL is set (`.ci/start-postgres.sh`).
 */
import { AdaptationCorpus } from "@decorum/core/testing"
import * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { runCli, startServe, stop, waitForOutput } from "./process.js"

const SITE = "site@example.com"
const OTHER = "other@example.com"
const FEW = "few@example.com"

const { corpus, PROBE } = AdaptationCorpus

interface Site {
  readonly email: string
  readonly key: string
}

const createKey = async (db: string, email: string): Promise<Site> => {
  const created = await runCli(["keys", "create", "--email", email, "--json", "--db", db])
  assert.strictEqual(created.code, 0, created.stderr)
  return { email, key: (JSON.parse(created.stdout) as { key: string }).key }
}

const suggestCompat = async (url: string, site: Site, text: string, score: number) => {
  const response = await fetch(`${url}/v0.2/external-compat/suggestscore`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-user-email": site.email, "x-api-key": site.key },
    body: JSON.stringify({ comment: { text }, attributeScores: { TOXICITY: { summaryScore: { value: score } } } })
  })
  assert.strictEqual(response.status, 200, await response.text())
}

const suggestGoogle = async (url: string, site: Site, text: string, score: number) => {
  const response = await fetch(`${url}/v1alpha1/comments:suggestscore?key=${encodeURIComponent(site.key)}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ comment: { text }, attributeScores: { TOXICITY: { summaryScore: { value: score } } } })
  })
  assert.strictEqual(response.status, 200, await response.text())
}

const analyze = async (url: string, site: Site, text: string) => {
  const response = await fetch(`${url}/v1alpha1/comments:analyze?key=${encodeURIComponent(site.key)}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ comment: { text }, requestedAttributes: { TOXICITY: {} } })
  })
  const body = (await response.json()) as { attributeScores: { TOXICITY: { summaryScore: { value: number } } } }
  assert.strictEqual(response.status, 200)
  return { value: body.attributeScores.TOXICITY.summaryScore.value, model: response.headers.get("x-model-version") ?? "" }
}

/** Waits (bounded) for the server to pick up a change made by another process. */
const until = async <A>(probe: () => Promise<A>, done: (a: A) => boolean, withinMs: number) => {
  const deadline = performance.now() + withinMs
  let last = await probe()
  while (!done(last) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    last = await probe()
  }
  return last
}

interface AttributeReport {
  attribute: string
  kind: string | null
  compared?: { kind: string; cvAucAfter: number | null }
  corrections: number
  positives: number
  cvAucBefore: number | null
  cvAucAfter: number | null
  adopted: boolean
  adapterId: number | null
  reason: string
}

const adaptSite = async (db: string) => {
  const site = await createKey(db, SITE)
  const other = await createKey(db, OTHER)
  const few = await createKey(db, FEW)
  const server = await startServe(["--db", db])
  try {
    const before = await analyze(server.url, site, PROBE)
    const otherBefore = await analyze(server.url, other, PROBE)
    assert.notInclude(before.model, "+site.")

    // Half the corrections through each suggestscore path.
    const corrections = corpus()
    await Promise.all(corrections.map((c, i) => (i % 2 === 0 ? suggestCompat : suggestGoogle)(server.url, site, c.text, c.score)))
    // The other account corrected in the opposite direction; the few account barely at all.
    for (const c of corrections.slice(0, 6)) await suggestCompat(server.url, few, c.text, c.score)

    const adapted = await runCli(["adapt", "--email", SITE, "--db", db])
    assert.strictEqual(adapted.code, 0, adapted.stderr)
    const report = JSON.parse(adapted.stdout) as { email: string; attributes: Array<AttributeReport> }
    const toxicity = report.attributes.find((a) => a.attribute === "TOXICITY")!
    assert.strictEqual(toxicity.corrections, corrections.length)
    assert.strictEqual(toxicity.positives, corrections.filter((c) => c.score === 1).length)
    assert.isTrue(toxicity.adopted, toxicity.reason)
    assert.isAbove(toxicity.cvAucAfter!, toxicity.cvAucBefore!)
    // decorum adapt fitted an encoder adapter too, on the shipped encoder (the report compares the two).
    assert.strictEqual(toxicity.compared?.kind, toxicity.kind === "encoder" ? "logistic" : "encoder")

    // Picked up by the running server within 10 s, without a restart.
    const after = await until(() => analyze(server.url, site, PROBE), (a) => a.model.includes("+site."), 10_000)
    assert.strictEqual(after.model, `${before.model}+site.${toxicity.adapterId}`)
    assert.isAbove(after.value, before.value + 0.1)
    const mushroom = await analyze(server.url, site, PROBE.replace("pineapple", "mushroom"))
    assert.isBelow(mushroom.value, after.value)
    // A German comment is scored by the German set, which the adapter (fitted on the English
    // model's scores) does not touch (issue 28).
    const german = await analyze(server.url, site, "Du bist ein dummer Idiot und niemand mag dich hier")
    assert.match(german.model, /^local-de-/)
    assert.notInclude(german.model, "+site.")

    // Another account's scores do not move.
    const otherAfter = await analyze(server.url, other, PROBE)
    assert.deepStrictEqual(otherAfter, otherBefore)

    // Too few corrections: a clear report, nothing stored, scores unchanged.
    const fewReport = await runCli(["adapt", "--email", FEW, "--db", db])
    assert.strictEqual(fewReport.code, 0, fewReport.stderr)
    const fewToxicity = (JSON.parse(fewReport.stdout) as { attributes: Array<AttributeReport> }).attributes[0]!
    assert.isFalse(fewToxicity.adopted)
    assert.isNull(fewToxicity.adapterId)
    assert.include(fewToxicity.reason, "too few corrections")
    assert.deepStrictEqual(await analyze(server.url, few, PROBE), otherBefore)

    // --reset: back to the shipped scores, exactly.
    const reset = await runCli(["adapt", "--email", SITE, "--reset", "--db", db])
    assert.strictEqual(reset.code, 0, reset.stderr)
    const restored = await until(() => analyze(server.url, site, PROBE), (a) => !a.model.includes("+site."), 10_000)
    assert.deepStrictEqual(restored, before)
  } finally {
    await stop(server)
  }
  // Adapters survive a restart (and a reset stays a reset).
  const again = await startServe(["--db", db])
  try {
    const adapted = await runCli(["adapt", "--email", SITE, "--db", db])
    assert.strictEqual(adapted.code, 0, adapted.stderr)
  } finally {
    await stop(again)
  }
  const third = await startServe(["--db", db])
  try {
    const after = await analyze(third.url, site, PROBE)
    assert.include(after.model, "+site.")
  } finally {
    await stop(third)
  }
}

interface Report {
  email: string
  leftOutRevokedKey: number
  attributes: Array<AttributeReport & { leftOutRevokedKey: number }>
}

/**
 * DECORUM_ADAPT_EVERY: N corrections through HTTP and the server serves an adopted adapter by
 * itself; then the key that sent them is revoked, and `decorum adapt` leaves them out (the report
 * says how many) and the account is back on the shipped scores.
 */
const autoRefitThenRevoke = async (db: string) => {
  const email = "auto@example.com"
  const created = await runCli(["keys", "create", "--email", email, "--label", "moderation tool", "--json", "--db", db])
  assert.strictEqual(created.code, 0, created.stderr)
  const { key, key_id } = JSON.parse(created.stdout) as { key: string; key_id: string }
  const site = { email, key }
  const corrections = corpus()
  const server = await startServe(["--db", db], { DECORUM_ADAPT_EVERY: String(corrections.length) })
  try {
    const before = await analyze(server.url, site, PROBE)
    assert.notInclude(before.model, "+site.")
    // One short of N: nothing is fitted (the refitter counts in the store).
    await Promise.all(corrections.slice(1).map((c, i) => (i % 2 === 0 ? suggestCompat : suggestGoogle)(server.url, site, c.text, c.score)))
    assert.strictEqual((await analyze(server.url, site, PROBE)).model, before.model)
    // The Nth correction: the server refits in the background and serves the adapter, no `decorum adapt`.
    await suggestGoogle(server.url, site, corrections[0]!.text, corrections[0]!.score)
    const adapted = await until(() => analyze(server.url, site, PROBE), (a) => a.model.includes("+site."), 60_000)
    assert.match(adapted.model, /\+site\.\d+$/)
    // The refit worker fitted an encoder adapter too, on its own encoder session.
    await waitForOutput(server, /TOXICITY:adopted \d+ \((logistic|encoder)\) \((encoder|logistic) CV AUC [\d.]+\)/)
    assert.isTrue(adapted.model.startsWith(`${before.model}+site.`))
    assert.isAbove(adapted.value, before.value + 0.1)

    // The key turns out to be leaked: revoked, its corrections no longer count.
    const revoked = await runCli(["keys", "revoke", key_id, "--db", db])
    assert.strictEqual(revoked.code, 0, revoked.stderr)
    const refit = await runCli(["adapt", "--email", email, "--db", db])
    assert.strictEqual(refit.code, 0, refit.stderr)
    const report = JSON.parse(refit.stdout) as Report
    assert.strictEqual(report.leftOutRevokedKey, corrections.length)
    assert.deepInclude(report.attributes[0]!, { attribute: "TOXICITY", corrections: 0, leftOutRevokedKey: corrections.length, adopted: false, adapterId: null })
    // The running server follows: the shipped scores again (asked with a key still valid).
    const valid = await createKey(db, email)
    const restored = await until(() => analyze(server.url, valid, PROBE), (a) => !a.model.includes("+site."), 10_000)
    assert.deepStrictEqual(restored, before)
  } finally {
    await stop(server)
  }
}

describe("per-account adapters", () => {
  const dir = mkdtempSync(join(tmpdir(), "decorum-adapt-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("SQLite: corrections through both paths, adapt, live pick-up, isolation, too few, reset", () => adaptSite(join(dir, "adapt.db")), 240_000)

  it("SQLite: DECORUM_ADAPT_EVERY refits in the background; a revoked key's corrections are left out", () => autoRefitThenRevoke(join(dir, "auto.db")), 240_000)

  const databaseUrl = process.env["DATABASE_URL"]
  const schema = `decorum_test_${randomUUID().replace(/-/g, "").slice(0, 12)}_adapt`
  const admin = (url: string, statement: string) =>
    Effect.runPromise(
      Effect.scoped(Effect.flatMap(PgClient.make({ url: Redacted.make(url) }), (sql) => sql.unsafe(statement))).pipe(Effect.provide(Reactivity.layer))
    )
  it.runIf(databaseUrl)("PostgreSQL: the same", async () => {
    const u = new URL(databaseUrl!)
    u.searchParams.set("options", `-c search_path=${schema}`)
    await admin(databaseUrl!, `create schema ${schema}`)
    try {
      await adaptSite(u.toString())
    } finally {
      await admin(databaseUrl!, `drop schema if exists ${schema} cascade`)
    }
  }, 240_000)

  it.runIf(databaseUrl)("PostgreSQL: DECORUM_ADAPT_EVERY and a revoked key, the same", async () => {
    const u = new URL(databaseUrl!)
    u.searchParams.set("options", `-c search_path=${schema}_auto`)
    await admin(databaseUrl!, `create schema ${schema}_auto`)
    try {
      await autoRefitThenRevoke(u.toString())
    } finally {
      await admin(databaseUrl!, `drop schema if exists ${schema}_auto cascade`)
    }
  }, 240_000)
})
