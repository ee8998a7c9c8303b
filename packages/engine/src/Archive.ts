/**
 * `decorum score`: scores an archive of comments (CSV with a header row, or JSON lines) with the
 * same scores as `comments:analyze`, on worker threads, and writes one output row per input row.
 *
 * - Input: a file or `-` (standard input). CSV is recognised by the name (`.csv`; `.tsv` is read
 *   with tabs) or, for standard input, by a first character other than `{`. JSON lines carry
 *   `text` and an optional `id`; CSV names its columns in the header (`textColumn`, `idColumn`),
 *   read by the one CSV reader (`Csv`). A row without an id is named by its line number.
 * - Output: JSON lines (default) or CSV when the output ends in `.csv`: the id, one score per
 *   attribute and the model version. A row that cannot be scored (bad JSON, no text, an empty or
 *   too long comment, a record over 1 MiB or with too many fields, an unterminated quote, text that
 *   is not UTF-8) is reported on standard error with its line number and written with an `error`
 *   field; the other rows are scored.
 * - `resume` skips ids already present in the output and appends to it.
 * - Scores: every comment goes through the HTTP API's own entry point (the compat family: no
 *   spans): `Analyze.analyzeNow`, its plain form that the Node fast path uses, when the scorer
 *   answers without I/O, else `Analyze.analyze`; so its validation, language rules, scores and
 *   errors are the API's by construction. The engine is `analyzeLayer`: with the local engine only the models analyze
 *   reads (attribute set, language identifier, per-language sets), so a worker starts faster.
 * - Work: the main thread reads, batches (512 rows a message) and writes; worker threads score
 *   (`internal/archivePool.ts`). Output goes out one write per batch.
 */
import { Analyze } from "@decorum/core"
import { type DecorumError, type Evaluated, Perspective } from "@decorum/domain"
import { Judge } from "@decorum/local"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import { createReadStream, createWriteStream, existsSync, statSync } from "node:fs"
import { availableParallelism } from "node:os"
import type { Readable, Writable } from "node:stream"
import type { MessagePort } from "node:worker_threads"
import { csvCell } from "./Csv.js"
import * as Engine from "./Engine.js"
import { EngineConfig } from "./EngineConfig.js"
import { chunks, csvRows, existingIds, jsonRows, type Row, ScoreUsageError } from "./internal/archiveInput.js"
import * as Pool from "./internal/archivePool.js"

export { existingIds, MAX_RECORD_CHARS, type Row, ScoreUsageError } from "./internal/archiveInput.js"
export type { BatchScorer, PackedResults, RowResult } from "./internal/archivePool.js"

export interface ScoreOptions {
  /** A file path, or `-` for standard input. */
  readonly input: string
  /** A file path; standard output when absent. JSON lines unless it ends in `.csv`. */
  readonly output?: string | undefined
  /** Perspective attribute names. Default: TOXICITY. */
  readonly attributes?: ReadonlyArray<string> | undefined
  /** Worker threads. Default: the number of cores; 1 scores on the main thread. */
  readonly workers?: number | undefined
  readonly textColumn?: string | undefined
  readonly idColumn?: string | undefined
  readonly resume?: boolean | undefined
  /**
   * The script a worker thread runs: it must call `runWorker` when its `workerData` carries
   * `WORKER_MARK` (the `decorum` command does). Default: this process's entry script.
   */
  readonly workerEntry?: string | URL | undefined
  /** Where progress and problems go. Default: `process.stderr`. */
  readonly stderr?: NodeJS.WriteStream | Writable | undefined
  /** Where the rows go when there is no `output`. Default: `process.stdout`. */
  readonly stdout?: Writable | undefined
  /** Standard input, for `-`. Default: `process.stdin`. */
  readonly stdin?: Readable | undefined
}

export interface ScoreSummary {
  readonly rows: number
  readonly scored: number
  readonly failed: number
  readonly skipped: number
  /** Scoring time, from the moment every worker was ready. */
  readonly seconds: number
  /** CPU time of the process (all threads) while scoring. */
  readonly cpuSeconds: number
  /** Time spent starting the workers and loading their models. */
  readonly startupSeconds: number
}

/** Marks a worker thread started by `score` (its `workerData` holds this key, set to true). */
export const WORKER_MARK = "decorum-score-worker"

/** Rows of a batch scored through `Analyze.analyze` at once: four of the judge's calls (`Judge.DEFAULT_MAX_BATCH`), far below its queue's bound. */
const ANALYZE_CONCURRENCY = 4 * Judge.DEFAULT_MAX_BATCH

/** Rows per message to a worker (and per write). */
const BATCH = 512

// ---------------------------------------------------------------------------------------------
// Scoring (the same on the main thread and in a worker)

const requestOf = (text: string, requested: ReadonlyArray<string>) =>
  ({ comment: { text }, requestedAttributes: Object.fromEntries(requested.map((a) => [a, {}])) }) as Perspective.AnalyzeCommentRequest

const rowOf = (requested: ReadonlyArray<string>, result: Evaluated<Perspective.AnalyzeCommentResponse>): Pool.RowResult => ({
  scores: requested.map((a) => result.value.attributeScores?.[a]?.summaryScore.value ?? Number.NaN),
  model: result.provenance.model
})

const failedRow = (error: DecorumError): Pool.RowResult => ({ error: error.message })

/**
 * Scores a batch through the HTTP API's entry point, in one fiber: `Analyze.analyzeNow` (what
 * `Analyze.analyze` answers, as a plain function, when the scorer answers without I/O: the local
 * models), else `Analyze.analyze` itself (an LLM engine). Either way the validation, language rules,
 * scores and error messages are the API's.
 */
export const scoreBatch = (texts: ReadonlyArray<string>, requested: ReadonlyArray<string>) =>
  Effect.flatMap(Analyze.nowServices, (services) => {
    const rows: Array<Pool.RowResult | undefined> = []
    const later: Array<number> = []
    texts.forEach((text, i) => {
      const now = Analyze.analyzeNow(services, requestOf(text, requested), "compat")
      if (now === undefined) later.push(i)
      rows.push(now === undefined ? undefined : Either.isRight(now) ? rowOf(requested, now.right) : failedRow(now.left))
    })
    // The rows only `analyze` answers (an LLM engine; the judge's), `ANALYZE_CONCURRENCY` at a
    // time: enough for the judge to batch them into full encoder runs with the next batch queued,
    // never so many that its bounded queue overflows (an overflowing row would be answered linear);
    // an LLM's client bounds its own concurrency below this.
    return Effect.forEach(later, (i) =>
      Analyze.analyze(requestOf(texts[i]!, requested), "compat").pipe(
        Effect.map((result) => rowOf(requested, result)),
        Effect.catchAll((error) => Effect.succeed(failedRow(error))),
        Effect.map((row) => {
          rows[i] = row
        })
      ), { concurrency: ANALYZE_CONCURRENCY, discard: true }).pipe(Effect.as(rows as Array<Pool.RowResult>))
  })

/**
 * The engine a scorer needs: what `Analyze.analyze` reads of the configured engine
 * (`Engine.analyzeLayer`: no database, scoring stores nothing), with the tracer off (nothing
 * exports spans here, and a span per comment costs more than its model). The judge has no latency
 * budget here (`DECORUM_JUDGE_BUDGET_MS` is a server's guard of its tail latency): a batch judges
 * every comment its mode routes, so the same file scores the same on a busy machine and an idle one.
 */
export const scorerLayer = Layer.unwrapEffect(
  Effect.map(EngineConfig.config, (settings) => Engine.analyzeLayer({ ...settings, judgeBudgetMs: 0 }))
).pipe(
  Layer.orDie,
  Layer.provide(Layer.setTracerEnabled(false))
)

/** A batch scorer for a list of attributes: `scoreBatch` on a runtime of `scorerLayer`, built (models loaded) before it resolves. */
export const makeBatchScorer: Pool.MakeBatchScorer = async (attributes) => {
  const runtime = ManagedRuntime.make(scorerLayer)
  await runtime.runtime()
  return {
    score: (texts) => runtime.runPromise(scoreBatch(texts, attributes)),
    close: () => runtime.dispose()
  }
}

/** The body of a worker thread: scores the batches it is sent until it is told to stop. */
export const runWorker = (port: MessagePort) => Pool.runWorker(port, makeBatchScorer)

// ---------------------------------------------------------------------------------------------
// Progress

const formatCount = (n: number) => Math.round(n).toLocaleString("en-US")

const formatSeconds = (s: number) => (s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m` : s >= 60 ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, "0")}s` : `${s.toFixed(0)}s`)

/** The progress line a terminal shows: a bar when the size is known, rows, rows/s, ETA. */
export const progressLine = (p: { rows: number; seconds: number; bytes: number; totalBytes: number | undefined }) => {
  const rate = p.seconds > 0 ? p.rows / p.seconds : 0
  const parts = [`${formatCount(p.rows)} rows`, `${formatCount(rate)} rows/s`]
  if (p.totalBytes !== undefined && p.totalBytes > 0) {
    const fraction = Math.min(1, p.bytes / p.totalBytes)
    const width = 24
    const filled = Math.round(fraction * width)
    const eta = fraction > 0 ? (p.seconds / fraction) * (1 - fraction) : Number.NaN
    return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${parts.join("  ")}  ETA ${Number.isFinite(eta) ? formatSeconds(eta) : "?"}`
  }
  return parts.join("  ")
}

// ---------------------------------------------------------------------------------------------

const MAX_REPORTED = 50

/** Runs `decorum score`. */
export const score = async (options: ScoreOptions): Promise<ScoreSummary> => {
  const stderr = options.stderr ?? process.stderr
  const attributes = [...new Set((options.attributes && options.attributes.length > 0 ? options.attributes : ["TOXICITY"]).map((a) => a.trim().toUpperCase()))]
  for (const a of attributes) {
    if (Perspective.resolveAttribute(a) === undefined) throw new ScoreUsageError(`unknown attribute "${a}"`)
  }
  const workers = options.workers ?? availableParallelism()
  if (!Number.isInteger(workers) || workers < 1) throw new ScoreUsageError(`--workers must be a whole number of at least 1, got ${workers}`)
  const fromStdin = options.input === "-"
  if (!fromStdin && !existsSync(options.input)) throw new Error(`cannot read ${options.input}: no such file`)
  const outputCsv = options.output !== undefined && /\.csv$/i.test(options.output)
  const columns = { text: options.textColumn ?? "text", id: options.idColumn ?? "id", idGiven: options.idColumn !== undefined }

  const skip = options.resume && options.output !== undefined ? await existingIds(options.output, outputCsv) : new Set<string>()
  const appending = options.resume === true && options.output !== undefined && existsSync(options.output) && statSync(options.output).size > 0

  let bytes = 0
  const totalBytes = fromStdin ? undefined : statSync(options.input).size
  const stream = fromStdin ? (options.stdin ?? process.stdin) : createReadStream(options.input, { highWaterMark: 1 << 20 })
  const text = chunks(stream, (n) => (bytes += n))
  // CSV by name; from standard input, JSON lines when the first character is `{`.
  let rows: AsyncGenerator<Array<Row>>
  if (fromStdin) {
    const first = await text.next()
    const head = first.done ? "" : first.value
    async function* replay() {
      if (head !== "") yield head
      yield* text
    }
    rows = head.trimStart().startsWith("{") ? jsonRows(replay(), columns) : csvRows(replay(), columns, ",")
  } else {
    rows = /\.csv$/i.test(options.input)
      ? csvRows(text, columns, ",")
      : /\.tsv$/i.test(options.input)
      ? csvRows(text, columns, "\t")
      : jsonRows(text, columns)
  }

  // The first rows are read before the output is opened or any model loads, so a bad header
  // fails at once and leaves OUT as it was.
  const firstRows = await rows.next()
  async function* allRows() {
    if (!firstRows.done) yield firstRows.value
    yield* rows
  }

  const out: Writable = options.output !== undefined
    ? createWriteStream(options.output, { flags: appending ? "a" : "w" })
    : (options.stdout ?? process.stdout)
  const write = (chunk: string) => (out.write(chunk) ? Promise.resolve() : new Promise<void>((resolve) => out.once("drain", () => resolve())))
  if (outputCsv && !appending) await write([ "id", ...attributes, "model", "error" ].join(",") + "\n")

  // (Loading the models may start synchronously, inside the scorer's construction.)
  const launched = performance.now()
  const scorer = workers === 1 ? Pool.inlineScorer(attributes, makeBatchScorer) : Pool.workerScorer(workers, attributes, options.workerEntry ?? process.argv[1]!, WORKER_MARK)
  const isTty = "isTTY" in stderr && stderr.isTTY === true
  try {
    await scorer.ready
  } catch (error) {
    await scorer.close()
    throw error
  }
  // The rate counts from here: model loading is reported apart.
  const started = performance.now()
  const cpuAtStart = process.cpuUsage()
  let done = 0
  let scored = 0
  let failed = 0
  let skipped = 0
  let reported = 0
  let lastDraw = 0
  const draw = (force = false) => {
    if (!isTty) return
    const now = performance.now()
    if (!force && now - lastDraw < 200) return
    lastDraw = now
    stderr.write(`\r\x1b[2K${progressLine({ rows: done, seconds: (now - started) / 1000, bytes, totalBytes })}`)
  }
  const report = (row: { line: number; id: string }, error: string) => {
    failed++
    if (reported < MAX_REPORTED) {
      if (isTty) stderr.write("\r\x1b[2K")
      stderr.write(`line ${row.line} (id ${row.id}): ${error}\n`)
    } else if (reported === MAX_REPORTED) {
      stderr.write(`... further rows that could not be scored are not listed (see the "error" field in the output)\n`)
    }
    reported++
  }
  /** Row `row`'s output line; `j` is its place among the batch's scored texts. */
  const render = (row: Row, packed: Pool.PackedResults, j: number): string => {
    const error = "error" in row ? row.error : packed.errors?.[j] ?? undefined
    if (error !== undefined) {
      report(row, error)
      return outputCsv
        ? [csvCell(row.id), ...attributes.map(() => ""), "", csvCell(error)].join(",") + "\n"
        : JSON.stringify({ id: row.id, line: row.line, error }) + "\n"
    }
    scored++
    const K = attributes.length
    const model = typeof packed.model === "string" ? packed.model : packed.model[j]!
    if (outputCsv) return [csvCell(row.id), ...Array.from(packed.scores.subarray(j * K, (j + 1) * K), String), csvCell(model), ""].join(",") + "\n"
    // What JSON.stringify({ id, [attribute]: score..., model }) writes, without the object.
    let line = `{"id":${JSON.stringify(row.id)}`
    for (let k = 0; k < K; k++) {
      const v = packed.scores[j * K + k]!
      line += `,${jsonKeys[k]}:${Number.isFinite(v) ? String(v) : "null"}`
    }
    return `${line},"model":${JSON.stringify(model)}}\n`
  }
  const NONE: Pool.PackedResults = { scores: new Float64Array(0), model: "", errors: null }
  const jsonKeys = attributes.map((a) => JSON.stringify(a))

  // Batches go out as they fill and come back in any order; rows are written in input order.
  const inFlight: Array<Promise<string>> = []
  const maxInFlight = workers * 4
  let seq = 0
  const dispatch = (batch: Array<Row>) => {
    const texts: Array<string> = []
    for (const row of batch) if ("text" in row) texts.push(row.text)
    const results = texts.length === 0 ? Promise.resolve(NONE) : scorer.score(seq++, texts)
    inFlight.push(results.then((packed) => {
      // The scored texts come back in order: the j-th row with a text has the j-th result.
      let chunk = ""
      let j = 0
      for (const row of batch) chunk += "text" in row ? render(row, packed, j++) : render(row, NONE, -1)
      done += batch.length
      return chunk
    }))
  }
  const flushOne = async () => {
    const chunk = await inFlight.shift()!
    await write(chunk)
    draw()
  }
  try {
    let batch: Array<Row> = []
    for await (const some of allRows()) {
      for (const row of some) {
        if (skip.size > 0 && skip.has(row.id)) {
          skipped++
          continue
        }
        batch.push(row)
        if (batch.length === BATCH) {
          dispatch(batch)
          batch = []
        }
      }
      while (inFlight.length >= maxInFlight) await flushOne()
    }
    if (batch.length > 0) dispatch(batch)
    while (inFlight.length > 0) await flushOne()
  } finally {
    await scorer.close()
    if (options.output !== undefined) await new Promise<void>((resolve) => out.end(() => resolve()))
  }
  const seconds = (performance.now() - started) / 1000
  if (isTty) {
    draw(true)
    stderr.write("\n")
  }
  const rate = seconds > 0 ? done / seconds : 0
  // CPU time of the whole process (every thread) while scoring: on a shared machine, rows per
  // CPU-second says more than rows per second.
  const cpu = process.cpuUsage(cpuAtStart)
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
  stderr.write(
    `Scored ${formatCount(scored)} rows${failed > 0 ? `, ${formatCount(failed)} could not be scored` : ""}${skipped > 0 ? `, ${formatCount(skipped)} skipped (already in the output)` : ""} in ${seconds.toFixed(1)} s (${formatCount(rate)} rows/s, ${workers} worker${workers === 1 ? "" : "s"}, ${cpuSeconds.toFixed(1)} s CPU, after ${((started - launched) / 1000).toFixed(1)} s loading models)${options.output ? ` -> ${options.output}` : ""}\n`
  )
  return { rows: done, scored, failed, skipped, seconds, cpuSeconds, startupSeconds: (started - launched) / 1000 }
}
