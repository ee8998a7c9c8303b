/**
 * `decorum adapt`: fits an account's adapters from its moderators' corrections and prints the
 * report (JSON); `--reset` returns the account to the shipped scores. Running servers pick the
 * change up from the store within seconds (see `Adaptation` in the core).
 */
import { Adaptation } from "@decorum/core"
import { Perspective } from "@decorum/domain"
import { Command, Options } from "@effect/cli"
import { Console, Effect, Layer, Option } from "effect"
import { accountOf, CommandFailure, db, email, engine, failWithMessage, storeLayer, typed } from "./Shared.js"

// Parsed to the canonical name as a plain string: the option's type is part of `Cli`'s exports.
const attribute: Options.Options<Option.Option<string>> = typed("attribute", "ATTRIBUTE", (raw): Option.Option<string> => Option.fromNullable(Perspective.resolveAttribute(raw)), "a Perspective attribute (TOXICITY, INSULT, ...)").pipe(
  Options.withDescription("Only this attribute (default: every attribute the account corrected)."),
  Options.optional
)

const reset = Options.boolean("reset").pipe(Options.withDescription("Return the account to the shipped scores (all attributes, or --attribute)."))

export const command = Command.make("adapt", { email, attribute, reset, db }, (args) =>
  failWithMessage(
    Effect.gen(function*() {
      const account = yield* accountOf(args.email)
      const only = Option.getOrUndefined(args.attribute) as Perspective.Attribute | undefined
      if (args.reset) {
        yield* Adaptation.reset(account, only)
        yield* Console.log(JSON.stringify({ email: account.email, reset: only ?? "all" }, null, 2))
        return
      }
      // In this process, with no worker thread, a fit cannot fail as a worker does; kept typed anyway.
      const report = yield* Adaptation.adapt(account, only).pipe(
        Effect.catchTag("RefitFailure", (e) => Effect.fail(new CommandFailure({ message: e.message })))
      )
      yield* Console.log(JSON.stringify(report, null, 2))
    }).pipe(
      Effect.provide(
        Layer.unwrapEffect(Effect.flatMap(engine, ({ Engine, EngineConfig }) => Effect.map(EngineConfig.config, (settings) => Engine.layerAdapt(settings)))).pipe(
          Layer.provideMerge(storeLayer(args.db))
        )
      )
    )
  )).pipe(Command.withDescription("Fit an account's adapters from its corrections (suggestscore, feedback import) and print the report as JSON."))
