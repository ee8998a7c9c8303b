/**
 * `/metrics` for the whole server when `decorum serve --workers N` runs N processes. Each process
 * keeps its own metrics, and a scrape lands on one of them; so the worker that receives it asks the
 * primary, the primary asks every live worker for a snapshot of its series (plain data, over the
 * cluster's IPC channel), merges them (`Prometheus.merge`: counters and histograms added) and sends
 * the text back to be answered. A worker that does not answer within `COLLECT_TIMEOUT_MS` is left
 * out (a dying worker must not hold up the scrape); if the primary does not answer within
 * `ASK_TIMEOUT_MS`, the worker answers its own figures.
 */
import { Observability, Prometheus } from "@decorum/http"
import { Effect, Layer } from "effect"
import type { Worker } from "node:cluster"

/** How long the primary waits for each worker's snapshot. */
export const COLLECT_TIMEOUT_MS = 2_000
/** How long a worker waits for the primary's merged figures before it answers its own. */
export const ASK_TIMEOUT_MS = 5_000

type Message =
  | { readonly type: "decorum-metrics-request"; readonly id: number }
  | { readonly type: "decorum-metrics-collect"; readonly id: number }
  | { readonly type: "decorum-metrics-snapshot"; readonly id: number; readonly series: ReadonlyArray<Prometheus.Series> }
  | { readonly type: "decorum-metrics-merged"; readonly id: number; readonly text: string }

const isMessage = (message: unknown): message is Message =>
  typeof message === "object" && message !== null && typeof (message as { type?: unknown }).type === "string" &&
  (message as { type: string }).type.startsWith("decorum-metrics-") && typeof (message as { id?: unknown }).id === "number"

// ---------------------------------------------------------------- the worker

/**
 * In a cluster worker: `ServerMetrics` asks the primary for the whole server's figures, and this
 * process answers the primary's requests for its own snapshot (for as long as the layer lives).
 */
export const layerWorker: Layer.Layer<Observability.ServerMetrics> = Layer.scoped(
  Observability.ServerMetrics,
  Effect.gen(function*() {
    const pending = new Map<number, (text: string) => void>()
    let next = 0
    const onMessage = (message: unknown) => {
      if (!isMessage(message)) return
      if (message.type === "decorum-metrics-collect") {
        const series = Effect.runSync(Prometheus.snapshot)
        process.send?.({ type: "decorum-metrics-snapshot", id: message.id, series } satisfies Message)
      } else if (message.type === "decorum-metrics-merged") {
        pending.get(message.id)?.(message.text)
        pending.delete(message.id)
      }
    }
    yield* Effect.acquireRelease(
      Effect.sync(() => process.on("message", onMessage)),
      () => Effect.sync(() => process.off("message", onMessage))
    )
    const ask = Effect.async<string>((resume) => {
      const id = next++
      pending.set(id, (text) => resume(Effect.succeed(text)))
      process.send?.({ type: "decorum-metrics-request", id } satisfies Message)
      return Effect.sync(() => pending.delete(id))
    })
    return {
      scrape: ask.pipe(
        Effect.timeoutTo({ duration: ASK_TIMEOUT_MS, onTimeout: () => undefined, onSuccess: (text: string) => text }),
        Effect.flatMap((text) => (text === undefined ? Prometheus.scrape : Effect.succeed(text)))
      )
    }
  })
)

// ---------------------------------------------------------------- the primary

/**
 * In the cluster primary: answers each worker's request with the merged snapshots of `workers()`
 * (the live ones). Requests that arrive while a collection runs join it, so a flood of scrapes
 * (`/metrics` needs no key) costs one round of snapshots at a time, not one per scrape. Returns the
 * handler to give `cluster.on("message")`.
 */
export const primary = (workers: () => ReadonlyArray<Worker>) => {
  let current:
    | { readonly id: number; readonly expected: Set<number>; readonly got: Array<ReadonlyArray<Prometheus.Series>>; readonly askers: Array<readonly [Worker, number]>; readonly timer: ReturnType<typeof setTimeout> }
    | undefined
  let next = 0
  const finish = () => {
    const state = current
    if (state === undefined) return
    current = undefined
    clearTimeout(state.timer)
    const text = Prometheus.renderSeries(Prometheus.merge(state.got))
    for (const [from, request] of state.askers) {
      if (from.isConnected()) from.send({ type: "decorum-metrics-merged", id: request, text } satisfies Message)
    }
  }
  const collect = (from: Worker, request: number) => {
    if (current !== undefined) {
      current.askers.push([from, request])
      return
    }
    const id = next++
    const targets = workers().filter((w) => w.isConnected())
    current = { id, expected: new Set(targets.map((w) => w.id)), got: [], askers: [[from, request]], timer: setTimeout(finish, COLLECT_TIMEOUT_MS) }
    for (const worker of targets) worker.send({ type: "decorum-metrics-collect", id } satisfies Message)
    if (targets.length === 0) finish()
  }
  return (worker: Worker, message: unknown) => {
    if (!isMessage(message)) return
    if (message.type === "decorum-metrics-request") collect(worker, message.id)
    else if (message.type === "decorum-metrics-snapshot") {
      const state = current
      if (state === undefined || state.id !== message.id || !state.expected.delete(worker.id)) return
      state.got.push(message.series)
      if (state.expected.size === 0) finish()
    }
  }
}

