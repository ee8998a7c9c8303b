/**
 * `npm run bench:http`: the cost of Decorum's HTTP path against a bare `node:http` JSON server.
 *
 * Both servers run as child processes (so the load generator does not share their event loop) and
 * get the same Perspective analyze request from autocannon. The bare server parses the JSON body and
 * answers a fixed analyze-shaped response, so the ratio isolates everything Decorum adds: routing,
 * authentication, decoding, the model, encoding.
 *
 * Then the same Decorum server on routes that each add a step (routing only, authentication, a
 * single evaluation), to show where the time goes; and a megacall with the three local sections
 * that judge the same text (comment score, spam, perspective) beside analyze with six attributes.
 *
 * Besides requests/s and latency (which move with everything else the machine runs), each row gives
 * the CPU time the server processes spent per request answered while measured (user + system, from
 * `/proc/<pid>/stat` of the server and its worker processes, Linux only): far less sensitive to
 * the machine's load; and the largest peak RSS of any server process so far (VmHWM, Linux only). The load average is printed beside every row.
 *
 * The judge (issue 27): for each `DECORUM_JUDGE` setting in BENCH_JUDGE (default
 * `linear,cascade,neural`; `none` skips it), a server of its own answering analyze with six
 * attributes, on the fixed text above and on a mix of 400 generated forum comments (each connection
 * cycles through them), with the share of the mix the judge answered (`X-Model-Version` naming it)
 * one request at a time, and, under the load, the share of the routed comments it judged within its
 * budget (`decorum_judge_texts_total` by outcome, from `/metrics`; the rest were answered linear).
 * BENCH_JUDGE_ONLY=1 measures only that; BENCH_JUDGE_RATE=N offers N requests a second in all to
 * those rows (an open loop, as a site's traffic is) instead of a closed loop's as many as answered;
 * with BENCH_ARRIVALS=poisson they arrive at random gaps (poissonLoad) rather than in autocannon's
 * bursts of a second's quota.
 *
 * Options (env): BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 32), BENCH_STEPS=0
 * (skip the per-route table), BENCH_HTTPAPI=0 (skip the same server with the fast path off,
 * `DECORUM_FAST_PATH=false`, i.e. every request through HttpApi), BENCH_WORKERS (`decorum serve --workers`, default 1), BENCH_BIN (the `decorum` entry point to measure; default this build's).
 */
import autocannon from "autocannon"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import http from "node:http"
import { availableParallelism, loadavg, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { benchComments } from "./comments.js"

const duration = Number(process.env["BENCH_DURATION"] ?? 10)
const connections = Number(process.env["BENCH_CONNECTIONS"] ?? 32)
const here = dirname(fileURLToPath(import.meta.url))
// BENCH_BIN: another build's `bin.js` (an older checkout's, for a before/after comparison).
const bin = process.env["BENCH_BIN"] ?? join(here, "..", "..", "server", "dist", "bin.js")

const TEXT = "I think the council is wrong about the library budget, and frankly the plan is a stupid waste of money."
const SIX = ["TOXICITY", "INSULT", "PROFANITY", "THREAT", "IDENTITY_ATTACK", "SEVERE_TOXICITY"]
const analyzeBody = (attributes: ReadonlyArray<string>) =>
  JSON.stringify({ comment: { text: TEXT }, requestedAttributes: Object.fromEntries(attributes.map((a) => [a, {}])), languages: ["en"] })
const BODY = analyzeBody(SIX)

const BARE_SERVER = `
const http = require("node:http")
const answer = JSON.stringify({ attributeScores: { TOXICITY: { summaryScore: { value: 0.5, type: "PROBABILITY" } } }, languages: ["en"] })
const server = http.createServer((req, res) => {
  const chunks = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", () => {
    try { JSON.parse(Buffer.concat(chunks).toString("utf8")) } catch { res.writeHead(400); return res.end() }
    res.writeHead(200, { "content-type": "application/json" })
    res.end(answer)
  })
})
server.listen(0, "127.0.0.1", () => console.log("listening on http://localhost:" + server.address().port))
`

/** Resolves with the server's URL once its output satisfies `ready`. */
const waitForUrl = (child: ChildProcess, ready: (output: string) => boolean) =>
  new Promise<{ url: string; output: string }>((resolve, reject) => {
    let output = ""
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000)
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const m = /listening on (http:\/\/localhost:\d+)/.exec(output)
      if (m && ready(output)) {
        clearTimeout(timer)
        resolve({ url: m[1]!.replace("localhost", "127.0.0.1"), output })
      }
    })
    child.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)))
  })

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ: 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100

/** `[ppid, utime + stime in ticks]` of a process, from `/proc/<pid>/stat`; undefined off Linux or once it exited. */
const procStat = (pid: number): readonly [number, number] | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8")
    // Fields after the command name (which may hold spaces) start at "state" (field 3).
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
    return [Number(fields[1]), Number(fields[11]) + Number(fields[12])]
  } catch {
    return undefined
  }
}

/** CPU seconds used so far by a process and its direct children (the cluster's workers). */
const cpuSeconds = (pid: number): number | undefined => {
  const own = procStat(pid)
  if (own === undefined) return undefined
  let ticks = own[1]
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const stat = procStat(Number(entry))
    if (stat !== undefined && stat[0] === pid) ticks += stat[1]
  }
  return ticks / TICKS_PER_SECOND
}

/** The largest peak resident set (VmHWM) of a process and its direct children (the cluster's workers), in MB. */
const peakRssMb = (pid: number): number | undefined => {
  const hwm = (p: number) => {
    try {
      const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1]
      return kb === undefined ? undefined : Number(kb) / 1024
    } catch {
      return undefined
    }
  }
  let peak = hwm(pid)
  if (peak === undefined) return undefined
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const stat = procStat(Number(entry))
    if (stat !== undefined && stat[0] === pid) peak = Math.max(peak, hwm(Number(entry)) ?? 0)
  }
  return peak
}

interface Result {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  readonly non2xx: number
  /** Server CPU time per request answered, in microseconds (undefined when not measurable). */
  readonly cpuPerRequest: number | undefined
  /** The one-minute load average at the end of the measurement. */
  readonly load: number
  /** The largest peak RSS of any server process so far, in MB. */
  readonly peakRss: number | undefined
}

const load = async (
  pid: number | undefined,
  url: string,
  headers: Record<string, string>,
  request: { readonly method: "GET" | "POST"; readonly body?: string; readonly bodies?: ReadonlyArray<string>; readonly rate?: number } = {
    method: "POST",
    body: BODY
  }
): Promise<Result> => {
  const options = {
    url,
    // An open loop: this many requests a second in all, whatever the answers' latency.
    ...(request.rate ? { overallRate: request.rate } : {}),
    headers,
    connections,
    method: request.method,
    ...(request.body ? { body: request.body } : {}),
    // Several bodies: each connection sends them in turn.
    ...(request.bodies ? { requests: request.bodies.map((body) => ({ method: request.method, body })) } : {})
  }
  // Warm up (JIT, model pages), then measure.
  await autocannon({ ...options, duration: 2 })
  const before = pid === undefined ? undefined : cpuSeconds(pid)
  const r = await autocannon({ ...options, duration })
  const after = pid === undefined ? undefined : cpuSeconds(pid)
  const cpuPerRequest = before !== undefined && after !== undefined && r.requests.total > 0 ? ((after - before) * 1e6) / r.requests.total : undefined
  const peakRss = pid === undefined ? undefined : peakRssMb(pid)
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx, cpuPerRequest, load: loadavg()[0]!, peakRss }
}

/**
 * An open loop with Poisson arrivals (BENCH_ARRIVALS=poisson): requests at exponentially
 * distributed gaps averaging `rate` a second (seeded), each sent when due whatever is still
 * unanswered, as independent visitors send them. autocannon's `overallRate` sends each second's
 * quota at the start of the second, a burst a site's traffic does not have. Latency counts from
 * when a request was due (no coordinated omission). Keep-alive sockets, as many as needed.
 */
const poissonLoad = async (
  pid: number | undefined,
  url: string,
  headers: Record<string, string>,
  bodies: ReadonlyArray<string>,
  rate: number
): Promise<Result> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  const target = new URL(url)
  let seed = 27
  const uniform = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0
    return (seed + 1) / 2 ** 32
  }
  const send = (body: string) =>
    new Promise<number>((resolve) => {
      const req = http.request(
        { host: target.hostname, port: target.port, path: target.pathname + target.search, method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) }, agent },
        (res) => {
          res.resume()
          res.on("end", () => resolve(res.statusCode ?? 0))
        }
      )
      req.on("error", () => resolve(0))
      req.end(body)
    })
  const run = async (seconds: number) => {
    const latencies: Array<number> = []
    let errors = 0
    let non2xx = 0
    const pending: Array<Promise<void>> = []
    const start = performance.now()
    let due = start
    let k = 0
    while (due - start < seconds * 1000) {
      const now = performance.now()
      if (due > now) await new Promise((r) => setTimeout(r, Math.max(0, due - now - 1)))
      while (performance.now() < due) await new Promise((r) => setImmediate(r))
      const sentAt = due
      const body = bodies[k++ % bodies.length]!
      pending.push(send(body).then((status) => {
        latencies.push(performance.now() - sentAt)
        if (status === 0) errors++
        else if (status < 200 || status >= 300) non2xx++
      }))
      due += (-Math.log(uniform()) * 1000) / rate
    }
    await Promise.all(pending)
    latencies.sort((a, b) => a - b)
    const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0
    return { count: latencies.length, p50: Math.round(q(0.5)), p99: Math.round(q(0.99)), errors, non2xx, seconds: (performance.now() - start) / 1000 }
  }
  await run(2)
  const before = pid === undefined ? undefined : cpuSeconds(pid)
  const r = await run(duration)
  const after = pid === undefined ? undefined : cpuSeconds(pid)
  agent.destroy()
  const cpuPerRequest = before !== undefined && after !== undefined && r.count > 0 ? ((after - before) * 1e6) / r.count : undefined
  return { rps: r.count / r.seconds, p50: r.p50, p99: r.p99, errors: r.errors, non2xx: r.non2xx, cpuPerRequest, load: loadavg()[0]!, peakRss: pid === undefined ? undefined : peakRssMb(pid) }
}

/** A server with `DECORUM_JUDGE=<mode>`, its URL and first-start key. */
const startWithJudge = async (dir: string, workers: string | undefined, mode: string, children: Array<ChildProcess>) => {
  const server = spawn(process.execPath, [bin, "serve", "--port", "0", "--host", "127.0.0.1", "--db", join(dir, `judge-${mode}.db`), ...(workers ? ["--workers", workers] : [])], {
    stdio: ["ignore", "pipe", "inherit"],
    // Metrics on: the rows read `decorum_judge_texts_total` for the share of routed comments judged.
    env: { ...process.env, DECORUM_ENGINE: "local", DECORUM_JUDGE: mode, DECORUM_METRICS: "true" }
  })
  children.push(server)
  const started = await waitForUrl(server, (output) => /API key|keys create/.test(output) && /curl|keys create/.test(output))
  const key = /^\s+(dk_\S+)\s*$/m.exec(started.output)?.[1]
  if (!key) throw new Error(`no first-start key in the server's output:\n${started.output}`)
  return { server, url: started.url, key }
}

/** `decorum_judge_texts_total` by outcome (`judged`, `over_budget`, `overloaded`, `failed`), from the server's `/metrics`. */
const judgeOutcomes = async (url: string): Promise<Record<string, number>> => {
  const text = await (await fetch(`${url}/metrics`)).text()
  const out: Record<string, number> = {}
  for (const m of text.matchAll(/^decorum_judge_texts_total\{[^}]*outcome="(\w+)"[^}]*\} (\S+)$/gm)) out[m[1]!] = (out[m[1]!] ?? 0) + Number(m[2])
  return out
}

/** The share of the texts routed to the judge between two readings that it judged (the others were answered linear), as a phrase. */
const judgedShare = (before: Record<string, number>, after: Record<string, number>): string => {
  const delta = (k: string) => (after[k] ?? 0) - (before[k] ?? 0)
  const routed = Object.keys(after).reduce((sum, k) => sum + delta(k), 0)
  if (routed === 0) return "none routed to the judge"
  const shed = Object.keys(after).filter((k) => k !== "judged" && delta(k) > 0).map((k) => `${delta(k)} ${k}`).join(", ")
  return `judged ${((100 * delta("judged")) / routed).toFixed(1)}% of ${routed} routed${shed === "" ? "" : ` (${shed})`}`
}

/** BENCH_JUDGE_RATE: the judge rows offer this many requests a second (an open loop) instead of as many as the connections answer. */
const judgeRate = process.env["BENCH_JUDGE_RATE"] === undefined ? undefined : Number(process.env["BENCH_JUDGE_RATE"])
/** BENCH_ARRIVALS=poisson (with BENCH_JUDGE_RATE): requests at random gaps (poissonLoad) instead of autocannon's per-second quota. */
const poisson = process.env["BENCH_ARRIVALS"] === "poisson"

/** The mix of comments the judge rows send: generated forum comments, some polite, some rude. */
const MIX = benchComments(400).map((text) => analyzeBody(SIX).replace(JSON.stringify(TEXT), JSON.stringify(text)))

/** Analyze with six attributes under each `DECORUM_JUDGE` setting: the fixed text, then the mix. */
const judgeRows = async (
  dir: string,
  workers: string | undefined,
  modes: ReadonlyArray<string>,
  row: (name: string, r: Result) => string,
  children: Array<ChildProcess>
) => {
  console.log("Analyze, 6 attributes, by DECORUM_JUDGE:")
  for (const mode of modes) {
    const { key, server, url } = await startWithJudge(dir, workers, mode, children)
    const endpoint = `${url}/v1alpha1/comments:analyze?key=${key}`
    const headers = { "content-type": "application/json" }
    const ready = (await (await fetch(`${url}/readyz`)).json()) as { judge?: { state: string; model?: string; reason?: string } }
    // Which of the mix the judge answers (the model it names), one request each, before the load.
    let judged = 0
    for (const body of MIX) {
      const response = await fetch(endpoint, { method: "POST", headers, body })
      await response.arrayBuffer()
      if ((response.headers.get("x-model-version") ?? "").includes("+judge")) judged++
    }
    const fixed = await fetch(endpoint, { method: "POST", headers, body: BODY })
    await fixed.arrayBuffer()
    const fixedJudged = (fixed.headers.get("x-model-version") ?? "").includes("+judge")
    const state = ready.judge === undefined
      ? "no judge"
      : ready.judge.state === "ready"
      ? ready.judge.model
      : ready.judge.reason === undefined
      ? ready.judge.state
      : `${ready.judge.state}: ${ready.judge.reason}`
    console.log(`  DECORUM_JUDGE=${mode} (${state}): judged ${judged}/${MIX.length} of the mix, the fixed text ${fixedJudged ? "judged" : "not judged"}`)
    const rate = judgeRate === undefined ? {} : { rate: judgeRate }
    for (const [label, request] of [["fixed text", { method: "POST" as const, body: BODY, ...rate }], ["mix", { method: "POST" as const, bodies: MIX, ...rate }]] as const) {
      const before = await judgeOutcomes(url)
      const r = judgeRate !== undefined && poisson
        ? await poissonLoad(server.pid, endpoint, headers, "bodies" in request ? request.bodies : [request.body], judgeRate)
        : await load(server.pid, endpoint, headers, request)
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`DECORUM_JUDGE=${mode}: ${r.non2xx} non-2xx, ${r.errors} errors`)
      // Over the warm-up and the measurement both.
      console.log(`${row(`  ${mode}, ${label}`, r)}   ${judgedShare(before, await judgeOutcomes(url))}`)
    }
    server.kill("SIGTERM")
  }
  console.log("")
}

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "decorum-bench-"))
  const children: Array<ChildProcess> = []
  try {
    // One server process (the per-core figure) unless BENCH_WORKERS says otherwise; an older build
    // (BENCH_BIN) may not know the flag, so it gets none.
    const workers = process.env["BENCH_WORKERS"] ?? (process.env["BENCH_BIN"] ? undefined : "1")
    const decorum = spawn(process.execPath, [bin, "serve", "--port", "0", "--host", "127.0.0.1", "--db", join(dir, "bench.db"), ...(workers ? ["--workers", workers] : [])], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, DECORUM_ENGINE: "local" }
    })
    children.push(decorum)
    const started = await waitForUrl(decorum, (output) => /API key|keys create/.test(output) && /curl|keys create/.test(output))
    const key = /^\s+(dk_\S+)\s*$/m.exec(started.output)?.[1]
    if (!key) throw new Error(`no first-start key in the server's output:\n${started.output}`)
    const decorumUrl = started.url
    const bare = spawn(process.execPath, ["-e", BARE_SERVER], { stdio: ["ignore", "pipe", "inherit"] })
    children.push(bare)
    const bareUrl = (await waitForUrl(bare, () => true)).url

    console.log(`Load: ${connections} connections, ${duration} s per server, POST comments:analyze.\n`)
    console.log(`Load average before: ${loadavg().map((l) => l.toFixed(2)).join(", ")} (${availableParallelism()} cores)\n`)
    const row = (name: string, r: Result) =>
      `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   ` +
      `CPU ${r.cpuPerRequest === undefined ? "   ?" : r.cpuPerRequest.toFixed(0).padStart(5)} µs/req   load ${r.load.toFixed(1)}   ` +
      `peak RSS/process ${r.peakRss === undefined ? "?" : r.peakRss.toFixed(0)} MB`
    const judgeModes = (process.env["BENCH_JUDGE"] ?? "linear,cascade,neural").split(",").map((m) => m.trim()).filter((m) => m !== "" && m !== "none")
    if (judgeModes.length > 0) await judgeRows(dir, workers, judgeModes, row, children)
    if (process.env["BENCH_JUDGE_ONLY"] === "1") return
    const base = await load(bare.pid, `${bareUrl}/v1alpha1/comments:analyze`, { "content-type": "application/json" })
    console.log(row("bare node:http JSON", base))
    const analyze = async (attributes: ReadonlyArray<string>, server = { pid: decorum.pid, url: decorumUrl }, label = "") => {
      const r = await load(server.pid, `${server.url}/v1alpha1/comments:analyze?key=${key}`, { "content-type": "application/json" }, {
        method: "POST",
        body: analyzeBody(attributes)
      })
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`Decorum answered ${r.non2xx} non-2xx and ${r.errors} errors`)
      console.log(row(`Decorum analyze, ${attributes.length} attribute${attributes.length === 1 ? "" : "s"}${label}`, r))
      return r
    }
    await analyze(["TOXICITY"])
    const ours = await analyze(SIX)
    // suggestscore: authentication, the body and a store write (the SQLite suggestion table).
    const suggest = JSON.stringify({ comment: { text: "fine" }, attributeScores: { TOXICITY: { summaryScore: { value: 0.1 } } } })
    const suggested = await load(decorum.pid, `${decorumUrl}/v1alpha1/comments:suggestscore?key=${key}`, { "content-type": "application/json" }, {
      method: "POST",
      body: suggest
    })
    if (suggested.non2xx > 0 || suggested.errors > 0) throw new Error(`suggestscore: ${suggested.non2xx} non-2xx, ${suggested.errors} errors`)
    console.log(row("Decorum suggestscore", suggested))
    console.log(`\nDecorum (6 attributes) / bare throughput ratio: ${(ours.rps / base.rps).toFixed(2)}`)
    // The megacall with the three local sections that judge the same text (comment score, spam,
    // perspective), against analyze with six attributes on the same server.
    const native = { "x-user-email": "admin@localhost", "x-api-key": key, "content-type": "application/json" }
    const topic = await fetch(`${decorumUrl}/v0.2/inittopic`, { method: "POST", headers: native, body: JSON.stringify({ text: "The council's library budget." }) })
    const { article_id } = (await topic.json()) as { article_id: string }
    const mega = await load(decorum.pid, `${decorumUrl}/v0.2/megacall`, native, {
      method: "POST",
      body: JSON.stringify({ comment: TEXT, article_context_id: article_id, run_comment_score: true, run_spam_check: true, run_perspective: true })
    })
    if (mega.non2xx > 0 || mega.errors > 0) throw new Error(`megacall: ${mega.non2xx} non-2xx, ${mega.errors} errors`)
    console.log(row("megacall (score, spam, perspective)", mega))
    console.log(`megacall / analyze (6 attributes) throughput ratio: ${(mega.rps / ours.rps).toFixed(2)}`)
    if (process.env["BENCH_HTTPAPI"] !== "0" && process.env["BENCH_BIN"] === undefined) {
      // The same build and store with the fast path off: every request through HttpApi (the path
      // before the fast path), under the same machine load as the rows above.
      const httpApi = spawn(process.execPath, [bin, "serve", "--port", "0", "--host", "127.0.0.1", "--db", join(dir, "bench.db"), ...(workers ? ["--workers", workers] : [])], {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, DECORUM_ENGINE: "local", DECORUM_FAST_PATH: "false" }
      })
      children.push(httpApi)
      const url = (await waitForUrl(httpApi, (output) => /keys create|curl/.test(output))).url
      console.log("")
      await analyze(["TOXICITY"], { pid: httpApi.pid, url }, " (HttpApi)")
      await analyze(SIX, { pid: httpApi.pid, url }, " (HttpApi)")
      httpApi.kill("SIGTERM")
    }
    if (process.env["BENCH_STEPS"] === "0") return

    // Where the time goes: the same server on routes that add one step at a time.
    const auth = { "x-user-email": "admin@localhost", "x-api-key": key }
    const steps: Array<[string, string, Record<string, string>, { method: "GET" | "POST"; body?: string }]> = [
      ["GET /healthz (routing only)", "/healthz", {}, { method: "GET" }],
      ["GET /v0.2/usercheck (+ auth)", "/v0.2/usercheck", auth, { method: "GET" }],
      ["POST /v0.2/antispam", "/v0.2/antispam", { ...auth, "content-type": "application/json" }, {
        method: "POST",
        body: JSON.stringify({ comment: JSON.parse(BODY).comment.text })
      }]
    ]
    console.log(`\nPer route on Decorum:`)
    for (const [name, path, headers, request] of steps) {
      const r = await load(decorum.pid, `${decorumUrl}${path}`, headers, request)
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`)
      console.log(row(name, r))
    }
    console.log(row("POST analyze, 6 attributes (above)", ours))
  } finally {
    for (const c of children) c.kill("SIGTERM")
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
