/**
 * `npm run bench:request`: the server's own CPU time per analyze request, without sockets or HTTP
 * parsing. Builds the whole `decorum serve` layer twice (SQLite, local models; the fast path on,
 * and off as `DECORUM_FAST_PATH=false` sets it), takes each one's Node `http.Server`, and emits
 * to it requests made in memory (a real `IncomingMessage` holding the JSON body, a real
 * `ServerResponse`), one at a time, alternating the two servers in rounds so both see the same
 * machine load. The figure is the process's CPU time (`process.cpuUsage`, every thread: the collector's too) per request, which
 * moves far less with the machine's load than wall time does; the median round is reported.
 *
 * Options (env): BENCH_ITERATIONS (requests per round and server, default 2,000), BENCH_ROUNDS
 * (default 5), BENCH_ATTRIBUTES (default the six of bench:http), BENCH_ONLY (`fast` or `httpapi`: one
 * server), BENCH_PROFILE=FILE (a CPU profile of the measured rounds, without start-up, written to
 * FILE: open it in Chrome's DevTools, or summarise it with `npm run bench:profile -- FILE`).
 */
import { Auth } from "@decorum/core"
import { Effect, Layer } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { IncomingMessage, type Server, ServerResponse } from "node:http"
import { Socket } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { NodeListener, serverLayer } from "@decorum/server"

const iterations = Number(process.env["BENCH_ITERATIONS"] ?? 2_000)
const rounds = Number(process.env["BENCH_ROUNDS"] ?? 5)
const attributes = (process.env["BENCH_ATTRIBUTES"] ?? "TOXICITY,INSULT,PROFANITY,THREAT,IDENTITY_ATTACK,SEVERE_TOXICITY").split(",")
const TEXT = "I think the council is wrong about the library budget, and frankly the plan is a stupid waste of money."
const BODY = Buffer.from(JSON.stringify({
  comment: { text: TEXT },
  requestedAttributes: Object.fromEntries(attributes.map((a) => [a, {}])),
  languages: ["en"]
}))

/** One request through `server`'s listeners, as Node would emit it; resolves with the status once the response has ended. */
const send = (server: Server, url: string) =>
  new Promise<number>((resolve) => {
    const request = new IncomingMessage(new Socket())
    request.method = "POST"
    request.url = url
    request.headers = { "content-type": "application/json", "content-length": String(BODY.length), host: "127.0.0.1" }
    request.push(BODY)
    request.push(null)
    const response = new ServerResponse(request)
    const end = response.end.bind(response)
    response.end = ((...args: Parameters<typeof end>) => {
      const out = end(...args)
      resolve(response.statusCode)
      return out
    }) as typeof response.end
    server.emit("request", request, response)
  })

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const main = Effect.gen(function*() {
  const dir = mkdtempSync(join(tmpdir(), "decorum-bench-request-"))
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  const build = (fastPath: boolean) =>
    Effect.gen(function*() {
      const context = yield* Layer.build(serverLayer({ port: 0, host: "127.0.0.1", db: join(dir, "bench.db"), fastPath, workers: 1 }))
      const { key } = yield* Effect.provide(Auth.createKey(`bench-${fastPath}@example.com`), context)
      return { name: fastPath ? "fast path" : "HttpApi path", server: context.unsafeMap.get(NodeListener.key) as Server, key }
    })
  const only = process.env["BENCH_ONLY"]
  const servers = only === "fast" ? [yield* build(true)] : only === "httpapi" ? [yield* build(false)] : [yield* build(true), yield* build(false)]
  const cpu: Record<string, Array<number>> = {}
  const wall: Record<string, Array<number>> = {}
  console.log(`analyze, ${attributes.length} attribute(s), ${iterations} requests per round and server, ${rounds} rounds; load average ${loadavg()[0]!.toFixed(1)}\n`)
  const profileFile = process.env["BENCH_PROFILE"]
  const session = profileFile ? new Session() : undefined
  for (let round = 0; round <= rounds; round++) {
    if (round === 1 && session) {
      session.connect()
      yield* Effect.promise(() => session.post("Profiler.enable"))
      yield* Effect.promise(() => session.post("Profiler.start"))
    }
    for (const { key, name, server } of servers) {
      const url = `/v1alpha1/comments:analyze?key=${key}`
      const startCpu = process.cpuUsage()
      const startWall = process.hrtime.bigint()
      for (let i = 0; i < iterations; i++) {
        const status = yield* Effect.promise(() => send(server, url))
        if (status !== 200) return yield* Effect.die(new Error(`${name} answered ${status}`))
      }
      const used = process.cpuUsage(startCpu)
      // Round 0 warms up (JIT, model pages) and is not counted.
      if (round === 0) continue
      ;(cpu[name] ??= []).push((used.user + used.system) / iterations)
      ;(wall[name] ??= []).push(Number(process.hrtime.bigint() - startWall) / 1000 / iterations)
    }
  }
  if (session && profileFile) {
    const { profile } = yield* Effect.promise(() => session.post("Profiler.stop"))
    writeFileSync(profileFile, JSON.stringify(profile))
    session.disconnect()
  }
  for (const { name } of servers) {
    console.log(
      `${name.padEnd(14)} CPU ${median(cpu[name]!).toFixed(1).padStart(7)} µs/request (rounds: ${cpu[name]!.map((v) => v.toFixed(0)).join(", ")})   wall ${median(wall[name]!).toFixed(1).padStart(7)} µs`
    )
  }
  console.log(`\nload average at the end: ${loadavg()[0]!.toFixed(1)}`)
})

Effect.runPromise(Effect.scoped(main)).catch((e) => {
  console.error(e)
  process.exitCode = 1
})
