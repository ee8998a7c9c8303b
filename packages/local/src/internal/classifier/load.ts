/**
 * Loads an operator's ONNX sequence classifier from its mapping file (mapping.ts) and checks it
 * before it serves: the files are there and parse, the graph's inputs are the ones the mapping
 * names (and no others), and one probe comment runs through it to outputs of the shape the mapping
 * reads (a row per window, a column per index it names). Anything wrong is a `ClassifierJudgeError`
 * naming the file and the field or input at fault, so a server that falls back to its built-in
 * judge can say why.
 */
import { Tokenizer as HfTokenizer } from "@huggingface/tokenizers"
import { Data, Effect, Either } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { basename, dirname, extname, resolve } from "node:path"
import { decodeMapping, type Mapping, weightsOf } from "./mapping.js"
import { logOdds, pool } from "./scores.js"
import { resolveOrt, startOrtWorker, type WorkerTensor } from "../judge/ortWorker.js"
import { type Frame, frameOf, padBatch, padIdOf, rowsOf, type Tokenizer, type Windowing } from "./tokens.js"

/** Rows in one run at most. */
const MAX_RUN_ROWS = 32

/**
 * The rows (by index) in runs of similar length, shortest first: a run ends at `MAX_RUN_ROWS`
 * rows or when the next row is more than twice as long as its first (plus 8 tokens), so padding
 * never costs much more than the run's own tokens.
 */
export const runsByLength = (lengths: ReadonlyArray<number>): Array<Array<number>> => {
  const order = Array.from(lengths.keys()).sort((a, b) => lengths[a]! - lengths[b]!)
  const runs: Array<Array<number>> = []
  let run: Array<number> = []
  for (const i of order) {
    if (run.length > 0 && (run.length >= MAX_RUN_ROWS || lengths[i]! > 2 * lengths[run[0]!]! + 8)) {
      runs.push(run)
      run = []
    }
    run.push(i)
  }
  if (run.length > 0) runs.push(run)
  return runs
}

/** What failed to load: the mapping file, the tokenizer, or the model; `path` is the file. */
export class ClassifierJudgeError extends Data.TaggedError("ClassifierJudgeError")<{
  readonly part: "mapping" | "tokenizer" | "model"
  readonly path: string
  readonly reason: string
}> {
  override get message(): string {
    return `${this.part} ${this.path}: ${this.reason}`
  }
}

export interface Combination {
  readonly head: number
  readonly linear: number
  readonly bias: number
}

/** The loaded classifier, in the shape of a JudgeBackend (JudgeBackend.ts). */
export interface Classifier<A extends string> {
  readonly model: string
  readonly heads: ReadonlyMap<A, Combination>
  /** The cascade band of the attributes whose mapping gives one. */
  readonly bands: ReadonlyMap<A, readonly [number, number]>
  readonly logits: (texts: ReadonlyArray<string>) => Promise<ReadonlyArray<Readonly<Partial<Record<A, number>>>>>
  readonly close: () => Promise<void>
}

export interface LoadOptions {
  /** Intra-op threads of the session (default 1: it already runs beside the serving thread). */
  readonly threads?: number
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

const readJson = (part: ClassifierJudgeError["part"], path: string, what: string) =>
  Effect.try({
    try: (): unknown => {
      if (!existsSync(path)) throw new Error(`${what} not found`)
      return JSON.parse(readFileSync(path, "utf8"))
    },
    catch: (e) => new ClassifierJudgeError({ part, path, reason: messageOf(e) })
  })

/** A tensor of the input's integer type (int64, as Hugging Face exports them, or int32). */
const intTensor = (type: "int64" | "int32", values: ReadonlyArray<number>, dims: ReadonlyArray<number>): WorkerTensor => {
  if (type === "int32") return { type, data: Int32Array.from(values), dims }
  const data = new BigInt64Array(values.length)
  values.forEach((v, i) => (data[i] = BigInt(v)))
  return { type, data, dims }
}

type Output = { readonly data: Float32Array; readonly columns: number }

export const loadClassifier = (
  mappingPath: string,
  options: LoadOptions = {}
): Effect.Effect<Classifier<Mapping["attributes"][number]["attribute"]>, ClassifierJudgeError> =>
  Effect.gen(function*() {
    const mappingFile = resolve(mappingPath)
    const mappingError = (reason: string) => new ClassifierJudgeError({ part: "mapping", path: mappingFile, reason })
    const mapping = yield* Either.match(decodeMapping(yield* readJson("mapping", mappingFile, "mapping file")), {
      onLeft: (reason) => Effect.fail(mappingError(reason)),
      onRight: Effect.succeed
    })
    const here = dirname(mappingFile)

    const tokenizerFile = resolve(here, mapping.tokenizer)
    const tokenizerJson = yield* readJson("tokenizer", tokenizerFile, "tokenizer file")
    const tokenizerConfig = mapping.tokenizerConfig === undefined
      ? {}
      : yield* readJson("tokenizer", resolve(here, mapping.tokenizerConfig), "tokenizer config file")
    const { frame, padId, tokenizer } = yield* Effect.try({
      try: () => {
        const tokenizer: Tokenizer = new HfTokenizer(tokenizerJson as object, tokenizerConfig as object)
        return { tokenizer, frame: frameOf(tokenizer), padId: mapping.padId ?? padIdOf(tokenizerJson, tokenizer) }
      },
      catch: (e) => new ClassifierJudgeError({ part: "tokenizer", path: tokenizerFile, reason: `does not load (${messageOf(e)})` })
    })
    const windowing = yield* windowingOf(mapping, frame, mappingError)

    const modelFile = resolve(here, mapping.model)
    const modelError = (reason: string) => new ClassifierJudgeError({ part: "model", path: modelFile, reason })
    if (!existsSync(modelFile)) return yield* Effect.fail(modelError("model file not found"))
    const ort = resolveOrt()
    if ("missing" in ort) return yield* Effect.fail(modelError(ort.missing))
    const bytes = yield* Effect.try({ try: () => readFileSync(modelFile), catch: (e) => modelError(`cannot be read (${messageOf(e)})`) })
    // The session runs on a worker thread: onnxruntime-node computes on the calling thread.
    const worker = yield* Effect.tryPromise({
      try: () => startOrtWorker(ort.path, bytes, options.threads ?? 1),
      catch: (e) => modelError(`does not load (${messageOf(e)})`)
    })

    const inputs = [mapping.inputs.ids, mapping.inputs.mask, ...(mapping.inputs.tokenTypes === undefined ? [] : [mapping.inputs.tokenTypes])]
    const graphInputs = worker.inputs.map((i) => i.name)
    const inputType = new Map<string, "int64" | "int32">()
    const checked = Effect.gen(function*() {
      for (const [field, name] of Object.entries(mapping.inputs)) {
        if (name !== undefined && !graphInputs.includes(name)) {
          return yield* Effect.fail(modelError(`has no input "${name}" (inputs.${field}); its inputs are ${graphInputs.join(", ")}`))
        }
      }
      const unfed = graphInputs.filter((n) => !inputs.includes(n))
      if (unfed.length > 0) {
        const hint = unfed.some((n) => n.includes("type")) ? " (set inputs.tokenTypes)" : ""
        return yield* Effect.fail(modelError(`needs inputs the mapping does not feed: ${unfed.join(", ")}${hint}`))
      }
      for (const { name, type } of worker.inputs) {
        if (type !== "int64" && type !== "int32") return yield* Effect.fail(modelError(`input "${name}" is ${type}; token inputs must be int64 or int32`))
        inputType.set(name, type)
      }
      for (const [i, a] of mapping.attributes.entries()) {
        const output = a.output ?? mapping.output
        if (!worker.outputs.includes(output)) {
          const field = a.output === undefined ? "output" : `attributes.${i}.output`
          return yield* Effect.fail(modelError(`has no output "${output}" (${field}); its outputs are ${worker.outputs.join(", ")}`))
        }
      }
    })

    const outputs = [...new Set(mapping.attributes.map((a) => a.output ?? mapping.output))]
    const pooling = mapping.window?.pool ?? "max"

    /** One run of rows, padded to its longest: each output's columns, checked to be one row per row. */
    const runRows = async (rows: ReadonlyArray<ReadonlyArray<number>>): Promise<Map<string, Output>> => {
      const batch = padBatch(rows, padId)
      const dims = [batch.rows, batch.width]
      const values: Record<string, ReadonlyArray<number>> = { [mapping.inputs.ids]: batch.ids, [mapping.inputs.mask]: batch.mask }
      if (mapping.inputs.tokenTypes !== undefined) values[mapping.inputs.tokenTypes] = batch.types
      const feeds: Record<string, WorkerTensor> = {}
      for (const [name, v] of Object.entries(values)) feeds[name] = intTensor(inputType.get(name) ?? "int64", v, dims)
      const [result] = await worker.run([feeds])
      if (result === undefined) throw new Error("the run answered nothing")
      const read = new Map<string, Output>()
      for (const name of outputs) {
        const tensor = result[name]
        if (tensor === undefined) throw new Error(`output "${name}" is missing from the run`)
        if (tensor.dims.length !== 2 || tensor.dims[0] !== batch.rows) {
          throw new Error(`output "${name}" has shape [${tensor.dims.join(", ")}]; a classifier's is [rows, classes]`)
        }
        read.set(name, { data: tensor.data, columns: tensor.dims[1]! })
      }
      return read
    }

    /** Each row's log-odds per attribute: rows in runs of similar length, each padded to its longest. */
    const scoreRows = async (rows: ReadonlyArray<ReadonlyArray<number>>): Promise<Array<Array<number>>> => {
      const z = rows.map(() => new Array<number>(mapping.attributes.length))
      await Promise.all(runsByLength(rows.map((r) => r.length)).map(async (run) => {
        const out = await runRows(run.map((r) => rows[r]!))
        run.forEach((r, b) =>
          mapping.attributes.forEach((a, k) => {
            const { columns, data } = out.get(a.output ?? mapping.output)!
            const raw = logOdds(a.activation, data, b * columns, columns, a.index)
            z[r]![k] = a.calibration === undefined ? raw : a.calibration.a * raw + a.calibration.b
          })
        )
      }))
      return z
    }

    const logits = async (texts: ReadonlyArray<string>) => {
      if (texts.length === 0) return []
      const perText = texts.map((t) => rowsOf(tokenizer, frame, windowing, t))
      const z = await scoreRows(perText.flat())
      let row = 0
      return perText.map((rows) => {
        const windows = z.slice(row, (row += rows.length))
        const scores: Partial<Record<Mapping["attributes"][number]["attribute"], number>> = {}
        mapping.attributes.forEach((a, k) => (scores[a.attribute] = pool(pooling, windows.map((w) => w[k]!))))
        return scores
      })
    }

    const probed = Effect.gen(function*() {
      const out = yield* Effect.tryPromise({ try: () => runRows([[...frame.prefix, ...frame.suffix]]), catch: (e) => modelError(`does not run (${messageOf(e)})`) })
      for (const [i, a] of mapping.attributes.entries()) {
        const { columns } = out.get(a.output ?? mapping.output)!
        if (a.index >= columns) {
          return yield* Effect.fail(mappingError(`attributes.${i}.index: ${a.index} is past the last column of output "${a.output ?? mapping.output}" (${columns} columns)`))
        }
        if (a.activation === "softmax" && columns < 2) {
          return yield* Effect.fail(mappingError(`attributes.${i}.activation: softmax needs an output of two classes or more; "${a.output ?? mapping.output}" has one column`))
        }
      }
    })
    yield* Effect.onError(Effect.zipRight(checked, probed), () => Effect.promise(() => worker.close()))

    return {
      model: mapping.name ?? basename(modelFile, extname(modelFile)),
      heads: new Map(mapping.attributes.map((a) => [a.attribute, weightsOf(a.combine)])),
      bands: new Map(mapping.attributes.flatMap((a) => (a.band === undefined ? [] : [[a.attribute, a.band] as const]))),
      logits,
      close: () => worker.close()
    }
  })

/** The mapping's windowing, checked against the tokenizer's special tokens and `maxLength`. */
const windowingOf = (mapping: Mapping, frame: Frame, error: (reason: string) => ClassifierJudgeError): Effect.Effect<Windowing, ClassifierJudgeError> => {
  const specials = frame.prefix.length + frame.suffix.length
  const room = mapping.maxLength - specials
  if (room < 1) return Effect.fail(error(`maxLength: ${mapping.maxLength} leaves no room for text besides the tokenizer's ${specials} special tokens`))
  if (mapping.window === undefined) return Effect.succeed({ size: room })
  if (mapping.window.size > room) {
    return Effect.fail(error(`window.size: ${mapping.window.size} tokens and the ${specials} special tokens exceed maxLength (${mapping.maxLength}); at most ${room}`))
  }
  return Effect.succeed({ size: mapping.window.size, stride: mapping.window.stride, limit: mapping.window.limit })
}
