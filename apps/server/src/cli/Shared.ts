/**
 * What every `decorum` command shares: the `--db` and `--json` options, the two kinds of failure a
 * command can end with (a usage error, exit 2; a failure, exit 1) and running an effect against the
 * store alone.
 */
import type { DecorumError } from "@decorum/domain"
import { AccountStore } from "@decorum/core"
import { Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import { ConfigError, Data, Effect, Either, Layer, Option, Redacted } from "effect"

/**
 * The engine package (configuration, store, models), loaded when a command first needs it: the
 * option parser, `--help` and `--version` never load it, and in the bundled command
 * (`scripts/bundle-cli.mjs`) it is a chunk of its own.
 */
export const engine = Effect.promise(() => import("@decorum/engine"))

/** The command line was wrong in a way the option parser cannot see (exit 2). */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

/** The command ran and failed (exit 1): an unknown account, a missing key, an unreachable store. */
export class CommandFailure extends Data.TaggedError("CommandFailure")<{ readonly message: string }> {}

export const db = Options.text("db").pipe(
  Options.withPseudoName("PATH|URL"),
  Options.withDescription("The store: a SQLite file path (default ./decorum.db, or $DECORUM_DB) or a postgres:// URL."),
  Options.mapEffect((raw) =>
    Effect.flatMap(engine, ({ EngineConfig }) =>
      Either.match(EngineConfig.checkDb(raw), {
        onLeft: (reason) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--db ${reason}, got "${raw.replace(/\/\/([^:@/]+):[^@/]+@/, "//$1:***@")}"`))),
        onRight: Effect.succeed
      }))
  ),
  Options.optional
)

export const json = Options.boolean("json").pipe(Options.withDescription("Print JSON instead of text."))

/** An email address, trimmed and lower-cased, as accounts are keyed. */
export const email = Options.text("email").pipe(
  Options.withPseudoName("EMAIL"),
  Options.withDescription("The account's email address."),
  Options.map((raw) => raw.trim().toLowerCase())
)

/** `--db`, else the configured store (`DECORUM_DB`, `DATABASE_URL`, `./decorum.db`). */
export const storeLayer = (db: Option.Option<string>) =>
  Layer.unwrapEffect(
    Effect.flatMap(engine, ({ Engine, EngineConfig }) =>
      Effect.map(EngineConfig.storeConfig, (store) => Engine.layerStore(Option.match(db, { onNone: () => store.db, onSome: Redacted.make }))))
  )

/** Typed engine, store and configuration failures become a `CommandFailure` carrying their message. */
export const failWithMessage = <A, R>(effect: Effect.Effect<A, DecorumError | CommandFailure | ConfigError.ConfigError, R>) =>
  Effect.catchAll(effect, (e) =>
    ConfigError.isConfigError(e)
      ? Effect.flatMap(engine, ({ EngineConfig }) => new CommandFailure({ message: `bad configuration:\n${EngineConfig.describe(e)}` }))
      : Effect.fail(e._tag === "CommandFailure" ? e : new CommandFailure({ message: e.message })))

/** Runs an effect against the store only (the key, topic-listing and feedback commands never load the models). */
export const withStore = <A, R>(db: Option.Option<string>, effect: Effect.Effect<A, DecorumError | CommandFailure, R>) =>
  failWithMessage(Effect.provide(effect, storeLayer(db)))

/**
 * A command that only groups subcommands (`keys`, `topics`, ...). Run without one it is a usage
 * error, as it always was, rather than silently doing nothing.
 */
export const group = <const Subcommands extends readonly [Command.Command<any, any, any, any>, ...Array<Command.Command<any, any, any, any>>]>(
  name: string,
  description: string,
  subcommands: Subcommands
) =>
  Command.make(name, {}, () =>
    Effect.fail(new UsageError({ message: `decorum ${name} needs a command: ${subcommands.map((c) => Array.from(Command.getNames(c))[0]).join(", ")}` }))
  ).pipe(Command.withDescription(description), Command.withSubcommands(subcommands))

/** The account behind an email address; a clear failure (not a defect) when there is none. */
export const accountOf = (address: string) =>
  Effect.flatMap(AccountStore, (s) => s.findAccount(address)).pipe(
    Effect.flatMap(Option.match({
      onNone: () => new CommandFailure({ message: `No account ${address}. Create one with: decorum keys create --email ${address}` }),
      onSome: Effect.succeed
    }))
  )

/**
 * A typed option whose parse error names the option and echoes the value (`--port must be a port
 * number, got "-1"`): @effect/cli's own primitives (`integer`, `date`, `choice`) report only the
 * value. `placeholder` is what the help shows after the flag.
 */
export const typed = <A>(
  name: string,
  placeholder: string,
  parse: (raw: string) => Option.Option<A>,
  expected: string
): Options.Options<A> =>
  Options.text(name).pipe(
    Options.withPseudoName(placeholder),
    Options.mapEffect((raw) =>
      Option.match(parse(raw), {
        onNone: () => Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--${name} must be ${expected}, got "${raw}"`))),
        onSome: Effect.succeed
      })
    )
  )
