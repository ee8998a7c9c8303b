/**
 * `npm run bench:auth-guard`: the CPU cost of the failed-authentication limit on a request whose
 * key is right (`AuthFailureLimiter.guard` around an authentication that succeeds), the path every
 * served request takes. Three cases, each `BENCH_ITERATIONS` guarded authentications in one fiber
 * (default 1,000,000), `BENCH_ROUNDS` rounds (default 5), alternated so they see the same machine
 * load; the median round's process CPU time (`process.cpuUsage`) per authentication is reported:
 *
 * - `no limiter`: `guard` without an `AuthFailureLimiter` in context (the floor);
 * - `empty table`: the server's default, no address has failed (the normal case);
 * - `one failed address`: another address failed once, so the table is looked up.
 *
 * `BENCH_ONLY=NAME` runs one case, once (for an instruction count that does not move with the
 * machine's load: `valgrind --tool=callgrind` with BENCH_ITERATIONS=0 and N, the difference over N).
 */
import { AuthFailureLimiter } from "@decorum/core"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { loadavg } from "node:os"

const iterations = Number(process.env["BENCH_ITERATIONS"] ?? 1_000_000)
const rounds = process.env["BENCH_ONLY"] === undefined ? Number(process.env["BENCH_ROUNDS"] ?? 5) : 1
const address = Option.some("203.0.113.7")
const success = Effect.succeed("caller")

const loop = Effect.gen(function*() {
  for (let i = 0; i < iterations; i++) yield* AuthFailureLimiter.guard(address, success)
})

const only = process.env["BENCH_ONLY"]
const all = {
  "no limiter": ManagedRuntime.make(Layer.empty),
  "empty table": ManagedRuntime.make(AuthFailureLimiter.memory({ perMinute: 30 })),
  // A slow refill, so that the failure is still remembered at the end of a long run (under valgrind).
  "one failed address": ManagedRuntime.make(AuthFailureLimiter.memory({ perMinute: 0.01, burst: 30 }))
}
const cases = only === undefined ? all : { [only]: all[only as keyof typeof all] }
if ("one failed address" in cases) {
  await all["one failed address"].runPromise(Effect.flatMap(AuthFailureLimiter, (limiter) => limiter.failed("198.51.100.1")))
}

const samples: Record<string, Array<number>> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]))
for (let round = 0; round < rounds; round++) {
  for (const [name, runtime] of Object.entries(cases)) {
    const before = process.cpuUsage()
    await (runtime as ManagedRuntime.ManagedRuntime<never, never>).runPromise(loop as Effect.Effect<void>)
    const used = process.cpuUsage(before)
    samples[name]!.push(((used.user + used.system) * 1000) / iterations)
  }
}
const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
console.log(`AuthFailureLimiter.guard, successful authentication: CPU ns per call (median of ${rounds} rounds of ${iterations}; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")})`)
for (const [name, xs] of Object.entries(samples)) console.log(`  ${name.padEnd(20)} ${median(xs).toFixed(1)} ns   (rounds: ${xs.map((x) => x.toFixed(1)).join(", ")})`)
for (const runtime of Object.values(all)) await runtime.dispose()
