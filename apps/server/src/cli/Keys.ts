/** `decorum keys create|list|revoke`: API keys, straight against the store. */
import { AccountStore, Auth } from "@decorum/core"
import { Args, Command, Options, ValidationError, HelpDoc } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { CommandFailure, db, email, group, json, withStore } from "./Shared.js"

const address = email.pipe(
  Options.mapEffect((value) =>
    /^[^\s@]+@[^\s@]+$/.test(value)
      ? Effect.succeed(value)
      : Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--email must be an email address, got "${value}"`)))
  )
)

const create = Command.make(
  "create",
  {
    email: address,
    label: Options.text("label").pipe(Options.withPseudoName("LABEL"), Options.withDescription("A note to tell keys apart (shown by `keys list`)."), Options.optional),
    json,
    db
  },
  (args) =>
    withStore(args.db, Auth.createKey(args.email, Option.getOrNull(args.label))).pipe(
      Effect.flatMap((created) =>
        args.json
          ? Console.log(JSON.stringify({ email: created.account.email, key: created.key, key_id: created.keyId }))
          : Console.log(`Created key ${created.keyId} for ${created.account.email}. It is shown only once:\n${created.key}`)
      )
    )
).pipe(Command.withDescription("Create an API key (and its account, on first use). The key is printed once."))

const list = Command.make(
  "list",
  {
    email: Options.text("email").pipe(Options.withPseudoName("EMAIL"), Options.withDescription("Only this account's keys."), Options.optional),
    json,
    db
  },
  (args) =>
    Effect.gen(function*() {
      const keys = yield* withStore(args.db, Effect.flatMap(AccountStore, (s) => s.listKeys(Option.getOrUndefined(args.email))))
      if (args.json) {
        return yield* Console.log(JSON.stringify(keys.map((k) => ({
          key_id: k.keyId,
          email: k.email,
          label: k.label,
          created_at: k.createdAt.toISOString(),
          revoked_at: k.revokedAt?.toISOString() ?? null
        }))))
      }
      if (keys.length === 0) yield* Console.log("No keys.")
      for (const k of keys) {
        yield* Console.log(
          `${k.keyId}  ${k.email}  created ${k.createdAt.toISOString()}${k.revokedAt ? `  REVOKED ${k.revokedAt.toISOString()}` : ""}${k.label ? `  (${k.label})` : ""}`
        )
      }
    })
).pipe(Command.withDescription("List API keys (ids, never secrets)."))

const revoke = Command.make(
  "revoke",
  {
    key: Args.text({ name: "KEY_ID" }).pipe(Args.withDescription("The key's id (as `keys list` shows it) or the whole key.")),
    db
  },
  (args) =>
    Effect.gen(function*() {
      const keyId = Auth.parseKeyId(args.key) ?? args.key
      const revoked = yield* withStore(args.db, Effect.flatMap(AccountStore, (s) => s.revokeKey(keyId)))
      if (!revoked) return yield* new CommandFailure({ message: `No active key ${keyId}.` })
      yield* Console.log(`Revoked key ${keyId}.`)
    })
).pipe(Command.withDescription("Revoke an API key; requests with it are refused from then on."))

export const command = group("keys", "Create, list and revoke API keys.", [create, list, revoke])
