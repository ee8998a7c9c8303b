/**
 * The `decorum` command, on `@effect/cli`: one module per command group under `cli/`, assembled
 * here. Each command builds only the layers it needs (the key commands open the store, never the
 * models). Exit codes: 0 on success (and for `--help`, `--version`, `--completions`), 1 when a
 * command fails, 2 on a usage error.
 */
import { ENGINE_VERSION } from "@decorum/core"
import { Command, HelpDoc, ValidationError } from "@effect/cli"
import { NodeContext } from "@effect/platform-node"
import { Console, Effect } from "effect"
import * as Adapt from "./cli/Adapt.js"
import * as Feedback from "./cli/Feedback.js"
import * as Keys from "./cli/Keys.js"
import * as Score from "./cli/Score.js"
import * as Serve from "./cli/Serve.js"
import * as Topics from "./cli/Topics.js"

/** Every command group; a new one is a module under `cli/` exporting `command`, added here. */
export const commands = [Serve.command, Keys.command, Topics.command, Feedback.command, Score.command, Adapt.command] as const

export const root = Command.make("decorum").pipe(
  Command.withDescription("Self-hosted comment moderation: a Perspective API drop-in with offline models and LLM evaluation."),
  Command.withSubcommands(commands)
)

const footer = HelpDoc.p(
  "Environment: PORT, HOST, DECORUM_DB, DATABASE_URL, DECORUM_PUBLIC_URL, DECORUM_ENGINE, OPENAI_API_KEY, OPENAI_BASE_URL, DECORUM_LLM_MODEL, DECORUM_LLM_TIMEOUT_MS, DECORUM_FETCH_ALLOW_PRIVATE, ... (see README.md)."
)

const cli = Command.run(root, { name: "decorum", version: ENGINE_VERSION, footer })

/**
 * @effect/cli renders help and errors with ANSI styles. Keep them for a terminal; strip them when
 * the output is a pipe or a file, or when NO_COLOR is set, so scripts and logs get plain text.
 */
const ANSI = /\x1b\[[0-9;]*m/g
const plainWhenPiped = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
  const plain = (stream: NodeJS.WriteStream) => !stream.isTTY || (process.env["NO_COLOR"] ?? "") !== ""
  const strip = (args: ReadonlyArray<unknown>) => args.map((a) => (typeof a === "string" ? a.replace(ANSI, "") : a))
  return Console.consoleWith((console) =>
    Effect.withConsole(effect, {
      ...console,
      log: (...args) => console.log(...(plain(process.stdout) ? strip(args) : args)),
      error: (...args) => console.error(...(plain(process.stderr) ? strip(args) : args))
    })
  )
}

const USAGE_HINT = `Run "decorum --help" for usage.`

/** The words the hand-written parser accepted besides the flags, kept so old scripts keep working. */
const aliases: Record<string, string> = { help: "--help", version: "--version" }

/**
 * `decorum` with the arguments after the executable, as an effect that always succeeds with the
 * exit code (output goes through the `Console` service, so tests can capture it).
 */
export const main = (argv: ReadonlyArray<string>): Effect.Effect<number> => {
  const bare = argv.length === 0
  const args = bare ? ["--help"] : argv.length === 1 && aliases[argv[0]!] ? [aliases[argv[0]!]!] : argv
  return plainWhenPiped(cli(["node", "decorum", ...args])).pipe(
    // Bare `decorum` prints the help and still counts as a usage error, as it always did.
    Effect.as(bare ? 2 : 0),
    Effect.catchAll((error) => {
      if (ValidationError.isValidationError(error)) {
        // @effect/cli has already printed what was wrong; point at the help.
        return Console.error(USAGE_HINT).pipe(Effect.as(2))
      }
      if (error._tag === "UsageError") return Console.error(`decorum: ${error.message}\n${USAGE_HINT}`).pipe(Effect.as(2))
      return Console.error(`decorum: ${error.message}`).pipe(Effect.as(1))
    }),
    Effect.catchAllDefect((defect) => Console.error(`decorum: ${defect instanceof Error ? defect.message : String(defect)}`).pipe(Effect.as(1))),
    Effect.provide(NodeContext.layer)
  )
}

/** Runs `decorum` with the arguments after the executable; resolves to the exit code. */
export const run = (argv: ReadonlyArray<string>): Promise<number> => Effect.runPromise(main(argv))
