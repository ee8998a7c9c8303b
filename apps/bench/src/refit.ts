/**
 * `npm run bench:refit`: what a refit costs against the number of corrections. For each size
 * (REFIT_N, comma-separated; default 1000,5000,20000) an account gets that many synthetic
 * corrections (a site norm the shipped model cannot know) in a SQLite store of the bench's own;
 * then its adapter is fitted on this thread (reading the store, scoring, fitting) and on a refit
 * worker thread as `decorum serve` runs it (starting the thread, loading the models and opening
 * the store included), and it prints the wall times and the largest event-loop delay of this
 * thread while the worker ran. A fit reads at most `Adaptation.MAX_FIT_CORRECTIONS` texts.
 */
import { Adaptation, Auth, SuggestionStore } from "@decorum/core"
import { Engine, EngineConfig, RefitWorker } from "@decorum/engine"
import { LocalAttributeScorer } from "@decorum/local"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { isMainThread, parentPort, workerData } from "node:worker_threads"

const here = fileURLToPath(import.meta.url)
process.env["DECORUM_MODEL_DIR"] ??= join(dirname(here), "..", "..", "..", "packages", "local", "models")

const SUBJECTS = ["the council", "the new stadium", "the bus timetable", "the library", "the budget", "the bridge", "the school board", "the market", "the park", "the festival"]
const VERBS = ["is", "seems", "looks", "was always", "will be"]

/** `n` corrections: pineapple pizza is unacceptable on this site, mushroom pizza is fine. */
const corrections = (n: number): Array<Adaptation.Correction> =>
  Array.from({ length: n }, (_, i) => {
    const bad = i % 2 === 0
    const text = `Honestly ${SUBJECTS[i % SUBJECTS.length]} ${VERBS[Math.floor(i / SUBJECTS.length) % VERBS.length]} like ${bad ? "pineapple" : "mushroom"} pizza, number ${i >> 1}.`
    return [text, bad ? 1 : 0] as const
  })

const main = async () => {
  const sizes = (process.env["REFIT_N"] ?? "1000,5000,20000").split(",").map(Number)
  const settings = await Effect.runPromise(EngineConfig.config)
  // A store of its own, on tmpfs when there is one (storing the corrections is not what is measured).
  const dir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "decorum-bench-refit-"))
  const db = Redacted.make(join(dir, "bench.db"))
  const runtime = ManagedRuntime.make(LocalAttributeScorer.pipe(Layer.provideMerge(Engine.layerAdapt(settings)), Layer.merge(Engine.layerStore(db))))
  const worker = RefitWorker.layer(here, db)
  console.log("corrections | on one thread (read + score + fit) | per correction | on a refit worker (start + models + read + score + fit) | this thread's event-loop delay meanwhile, max (idle) | adopted")
  try {
    for (const n of sizes) {
      const account = await runtime.runPromise(Effect.gen(function*() {
        const { account } = yield* Auth.createKey(`bench-${n}@example.com`, "bench")
        const store = yield* SuggestionStore
        for (const [text, value] of corrections(n)) {
          yield* store.insert({ accountId: account.id, commentText: text, contextJson: null, attributeScores: { TOXICITY: value }, languages: [], clientToken: null, sessionId: null, communityId: null, keyId: null })
        }
        return account
      }))
      let t = performance.now()
      const inline = await runtime.runPromise(Adaptation.fitAccount(account, undefined, false))
      const inlineMs = performance.now() - t
      // This thread's event-loop delay with nothing running (as long as the worker will take), then during the worker's refit.
      const idle = monitorEventLoopDelay({ resolution: 10 })
      idle.enable()
      await new Promise((resolve) => setTimeout(resolve, inlineMs + 2_000))
      idle.disable()
      const lag = monitorEventLoopDelay({ resolution: 10 })
      lag.enable()
      t = performance.now()
      await Effect.runPromise(Effect.flatMap(Adaptation.FitRunner, (r) => r.fitAccount(account, undefined)).pipe(Effect.provide(worker)))
      const workerMs = performance.now() - t
      lag.disable()
      console.log(
        `${n} | ${(inlineMs / 1000).toFixed(2)} s | ${(inlineMs / n).toFixed(2)} ms | ${(workerMs / 1000).toFixed(2)} s | ${(lag.max / 1e6).toFixed(0)} ms (idle: ${(idle.max / 1e6).toFixed(0)} ms) | ${inline.attributes[0]?.fitted.report.adopted}`
      )
    }
  } finally {
    await runtime.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (!isMainThread && parentPort !== null && (workerData as Record<string, unknown> | null)?.[RefitWorker.REFIT_WORKER_MARK] === true) {
  await RefitWorker.runRefitWorker(parentPort, (workerData as { job: Parameters<typeof RefitWorker.runRefitWorker>[1] }).job)
} else {
  await main()
}
