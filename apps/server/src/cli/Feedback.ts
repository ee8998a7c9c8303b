/** `decorum feedback export`: the score suggestions clients sent, as JSON lines or CSV. */
import { SuggestionStore } from "@decorum/core"
import type { ScoreSuggestion } from "@decorum/domain"
import { Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect, Option } from "effect"
import { CommandFailure, db, group, typed, withStore } from "./Shared.js"

const CSV_COLUMNS = ["id", "created_at", "email", "community_id", "session_id", "client_token", "languages", "attribute", "value", "comment_text", "context_json"] as const

const csvCell = (v: unknown): string => {
  const s = v === null || v === undefined ? "" : String(v)
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, "\"\"")}"` : s
}

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
      context: r.contextJson ? JSON.parse(r.contextJson) : null
    })
  )

/** One row per (suggestion, attribute): the shape spreadsheets and training scripts want. */
const csvLines = (rows: ReadonlyArray<Suggestion>) => [
  CSV_COLUMNS.join(","),
  ...rows.flatMap((r) =>
    Object.entries(r.attributeScores).map(([attribute, value]) =>
      [r.id, r.createdAt.toISOString(), r.email, r.communityId, r.sessionId, r.clientToken, r.languages.join(" "), attribute, value, r.commentText, r.contextJson]
        .map(csvCell)
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

export const command = group("feedback", "Export the feedback clients sent.", [exportCommand])
