/**
 * The built-in judge backend (issue 27): heads over the shipped sentence encoder
 * (`models/encoder/`: Universal Sentence Encoder Lite converted to ONNX, and `judge.json`, the
 * heads the training workspace fitted). It runs on onnxruntime-node, on a worker thread of its own
 * (`internal/judge/ortWorker.ts`: onnxruntime-node computes on the calling thread, which would stop
 * the server's event loop for a whole batch).
 *
 * Started with the engine, not on first use: reading and checking the model file (sha256, 14 MB)
 * and creating the session take about 70 ms (measured: docs/performance.md), so `/readyz` tells the
 * truth from the first request and no request pays for it. It does not start, and the judge is
 * unavailable with the reason (the engine serves linear), when onnxruntime-node is not installed
 * (the Lambda bundle leaves it out), `judge.json` is absent or does not parse, the model file is
 * missing or its sha256 differs, the heads were fitted on another linear release than the model set
 * served (their combination would be off), or onnxruntime cannot load the model.
 */
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { Adaptation } from "@decorum/core"
import type { Perspective } from "@decorum/domain"
import { Effect, Either, Layer } from "effect"
import { AttributeModel } from "./AttributeModel.js"
import * as Judge from "./Judge.js"
import type { JudgeBackend, JudgeCombination } from "./JudgeBackend.js"
import { SentencePiece, type Vocabulary } from "./internal/encoder/sentencepiece.js"
import { bounded, embedderOf, makeEncoder, makeRecent } from "./internal/judge/encoder.js"
import { parseJudgeFile } from "./JudgeFile.js"
import { resolveOrt, startOrtWorker } from "./internal/judge/ortWorker.js"
import { defaultModelDirectory } from "./models/TrainedModel.js"

/**
 * The most site adapter embeddings (`Adaptation.Embedder` calls of the serving path) in flight on
 * the judge's encoder; past it, an adapted account's comment gets its hashed adapter. At about 3 ms
 * an encoder run, 8 waiting is about the judge's own latency budget (`Judge.DEFAULT_BUDGET_MS`).
 */
export const ADAPTER_EMBEDS_IN_FLIGHT = 8

/** How many of the texts it judged last the judge keeps the embeddings of, for their site adapters. */
export const RECENT_EMBEDDINGS = 256

/** Where the judge's file is, in a models directory. */
export const JUDGE_FILE = "encoder/judge.json"

/**
 * Intra-op threads of the encoder's session. One: the session already runs beside the serving
 * thread, and the server runs a process per core (docs/performance.md has the measurement).
 */
export const DEFAULT_THREADS = 1

export interface Options {
  /** The models directory holding `encoder/judge.json` (default: the shipped one). */
  readonly directory?: string
  /** The version of the linear model set served: the heads must have been fitted on it. */
  readonly linearVersion: string
  readonly threads?: number
}

const unavailable = (reason: string) => new Judge.JudgeUnavailable({ reason })

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** `judge.json` of a models directory, read and checked (its encoder is not loaded yet). */
const readJudgeFile = (directory: string | undefined) =>
  Effect.gen(function*() {
    const path = join(directory ?? defaultModelDirectory(), JUDGE_FILE)
    if (!existsSync(path)) return yield* unavailable(`no ${JUDGE_FILE} in ${dirname(dirname(path))}`)
    const file = yield* Either.mapLeft(parseJudgeFile(readFileSync(path, "utf8")), unavailable)
    return { file, directory: dirname(path) }
  })

/** The encoder `judge.json` names, its sha256 checked, its session started on a worker (stopped with the scope). */
const startEncoder = ({ directory, file }: Effect.Effect.Success<ReturnType<typeof readJudgeFile>>, threads: number | undefined) =>
  Effect.gen(function*() {
    const ort = resolveOrt()
    if ("missing" in ort) return yield* unavailable(ort.missing)
    const modelPath = join(directory, file.encoder.file)
    if (!existsSync(modelPath)) return yield* unavailable(`the encoder ${modelPath} is missing`)
    const model = readFileSync(modelPath)
    const digest = sha256(model)
    if (digest !== file.encoder.sha256.toLowerCase()) {
      return yield* unavailable(`the encoder ${modelPath} is damaged (sha256 ${digest.slice(0, 12)}..., judge.json names ${file.encoder.sha256.slice(0, 12)}...)`)
    }
    const vocabulary = yield* Effect.try({
      try: () => JSON.parse(readFileSync(join(directory, file.encoder.vocab), "utf8")) as Vocabulary,
      catch: (e) => unavailable(`the encoder's vocabulary ${file.encoder.vocab} does not load (${e instanceof Error ? e.message : String(e)})`)
    })
    const worker = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => startOrtWorker(ort.path, model, threads ?? DEFAULT_THREADS),
        catch: (e) => unavailable(`onnxruntime did not load the encoder (${e instanceof Error ? e.message : String(e)})`)
      }),
      (w) => Effect.promise(() => w.close())
    )
    return { encoder: makeEncoder(worker, new SentencePiece(vocabulary), file.encoder.maxTokens, file.dimensions), sha256: digest }
  })

/** The encoder's files checked and the heads read, the session started on its worker: the judge's source. */
export const make = (options: Options): Effect.Effect<Judge.Source, Judge.JudgeUnavailable, import("effect").Scope.Scope> =>
  Effect.gen(function*() {
    const judgeFile = yield* readJudgeFile(options.directory)
    const { file } = judgeFile
    if (file.linearRelease !== options.linearVersion) {
      return yield* unavailable(`${file.release} was fitted on ${file.linearRelease}, and the model set served is ${options.linearVersion}`)
    }
    const { encoder, sha256 } = yield* startEncoder(judgeFile, options.threads)
    const recent = makeRecent(RECENT_EMBEDDINGS, file.dimensions)
    const heads = Object.entries(file.heads).map(([name, head]) => ({
      attribute: name as Perspective.Attribute,
      weights: Float32Array.from(head.weights),
      bias: head.bias,
      combine: head.combine as JudgeCombination
    }))
    const dimensions = file.dimensions
    const backend: JudgeBackend = {
      model: file.release,
      heads: new Map(heads.map((h) => [h.attribute, h.combine])),
      logits: async (texts) => {
        const embeddings = await encoder.embed(texts)
        recent.remember(texts, embeddings)
        return texts.map((_, row) => {
          const out: Partial<Record<Perspective.Attribute, number>> = {}
          const offset = row * dimensions
          for (const head of heads) {
            let z = head.bias
            for (let j = 0; j < dimensions; j++) z += head.weights[j]! * embeddings[offset + j]!
            out[head.attribute] = z
          }
          return out
        })
      },
      // The worker is stopped by this scope's finalizer.
      close: () => Promise.resolve()
    }
    return {
      backend,
      cascade: (file.cascade ?? {}) as NonNullable<Judge.Source["cascade"]>,
      status: { backend: "built-in" },
      // A comment the judge has just read gets its embedding from it; others queue (boundedly) for the encoder.
      embedder: recent.reading(bounded(embedderOf(encoder, sha256), ADAPTER_EMBEDS_IN_FLIGHT))
    }
  })

/**
 * The encoder of the models directory alone, as the `Adaptation.Embedder` that fitting site
 * adapters reads (`decorum adapt`, a refit worker): its heads are not read, so it serves whatever
 * linear release they were fitted on. A session of its own, stopped with the scope.
 */
export const makeEmbedder = (
  options: { readonly directory?: string; readonly threads?: number } = {}
): Effect.Effect<Adaptation.Embedder["Type"], Judge.JudgeUnavailable, import("effect").Scope.Scope> =>
  Effect.flatMap(readJudgeFile(options.directory), (judgeFile) =>
    Effect.map(startEncoder(judgeFile, options.threads), ({ encoder, sha256 }) => embedderOf(encoder, sha256)))

/**
 * `makeEmbedder` as a layer: it adds `Adaptation.Embedder` to the context when the encoder starts;
 * when it does not (onnxruntime-node absent, a missing or damaged file), nothing, with the reason
 * logged, and adapters are fitted on hashed words alone (the port is optional).
 */
export const layerEmbedder = (options: { readonly directory?: string; readonly threads?: number } = {}): Layer.Layer<never> =>
  Layer.unwrapScoped(
    makeEmbedder(options).pipe(
      Effect.map((embedder): Layer.Layer<never> => Layer.succeed(Adaptation.Embedder, embedder)),
      Effect.catchAll(({ reason }) =>
        Effect.as(Effect.logWarning(`Site adapters are fitted on hashed words only: the encoder is unavailable (${reason})`), Layer.empty)
      )
    )
  )

/** The judge in `mode` on the built-in backend of the models directory, for the `AttributeModel` served. */
export const layer = (
  options: { readonly mode: Judge.Mode; readonly directory?: string; readonly threads?: number; readonly budgetMs?: number }
): Layer.Layer<Judge.Judge, never, AttributeModel> =>
  Layer.scoped(
    Judge.Judge,
    Effect.flatMap(AttributeModel, (model) =>
      Judge.make(make({ linearVersion: model.version, ...(options.directory ? { directory: options.directory } : {}), ...(options.threads ? { threads: options.threads } : {}) }), {
        mode: options.mode,
        ...(options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs })
      }))
  )
