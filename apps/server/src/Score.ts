/**
 * `decorum score`: scores an archive of comments (CSV with a header row, or JSON lines) with the
 * same scores as `comments:analyze`, on worker threads, and writes one output row per input row.
 *
 * - Input: a file or `-` (standard input). CSV is recognised by the name (`.csv`; `.tsv` is read
 *   with tabs) or, for standard input, by a first character other than `{`. JSON lines carry
 *   `text` and an optional `id`; CSV names its columns in the header (`--text-column`,
 *   `--id-column`), read by the one CSV reader (`Csv.ts`). A row without an id is named by its
 *   line number.
 * - Output: JSON lines (default) or CSV when OUT ends in `.csv`: the id, one score per attribute
 *   and the model version. A row that cannot be scored (bad JSON, no text, an empty or too long
 *   comment, a record over 1 MiB or with too many fields, an unterminated quote, text that is not
 *   UTF-8) is reported on standard error with its line number and written with an `error` field;
 *   the other rows are scored.
 * - `--resume` skips ids already present in OUT and appends to it.
 * - Scores: with the local engine, `analyzeAttributes` (what the local attribute scorer runs for
 *   `comments:analyze`) synchronously, batch by batch; anything else through `Analyze.analyze` on
 *   the configured engine (the compat family: no spans). Either way the `summaryScore`s the HTTP
 *   API answers for the same text.
 * - Work: the main thread reads, batches (512 rows a message) and writes; worker threads score.
 *   Output goes out one write per batch.
 */
import { Analyze, type AttributeScorer, type EngineInfo, LanguageIdentifier } from "@decorum/core"
import { Limits, Perspective } from "@decorum/domain"
import { Engine, EngineConfig } from "@decorum/engine"
import { analyzeAttributes, AttributeModel } from "@decorum/local"
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { createReadStream, createWriteStream, existsSync, statSync } from "node:fs"
import { availableParallelism } from "node:os"
import type { Readable, Writable } from "node:stream"
import { Worker } from "node:worker_threads"
import { csvCell, CsvReader, type CsvRecord } from "./Csv.js"
import { INVALID, Utf8Decoder } from "./Utf8.js"

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
  /** The script a worker thread runs (it must call `runWorker`); default: this process's entry script. */
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

/** A usage problem (exit 2): an unknown attribute, a missing column, a bad worker count. */
export class ScoreUsageError extends Error {}

/** Marks a worker thread started by `decorum score` (see `bin.ts`). */
export const WORKER_MARK = "decorum-score-worker"

/** Rows per message to a worker (and per write). */
const BATCH = 512

// ---------------------------------------------------------------------------------------------
// Scoring (the same on the main thread and in a worker)

/** One row's result: its scores in attribute order and the model, or why it could not be scored. */
export type RowResult = { readonly scores: ReadonlyArray<number>; readonly model: string } | { readonly error: string }

const requestOf = (text: string, requested: ReadonlyArray<string>) =>
  ({ comment: { text }, requestedAttributes: Object.fromEntries(requested.map((a) => [a, {}])) }) as Perspective.AnalyzeCommentRequest

const scoreOne = (text: string, requested: ReadonlyArray<string>) =>
  Analyze.analyze(requestOf(text, requested), "compat").pipe(
    Effect.flatMap((result) => {
      const model = result.provenance.model
      return Effect.succeed<RowResult>({
        scores: requested.map((a) => result.value.attributeScores?.[a]?.summaryScore.value ?? Number.NaN),
        model
      })
    }),
    Effect.catchAll((error) => Effect.succeed<RowResult>({ error: error.message }))
  )

/** Scores a batch through `Analyze.analyze` (the HTTP API's code path), in one fiber. */
export const scoreBatch = (texts: ReadonlyArray<string>, requested: ReadonlyArray<string>) =>
  Effect.forEach(texts, (text) => scoreOne(text, requested))

/**
 * The engine a scorer needs: the configured one, without a database (scoring stores nothing), and
 * with the tracer off (nothing exports spans here, and a span per comment costs more than its model).
 */
export const scorerLayer = Layer.unwrapEffect(
  Effect.map(EngineConfig.config, (settings) =>
    Engine.fromSettings({ ...settings, store: { ...settings.store, db: Redacted.make("memory") } }))
).pipe(Layer.orDie, Layer.provide(Layer.setTracerEnabled(false)))

type Runtime = ManagedRuntime.ManagedRuntime<AttributeScorer | EngineInfo | AttributeModel, never>

const NO_CONTEXT = { article: null, parent: null, entries: [] } as const

/**
 * Scores texts for one list of attributes. With the local engine, a comment `Analyze.analyze`
 * would accept (not empty, not too long) is scored synchronously by the function the local
 * attribute scorer runs for it (`analyzeAttributes` on the same model), without an Effect per
 * comment: the same numbers, bit for bit (`test/Score.test.ts` holds them to `Analyze.analyze`'s
 * and to the HTTP API's), when it is identified as English. Every other comment (another language,
 * none identified, and every comment with an LLM engine) goes through `Analyze.analyze` itself, so
 * it is scored with its language's model, or gets the API's error (issue 28).
 */
export interface BatchScorer {
  /** One result per text, in order. */
  readonly score: (texts: ReadonlyArray<string>) => Promise<ReadonlyArray<RowResult>>
  readonly close: () => Promise<void>
}

export const makeBatchScorer = async (attributes: ReadonlyArray<string>): Promise<BatchScorer> => {
  const runtime: Runtime = ManagedRuntime.make(scorerLayer)
  await runtime.runtime()
  const settings = await runtime.runPromise(EngineConfig.config)
  const model = runtime.runSync(AttributeModel)
  const identifier = Option.getOrUndefined(runtime.runSync(Effect.serviceOption(LanguageIdentifier)))
  const resolved = [...new Set(attributes.map((a) => Perspective.resolveAttribute(a)!))]
  const column = attributes.map((a) => resolved.indexOf(Perspective.resolveAttribute(a)!))
  const local = settings.llm.mode === "local"
  const fast = (text: string): RowResult | undefined => {
    if (!local || text.length > Limits.commentMaxLength || text.trim().length === 0) return undefined
    // Analyze scores a comment with the English set only when it is identified as English.
    if (identifier !== undefined && identifier.detect(text)[0] !== "en") return undefined
    let analysis
    try {
      analysis = analyzeAttributes(model, { text, attributes: resolved, spans: [], context: NO_CONTEXT })
    } catch {
      return undefined // e.g. an attribute the model set lacks: the API's error, from the slow path
    }
    return { scores: column.map((c) => analysis[resolved[c]!]!.summary), model: model.version }
  }
  return {
    score: async (texts) => {
      const results: Array<RowResult | undefined> = texts.map(fast)
      const slow: Array<number> = []
      results.forEach((r, i) => r === undefined && slow.push(i))
      if (slow.length > 0) {
        const scored = await runtime.runPromise(scoreBatch(slow.map((i) => texts[i]!), attributes))
        slow.forEach((i, j) => (results[i] = scored[j]!))
      }
      return results as ReadonlyArray<RowResult>
    },
    close: () => runtime.dispose()
  }
}

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
export const runWorker = async (port: import("node:worker_threads").MessagePort) => {
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

interface Scorer {
  /** Resolves once every worker has loaded its models. */
  readonly ready: Promise<void>
  readonly score: (seq: number, texts: ReadonlyArray<string>) => Promise<PackedResults>
  readonly close: () => Promise<void>
}

const inlineScorer = (attributes: ReadonlyArray<string>): Scorer => {
  const made = makeBatchScorer(attributes)
  return {
    ready: made.then(() => undefined),
    score: (_seq, texts) => made.then((s) => s.score(texts)).then((results) => pack(results, attributes.length)),
    close: () => made.then((s) => s.close(), () => undefined)
  }
}

const workerScorer = (count: number, attributes: ReadonlyArray<string>, entry: string | URL): Scorer => {
  const pending = new Map<number, { resolve: (r: PackedResults) => void; reject: (e: Error) => void }>()
  const load: Array<number> = []
  const started: Array<Promise<void>> = []
  const workers = Array.from({ length: count }, (_, i) => {
    const worker = new Worker(entry, { workerData: { [WORKER_MARK]: true }, argv: [] })
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

// ---------------------------------------------------------------------------------------------
// Reading

/** One input record: its first line number, and its id and text or why it has none. */
export type Row = { readonly line: number; readonly id: string; readonly text: string } | { readonly line: number; readonly id: string; readonly error: string }

/** The longest input record (CSV record or JSON line) read, in UTF-16 units; longer ones are bad rows. */
export const MAX_RECORD_CHARS = 1 << 20

/** The input's text, chunk by chunk; bytes that are not UTF-8 become `INVALID` (a character split across chunks is kept whole). */
async function* chunks(stream: Readable, onBytes: (n: number) => void): AsyncGenerator<string> {
  const decoder = new Utf8Decoder()
  for await (const chunk of stream) {
    const buffer = chunk as Buffer
    onBytes(buffer.length)
    const text = decoder.decode(buffer)
    if (text !== "") yield text
  }
  const rest = decoder.end()
  if (rest !== "") yield rest
}

const NOT_UTF8 = "the text is not valid UTF-8"

/** A row's text, or its error when the record had bytes that are not UTF-8 (in its text or its id). */
const textRow = (line: number, id: string, text: string): Row =>
  id.includes(INVALID)
    ? { line, id: String(line), error: NOT_UTF8 }
    : text.includes(INVALID)
    ? { line, id, error: NOT_UTF8 }
    : { line, id, text }

const LINE_TOO_LONG = `the line is longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters`

/** Splits text into lines (LF or CRLF), each with its number; a line past the bound is reported, not kept. */
class LineReader {
  private carry: Array<string> = []
  private carried = 0
  private line = 0
  private tooLong = false

  push(chunk: string, out: Array<{ line: number; text: string } | { line: number; error: string }>) {
    let from = 0
    for (;;) {
      const nl = chunk.indexOf("\n", from)
      if (nl < 0) break
      this.line++
      if (this.tooLong || this.carried + (nl - from) > MAX_RECORD_CHARS) out.push({ line: this.line, error: LINE_TOO_LONG })
      else {
        const piece = chunk.slice(from, nl)
        const text = this.carry.length === 0 ? piece : this.carry.join("") + piece
        out.push({ line: this.line, text })
      }
      this.carry = []
      this.carried = 0
      this.tooLong = false
      from = nl + 1
    }
    if (from < chunk.length && !this.tooLong) {
      this.carried += chunk.length - from
      if (this.carried > MAX_RECORD_CHARS) {
        this.tooLong = true
        this.carry = []
      } else this.carry.push(chunk.slice(from))
    }
  }

  end(out: Array<{ line: number; text: string } | { line: number; error: string }>) {
    if (this.tooLong) out.push({ line: this.line + 1, error: LINE_TOO_LONG })
    else if (this.carry.length > 0) out.push({ line: this.line + 1, text: this.carry.join("") })
  }
}

/** JSON lines into rows, a chunk's worth at a time. */
async function* jsonRows(text: AsyncGenerator<string>, columns: { text: string; id: string }): AsyncGenerator<Array<Row>> {
  const reader = new LineReader()
  const parse = (raw: { line: number; text: string } | { line: number; error: string }): Row | undefined => {
    const n = raw.line
    if ("error" in raw) return { line: n, id: String(n), error: raw.error }
    const trimmed = raw.text.trim()
    if (trimmed === "") return undefined
    // Checked before parsing: JSON's own escapes (`\\udfff`) are ASCII here, so cannot be mistaken for it.
    if (trimmed.includes(INVALID)) return { line: n, id: String(n), error: NOT_UTF8 }
    let value: unknown
    try {
      value = JSON.parse(trimmed)
    } catch {
      return { line: n, id: String(n), error: "not valid JSON" }
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { line: n, id: String(n), error: "not a JSON object" }
    const record = value as Record<string, unknown>
    const rawId = record[columns.id]
    const id = typeof rawId === "string" || typeof rawId === "number" ? String(rawId) : String(n)
    const body = record[columns.text]
    if (typeof body !== "string") return { line: n, id, error: `no "${columns.text}" string` }
    return textRow(n, id, body)
  }
  const rows = (lines: Array<{ line: number; text: string } | { line: number; error: string }>) => {
    const out: Array<Row> = []
    for (const l of lines) {
      const row = parse(l)
      if (row) out.push(row)
    }
    return out
  }
  for await (const chunk of text) {
    const lines: Array<{ line: number; text: string } | { line: number; error: string }> = []
    reader.push(chunk, lines)
    if (lines.length > 0) yield rows(lines)
  }
  const last: Array<{ line: number; text: string } | { line: number; error: string }> = []
  reader.end(last)
  if (last.length > 0) yield rows(last)
}

/** CSV records into rows, a chunk's worth at a time; the first record is the header. */
async function* csvRows(
  text: AsyncGenerator<string>,
  columns: { text: string; id: string; idGiven: boolean },
  separator = ","
): AsyncGenerator<Array<Row>> {
  const reader = new CsvReader({ separator, maxRecordChars: MAX_RECORD_CHARS })
  let header: Array<string> | undefined
  let textAt = -1
  let idAt = -1
  const rows = (records: Array<CsvRecord>): Array<Row> => {
    const out: Array<Row> = []
    for (const record of records) {
      if (header === undefined) {
        if ("error" in record) throw new ScoreUsageError(`the CSV header (line ${record.line}) cannot be read: ${record.error}`)
        header = record.fields.map((f) => f.trim())
        textAt = header.indexOf(columns.text)
        idAt = header.indexOf(columns.id)
        if (textAt < 0) throw new ScoreUsageError(`the CSV header has no "${columns.text}" column (it has: ${header.join(", ")}); name it with --text-column`)
        if (idAt < 0 && columns.idGiven) throw new ScoreUsageError(`the CSV header has no "${columns.id}" column (it has: ${header.join(", ")})`)
        continue
      }
      if ("error" in record) {
        out.push({ line: record.line, id: String(record.line), error: record.error })
        continue
      }
      const fields = record.fields
      const id = idAt >= 0 && fields[idAt] !== undefined && fields[idAt] !== "" ? fields[idAt]! : String(record.line)
      const body = fields[textAt]
      if (body === undefined) out.push({ line: record.line, id, error: `the row has ${fields.length} field${fields.length === 1 ? "" : "s"}, none in column "${columns.text}"` })
      else out.push(textRow(record.line, id, body))
    }
    return out
  }
  for await (const chunk of text) {
    const out = rows(reader.push(chunk))
    if (out.length > 0) yield out
  }
  const out = rows(reader.end())
  if (out.length > 0) yield out
}

/** The ids already in an output file (for `--resume`). */
export const existingIds = async (path: string, csv: boolean): Promise<Set<string>> => {
  const ids = new Set<string>()
  if (!existsSync(path)) return ids
  const text = chunks(createReadStream(path), () => {})
  const rows = csv ? csvRows(text, { text: "id", id: "id", idGiven: true }) : jsonRows(text, { text: "id", id: "id" })
  for await (const batch of rows) for (const row of batch) ids.add(row.id)
  return ids
}

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
  const scorer = workers === 1 ? inlineScorer(attributes) : workerScorer(workers, attributes, options.workerEntry ?? process.argv[1]!)
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
  const render = (row: Row, packed: PackedResults, j: number): string => {
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
  const NONE: PackedResults = { scores: new Float64Array(0), model: "", errors: null }
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
