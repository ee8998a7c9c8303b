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
import { createRequire } from "node:module"
import { basename, dirname, extname, resolve } from "node:path"
import type * as Ort from "onnxruntime-node"
import { decodeMapping, type Mapping, weightsOf } from "./mapping.js"
import { logOdds, pool } from "./scores.js"
import { type Frame, frameOf, padBatch, padIdOf, rowsOf, type Tokenizer, type Windowing } from "./tokens.js"

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
  readonly logits: (texts: ReadonlyArray<string>) => Promise<ReadonlyArray<Readonly<Partial<Record<A, number>>>>>
  readonly close: () => Promise<void>
}

export interface LoadOptions {
  /** onnxruntime's session options (threads, optimisation level); default one intra-op thread. */
  readonly session?: Ort.InferenceSession.SessionOptions
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

type IntArray = BigInt64Array | Int32Array

/** A tensor of the input's integer type (int64, as Hugging Face exports them, or int32). */
const intTensor = (ort: typeof Ort, type: "int64" | "int32", values: ReadonlyArray<number>, dims: ReadonlyArray<number>): Ort.Tensor => {
  const data: IntArray = type === "int64" ? new BigInt64Array(values.length) : new Int32Array(values.length)
  if (data instanceof BigInt64Array) values.forEach((v, i) => (data[i] = BigInt(v)))
  else data.set(values)
  return new ort.Tensor(type, data, dims)
}

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
    const ort = yield* Effect.try({
      // Required at run time, not imported: bundles leave the native addon out of their chunks.
      try: () => createRequire(import.meta.url)("onnxruntime-node") as typeof Ort,
      catch: (e) => modelError(`onnxruntime-node is not installed (${messageOf(e)})`)
    })
    const session = yield* Effect.tryPromise({
      try: () => ort.InferenceSession.create(modelFile, { intraOpNumThreads: 1, ...options.session }),
      catch: (e) => modelError(`does not load (${messageOf(e)})`)
    })

    const inputs = [mapping.inputs.ids, mapping.inputs.mask, ...(mapping.inputs.tokenTypes === undefined ? [] : [mapping.inputs.tokenTypes])]
    const inputType = new Map<string, "int64" | "int32">()
    const checked = Effect.gen(function*() {
      for (const [field, name] of Object.entries(mapping.inputs)) {
        if (name !== undefined && !session.inputNames.includes(name)) {
          return yield* Effect.fail(modelError(`has no input "${name}" (inputs.${field}); its inputs are ${session.inputNames.join(", ")}`))
        }
      }
      const unfed = session.inputNames.filter((n) => !inputs.includes(n))
      if (unfed.length > 0) {
        const hint = unfed.some((n) => n.includes("type")) ? " (set inputs.tokenTypes)" : ""
        return yield* Effect.fail(modelError(`needs inputs the mapping does not feed: ${unfed.join(", ")}${hint}`))
      }
      for (const name of inputs) {
        const meta = session.inputMetadata.find((m) => m.name === name)
        const type = meta !== undefined && meta.isTensor ? meta.type : "int64"
        if (type !== "int64" && type !== "int32") return yield* Effect.fail(modelError(`input "${name}" is ${type}; token inputs must be int64 or int32`))
        inputType.set(name, type)
      }
      for (const [i, a] of mapping.attributes.entries()) {
        const output = a.output ?? mapping.output
        if (!session.outputNames.includes(output)) {
          const field = a.output === undefined ? "output" : `attributes.${i}.output`
          return yield* Effect.fail(modelError(`has no output "${output}" (${field}); its outputs are ${session.outputNames.join(", ")}`))
        }
      }
    })

    const outputs = [...new Set(mapping.attributes.map((a) => a.output ?? mapping.output))]
    const pooling = mapping.window?.pool ?? "max"

    /** Every row's output columns, checked against the mapping: one row per window, enough columns. */
    const run = async (rows: ReadonlyArray<ReadonlyArray<number>>): Promise<Map<string, { readonly data: ArrayLike<number>; readonly columns: number }>> => {
      const batch = padBatch(rows, padId)
      const dims = [batch.rows, batch.width]
      const values: Record<string, ReadonlyArray<number>> = { [mapping.inputs.ids]: batch.ids, [mapping.inputs.mask]: batch.mask }
      if (mapping.inputs.tokenTypes !== undefined) values[mapping.inputs.tokenTypes] = batch.types
      const feeds: Record<string, Ort.Tensor> = {}
      for (const [name, v] of Object.entries(values)) feeds[name] = intTensor(ort, inputType.get(name) ?? "int64", v, dims)
      const result = await session.run(feeds, outputs)
      const read = new Map<string, { readonly data: ArrayLike<number>; readonly columns: number }>()
      for (const name of outputs) {
        const tensor = result[name] as Ort.Tensor | undefined
        if (tensor === undefined) throw new Error(`output "${name}" is missing from the run`)
        if (tensor.type !== "float32" && tensor.type !== "float64") throw new Error(`output "${name}" is ${tensor.type}, not float32`)
        if (tensor.dims.length !== 2 || tensor.dims[0] !== batch.rows) {
          throw new Error(`output "${name}" has shape [${tensor.dims.join(", ")}]; a classifier's is [rows, classes]`)
        }
        read.set(name, { data: tensor.data as ArrayLike<number>, columns: tensor.dims[1]! })
      }
      return read
    }

    const logits = async (texts: ReadonlyArray<string>) => {
      if (texts.length === 0) return []
      const perText = texts.map((t) => rowsOf(tokenizer, frame, windowing, t))
      const out = await run(perText.flat())
      let row = 0
      return perText.map((rows) => {
        const first = row
        row += rows.length
        const scores: Partial<Record<Mapping["attributes"][number]["attribute"], number>> = {}
        for (const a of mapping.attributes) {
          const { columns, data } = out.get(a.output ?? mapping.output)!
          const z = rows.map((_, w) => {
            const raw = logOdds(a.activation, data, (first + w) * columns, columns, a.index)
            return a.calibration === undefined ? raw : a.calibration.a * raw + a.calibration.b
          })
          scores[a.attribute] = pool(pooling, z)
        }
        return scores
      })
    }

    const probed = Effect.gen(function*() {
      const out = yield* Effect.tryPromise({ try: () => run([[...frame.prefix, ...frame.suffix]]), catch: (e) => modelError(`does not run (${messageOf(e)})`) })
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
    yield* Effect.onError(Effect.zipRight(checked, probed), () => Effect.promise(() => session.release()))

    return {
      model: mapping.name ?? basename(modelFile, extname(modelFile)),
      heads: new Map(mapping.attributes.map((a) => [a.attribute, weightsOf(a.combine)])),
      logits,
      close: () => session.release()
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
  return Effect.succeed({ size: mapping.window.size, stride: mapping.window.stride })
}
