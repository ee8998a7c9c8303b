/**
 * Issue 25, item 2: a refit never slows anyone else. One account has thousands of corrections and
 * `DECORUM_ADAPT_EVERY` set: one more correction starts a refit, which runs on a worker thread
 * (the server says so), while another account's analyze latency stays what it was just before,
 * measured in the same test (a generous bound: the machine may be loaded, but the refit used to
 * take the serving thread's time in 10 ms slices, and all of it for the account's own scoring).
 * The refit's adapter is then served.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Running, runCli, startServe as start, stop, waitForOutput } from "./process.js"

let dir: string
beforeAll(() => {
  // On tmpfs when there is one: importing thousands of corrections costs a disk sync each.
  dir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "decorum-refit-"))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const started: Array<Running> = []
afterEach((context) => {
  if (context.task.result?.state === "fail") for (const server of started) console.log(server.output().slice(-4000))
  for (const server of started.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL")
})

/** Corrections of a site norm the shipped model cannot know: pineapple pizza is unacceptable. */
const CORRECTIONS = 4_000
const SUBJECTS = ["the council", "the new stadium", "the bus timetable", "the library", "the budget", "the bridge", "the school board", "the market", "the park", "the festival"]
const PROBE = "Honestly the harbour is like pineapple pizza, number 99999."

const analyze = async (url: string, key: string, text: string) => {
  const sent = performance.now()
  const response = await fetch(`${url}/v1alpha1/comments:analyze?key=${encodeURIComponent(key)}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ comment: { text }, requestedAttributes: { TOXICITY: {}, INSULT: {}, THREAT: {} } })
  })
  await response.arrayBuffer()
  assert.strictEqual(response.status, 200)
  return { ms: performance.now() - sent, model: response.headers.get("x-model-version") ?? "" }
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

describe("a refit never slows another account (issue 25)", () => {
  it("refits on a worker thread while another account's analyze latency stays within noise of its baseline", async () => {
    const db = join(dir, "refit.db")
    const site = JSON.parse((await runCli(["keys", "create", "--email", "site@example.com", "--json", "--db", db])).stdout).key as string
    const other = JSON.parse((await runCli(["keys", "create", "--email", "other@example.com", "--json", "--db", db])).stdout).key as string
    const rows = Array.from({ length: CORRECTIONS }, (_, i) => {
      const bad = i % 2 === 0
      return `"Honestly ${SUBJECTS[i % SUBJECTS.length]} is like ${bad ? "pineapple" : "mushroom"} pizza, number ${i >> 1}.",TOXICITY,${bad ? 1 : 0}`
    })
    const csv = join(dir, "corrections.csv")
    writeFileSync(csv, `text,attribute,score\n${rows.join("\n")}\n`)
    const imported = await runCli(["feedback", "import", csv, "--email", "site@example.com", "--db", db])
    assert.strictEqual(imported.code, 0, imported.stderr)

    const server = await start(["--db", db], { DECORUM_ADAPT_EVERY: "1000" })
    started.push(server)
    // Warm up, then the baseline: the other account's analyze with nothing else running.
    for (let i = 0; i < 20; i++) await analyze(server.url, other, `warm up ${i}`)
    const baseline: Array<number> = []
    for (let i = 0; i < 40; i++) baseline.push((await analyze(server.url, other, `you are a fool ${i}`)).ms)
    const before = await analyze(server.url, site, PROBE)
    assert.notInclude(before.model, "+site.")

    // One more correction: the site's refit starts, on a worker thread.
    const suggested = await fetch(`${server.url}/v1alpha1/comments:suggestscore?key=${encodeURIComponent(site)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ comment: { text: "Honestly the pier is like pineapple pizza." }, attributeScores: { TOXICITY: { summaryScore: { value: 1 } } } })
    })
    assert.strictEqual(suggested.status, 200)
    await waitForOutput(server, /Adaptation: refitting automatically/)
    let refitted = false
    void waitForOutput(server, /Adaptation: refitted automatically/).then(() => (refitted = true), () => {})
    const during: Array<number> = []
    void waitForOutput(server, /automatic refit failed/).then(() => (refitted = true), () => {})
    for (let i = 0; !refitted; i++) during.push((await analyze(server.url, other, `you are a fool ${i}`)).ms)
    const [b, d] = [median(baseline), median(during)]
    console.log(`refit: another account's analyze median ${b.toFixed(1)} ms before, ${d.toFixed(1)} ms during the refit (${during.length} requests); max ${Math.max(...during).toFixed(0)} ms (request ${during.indexOf(Math.max(...during)) + 1}); baseline max ${Math.max(...baseline).toFixed(0)} ms`)
    assert.notMatch(server.output(), /automatic refit failed/)
    assert.match(server.output(), /Adaptation: refitting automatically.*a worker thread/)
    // The refit lasted long enough to be measured against.
    assert.isAtLeast(during.length, 10)
    assert.isAtMost(d, 2 * b + 10)
    // The worker's fit is what the site is now served with.
    await expect.poll(async () => (await analyze(server.url, site, PROBE)).model, { timeout: 20_000, interval: 200 }).toMatch(/\+site\.\d+$/)
    assert.strictEqual(await stop(server), 0)
  })
})
