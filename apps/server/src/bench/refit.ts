/**
 * `npm run bench:refit`: what a refit costs against the number of corrections. For each size
 * (REFIT_N, comma-separated; default 1000,5000,20000) it fits one attribute's adapter from that
 * many synthetic corrections (a site norm the shipped model cannot know), on this thread and on a
 * refit worker thread as `decorum serve` runs it (starting the thread and loading the models
 * included), and prints wall time, time per correction and this process's peak RSS. Corrections
 * past `Adaptation.MAX_FIT_CORRECTIONS` are never read by a refit.
 */
import { Adaptation } from "@decorum/core"
import { Engine, EngineConfig, RefitWorker } from "@decorum/engine"
import { LocalAttributeScorer } from "@decorum/local"
import { Effect, Layer, ManagedRuntime } from "effect"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { isMainThread, parentPort, workerData } from "node:worker_threads"

const here = fileURLToPath(import.meta.url)
process.env["DECORUM_MODEL_DIR"] ??= join(dirname(here), "..", "..", "..", "..", "packages", "local", "models")

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
  const runtime = ManagedRuntime.make(LocalAttributeScorer.pipe(Layer.provideMerge(Engine.adaptLayer(settings))))
  const worker = RefitWorker.layer(here)
  console.log("corrections | on this thread | per correction | on a worker thread (start + models + fit) | adopted | peak RSS")
  for (const n of sizes) {
    const input = corrections(n)
    let t = performance.now()
    const inline = await runtime.runPromise(Adaptation.fitCorrections("TOXICITY", input, false))
    const inlineMs = performance.now() - t
    t = performance.now()
    await Effect.runPromise(Effect.flatMap(Adaptation.FitRunner, (r) => r.fit("TOXICITY", input)).pipe(Effect.provide(worker)))
    const workerMs = performance.now() - t
    console.log(
      `${n} | ${(inlineMs / 1000).toFixed(2)} s | ${(inlineMs / n).toFixed(2)} ms | ${(workerMs / 1000).toFixed(2)} s | ${inline.report.adopted} | ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`
    )
  }
  await runtime.dispose()
}

if (!isMainThread && parentPort !== null && (workerData as Record<string, unknown> | null)?.[RefitWorker.REFIT_WORKER_MARK] === true) {
  await RefitWorker.runRefitWorker(parentPort, (workerData as { job: Parameters<typeof RefitWorker.runRefitWorker>[1] }).job)
} else {
  await main()
}
