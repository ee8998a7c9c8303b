/**
 * `npm run bench:flood`: how fast `/healthz` answers while keyless clients flood the server with
 * bodies over the body limit (issue 25, item 4: an orchestrator must not restart a healthy server).
 *
 * One `decorum serve` process (loopback, in-memory store, local models) gets:
 *
 * 1. `BENCH_IDLE_PROBES` probes of `GET /healthz` alone (default 50), the baseline;
 * 2. the same probes (`BENCH_PROBES`, default 300) while `BENCH_ATTACKERS` connections (default
 *    16) each send, one after another, keyless POSTs with a body of `BENCH_BODY_BYTES` (default
 *    the default limit of 1 MiB + 64 KiB), alternating Content-Length and chunked framing
 *    (a request without Content-Length has a body only when chunked), over the analyze routes
 *    (Google-shaped and compat: the fast path) and native routes (megacall, antispam: HttpApi),
 *    `BENCH_RATE` attacks a second in all (default 300; 0: as fast as the server takes them).
 *    Every attack opens a new connection, writes as fast as the server reads and stops at the
 *    server's answer (or its close).
 *
 * A probe is one new connection (as a kubelet's), every `BENCH_PROBE_INTERVAL_MS` (default 50);
 * its time is to the end of the answer. Printed: p50, p99 and max of the probes, how many took more
 * than 100 ms, the attacks answered (by status) and cut, the bytes the attackers got to send, and
 * the server's CPU seconds. Bounded: the flood stops with the last probe, at most
 * `BENCH_MAX_ATTACKS` attacks (default 20,000), and the whole run at 180 s.
 *
 * BENCH_BIN: another build's `bin.js` or bundle (`dist/bundle/decorum.js`), for a before/after
 * comparison in the same conditions. BENCH_SERVER_ARGS: Node flags for the server (`--cpu-prof`).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { get } from "node:http"
import { connect } from "node:net"
import { readFileSync } from "node:fs"
import { availableParallelism, loadavg } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const here = dirname(fileURLToPath(import.meta.url))
const bin = process.env["BENCH_BIN"] ?? join(here, "..", "..", "server", "dist", "bin.js")
const idleProbes = env("BENCH_IDLE_PROBES", 50)
const probes = env("BENCH_PROBES", 300)
const interval = env("BENCH_PROBE_INTERVAL_MS", 50)
const attackers = env("BENCH_ATTACKERS", 16)
const bodyBytes = env("BENCH_BODY_BYTES", 1024 * 1024 + 64 * 1024)
const maxAttacks = env("BENCH_MAX_ATTACKS", 20_000)
const rate = env("BENCH_RATE", 300)
const ATTACK_TIMEOUT_MS = 10_000
const PROBE_TIMEOUT_MS = 10_000

const ROUTES = ["/v1alpha1/comments:analyze", "/v0.2/external-compat/analyse", "/v0.2/megacall", "/v0.2/antispam"]
const PIECE = Buffer.alloc(64 * 1024, "a")

/** CPU seconds (user + system) a process used so far, from `/proc/<pid>/stat` (Linux), else undefined. */
const cpuSeconds = (pid: number | undefined): number | undefined => {
  if (pid === undefined) return undefined
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}

/** Resolves with the server's URL once it prints its banner. */
const started = (child: ChildProcess) =>
  new Promise<string>((resolve, reject) => {
    let output = ""
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000)
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const m = /listening on (http:\/\/localhost:\d+)/.exec(output)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!.replace("localhost", "127.0.0.1"))
      }
    })
    child.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)))
  })

/** One probe: milliseconds to the end of `/healthz`'s answer on a new connection (Infinity: failed). */
const probe = (url: string) =>
  new Promise<number>((resolve) => {
    const t0 = performance.now()
    const req = get(`${url}/healthz`, { agent: false, timeout: PROBE_TIMEOUT_MS }, (res) => {
      res.resume()
      res.on("end", () => resolve(res.statusCode === 200 ? performance.now() - t0 : Infinity))
      res.on("error", () => resolve(Infinity))
    })
    req.on("timeout", () => req.destroy())
    req.on("error", () => resolve(Infinity))
  })

const probeSeries = async (url: string, n: number) => {
  const times: Array<number> = []
  const pending: Array<Promise<void>> = []
  for (let i = 0; i < n; i++) {
    pending.push(probe(url).then((ms) => void times.push(ms)))
    await new Promise((r) => setTimeout(r, interval))
  }
  await Promise.all(pending)
  return times.sort((a, b) => a - b)
}

const summary = (times: ReadonlyArray<number>) => {
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!
  const slow = times.filter((t) => t > 100).length
  const failed = times.filter((t) => t === Infinity).length
  return `p50 ${at(0.5).toFixed(1)} ms  p99 ${at(0.99).toFixed(1)} ms  max ${times[times.length - 1]!.toFixed(1)} ms  >100 ms: ${slow} of ${times.length}` +
    (failed > 0 ? `  failed: ${failed}` : "")
}

interface Attack {
  readonly status: number | "cut" | "timeout"
  readonly sent: number
}

/** One keyless POST of an oversize body on a new connection; resolves at the answer's end or the close. */
const attack = (port: number, path: string, chunked: boolean) =>
  new Promise<Attack>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port })
    let sent = 0
    let received = ""
    let done = false
    const finish = (status: Attack["status"]) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ status, sent })
    }
    const timer = setTimeout(() => finish("timeout"), ATTACK_TIMEOUT_MS)
    socket.on("error", () => finish(statusOf() ?? "cut"))
    socket.on("close", () => finish(statusOf() ?? "cut"))
    const statusOf = () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(received)
      return m ? Number(m[1]) : undefined
    }
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1")
      const end = received.indexOf("\r\n\r\n")
      if (end === -1) return
      const length = /\r\ncontent-length: *(\d+)/i.exec(received.slice(0, end))
      if (length && received.length - end - 4 >= Number(length[1])) finish(statusOf() ?? "cut")
    })
    socket.on("connect", () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          (chunked ? "Transfer-Encoding: chunked\r\n" : `Content-Length: ${bodyBytes}\r\n`) + "\r\n"
      )
      const next = () => {
        while (!done && sent < bodyBytes) {
          const piece = PIECE.subarray(0, Math.min(PIECE.length, bodyBytes - sent))
          sent += piece.length
          const last = sent >= bodyBytes
          const ok = chunked
            ? socket.write(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from(last ? "\r\n0\r\n\r\n" : "\r\n")]))
            : socket.write(piece)
          if (!ok) return void socket.once("drain", next)
        }
      }
      next()
    })
  })

const main = async () => {
  const server = spawn(process.execPath, [
    ...(process.env["BENCH_SERVER_ARGS"] ?? "").split(" ").filter((a) => a !== ""),
    bin,
    "serve",
    "--port",
    "0",
    "--host",
    "127.0.0.1",
    "--db",
    "memory",
    "--workers",
    "1"
  ], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, DECORUM_ENGINE: "local" } })
  const hardStop = setTimeout(() => {
    console.error("bench:flood: over 180 s, stopping")
    server.kill("SIGKILL")
    process.exit(1)
  }, 180_000)
  try {
    const url = await started(server)
    server.stdout!.resume()
    const port = Number(new URL(url).port)
    console.log(`bench:flood on ${url} (${bin}); ${attackers} attackers, bodies of ${bodyBytes} bytes; ${availableParallelism()} cores, load ${loadavg().map((l) => l.toFixed(1)).join(" ")}`)
    await probeSeries(url, 5)
    console.log(`  /healthz idle:        ${summary(await probeSeries(url, idleProbes))}`)

    let flooding = true
    let attacks = 0
    const results: Array<Attack> = []
    const attacker = async (n: number) => {
      for (let i = n; flooding && attacks < maxAttacks; i += attackers) {
        // The attack rate is fixed (BENCH_RATE per second; 0: as fast as the server answers), so
        // that servers that answer faster are not given more attacks to answer.
        const slot = rate > 0 ? t0 + (attacks * 1000) / rate - performance.now() : 0
        attacks++
        if (slot > 0) await new Promise((r) => setTimeout(r, slot))
        results.push(await attack(port, ROUTES[i % ROUTES.length]!, Math.floor(i / ROUTES.length) % 2 === 1))
      }
    }
    const cpu0 = cpuSeconds(server.pid)
    const t0 = performance.now()
    const flood = Promise.all(Array.from({ length: attackers }, (_, n) => attacker(n)))
    const during = await probeSeries(url, probes)
    flooding = false
    const seconds = (performance.now() - t0) / 1000
    const cpu1 = cpuSeconds(server.pid)
    await flood
    console.log(`  /healthz under flood: ${summary(during)}`)
    const statuses = new Map<string, number>()
    for (const r of results) statuses.set(String(r.status), (statuses.get(String(r.status)) ?? 0) + 1)
    const sentMb = results.reduce((n, r) => n + r.sent, 0) / 1024 / 1024
    console.log(
      `  flood: ${results.length} attacks in ${seconds.toFixed(1)} s (${(results.length / seconds).toFixed(0)}/s), answers ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(", ")}; ` +
        `${sentMb.toFixed(0)} MB sent by the attackers; server CPU ${cpu0 === undefined || cpu1 === undefined ? "?" : `${(cpu1 - cpu0).toFixed(1)} s`}; load ${loadavg()[0]!.toFixed(1)}`
    )
  } finally {
    clearTimeout(hardStop)
    if (server.exitCode === null && server.signalCode === null) {
      server.kill("SIGTERM")
      await new Promise((r) => server.once("exit", r))
    }
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
