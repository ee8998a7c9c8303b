/**
 * Issue 25, item 1: a rolling deploy loses nothing. A busy site's mix (dozens of clients; analyze,
 * megacall and `/batch` requests of megacalls; a new connection per request, or keep-alive) runs
 * through a SIGTERM, on one process and on `--workers 2`. Every request whose bytes were all sent
 * before the signal gets its real answer (none reset, none left hanging), and the server exits 0
 * within its drain limit.
 *
 * No timers decide anything: the signal is sent once the server has answered a number of requests
 * (so the mix is in full flow), and a request counts as sent before the signal when its last byte
 * was handed to the kernel before `kill` was called (on loopback it is then in the server's socket
 * buffer, or its connection in the listener's accept queue).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { Agent, request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Running, runCli, startServeKilledAfterEach, waitForOutput, exitOf } from "./process.js"

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "decorum-deploy-"))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Servers a failing test may leave running are killed after each test. */
const startServe = startServeKilledAfterEach()

const EMAIL = "deploy@example.com"
const DRAIN_TIMEOUT_MS = 10_000
/** Parts of each `/batch` (the probe sent 40; fewer keep the test short on two cores). */
const PARTS = 12

type Kind = "analyze" | "megacall" | "batch"
const KINDS: ReadonlyArray<Kind> = ["analyze", "megacall", "batch", "analyze", "megacall"]

type Outcome = { readonly status: number; readonly body: string; readonly connection: string | undefined } | { readonly error: string }

interface Sent {
  readonly kind: Kind
  /** Every byte of the request handed to the kernel. */
  written: boolean
  /** `written` when SIGTERM was sent. */
  before: boolean
  readonly outcome: Promise<Outcome>
}

const megacallBody = (i: number) => JSON.stringify({ comment: `Subscribe to my channel ${i}, you idiot!!! http://spam.example/${i}`, run_spam_check: true, run_perspective: true })

const batchBody = (key: string, boundary: string, i: number) =>
  Array.from({ length: PARTS }, (_, p) => {
    const body = megacallBody(i * 100 + p)
    return [
      `--${boundary}`,
      "Content-Type: application/http",
      `Content-ID: <p${p}>`,
      "",
      "POST /v0.2/megacall HTTP/1.1",
      "Content-Type: application/json",
      `X-User-Email: ${EMAIL}`,
      `X-API-Key: ${key}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      "",
      body
    ].join("\r\n")
  }).join("\r\n") + `\r\n--${boundary}--\r\n`

/** Sends one request of `kind`; its outcome always settles (an answer or an error). */
const send = (url: string, key: string, kind: Kind, i: number, agent: Agent | false): Sent => {
  const boundary = `b${i}`
  const [path, headers, body] = kind === "analyze"
    ? [`/v1alpha1/comments:analyze?key=${key}`, { "content-type": "application/json" }, JSON.stringify({ comment: { text: `you are an idiot ${i}` }, requestedAttributes: { TOXICITY: {}, INSULT: {} } })]
    : kind === "megacall"
    ? ["/v0.2/megacall", { "content-type": "application/json", "x-user-email": EMAIL, "x-api-key": key }, megacallBody(i)]
    : [`/batch?key=${key}`, { "content-type": `multipart/mixed; boundary=${boundary}` }, batchBody(key, boundary, i)]
  const sent: Partial<Sent> & { written: boolean; before: boolean } = { kind, written: false, before: false }
  const req = httpRequest(url + path, { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, agent })
  req.on("finish", () => (sent.written = true))
  const outcome = new Promise<Outcome>((resolve) => {
    req.on("response", (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), connection: res.headers.connection }))
      res.on("error", (e) => resolve({ error: String(e) }))
      res.on("aborted", () => resolve({ error: "aborted" }))
    })
    req.on("error", (e) => resolve({ error: String(e) }))
  })
  req.end(body)
  return Object.assign(sent, { outcome }) as Sent
}

/** Why an answer is not the real one for `kind`, or null. */
const wrong = (kind: Kind, outcome: Outcome): string | null => {
  if ("error" in outcome) return outcome.error
  if (outcome.status !== 200) return `status ${outcome.status}: ${outcome.body.slice(0, 200)}`
  if (kind === "batch") {
    const statuses = [...outcome.body.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => m[1])
    if (statuses.length !== PARTS || statuses.some((s) => s !== "200")) return `batch parts answered ${statuses.join(",")}`
  }
  return null
}

/**
 * Runs `clients` clients in a loop (each sends its next request when the last is answered) until
 * the server has answered `clients * 2` requests, sends SIGTERM, lets every client finish the
 * request it has in flight, and waits for the server to exit.
 */
const throughSigterm = async (server: Running, key: string, options: { readonly clients: number; readonly keepAlive: boolean }) => {
  const agent = options.keepAlive ? new Agent({ keepAlive: true, maxSockets: options.clients }) : false
  const all: Array<Sent> = []
  let signalled = false
  let answered = 0
  let warm: () => void = () => {}
  const warmedUp = new Promise<void>((resolve) => (warm = resolve))
  const client = async (c: number) => {
    for (let n = 0; !signalled; n++) {
      const sent = send(server.url, key, KINDS[(c + n) % KINDS.length]!, c * 1000 + n, agent)
      all.push(sent)
      const outcome = await sent.outcome
      if (!("error" in outcome) && ++answered >= options.clients * 2) warm()
      if ("error" in outcome && !signalled) throw new Error(`${sent.kind} failed before the signal: ${outcome.error}`)
    }
  }
  const clients = Array.from({ length: options.clients }, (_, c) => client(c))
  const exited = exitOf(server)
  await Promise.race([warmedUp, Promise.all(clients)])
  signalled = true
  for (const sent of all) sent.before = sent.written
  const signalledAt = Date.now()
  server.child.kill("SIGTERM")
  // A server that never exits fails the test rather than hanging it (a bound, not a condition).
  const hung = setTimeout(() => server.child.kill("SIGKILL"), DRAIN_TIMEOUT_MS * 2)
  await Promise.all(clients)
  const code = await exited
  clearTimeout(hung)
  const elapsed = Date.now() - signalledAt
  if (agent) agent.destroy()
  const outcomes = await Promise.all(all.map((s) => s.outcome))
  return { all, outcomes, code, elapsed }
}

const check = (server: Running, run: Awaited<ReturnType<typeof throughSigterm>>) => {
  const before = run.all.map((s, i) => ({ kind: s.kind, before: s.before, outcome: run.outcomes[i]! })).filter((s) => s.before)
  const lost = before.flatMap((s) => {
    const why = wrong(s.kind, s.outcome)
    return why === null ? [] : [`${s.kind}: ${why}`]
  })
  const inFlight = run.all.filter((s) => s.before).length
  console.log(`deploy: ${run.all.length} requests, ${inFlight} sent before SIGTERM, ${lost.length} lost; exit ${run.code} after ${run.elapsed} ms`)
  if (lost.length > 0) console.log(lost.slice(0, 8).join("\n"), server.output().slice(-2000))
  assert.deepStrictEqual(lost, [], `requests sent before SIGTERM and not answered:\n${lost.join("\n")}\n${server.output().slice(-3000)}`)
  assert.strictEqual(run.code, 0)
  assert.notMatch(server.output(), /still running after|killing it/)
  // Exited within the drain limit (plus what closing the store and exiting take, on a loaded machine).
  assert.isBelow(run.elapsed, DRAIN_TIMEOUT_MS)
  for (const kind of ["analyze", "megacall", "batch"] as const) assert.isTrue(before.some((s) => s.kind === kind))
}

describe("decorum serve: a rolling deploy loses nothing (issue 25)", () => {
  let key: string
  let db: string
  beforeAll(async () => {
    db = join(dir, "deploy.db")
    key = JSON.parse((await runCli(["keys", "create", "--email", EMAIL, "--json", "--db", db])).stdout).key
  })

  it("answers /readyz 503 at once, keeps accepting for DECORUM_DRAIN_GRACE_MS with Connection: close, then stops", async () => {
    const grace = 4_000
    const server = await startServe(["--db", db], { DECORUM_DRAIN_TIMEOUT_MS: String(DRAIN_TIMEOUT_MS), DECORUM_DRAIN_GRACE_MS: String(grace) })
    const exited = exitOf(server)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const ready = (await fetch(`${server.url}/readyz`)).status
    assert.strictEqual(ready, 200)
    // A keep-alive connection, idle when the signal comes.
    const before = send(server.url, key, "analyze", 1, agent)
    assert.isNull(wrong("analyze", await before.outcome))
    const signalledAt = Date.now()
    server.child.kill("SIGTERM")
    await waitForOutput(server, /Shutdown: stopping: \/readyz answers 503; accepting for 4000 ms/)
    // Within the grace period: not ready, and still serving, each answer closing its connection.
    const readyz = await fetch(`${server.url}/readyz`)
    assert.strictEqual(readyz.status, 503)
    expect(await readyz.json()).toMatchObject({ status: "unavailable", reason: expect.stringContaining("shutting down") })
    const during = await send(server.url, key, "megacall", 2, agent).outcome
    assert.isNull(wrong("megacall", during))
    assert.deepInclude(during, { connection: "close" })
    await waitForOutput(server, /Shutdown: draining \d+ request\(s\) in flight/)
    // The grace period is over: no new connection is accepted.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow()
    assert.strictEqual(await exited, 0)
    assert.isAtLeast(Date.now() - signalledAt, grace)
    agent.destroy()
  })

  for (const workers of [1, 2]) {
    for (const keepAlive of [false, true]) {
      it(`${workers === 1 ? "one process" : "--workers 2"}, ${keepAlive ? "keep-alive clients" : "a new connection per request"}: every request sent before SIGTERM is answered, exit 0 within the drain limit`, async () => {
        const server = await startServe(["--db", db, "--workers", String(workers)], { DECORUM_DRAIN_TIMEOUT_MS: String(DRAIN_TIMEOUT_MS) })
        check(server, await throughSigterm(server, key, { clients: 32, keepAlive }))
      })
    }
  }
})
