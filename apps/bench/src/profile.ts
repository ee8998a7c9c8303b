/**
 * `npm run bench:profile`: where a request's CPU goes. Starts `decorum serve --workers 1` under
 * `node --cpu-prof`, drives `POST /v1alpha1/comments:analyze` (six attributes) with autocannon, stops
 * the server with SIGINT (so the profile is written) and prints the self time of the hottest
 * functions and of each part of the stack (Node's HTTP code, the Effect runtime, the platform's
 * HTTP layer, Decorum's HTTP layer, the models, garbage collection).
 *
 * Options (env): BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 32), BENCH_TOP
 * (functions listed, default 30), BENCH_BIN (the `decorum` entry point; default this build's),
 * BENCH_KEEP=1 (keep the `.cpuprofile` and print its path, to open in Chrome's DevTools).
 * Any other environment (DECORUM_*) reaches the server.
 *
 * `npm run bench:profile -- FILE.cpuprofile` summarises an existing profile instead (e.g. the one
 * `BENCH_PROFILE=FILE npm run bench:request` writes).
 */
import autocannon from "autocannon"
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const duration = Number(process.env["BENCH_DURATION"] ?? 10)
const connections = Number(process.env["BENCH_CONNECTIONS"] ?? 32)
const top = Number(process.env["BENCH_TOP"] ?? 30)
const here = dirname(fileURLToPath(import.meta.url))
const bin = process.env["BENCH_BIN"] ?? join(here, "..", "..", "server", "dist", "bin.js")

const SIX = ["TOXICITY", "INSULT", "PROFANITY", "THREAT", "IDENTITY_ATTACK", "SEVERE_TOXICITY"]
const BODY = JSON.stringify({
  comment: { text: "I think the council is wrong about the library budget, and frankly the plan is a stupid waste of money." },
  requestedAttributes: Object.fromEntries(SIX.map((a) => [a, {}])),
  languages: ["en"]
})

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: ReadonlyArray<number>
}
interface Profile {
  readonly startTime: number
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** The part of the stack a function belongs to, from its script's URL. */
export const categoryOf = (functionName: string, url: string): string => {
  if (functionName === "(garbage collector)") return "garbage collection"
  if (functionName === "(idle)") return "idle"
  if (functionName === "(program)") return "native (V8, libuv, syscalls)"
  if (url.includes("/node_modules/effect/")) return "Effect runtime (effect)"
  if (url.includes("/node_modules/@effect/platform-node/")) return "@effect/platform-node"
  if (url.includes("/node_modules/@effect/platform/")) return "@effect/platform (HttpApi, router, responses)"
  if (url.includes("/node_modules/@effect/sql") || url.includes("better-sqlite3")) return "SQL client"
  if (url.includes("/node_modules/")) return "other dependencies"
  if (url.includes("/packages/local/")) return "Decorum models (packages/local)"
  if (url.includes("/packages/http/")) return "Decorum HTTP (packages/http)"
  if (url.includes("/packages/")) return "Decorum core, domain, stores"
  if (url.includes("/apps/")) return "Decorum server (apps/server)"
  if (url.startsWith("node:") || url === "") return "Node.js (http, net, streams, builtins)"
  return "other"
}

/**
 * Self time per function and per category, in milliseconds, of the samples taken between `from` and
 * `to` (microseconds on the profile's clock: CLOCK_MONOTONIC on Linux, as `process.hrtime`).
 */
export const summarise = (profile: Profile, from = -Infinity, to = Infinity) => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<number, number>()
  let at = profile.startTime
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0
    at += delta
    if (at >= from && at <= to) self.set(id, (self.get(id) ?? 0) + delta / 1000)
  })
  const functions = new Map<string, { ms: number; category: string }>()
  const categories = new Map<string, number>()
  let total = 0
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame
    const category = categoryOf(functionName, url)
    if (category === "idle") continue
    total += ms
    const file = url.replace(/^.*\/node_modules\//, "").replace(/^file:\/\/.*\/(packages|apps)\//, "$1/")
    const name = `${functionName || "(anonymous)"} ${file}${url ? `:${lineNumber + 1}` : ""}`
    const entry = functions.get(name) ?? { ms: 0, category }
    entry.ms += ms
    functions.set(name, entry)
    categories.set(category, (categories.get(category) ?? 0) + ms)
  }
  return {
    total,
    functions: [...functions].sort((a, b) => b[1].ms - a[1].ms),
    categories: [...categories].sort((a, b) => b[1] - a[1])
  }
}

const print = (summary: ReturnType<typeof summarise>) => {
  const { categories, functions, total } = summary
  const pct = (ms: number) => `${((100 * ms) / total).toFixed(1).padStart(5)}%`
  console.log("Self time by part of the stack:")
  for (const [category, ms] of categories) console.log(`  ${pct(ms)}  ${category}`)
  console.log(`\nTop ${top} functions by self time:`)
  for (const [name, { ms }] of functions.slice(0, top)) console.log(`  ${pct(ms)}  ${name}`)
}

const main = async () => {
  const given = process.argv[2]
  if (given !== undefined) {
    const summary = summarise(JSON.parse(readFileSync(given, "utf8")) as Profile)
    console.log(`${given}: ${(summary.total / 1000).toFixed(2)} s sampled (not idle)\n`)
    return print(summary)
  }
  const dir = mkdtempSync(join(tmpdir(), "decorum-profile-"))
  const keep = process.env["BENCH_KEEP"] === "1"
  try {
    const server = spawn(
      process.execPath,
      ["--cpu-prof", `--cpu-prof-dir=${dir}`, bin, "serve", "--port", "0", "--host", "127.0.0.1", "--db", join(dir, "bench.db"), "--workers", "1"],
      { stdio: ["ignore", "pipe", "inherit"], env: { DECORUM_ENGINE: "local", ...process.env } }
    )
    const exited = new Promise<void>((resolve) => server.on("exit", () => resolve()))
    const output = await new Promise<string>((resolve, reject) => {
      let text = ""
      server.stdout!.on("data", (chunk: Buffer) => {
        text += chunk.toString()
        if (/^\s+dk_\S+\s*$/m.test(text) && /curl/.test(text)) resolve(text)
      })
      server.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${text}`)))
    })
    const key = /^\s+(dk_\S+)\s*$/m.exec(output)![1]!
    const url = /listening on (http:\/\/localhost:\d+)/.exec(output)![1]!.replace("localhost", "127.0.0.1")
    const options = {
      url: `${url}/v1alpha1/comments:analyze?key=${key}`,
      method: "POST" as const,
      headers: { "content-type": "application/json" },
      body: BODY,
      connections
    }
    await autocannon({ ...options, duration: 2 })
    const from = Number(process.hrtime.bigint() / 1000n)
    const r = await autocannon({ ...options, duration })
    const to = Number(process.hrtime.bigint() / 1000n)
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`the server answered ${r.non2xx} non-2xx and ${r.errors} errors`)
    server.kill("SIGINT")
    await exited
    const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))
    if (!file) throw new Error("no .cpuprofile was written")
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile
    const summary = summarise(profile, from, to)
    console.log(`Profile of decorum serve (1 process) while it answered ${r.requests.total} analyze requests (6 attributes, ${connections} connections, ${duration} s; ${r.requests.average.toFixed(0)} req/s)`)
    // Samples are taken on wall time: on a loaded machine they include time spent waiting for a core
    // (often inside the syscall that woke the load generator, such as writev).
    console.log(`Time sampled while measuring (not idle): ${(summary.total / 1000).toFixed(2)} s, ${((summary.total * 1000) / r.requests.total).toFixed(0)} µs per request\n`)
    print(summary)
    if (keep) console.log(`\nProfile: ${join(dir, file)} (measured from ${from} to ${to} µs on its clock)`)
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
