/**
 * An onnxruntime session on a worker thread of its own. onnxruntime-node's `session.run` returns a
 * promise but computes on the JavaScript thread (1.30: a `setImmediate`, then the native run), so
 * a batch of comments would stop the server's event loop for its whole run (about 6 ms a comment
 * on this machine): every other request, linear ones included, would wait. Here the session lives
 * on a worker thread and the serving thread only posts the input tensors and reads the outputs.
 *
 * The worker's code is a string (`eval`), not a file, so that it runs the same from the sources,
 * from the `decorum` bundle and from the Lambda bundle (no entry file to locate); it loads
 * onnxruntime-node from the path the serving thread resolved, so a missing package is reported by
 * the serving thread before any worker starts. Any backend that runs an ONNX model may use it.
 */
import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"

/** One input or output tensor, as posted between the threads. */
export interface WorkerTensor {
  readonly type: "int64" | "int32" | "float32"
  readonly data: BigInt64Array | Int32Array | Float32Array
  readonly dims: ReadonlyArray<number>
}

/** A run's outputs by name. */
export type WorkerOutputs = Record<string, { readonly data: Float32Array; readonly dims: ReadonlyArray<number> }>

/** A graph input, as the session declares it: its name and element type (`int64`, `float32`, ...). */
export interface WorkerInput {
  readonly name: string
  readonly type: string
}

export interface OrtWorker {
  /**
   * Runs the session once per element of `runs` (one after another, in one message to the worker);
   * the outputs of each by name. Rejects when a run (or the worker) fails.
   */
  readonly run: (runs: ReadonlyArray<Readonly<Record<string, WorkerTensor>>>) => Promise<ReadonlyArray<WorkerOutputs>>
  /** Stops the worker (runs in flight are rejected). */
  readonly close: () => Promise<void>
  /** The graph's inputs and outputs (a backend checks its feeds against them before serving). */
  readonly inputs: ReadonlyArray<WorkerInput>
  readonly outputs: ReadonlyArray<string>
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads")
const ort = require(workerData.ort)
let session
parentPort.on("message", async (message) => {
  if (message.type === "close") {
    // After the runs before it: released here, the session never sees the thread torn down mid-run.
    try { await session?.release() } catch {}
    parentPort.close()
    return
  }
  if (message.type === "init") {
    try {
      session = await ort.InferenceSession.create(new Uint8Array(message.model), {
        intraOpNumThreads: message.threads, interOpNumThreads: 1, executionMode: "sequential", graphOptimizationLevel: "all"
      })
      const inputs = session.inputNames.map((name) => {
        const meta = (session.inputMetadata || []).find((m) => m.name === name)
        return { name, type: meta && meta.isTensor ? meta.type : "unknown" }
      })
      parentPort.postMessage({ type: "ready", inputs, outputs: [...session.outputNames] })
    } catch (e) {
      parentPort.postMessage({ type: "failed", message: String(e && e.message || e) })
    }
    return
  }
  try {
    // Each input of the message is a run of its own, one after another.
    const answers = []
    const transfer = []
    for (const input of message.runs) {
      const feeds = {}
      for (const [name, t] of Object.entries(input)) feeds[name] = new ort.Tensor(t.type, t.data, t.dims)
      const result = await session.run(feeds)
      const outputs = {}
      for (const [name, t] of Object.entries(result)) {
        const data = new Float32Array(t.data)
        outputs[name] = { data, dims: t.dims }
        transfer.push(data.buffer)
      }
      answers.push(outputs)
    }
    parentPort.postMessage({ type: "result", id: message.id, outputs: answers }, transfer)
  } catch (e) {
    parentPort.postMessage({ type: "error", id: message.id, message: String(e && e.message || e) })
  }
})
`

const require = createRequire(import.meta.url)

/** Where onnxruntime-node resolves from this package, or why it does not. */
export const resolveOrt = (): { readonly path: string } | { readonly missing: string } => {
  try {
    return { path: require.resolve("onnxruntime-node") }
  } catch (e) {
    return { missing: `onnxruntime-node is not installed (${e instanceof Error ? e.message.split("\n")[0] : String(e)})` }
  }
}

type Reply =
  | { readonly type: "ready"; readonly inputs: ReadonlyArray<WorkerInput>; readonly outputs: ReadonlyArray<string> }
  | { readonly type: "failed"; readonly message: string }
  | { readonly type: "result"; readonly id: number; readonly outputs: ReadonlyArray<WorkerOutputs> }
  | { readonly type: "error"; readonly id: number; readonly message: string }

/**
 * Starts a worker holding a session of `model` (the ONNX file's bytes, copied to the worker) with
 * `threads` intra-op threads. Resolves once the session is created; rejects with the reason when
 * onnxruntime-node does not load or the model does not parse. A worker that dies later rejects
 * the runs in flight, and the next run starts a new one.
 */
export const startOrtWorker = (ortPath: string, model: Uint8Array, threads: number): Promise<OrtWorker> => {
  let worker: Worker | undefined
  let starting: Promise<Worker> | undefined
  let graph: { readonly inputs: ReadonlyArray<WorkerInput>; readonly outputs: ReadonlyArray<string> } = { inputs: [], outputs: [] }
  let closed = false
  let nextId = 0
  const pending = new Map<number, { readonly resolve: (v: any) => void; readonly reject: (e: Error) => void }>()
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error)
    pending.clear()
  }
  const spawn = (): Promise<Worker> =>
    new Promise<Worker>((resolve, reject) => {
      // The source is CommonJS: a process started with --input-type=module (node -e) would pass that
      // flag on and the worker would parse its source as a module, where require does not exist.
      const execArgv = process.execArgv.filter((a, i, all) => !a.startsWith("--input-type") && all[i - 1] !== "--input-type")
      const w = new Worker(WORKER_SOURCE, { eval: true, execArgv, workerData: { ort: ortPath }, stdout: false, stderr: false })
      let ready = false
      w.on("message", (reply: Reply) => {
        switch (reply.type) {
          case "ready":
            ready = true
            // Idle from now on: the worker does not keep the process alive (a run in flight does).
            if (pending.size === 0) w.unref()
            graph = { inputs: reply.inputs, outputs: reply.outputs }
            return resolve(w)
          case "failed":
            void w.terminate()
            return reject(new Error(reply.message))
          case "result":
          case "error": {
            const p = pending.get(reply.id)
            if (p === undefined) return
            pending.delete(reply.id)
            if (pending.size === 0) w.unref()
            return reply.type === "result" ? p.resolve(reply.outputs) : p.reject(new Error(reply.message))
          }
        }
      })
      const died = (error: Error) => {
        if (worker === w) worker = undefined
        if (!ready) reject(error)
        failAll(error)
      }
      w.on("error", died)
      w.on("exit", (code) => died(new Error(`the judge's worker thread exited (code ${code})`)))
      // A copy in an ArrayBuffer of its own: the bytes stay here, so that a worker that died can be
      // started again (a Buffer's `slice` is a view, and a small file's Buffer shares Node's pool,
      // which cannot be transferred).
      const copy = new Uint8Array(model)
      w.postMessage({ type: "init", model: copy.buffer, threads }, [copy.buffer])
    })
  const current = (): Promise<Worker> => {
    if (worker !== undefined) return Promise.resolve(worker)
    starting ??= spawn().then(
      (w) => {
        starting = undefined
        worker = w
        return w
      },
      (e: unknown) => {
        starting = undefined
        throw e
      }
    )
    return starting
  }
  const run: OrtWorker["run"] = (runs) =>
    closed
      ? Promise.reject(new Error("the judge is closed"))
      : current().then((w) =>
        new Promise((resolve, reject) => {
          const id = nextId++
          pending.set(id, { resolve, reject })
          // Idle, the worker does not keep the process alive; a run in flight does (a script awaiting it).
          w.ref()
          // The input buffers are built for these runs: moved, not copied.
          w.postMessage({ type: "run", id, runs }, runs.flatMap((feeds) => Object.values(feeds).map((t) => t.data.buffer as ArrayBuffer)))
        })
      )
  const close = async () => {
    closed = true
    failAll(new Error("the judge is closed"))
    const w = worker ?? (starting === undefined ? undefined : await starting.catch(() => undefined))
    worker = undefined
    if (w === undefined) return
    // Not `terminate()` at once: a thread torn down in the middle of a native run aborts the whole
    // process (onnxruntime's binding throws a C++ exception into a dying environment). The worker
    // finishes the run in hand, releases its session and ends; terminated only if it has not within 5 s.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => void w.terminate().then(() => resolve()), 5_000)
      w.once("exit", () => {
        clearTimeout(timer)
        resolve()
      })
      w.ref()
      w.postMessage({ type: "close" })
    })
  }
  return current().then(() => ({ run, close, ...graph }))
}
