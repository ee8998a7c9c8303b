/**
 * `npm run bench:engine`: the in-process costs behind one request, without HTTP: key hashing, the
 * key lookup in the store (SQLite, through the key cache), authentication, request decoding, the local models and a whole
 * Perspective analyze. Each step runs 500 times to warm up, then N times (BENCH_ITERATIONS, default
 * 5,000); the figures are the mean wall and CPU time (`process.cpuUsage`) per call, including the
 * cost of running an Effect where the step is one. The rows "without an effect" are the plain
 * functions the Node fast path calls (`findKeyNow`: the key cache's `PRAGMA data_version` probe
 * and a map; `authenticateKeyCallerNow`; `analyzeNow`).
 */
import { AccountStore, Analyze, Auth, Requests } from "@decorum/core"
import { Perspective } from "@decorum/domain"
import { AttributeModel, LocalEngine } from "@decorum/local"
import { StoreLayer } from "@decorum/store-sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const iterations = Number(process.env["BENCH_ITERATIONS"] ?? 5_000)
const TEXT = "I think the council is wrong about the library budget, and frankly the plan is a stupid waste of money."
const BODY = { comment: { text: TEXT }, requestedAttributes: { TOXICITY: {}, INSULT: {}, PROFANITY: {} }, languages: ["en"] }

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "decorum-bench-engine-"))
  const runtime = ManagedRuntime.make(Layer.merge(StoreLayer.layer(join(dir, "bench.db")), LocalEngine.layer({ model: "trained" })))
  try {
    const { key } = await runtime.runPromise(Auth.createKey("bench@example.com"))
    const keyId = Auth.parseKeyId(key)!
    const model = await runtime.runPromise(AttributeModel)
    const measure = async (name: string, step: (i: number) => unknown) => {
      for (let i = 0; i < 500; i++) await step(i)
      const cpu = process.cpuUsage()
      const start = process.hrtime.bigint()
      for (let i = 0; i < iterations; i++) await step(i)
      const micros = Number(process.hrtime.bigint() - start) / iterations / 1000
      const used = process.cpuUsage(cpu)
      console.log(`${name.padEnd(52)} ${micros.toFixed(1).padStart(7)} µs  (CPU ${((used.user + used.system) / iterations).toFixed(1).padStart(6)} µs)`)
    }
    console.log(`Mean per call over ${iterations} calls (model ${model.version}).\n`)
    await measure("Effect.void (the cost of running an Effect)", () => runtime.runPromise(Effect.void))
    await measure("key hash (SHA-256)", () => runtime.runPromise(Auth.hashKey(key)))
    await measure("key lookup (SQLite, cached)", () => runtime.runPromise(Effect.flatMap(AccountStore, (s) => s.findKey(keyId))))
    const accounts = await runtime.runPromise(AccountStore)
    await measure("key lookup without an effect (findKeyNow)", () => {
      if (accounts.findKeyNow(keyId) === undefined) throw new Error("the key is not cached")
    })
    await measure("authenticate (hash + lookup + compare)", () => runtime.runPromise(Auth.authenticate("bench@example.com", key)))
    await measure("authenticate without an effect (authenticateKeyCallerNow)", () => {
      if (Auth.authenticateKeyCallerNow(accounts, key) === undefined) throw new Error("the key is not cached")
    })
    await measure("decode an analyze request", () =>
      runtime.runPromise(Requests.decode(Perspective.AnalyzeCommentRequest, Perspective.normalizeRequestKeys(BODY))))
    // A different text each call, so no per-text memo helps.
    await measure("model: 3 attributes", (i) => model.predict(model.analyse(`${TEXT} ${i}`), ["TOXICITY", "INSULT", "PROFANITY"]))
    await measure("analyze, Google family (3 attributes + span)", (i) =>
      runtime.runPromise(Analyze.analyze({ ...BODY, comment: { text: `${TEXT} ${i}` } }, "google")))
    const services = await runtime.runPromise(Analyze.nowServices)
    await measure("analyze without an effect (analyzeNow)", (i) => {
      if (Analyze.analyzeNow(services, { ...BODY, comment: { text: `${TEXT} ${i}` } }, "google") === undefined) throw new Error("not synchronous")
    })
  } finally {
    await runtime.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
