/**
 * Where the archive scorer's batches are scored: on the main thread, or on worker threads that each
 * load the models once and score the batches they are sent (the least busy worker takes the next
 * one). Results travel back packed (`PackedResults`), which clones far cheaper than an object per row.
 */
import type { MessagePort } from "node:worker_threads"
import { Worker } from "node:worker_threads"

/** One row's result: its scores in attribute order and the model, or why it could not be scored. */
export type RowResult = { readonly scores: ReadonlyArray<number>; readonly model: string } | { readonly error: string }

/** Scores texts for one list of attributes. */
export interface BatchScorer {
  /** One result per text, in order. */
  readonly score: (texts: ReadonlyArray<string>) => Promise<ReadonlyArray<RowResult>>
  readonly close: () => Promise<void>
}

/** Makes a batch scorer (loads the models) for a list of attributes. */
export type MakeBatchScorer = (attributes: ReadonlyArray<string>) => Promise<BatchScorer>

/**
 * A batch's results as they travel back from a worker: row i's scores are
 * `scores[i * attributes .. (i + 1) * attributes]`; `model` is every row's model (one string when
 * they agree, as they do unless an LLM engine falls back); `errors` is null when every row was
 * scored. A typed array and a few strings clone far cheaper than an object per row.
 */
export interface PackedResults {
  readonly scores: Float64Array
  readonly model: string | ReadonlyArray<string>
  readonly errors: ReadonlyArray<string | null> | null
}

export const pack = (results: ReadonlyArray<RowResult>, attributes: number): PackedResults => {
  const scores = new Float64Array(results.length * attributes)
  let errors: Array<string | null> | null = null
  let model: string | Array<string> | undefined
  results.forEach((r, i) => {
    if ("error" in r) {
      errors ??= results.map(() => null)
      errors[i] = r.error
      scores.fill(Number.NaN, i * attributes, (i + 1) * attributes)
      return
    }
    for (let k = 0; k < attributes; k++) scores[i * attributes + k] = r.scores[k]!
    if (model === undefined) model = r.model
    else if (typeof model === "string" && model !== r.model) model = results.map((x) => ("model" in x ? x.model : ""))
  })
  return { scores, model: model ?? "", errors }
}

/** One batch for a worker. */
interface BatchMessage {
  readonly seq: number
  readonly texts: ReadonlyArray<string>
}

/** The body of a worker thread: scores the batches it is sent until it is told to stop. */
export const runWorker = async (port: MessagePort, makeBatchScorer: MakeBatchScorer) => {
  let scorer: BatchScorer | undefined
  let width = 0
  port.on("message", (message: { attributes: ReadonlyArray<string> } | BatchMessage | "stop") => {
    if (message === "stop") {
      void (scorer?.close() ?? Promise.resolve()).then(() => port.close())
      return
    }
    if ("attributes" in message) {
      width = message.attributes.length
      makeBatchScorer(message.attributes).then(
        (made) => {
          scorer = made
          port.postMessage("ready")
        },
        (error) => port.postMessage({ seq: -1, failure: String(error) })
      )
      return
    }
    scorer!.score(message.texts).then(
      (results) => port.postMessage({ seq: message.seq, results: pack(results, width) }),
      (error) => port.postMessage({ seq: message.seq, failure: String(error) })
    )
  })
}

export interface Scorer {
  /** Resolves once every worker has loaded its models. */
  readonly ready: Promise<void>
  readonly score: (seq: number, texts: ReadonlyArray<string>) => Promise<PackedResults>
  readonly close: () => Promise<void>
}

export const inlineScorer = (attributes: ReadonlyArray<string>, makeBatchScorer: MakeBatchScorer): Scorer => {
  const made = makeBatchScorer(attributes)
  return {
    ready: made.then(() => undefined),
    score: (_seq, texts) => made.then((s) => s.score(texts)).then((results) => pack(results, attributes.length)),
    close: () => made.then((s) => s.close(), () => undefined)
  }
}

export const workerScorer = (count: number, attributes: ReadonlyArray<string>, entry: string | URL, mark: string): Scorer => {
  const pending = new Map<number, { resolve: (r: PackedResults) => void; reject: (e: Error) => void }>()
  const load: Array<number> = []
  const started: Array<Promise<void>> = []
  const workers = Array.from({ length: count }, (_, i) => {
    const worker = new Worker(entry, { workerData: { [mark]: true }, argv: [] })
    load[i] = 0
    started.push(new Promise<void>((resolve, reject) => {
      worker.once("message", (message: "ready" | { failure?: string }) =>
        message === "ready" ? resolve() : reject(new Error(typeof message === "object" && message.failure ? message.failure : "a worker failed to start")))
      worker.once("error", reject)
      worker.once("exit", (code) => reject(new Error(`a worker exited with ${code} before it was ready`)))
    }))
    worker.on("message", (message: "ready" | { seq: number; results?: PackedResults; failure?: string }) => {
      if (message === "ready") return
      const waiting = pending.get(message.seq)
      if (!waiting) return
      pending.delete(message.seq)
      load[i]!--
      if (message.results) waiting.resolve(message.results)
      else waiting.reject(new Error(message.failure ?? "the worker failed"))
    })
    worker.on("error", (error) => {
      for (const waiting of pending.values()) waiting.reject(error)
      pending.clear()
    })
    worker.postMessage({ attributes })
    return worker
  })
  return {
    ready: Promise.all(started).then(() => undefined),
    score: (seq, texts) =>
      new Promise((resolve, reject) => {
        // The least busy worker takes the batch.
        let best = 0
        for (let i = 1; i < count; i++) if (load[i]! < load[best]!) best = i
        load[best]!++
        pending.set(seq, { resolve, reject })
        workers[best]!.postMessage({ seq, texts } satisfies BatchMessage)
      }),
    // Called when no batch is pending: nothing is lost by stopping the threads outright.
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()))
    }
  }
}
