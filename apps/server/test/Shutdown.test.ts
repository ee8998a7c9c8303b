/**
 * Issue 10, item 4: SIGTERM under load. Every request the server received before SIGTERM gets its
 * real answer (no reset, no false "API key not valid"), new connections are refused, and the
 * process exits 0 within the drain timeout, even with a client that never finishes its body.
 *
 * Requests are held in flight without sleeps: each sends its headers and half its body, the test
 * sends SIGTERM, waits for the server to log that it is draining, and only then sends the rest.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Running, runCli, startServeKilledAfterEach, waitForOutput, exitOf } from "./process.js"

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "decorum-shutdown-"))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Servers a failing test may leave running are killed after each test. */
const startServe = startServeKilledAfterEach()

interface Held {
  /** Sends the rest of the body. */
  readonly finish: () => void
  readonly answer: Promise<{ status: number; body: any } | { error: string }>
}

/** Starts a POST and sends its headers and the first half of its body only. */
const hold = (url: string, path: string, headers: Record<string, string>, body: string): Held => {
  const bytes = Buffer.from(body)
  const half = Math.floor(bytes.length / 2)
  const req = httpRequest(url + path, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", "content-length": String(bytes.length) },
    agent: false
  })
  const answer = new Promise<{ status: number; body: any } | { error: string }>((resolve) => {
    req.on("response", (res) => {
      let text = ""
      res.on("data", (c: Buffer) => (text += c.toString()))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
      res.on("error", (e) => resolve({ error: String(e) }))
    })
    req.on("error", (e) => resolve({ error: String(e) }))
  })
  req.write(bytes.subarray(0, half))
  return { finish: () => req.end(bytes.subarray(half)), answer }
}

describe("decorum serve: graceful shutdown (issue 10, item 4)", () => {
  it("answers every request received before SIGTERM for real, even through a second signal, refuses new connections, and exits 0", async () => {
    const db = join(dir, "drain.db")
    const { key } = JSON.parse((await runCli(["keys", "create", "--email", "drain@example.com", "--json", "--db", db])).stdout)
    const server = await startServe(["--db", db], { DECORUM_DRAIN_TIMEOUT_MS: "20000" })
    const exited = exitOf(server)
    const native = { "x-user-email": "drain@example.com", "x-api-key": key }
    const held: Array<Held & { kind: string }> = []
    for (let i = 0; i < 8; i++) {
      held.push({ kind: "analyze", ...hold(server.url, `/v1alpha1/comments:analyze?key=${key}`, {}, JSON.stringify({ comment: { text: `you idiot ${i}` }, requestedAttributes: { TOXICITY: {} } })) })
      held.push({ kind: "antispam", ...hold(server.url, "/v0.2/antispam", native, JSON.stringify({ comment: `Subscribe to my channel ${i}!!!` })) })
      held.push({ kind: "suggest", ...hold(server.url, `/v1alpha1/comments:suggestscore?key=${key}`, {}, JSON.stringify({ comment: { text: `note ${i}` }, attributeScores: { TOXICITY: { summaryScore: { value: 1 } } }, clientToken: `drain-${i}` })) })
    }
    // The server has received every held request's headers once a request sent after them is answered.
    assert.strictEqual((await fetch(`${server.url}/healthz`)).status, 200)
    server.child.kill("SIGTERM")
    await waitForOutput(server, /Shutdown: draining/)
    // A second signal while it drains (npx forwards the SIGTERM that pkill also sent; an impatient
    // Ctrl-C) must not cut the drain short: every held request is still answered below.
    server.child.kill("SIGTERM")
    server.child.kill("SIGINT")
    // Draining: no new connection is accepted.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow()
    for (const h of held) h.finish()
    const answers = await Promise.all(held.map((h) => h.answer))
    answers.forEach((answer, i) => {
      assert.deepInclude(answer, { status: 200 }, `${held[i]!.kind}: ${JSON.stringify(answer)}`)
    })
    assert.strictEqual(await exited, 0)
    // The suggestions answered 200 are stored.
    const exported = await runCli(["feedback", "export", "--format", "jsonl", "--db", db])
    const tokens = exported.stdout.trim().split("\n").map((l) => JSON.parse(l).client_token)
    for (let i = 0; i < 8; i++) assert.include(tokens, `drain-${i}`)
  })

  it("does not wait past the drain timeout for a client that never finishes its body", async () => {
    const db = join(dir, "stuck.db")
    const { key } = JSON.parse((await runCli(["keys", "create", "--email", "stuck@example.com", "--json", "--db", db])).stdout)
    const timeoutMs = 1_000
    const server = await startServe(["--db", db], { DECORUM_DRAIN_TIMEOUT_MS: String(timeoutMs) })
    const exited = exitOf(server)
    const stuck = hold(server.url, `/v1alpha1/comments:analyze?key=${key}`, {}, JSON.stringify({ comment: { text: "never sent in full" } }))
    assert.strictEqual((await fetch(`${server.url}/healthz`)).status, 200)
    const started = Date.now()
    server.child.kill("SIGTERM")
    assert.strictEqual(await exited, 0)
    // Bounded by the drain timeout plus closing the store; a generous margin for a loaded machine.
    assert.isBelow(Date.now() - started, timeoutMs + 8_000)
    expect(await stuck.answer).toMatchObject({ error: expect.any(String) })
  })

  it("refuses a drain timeout that is not a whole number of milliseconds", async () => {
    // Started asynchronously (not runCli): a server that wrongly starts is killed after the test.
    await expect(startServe(["--db", join(dir, "bad.db")], { DECORUM_DRAIN_TIMEOUT_MS: "soon" })).rejects.toThrow(
      /exited with 1[\s\S]*DECORUM_DRAIN_TIMEOUT_MS/
    )
  })
})
