/**
 * `decorum feedback export`: the score suggestions clients sent, as JSON lines or CSV.
 * `decorum feedback import FILE`: a site's historical decisions, stored as its corrections.
 */
import { SuggestionStore } from "@decorum/core"
import { Perspective, type ScoreSuggestion } from "@decorum/domain"
import { Args, Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect, Either, Option } from "effect"
import { isUtf8 } from "node:buffer"
import { open } from "node:fs/promises"
import { Csv, Utf8 } from "@decorum/engine/csv"
import { accountOf, CommandFailure, db, email, group, typed, UsageError, withStore } from "./Shared.js"

const CSV_COLUMNS = ["id", "created_at", "email", "community_id", "session_id", "client_token", "languages", "attribute", "value", "comment_text", "context_json", "key_id"] as const

type Suggestion = ScoreSuggestion

const jsonLines = (rows: ReadonlyArray<Suggestion>) =>
  rows.map((r) =>
    JSON.stringify({
      id: r.id,
      created_at: r.createdAt.toISOString(),
      email: r.email,
      community_id: r.communityId,
      session_id: r.sessionId,
      client_token: r.clientToken,
      languages: r.languages,
      attribute_scores: r.attributeScores,
      comment_text: r.commentText,
      context: r.contextJson ? JSON.parse(r.contextJson) : null,
      key_id: r.keyId
    })
  )

/** One row per (suggestion, attribute): the shape spreadsheets and training scripts want. */
const csvLines = (rows: ReadonlyArray<Suggestion>) => [
  CSV_COLUMNS.join(","),
  ...rows.flatMap((r) =>
    Object.entries(r.attributeScores).map(([attribute, value]) =>
      [r.id, r.createdAt.toISOString(), r.email, r.communityId, r.sessionId, r.clientToken, r.languages.join(" "), attribute, value, r.commentText, r.contextJson, r.keyId]
        .map(Csv.csvCell)
        .join(",")
    )
  )
]

const exportCommand = Command.make(
  "export",
  {
    since: typed("since", "ISO_TIME", (raw) => {
      const date = new Date(raw)
      return Number.isNaN(date.getTime()) ? Option.none() : Option.some(date)
    }, "an ISO date or time").pipe(Options.withDescription("Only suggestions stored at or after this ISO date or time."), Options.optional),
    format: typed("format", "jsonl|csv", (raw) => (raw === "jsonl" || raw === "csv" ? Option.some(raw) : Option.none()), "jsonl or csv").pipe(
      Options.withDescription("jsonl: one suggestion a line; csv: one row per suggestion and attribute."),
      Options.withDefault("jsonl" as const)
    ),
    email: Options.text("email").pipe(Options.withPseudoName("EMAIL"), Options.withDescription("Only this account's suggestions."), Options.optional),
    out: Options.text("out").pipe(Options.withPseudoName("FILE"), Options.withDescription("Write to this file instead of standard output."), Options.optional),
    db
  },
  (args) =>
    Effect.gen(function*() {
      const rows = yield* withStore(
        args.db,
        Effect.flatMap(SuggestionStore, (s) =>
          s.list({
            ...Option.match(args.since, { onNone: () => ({}), onSome: (since) => ({ since }) }),
            ...Option.match(args.email, { onNone: () => ({}), onSome: (email) => ({ email }) })
          }))
      )
      const lines = args.format === "jsonl" ? jsonLines(rows) : csvLines(rows)
      if (Option.isNone(args.out)) {
        if (lines.length > 0) yield* Console.log(lines.join("\n"))
        return
      }
      const text = lines.length > 0 ? lines.join("\n") + "\n" : ""
      const out = args.out.value
      yield* Effect.flatMap(FileSystem.FileSystem, (fs) => fs.writeFileString(out, text)).pipe(
        Effect.mapError((e) => new CommandFailure({ message: `cannot write ${out}: ${e.message}` }))
      )
      yield* Console.error(`Wrote ${rows.length} suggestions to ${out}`)
    })
).pipe(Command.withDescription("Export the score suggestions clients sent (comments:suggestscore)."))


interface Decision {
  readonly line: number
  readonly text: string
  readonly scores: Record<string, number>
}

const checkScores = (line: number, text: unknown, scores: Record<string, unknown>): Either.Either<Decision, string> => {
  if (typeof text !== "string" || text.trim().length === 0) return Either.left(`line ${line}: no text`)
  const out: Record<string, number> = {}
  for (const [name, raw] of Object.entries(scores)) {
    const attribute = Perspective.resolveAttribute(name)
    if (attribute === undefined) return Either.left(`line ${line}: unknown attribute ${JSON.stringify(name)}`)
    const value = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
      return Either.left(`line ${line}: the score of ${name} must be a number between 0 and 1, got ${JSON.stringify(raw)}`)
    }
    out[attribute] = value
  }
  if (Object.keys(out).length === 0) return Either.left(`line ${line}: no attribute and score`)
  return Either.right({ line, text, scores: out })
}

/**
 * Reads a site's historical decisions: JSON lines `{"text", "attribute", "score"}` (or the
 * `comment_text` and `attribute_scores` of `feedback export`), or CSV with a header naming `text`
 * (or `comment_text`), `attribute` and `score` (or `value`).
 */
export const parseDecisions = (content: string, format: "jsonl" | "csv"): Either.Either<Array<Decision>, string> => {
  const out: Array<Decision> = []
  if (format === "jsonl") {
    const lines = content.split(/\r?\n/)
    for (let i = 0; i < lines.length; i++) {
      const raw = lines[i]!.trim()
      if (raw === "") continue
      if (raw.length > Csv.DEFAULT_MAX_RECORD_CHARS) return Either.left(`line ${i + 1}: longer than ${Csv.DEFAULT_MAX_RECORD_CHARS.toLocaleString("en-US")} characters`)
      let row: any
      try {
        row = JSON.parse(raw)
      } catch {
        return Either.left(`line ${i + 1}: not JSON`)
      }
      if (row === null || typeof row !== "object") return Either.left(`line ${i + 1}: not a JSON object`)
      const scores = row.attribute_scores && typeof row.attribute_scores === "object"
        ? row.attribute_scores
        : typeof row.attribute === "string"
        ? { [row.attribute]: row.score }
        : {}
      const checked = checkScores(i + 1, row.text ?? row.comment_text, scores)
      if (Either.isLeft(checked)) return Either.left(checked.left)
      out.push(checked.right)
    }
    return Either.right(out)
  }
  const [header, ...rows] = Csv.parseCsv(content)
  if (header !== undefined && "error" in header) return Either.left(`line ${header.line}: ${header.error}`)
  const columns = (header?.fields ?? []).map((h) => h.trim().toLowerCase())
  const text = columns.indexOf("text") >= 0 ? columns.indexOf("text") : columns.indexOf("comment_text")
  const attribute = columns.indexOf("attribute")
  const score = columns.indexOf("score") >= 0 ? columns.indexOf("score") : columns.indexOf("value")
  if (text < 0 || attribute < 0 || score < 0) return Either.left("the CSV header must name text, attribute and score")
  for (const record of rows) {
    if ("error" in record) return Either.left(`line ${record.line}: ${record.error}`)
    const row = record.fields
    const checked = checkScores(record.line, row[text], { [row[attribute] ?? ""]: row[score] })
    if (Either.isLeft(checked)) return Either.left(checked.left)
    out.push(checked.right)
  }
  return Either.right(out)
}

/** The default of `feedback import --max-bytes`: the whole file is held in memory, with its decisions. */
export const DEFAULT_IMPORT_MAX_BYTES = 64 * 1024 * 1024

/**
 * The text of a decisions file of at most `maxBytes` bytes (read no further than one byte past
 * them, whatever the file claims to be), or why it cannot be imported: too large, or not UTF-8
 * (naming the first line that is not).
 */
export const readDecisionFile = (path: string, maxBytes: number): Effect.Effect<string, CommandFailure | UsageError> =>
  Effect.tryPromise({
    try: async () => {
      const file = await open(path, "r")
      try {
        const buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, 1 << 20))
        const parts: Array<Buffer> = []
        let total = 0
        for (;;) {
          const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, maxBytes + 1 - total))
          if (bytesRead === 0) break
          parts.push(Buffer.from(buffer.subarray(0, bytesRead)))
          total += bytesRead
          if (total > maxBytes) return undefined
        }
        return Buffer.concat(parts)
      } finally {
        await file.close()
      }
    },
    catch: (e) => new CommandFailure({ message: `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}` })
  }).pipe(
    Effect.flatMap((bytes) => {
      if (bytes === undefined) {
        return Effect.fail(
          new UsageError({
            message: `${path} is larger than ${maxBytes.toLocaleString("en-US")} bytes, the most feedback import reads (--max-bytes); split it or raise --max-bytes; nothing was imported`
          })
        )
      }
      if (isUtf8(bytes)) return Effect.succeed(bytes.toString("utf8"))
      const decoder = new Utf8.Utf8Decoder()
      const line = Utf8.invalidLine(decoder.decode(bytes) + decoder.end())
      return Effect.fail(new UsageError({ message: `${path}: line ${line}: the text is not valid UTF-8; nothing was imported` }))
    })
  )

const importCommand = Command.make(
  "import",
  {
    file: Args.file({ name: "FILE", exists: "yes" }).pipe(Args.withDescription("JSON lines or CSV of text, attribute and score (0 acceptable .. 1 not).")),
    format: typed("format", "jsonl|csv", (raw) => (raw === "jsonl" || raw === "csv" ? Option.some(raw) : Option.none()), "jsonl or csv").pipe(
      Options.withDescription("The file's format (default: from its extension, .csv or else JSON lines)."),
      Options.optional
    ),
    maxBytes: typed("max-bytes", "BYTES", (raw) => (/^\d{1,15}$/.test(raw) && Number(raw) >= 1 ? Option.some(Number(raw)) : Option.none()), "a whole number of bytes >= 1").pipe(
      Options.withDescription(`The largest file read (default ${DEFAULT_IMPORT_MAX_BYTES.toLocaleString("en-US")}, 64 MiB); a larger one is refused, nothing imported.`),
      Options.optional
    ),
    email,
    db
  },
  (args) =>
    Effect.gen(function*() {
      const content = yield* readDecisionFile(args.file, Option.getOrElse(args.maxBytes, () => DEFAULT_IMPORT_MAX_BYTES))
      const format = Option.getOrElse(args.format, () => (args.file.toLowerCase().endsWith(".csv") ? "csv" as const : "jsonl" as const))
      const decisions = yield* Either.match(parseDecisions(content, format as "jsonl" | "csv"), {
        onLeft: (message) => Effect.fail(new UsageError({ message: `${args.file}: ${message}; nothing was imported` })),
        onRight: Effect.succeed
      })
      const imported = yield* withStore(
        args.db,
        Effect.gen(function*() {
          const account = yield* accountOf(args.email)
          const store = yield* SuggestionStore
          // The store has no transaction to offer here: when it fails part way, say exactly what is in.
          for (const [index, d] of decisions.entries()) {
            yield* store.insert({
              accountId: account.id,
              commentText: d.text,
              contextJson: null,
              attributeScores: d.scores,
              languages: [],
              clientToken: null,
              sessionId: null,
              communityId: "decorum feedback import",
              // An operator's import, not a client's: no key, so no revocation leaves it out.
              keyId: null
            }).pipe(Effect.mapError((error) =>
              new CommandFailure({
                message: index === 0
                  ? `the store failed, nothing was imported: ${error.message}`
                  : `the store failed at line ${d.line} after importing ${index} of ${decisions.length} corrections (lines ${decisions[0]!.line} to ${decisions[index - 1]!.line}); import from line ${d.line} on again: ${error.message}`
              })
            ))
          }
          return decisions.length
        })
      )
      yield* Console.log(`Imported ${imported} corrections for ${args.email}. Fit them with: decorum adapt --email ${args.email}`)
    })
).pipe(Command.withDescription("Import a site's historical moderation decisions as corrections (for decorum adapt)."))

export const command = group("feedback", "Export the feedback clients sent; import a site's past decisions.", [exportCommand, importCommand])
