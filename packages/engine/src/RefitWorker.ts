/**
 * Refits on a worker thread: the Node implementation of the core's `Adaptation.FitRunner` port.
 *
 * Each refit of an account starts a worker thread on the host's entry script (it must call
 * `runRefitWorker` when it finds `REFIT_WORKER_MARK` in its `workerData`, as the `decorum`
 * command's `bin.ts` does). The worker opens its own connection to the store, loads the shipped
 * models the configuration names (the same environment as the server) and, when it starts, a
 * session of the shipped encoder of its own (`Engine.layerAdapt`: an encoder adapter is fitted
 * beside the hashed one), reads the account's corrections, scores (and embeds) the texts, fits,
 * posts the result and ends. The serving thread only stores
 * the adapters: a refit of tens of thousands of corrections takes none of its time. A fit interrupted (the refitter's time
 * limit, a shutdown) terminates its worker; a worker that fails is a `RefitFailure`.
 */
import { Adaptation } from "@decorum/core"
import { type Account, type Perspective, RefitFailure } from "@decorum/domain"
import { LocalAttributeScorer } from "@decorum/local"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { type MessagePort, Worker } from "node:worker_threads"
import { layerAdapt, layerStore } from "./Engine.js"
import { EngineConfig } from "./EngineConfig.js"

/** Marks a worker thread started for a refit (`workerData[REFIT_WORKER_MARK] === true`). */
export const REFIT_WORKER_MARK = "decorum-refit-worker"

interface Job {
  readonly account: Account
  readonly only: Perspective.Attribute | undefined
  /** The store the server uses (a file path or URL: the worker opens its own connection). */
  readonly db: string
}

type Answer = { readonly fit: Adaptation.AccountFit } | { readonly failure: string }

/** The body of a refit worker thread: one job, one answer. */
export const runRefitWorker = (port: MessagePort, job: Job): Promise<void> => {
  const program = Effect.gen(function*() {
    const settings = yield* EngineConfig.config
    const runtime = ManagedRuntime.make(
      LocalAttributeScorer.pipe(Layer.provideMerge(layerAdapt(settings)), Layer.merge(layerStore(Redacted.make(job.db))))
    )
    return yield* Effect.acquireUseRelease(
      Effect.succeed(runtime),
      (r) => Effect.promise(() => r.runPromise(Adaptation.fitAccount(job.account, job.only, false))),
      (r) => Effect.promise(() => r.dispose())
    )
  })
  return Effect.runPromise(program).then(
    (fit) => port.postMessage({ fit } satisfies Answer),
    (error: unknown) => port.postMessage({ failure: error instanceof Error ? error.message : String(error) } satisfies Answer)
  )
}

/**
 * `FitRunner` on worker threads started on `entry` (the host's own script), reading `db` (the
 * server's store; not `memory`, which only the server's own thread can see).
 */
export const layer = (entry: string | URL, db: Redacted.Redacted<string>) =>
  Layer.succeed(Adaptation.FitRunner, {
    where: "a worker thread",
    fitAccount: (account, only) =>
      Effect.async<Adaptation.AccountFit, RefitFailure>((resume) => {
        const job: Job = { account, only, db: Redacted.value(db) }
        const worker = new Worker(entry, { workerData: { [REFIT_WORKER_MARK]: true, job }, argv: [], stdout: false, stderr: false })
        let done = false
        const finish = (result: Effect.Effect<Adaptation.AccountFit, RefitFailure>) => {
          if (done) return
          done = true
          void worker.terminate()
          resume(result)
        }
        worker.once("message", (answer: Answer) =>
          finish("fit" in answer ? Effect.succeed(answer.fit) : Effect.fail(new RefitFailure({ message: `the refit worker failed: ${answer.failure}` }))))
        worker.once("error", (error) => finish(Effect.fail(new RefitFailure({ message: `the refit worker failed: ${error.message}` }))))
        worker.once("exit", (code) => finish(Effect.fail(new RefitFailure({ message: `the refit worker exited with ${code} before answering` }))))
        // Interrupted (time limit, shutdown): the worker is stopped.
        return Effect.sync(() => {
          done = true
          void worker.terminate()
        })
      })
  })
