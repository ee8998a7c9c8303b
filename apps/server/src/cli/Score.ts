/** `decorum score`: scores an archive of comments (`Archive.score` of @decorum/engine, loaded on demand). */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { CommandFailure, engine, typed, UsageError } from "./Shared.js"

const input = Args.text({ name: "INPUT" }).pipe(Args.withDescription("A CSV file with a header row, a JSON-lines file, or - for standard input."))

const output = Options.text("output").pipe(
  Options.withPseudoName("OUT"),
  Options.withDescription("Write here instead of standard output: JSON lines, or CSV when the name ends in .csv."),
  Options.optional
)

const attributes = Options.text("attributes").pipe(
  Options.withPseudoName("TOXICITY,INSULT,..."),
  Options.withDescription("The Perspective attributes to score, comma-separated (default TOXICITY)."),
  Options.map((raw) => raw.split(",").map((a) => a.trim()).filter((a) => a !== "")),
  Options.optional
)

const workers = typed("workers", "N", (raw) => {
  const n = Number(raw)
  return Number.isInteger(n) && n >= 1 && n <= 256 ? Option.some(n) : Option.none()
}, "a whole number from 1 to 256").pipe(
  Options.withDescription("Worker threads (default: one per core; 1 scores on the main thread)."),
  Options.optional
)

const textColumn = Options.text("text-column").pipe(
  Options.withPseudoName("C"),
  Options.withDescription("The column (CSV) or field (JSON lines) holding the comment (default text)."),
  Options.optional
)

const idColumn = Options.text("id-column").pipe(
  Options.withPseudoName("C"),
  Options.withDescription("The column or field holding the row's id (default id; rows without one are named by line number)."),
  Options.optional
)

const resume = Options.boolean("resume").pipe(Options.withDescription("Skip the ids already in OUT and append to it."))

export const command = Command.make("score", { input, output, attributes, workers, textColumn, idColumn, resume }, (args) =>
  Effect.gen(function*() {
    if (args.resume && Option.isNone(args.output)) return yield* new UsageError({ message: "--resume needs --output" })
    const { Archive } = yield* engine
    yield* Effect.tryPromise({
      try: () =>
        Archive.score({
          input: args.input,
          output: Option.getOrUndefined(args.output),
          attributes: Option.getOrUndefined(args.attributes),
          workers: Option.getOrUndefined(args.workers),
          textColumn: Option.getOrUndefined(args.textColumn),
          idColumn: Option.getOrUndefined(args.idColumn),
          resume: args.resume
        }),
      catch: (e) =>
        e instanceof Archive.ScoreUsageError
          ? new UsageError({ message: e.message })
          : new CommandFailure({ message: e instanceof Error ? e.message : String(e) })
    })
  })).pipe(Command.withDescription("Score an archive of comments (CSV or JSON lines) on every core; rows out in JSON lines or CSV."))
