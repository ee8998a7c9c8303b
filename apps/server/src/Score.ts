/**
 * `decorum score`: scores an archive of comments (CSV with a header row, or JSON lines) with the
 * same code path as `comments:analyze`, on worker threads, and writes one output row per input row.
 *
 * - Input: a file or `-` (standard input). `.csv` / `.tsv`-less CSV is recognised by its name or,
 *   for standard input, by a first character other than `{`. JSON lines carry `text` and an
 *   optional `id`; CSV names its columns in the header (`--text-column`, `--id-column`). A row
 *   without an id is named by its line number.
 * - Output: JSON lines (default) or CSV when OUT ends in `.csv`: the id, one score per attribute
 *   and the model version. A row that cannot be scored (bad JSON, no text, an empty or too long
 *   comment) is reported on standard error with its line number and written with an `error` field.
 * - `--resume` skips ids already present in OUT and appends to it.
 * - Scores: `Analyze.analyze` (the compat family: no spans) on the configured engine, so they are
 *   the `summaryScore`s the HTTP API answers for the same text.
 */
import { Analyze, AttributeScorer, EngineInfo } from "@decorum/core"
import { Perspective } from "@decorum/domain"
import { Engine, EngineConfig } from "@decorum/engine"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { createReadStream, createWriteStream, existsSync, statSync } from "node:fs"
import { availableParallelism } from "node:os"
import type { Readable, Writable } from "node:stream"
import { Worker } from "node:worker_threads"

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
  /** Time spent starting the workers and loading their models. */
  readonly startupSeconds: number
}

/** A usage problem (exit 2): an unknown attribute, a missing column, a bad worker count. */
export class ScoreUsageError extends Error {}

/** Marks a worker thread started by `decorum score` (see `bin.ts`). */
export const WORKER_MARK = "decorum-score-worker"

const BATCH = 256

// ---------------------------------------------------------------------------------------------
// Scoring one batch (the same on the main thread and in a worker)

/** One row's result: its scores in attribute order and the model, or why it could not be scored. */
export type RowResult = { readonly scores: ReadonlyArray<number>; readonly model: string } | { readonly error: string }

const scoreOne = (text: string, requested: ReadonlyArray<string>) =>
  Analyze.analyze(
    { comment: { text }, requestedAttributes: Object.fromEntries(requested.map((a) => [a, {}])) } as Perspective.AnalyzeCommentRequest,
    "compat"
  ).pipe(
    Effect.flatMap((result) => {
      const model = result.provenance.model
      return Effect.succeed<RowResult>({
        scores: requested.map((a) => result.value.attributeScores?.[a]?.summaryScore.value ?? Number.NaN),
        model
      })
    }),
    Effect.catchAll((error) => Effect.succeed<RowResult>({ error: error.message }))
  )

/** Scores a batch in one effect (one fiber for the whole batch, not one per comment). */
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

type Runtime = ManagedRuntime.ManagedRuntime<AttributeScorer | EngineInfo, never>

/** The body of a worker thread: scores the batches it is sent until it is told to stop. */
export const runWorker = async (port: import("node:worker_threads").MessagePort) => {
  const runtime: Runtime = ManagedRuntime.make(scorerLayer)
  await runtime.runtime()
  port.postMessage("ready")
  port.on("message", (message: { seq: number; texts: ReadonlyArray<string>; attributes: ReadonlyArray<string> } | "stop") => {
    if (message === "stop") {
      void runtime.dispose().then(() => port.close())
      return
    }
    runtime.runPromise(scoreBatch(message.texts, message.attributes)).then(
      (results) => port.postMessage({ seq: message.seq, results }),
      (error) => port.postMessage({ seq: message.seq, failure: String(error) })
    )
  })
}

interface Scorer {
  /** Resolves once every worker has loaded its models. */
  readonly ready: Promise<void>
  readonly score: (seq: number, texts: ReadonlyArray<string>) => Promise<ReadonlyArray<RowResult>>
  readonly close: () => Promise<void>
}

const inlineScorer = (attributes: ReadonlyArray<string>): Scorer => {
  const runtime: Runtime = ManagedRuntime.make(scorerLayer)
  return {
    ready: runtime.runtime().then(() => undefined),
    score: (_seq, texts) => runtime.runPromise(scoreBatch(texts, attributes)),
    close: () => runtime.dispose()
  }
}

const workerScorer = (count: number, attributes: ReadonlyArray<string>, entry: string | URL): Scorer => {
  const pending = new Map<number, { resolve: (r: ReadonlyArray<RowResult>) => void; reject: (e: Error) => void }>()
  const load: Array<number> = []
  const started: Array<Promise<void>> = []
  const workers = Array.from({ length: count }, (_, i) => {
    const worker = new Worker(entry, { workerData: { [WORKER_MARK]: true }, argv: [] })
    load[i] = 0
    started.push(new Promise<void>((resolve, reject) => {
      worker.once("message", () => resolve())
      worker.once("error", reject)
      worker.once("exit", (code) => reject(new Error(`a worker exited with ${code} before it was ready`)))
    }))
    worker.on("message", (message: "ready" | { seq: number; results?: ReadonlyArray<RowResult>; failure?: string }) => {
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
        workers[best]!.postMessage({ seq, texts, attributes })
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

/** Splits CSV text into records (RFC 4180: quoted fields may hold commas, quotes and newlines). */
export class CsvParser {
  private field = ""
  private record: Array<string> = []
  private quoted = false
  private afterQuote = false
  private line = 1
  private recordLine = 1
  private fresh = true

  /** Feeds a chunk; returns the records it completed, each with the line it started on. */
  push(chunk: string): Array<{ readonly line: number; readonly fields: Array<string> }> {
    const out: Array<{ line: number; fields: Array<string> }> = []
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!
      if (this.fresh) {
        this.recordLine = this.line
        this.fresh = false
      }
      if (this.quoted) {
        if (c === "\"") {
          if (chunk[i + 1] === "\"") {
            this.field += "\""
            i++
          } else if (i + 1 === chunk.length) {
            // A quote at the end of a chunk: decided by the next chunk's first character.
            this.quoted = false
            this.afterQuote = true
          } else {
            this.quoted = false
          }
        } else {
          if (c === "\n") this.line++
          this.field += c
        }
        continue
      }
      if (this.afterQuote) {
        this.afterQuote = false
        if (c === "\"") {
          this.field += "\""
          this.quoted = true
          continue
        }
      }
      if (c === "\"" && this.field === "") this.quoted = true
      else if (c === ",") {
        this.record.push(this.field)
        this.field = ""
      } else if (c === "\n") {
        this.record.push(this.field.endsWith("\r") ? this.field.slice(0, -1) : this.field)
        out.push({ line: this.recordLine, fields: this.record })
        this.record = []
        this.field = ""
        this.line++
        this.fresh = true
      } else this.field += c
    }
    return out
  }

  /** The last record when the input does not end with a newline. */
  end(): Array<{ readonly line: number; readonly fields: Array<string> }> {
    if (this.fresh && this.field === "" && this.record.length === 0) return []
    this.record.push(this.field.endsWith("\r") ? this.field.slice(0, -1) : this.field)
    const last = { line: this.recordLine, fields: this.record }
    this.record = []
    this.field = ""
    this.fresh = true
    return [last]
  }
}

const csvCell = (v: string): string => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, "\"\"")}"` : v)

async function* chunks(stream: Readable, onBytes: (n: number) => void): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8")
  for await (const chunk of stream) {
    const buffer = chunk as Buffer
    onBytes(buffer.length)
    yield decoder.decode(buffer, { stream: true })
  }
  const rest = decoder.decode()
  if (rest !== "") yield rest
}

async function* jsonRows(text: AsyncGenerator<string>, columns: { text: string; id: string }): AsyncGenerator<Row> {
  let carry = ""
  let line = 0
  const parse = (raw: string, n: number): Row | undefined => {
    const trimmed = raw.trim()
    if (trimmed === "") return undefined
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
    return { line: n, id, text: body }
  }
  for await (const chunk of text) {
    const parts = (carry + chunk).split("\n")
    carry = parts.pop()!
    for (const part of parts) {
      const row = parse(part, ++line)
      if (row) yield row
    }
  }
  const row = parse(carry, ++line)
  if (row) yield row
}

async function* csvRows(text: AsyncGenerator<string>, columns: { text: string; id: string; idGiven: boolean }): AsyncGenerator<Row> {
  const parser = new CsvParser()
  let header: Array<string> | undefined
  let textAt = -1
  let idAt = -1
  const toRow = (record: { line: number; fields: Array<string> }): Row | undefined => {
    if (header === undefined) {
      header = record.fields.map((f, i) => (i === 0 ? f.replace(/^\uFEFF/, "") : f).trim())
      textAt = header.indexOf(columns.text)
      idAt = header.indexOf(columns.id)
      if (textAt < 0) throw new ScoreUsageError(`the CSV header has no "${columns.text}" column (it has: ${header.join(", ")}); name it with --text-column`)
      if (idAt < 0 && columns.idGiven) throw new ScoreUsageError(`the CSV header has no "${columns.id}" column (it has: ${header.join(", ")})`)
      return undefined
    }
    if (record.fields.length === 1 && record.fields[0] === "") return undefined
    const id = idAt >= 0 && record.fields[idAt] !== undefined && record.fields[idAt] !== "" ? record.fields[idAt]! : String(record.line)
    const body = record.fields[textAt]
    if (body === undefined) return { line: record.line, id, error: `the row has ${record.fields.length} fields, none in column "${columns.text}"` }
    return { line: record.line, id, text: body }
  }
  for await (const chunk of text) {
    for (const record of parser.push(chunk)) {
      const row = toRow(record)
      if (row) yield row
    }
  }
  for (const record of parser.end()) {
    const row = toRow(record)
    if (row) yield row
  }
}

/** The ids already in an output file (for `--resume`). */
export const existingIds = async (path: string, csv: boolean): Promise<Set<string>> => {
  const ids = new Set<string>()
  if (!existsSync(path)) return ids
  const text = chunks(createReadStream(path), () => {})
  if (csv) {
    for await (const row of csvRows(text, { text: "id", id: "id", idGiven: true })) ids.add(row.id)
  } else {
    for await (const row of jsonRows(text, { text: "id", id: "id" })) ids.add(row.id)
  }
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
  const attributes = (options.attributes && options.attributes.length > 0 ? options.attributes : ["TOXICITY"]).map((a) => a.trim().toUpperCase())
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
  let rows: AsyncGenerator<Row>
  if (fromStdin) {
    const first = await text.next()
    const head = first.done ? "" : first.value
    async function* replay() {
      if (head !== "") yield head
      yield* text
    }
    rows = head.trimStart().startsWith("{") ? jsonRows(replay(), columns) : csvRows(replay(), columns)
  } else {
    rows = /\.(csv|tsv)$/i.test(options.input) ? csvRows(text, columns) : jsonRows(text, columns)
  }

  const out: Writable = options.output !== undefined
    ? createWriteStream(options.output, { flags: appending ? "a" : "w" })
    : (options.stdout ?? process.stdout)
  const write = (chunk: string) => (out.write(chunk) ? Promise.resolve() : new Promise<void>((resolve) => out.once("drain", () => resolve())))
  if (outputCsv && !appending) await write([ "id", ...attributes, "model", "error" ].join(",") + "\n")

  const scorer = workers === 1 ? inlineScorer(attributes) : workerScorer(workers, attributes, options.workerEntry ?? process.argv[1]!)
  const isTty = "isTTY" in stderr && stderr.isTTY === true
  const launched = performance.now()
  try {
    await scorer.ready
  } catch (error) {
    await scorer.close()
    throw error
  }
  // The rate counts from here: model loading is reported apart.
  const started = performance.now()
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
  const render = (row: Row, result: RowResult | undefined): string => {
    const error = "error" in row ? row.error : result !== undefined && "error" in result ? result.error : undefined
    if (error !== undefined) {
      report(row, error)
      return outputCsv
        ? [csvCell(row.id), ...attributes.map(() => ""), "", csvCell(error)].join(",") + "\n"
        : JSON.stringify({ id: row.id, line: row.line, error }) + "\n"
    }
    const ok = result as { scores: ReadonlyArray<number>; model: string }
    scored++
    if (outputCsv) return [csvCell(row.id), ...ok.scores.map(String), csvCell(ok.model), ""].join(",") + "\n"
    const record: Record<string, unknown> = { id: row.id }
    attributes.forEach((a, i) => (record[a] = ok.scores[i]))
    record["model"] = ok.model
    return JSON.stringify(record) + "\n"
  }

  // Batches go out as they fill and come back in any order; rows are written in input order.
  const inFlight: Array<Promise<string>> = []
  const maxInFlight = workers * 4
  let seq = 0
  const dispatch = (batch: Array<Row>) => {
    const texts: Array<string> = []
    const slots: Array<number> = []
    batch.forEach((row, i) => {
      if ("text" in row) {
        slots.push(i)
        texts.push(row.text)
      }
    })
    const results = texts.length === 0 ? Promise.resolve([] as ReadonlyArray<RowResult>) : scorer.score(seq++, texts)
    inFlight.push(results.then((scoredRows) => {
      const byRow = new Map<number, RowResult>()
      slots.forEach((slot, j) => byRow.set(slot, scoredRows[j]!))
      let chunk = ""
      batch.forEach((row, i) => (chunk += render(row, byRow.get(i))))
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
    for await (const row of rows) {
      if (skip.size > 0 && skip.has(row.id)) {
        skipped++
        continue
      }
      batch.push(row)
      if (batch.length === BATCH) {
        dispatch(batch)
        batch = []
        while (inFlight.length >= maxInFlight) await flushOne()
      }
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
  stderr.write(
    `Scored ${formatCount(scored)} rows${failed > 0 ? `, ${formatCount(failed)} could not be scored` : ""}${skipped > 0 ? `, ${formatCount(skipped)} skipped (already in the output)` : ""} in ${seconds.toFixed(1)} s (${formatCount(rate)} rows/s, ${workers} worker${workers === 1 ? "" : "s"}, after ${((started - launched) / 1000).toFixed(1)} s loading models)${options.output ? ` -> ${options.output}` : ""}\n`
  )
  return { rows: done, scored, failed, skipped, seconds, startupSeconds: (started - launched) / 1000 }
}
