/**
 * The `decorum` command: serve, keys, topics, feedback. Each command builds only the layers it
 * needs (the key commands open the store, never the models) and exits with 0 on success, 1 on a
 * failure, 2 on a usage error.
 */
import { Auth, ArticleContexts, ENGINE_VERSION } from "@decorum/core"
import { AccountStore, SuggestionStore } from "@decorum/core"
import type { DecorumError } from "@decorum/domain"
import { StoreLayer } from "@decorum/store-sql"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { parseArgs, type ParseArgsConfig } from "node:util"
import { defaultDb } from "./Settings.js"

export class UsageError extends Error {}

const HELP = `decorum ${ENGINE_VERSION}: self-hosted comment moderation (Perspective API drop-in)

Usage:
  decorum serve [--port N] [--host H] [--db PATH|URL]
  decorum keys create --email E [--label L] [--json] [--db ...]
  decorum keys list [--email E] [--json] [--db ...]
  decorum keys revoke KEY_ID [--db ...]
  decorum topics create --email E (--text T | --file F) [--title T] [--description D] [--json] [--db ...]
  decorum topics list --email E [--json] [--db ...]
  decorum topics delete --email E ARTICLE_ID [--db ...]
  decorum feedback export [--since ISO_TIME] [--format jsonl|csv] [--email E] [--out FILE] [--db ...]

--db takes a SQLite file path (default ./decorum.db, or $DECORUM_DB) or a postgres:// URL.
Environment: PORT, HOST, DECORUM_DB, DATABASE_URL, DECORUM_PUBLIC_URL, DECORUM_ENGINE, OPENAI_API_KEY,
OPENAI_BASE_URL, DECORUM_LLM_MODEL, DECORUM_LLM_TIMEOUT_MS, DECORUM_FETCH_ALLOW_PRIVATE. See README.md.
`

const parse = <T extends NonNullable<ParseArgsConfig["options"]>>(args: ReadonlyArray<string>, options: T, positionals = 0) => {
  try {
    const parsed = parseArgs({ args: [...args], options: { ...options, db: { type: "string" }, help: { type: "boolean" } }, allowPositionals: positionals > 0, strict: true })
    if (parsed.positionals.length > positionals) throw new UsageError(`Unexpected argument: ${parsed.positionals[positionals]}`)
    return parsed
  } catch (e) {
    if (e instanceof UsageError) throw e
    throw new UsageError((e as Error).message)
  }
}

const required = (value: string | undefined, name: string): string => {
  if (value === undefined || value.trim() === "") throw new UsageError(`--${name} is required`)
  return value
}

const storeLayer = (db: string | undefined) => StoreLayer.fromUrl(db ?? defaultDb())

/** Runs an effect against the store only, turning typed failures into a message and exit code 1. */
const withStore = async <A>(db: string | undefined, effect: Effect.Effect<A, DecorumError, any>): Promise<A> => {
  const exit = await Effect.runPromiseExit(Effect.provide(effect, storeLayer(db)) as Effect.Effect<A, DecorumError>)
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.failureOption(exit.cause)
  throw new Error(Option.isSome(failure) ? failure.value.message : Cause.pretty(exit.cause))
}

const print = (line: string) => process.stdout.write(line + "\n")

const keys = async (args: ReadonlyArray<string>) => {
  const [sub, ...rest] = args
  switch (sub) {
    case "create": {
      const { values } = parse(rest, { email: { type: "string" }, label: { type: "string" }, json: { type: "boolean" } })
      const email = required(values.email, "email").trim().toLowerCase()
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError(`--email must be an email address, got "${email}"`)
      const created = await withStore(values.db, Auth.createKey(email, values.label ?? null))
      if (values.json) print(JSON.stringify({ email: created.account.email, key: created.key, key_id: created.keyId }))
      else {
        print(`Created key ${created.keyId} for ${created.account.email}. It is shown only once:`)
        print(created.key)
      }
      return
    }
    case "list": {
      const { values } = parse(rest, { email: { type: "string" }, json: { type: "boolean" } })
      const list = await withStore(values.db, Effect.flatMap(AccountStore, (s) => s.listKeys(values.email)))
      if (values.json) {
        print(JSON.stringify(list.map((k) => ({ key_id: k.keyId, email: k.email, label: k.label, created_at: k.createdAt.toISOString(), revoked_at: k.revokedAt?.toISOString() ?? null }))))
        return
      }
      if (list.length === 0) print("No keys.")
      for (const k of list) {
        print(`${k.keyId}  ${k.email}  created ${k.createdAt.toISOString()}${k.revokedAt ? `  REVOKED ${k.revokedAt.toISOString()}` : ""}${k.label ? `  (${k.label})` : ""}`)
      }
      return
    }
    case "revoke": {
      const { positionals, values } = parse(rest, {}, 1)
      const id = required(positionals[0], "key id (positional)")
      const keyId = Auth.parseKeyId(id) ?? id
      const revoked = await withStore(values.db, Effect.flatMap(AccountStore, (s) => s.revokeKey(keyId)))
      if (!revoked) throw new Error(`No active key ${keyId}.`)
      print(`Revoked key ${keyId}.`)
      return
    }
    default:
      throw new UsageError(`Unknown keys command: ${sub ?? "(none)"}`)
  }
}

const accountOf = (email: string) =>
  Effect.flatMap(AccountStore, (s) => s.findAccount(email)).pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.die(new Error(`No account ${email}. Create one with: decorum keys create --email ${email}`)),
      onSome: Effect.succeed
    }))
  )

const topics = async (args: ReadonlyArray<string>) => {
  const [sub, ...rest] = args
  switch (sub) {
    case "create": {
      const { values } = parse(rest, {
        email: { type: "string" },
        text: { type: "string" },
        file: { type: "string" },
        title: { type: "string" },
        description: { type: "string" },
        json: { type: "boolean" }
      })
      const email = required(values.email, "email").trim().toLowerCase()
      if ((values.text === undefined) === (values.file === undefined)) throw new UsageError("Give exactly one of --text or --file")
      const text = values.text ?? readFileSync(values.file!, "utf8")
      const context = await withEngine(values.db, Effect.flatMap(accountOf(email), (account) =>
        ArticleContexts.create(account, { text, title: values.title ?? null, topic_description: values.description ?? null })))
      if (values.json) print(JSON.stringify({ article_id: context.id }))
      else print(context.id)
      return
    }
    case "list": {
      const { values } = parse(rest, { email: { type: "string" }, json: { type: "boolean" } })
      const email = required(values.email, "email").trim().toLowerCase()
      const list = await withStore(values.db, Effect.flatMap(accountOf(email), (a) => ArticleContexts.list(a)))
      if (values.json) {
        print(JSON.stringify(list.map((c) => ({ article_id: c.id, title: c.title, source_url: c.sourceUrl, text_length: c.textLength, created_at: c.createdAt.toISOString() }))))
        return
      }
      if (list.length === 0) print("No article contexts.")
      for (const c of list) print(`${c.id}  ${c.createdAt.toISOString()}  ${c.textLength} chars  ${c.title ?? c.sourceUrl ?? ""}`)
      return
    }
    case "delete": {
      const { positionals, values } = parse(rest, { email: { type: "string" } }, 1)
      const email = required(values.email, "email").trim().toLowerCase()
      const id = required(positionals[0], "article id (positional)")
      await withStore(values.db, Effect.flatMap(accountOf(email), (a) => ArticleContexts.remove(a, id)))
      print(`Deleted ${id}.`)
      return
    }
    default:
      throw new UsageError(`Unknown topics command: ${sub ?? "(none)"}`)
  }
}

/** Creating a topic computes its profile, so it needs the engine's TopicProfiler, not just the store. */
const withEngine = async <A>(db: string | undefined, effect: Effect.Effect<A, DecorumError, any>): Promise<A> => {
  // Loaded on demand: the key and feedback commands need only the store, and start faster without it.
  const { Engine } = await import("@decorum/embedded")
  const layer = Engine.topicLayer().pipe(Layer.provideMerge(storeLayer(db)))
  const exit = await Effect.runPromiseExit(Effect.provide(effect, layer) as Effect.Effect<A, DecorumError>)
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.failureOption(exit.cause)
  throw new Error(Option.isSome(failure) ? failure.value.message : Cause.pretty(exit.cause))
}

const CSV_COLUMNS = ["id", "created_at", "email", "community_id", "session_id", "client_token", "languages", "attribute", "value", "comment_text", "context_json"] as const

const csvCell = (v: unknown): string => {
  const s = v === null || v === undefined ? "" : String(v)
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, "\"\"")}"` : s
}

const feedback = async (args: ReadonlyArray<string>) => {
  const [sub, ...rest] = args
  if (sub !== "export") throw new UsageError(`Unknown feedback command: ${sub ?? "(none)"}`)
  const { values } = parse(rest, { since: { type: "string" }, format: { type: "string" }, email: { type: "string" }, out: { type: "string" } })
  const format = values.format ?? "jsonl"
  if (format !== "jsonl" && format !== "csv") throw new UsageError(`--format must be jsonl or csv, got "${format}"`)
  let since: Date | undefined
  if (values.since !== undefined) {
    since = new Date(values.since)
    if (Number.isNaN(since.getTime())) throw new UsageError(`--since must be an ISO date or time, got "${values.since}"`)
  }
  const rows = await withStore(values.db, Effect.flatMap(SuggestionStore, (s) => s.list({ ...(since ? { since } : {}), ...(values.email ? { email: values.email } : {}) })))
  const lines: Array<string> = []
  if (format === "jsonl") {
    for (const r of rows) {
      lines.push(JSON.stringify({
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
      }))
    }
  } else {
    // One row per (suggestion, attribute): the shape spreadsheets and training scripts want.
    lines.push(CSV_COLUMNS.join(","))
    for (const r of rows) {
      for (const [attribute, value] of Object.entries(r.attributeScores)) {
        lines.push([r.id, r.createdAt.toISOString(), r.email, r.communityId, r.sessionId, r.clientToken, r.languages.join(" "), attribute, value, r.commentText, r.contextJson].map(csvCell).join(","))
      }
    }
  }
  const text = lines.length > 0 ? lines.join("\n") + "\n" : ""
  if (values.out) {
    writeFileSync(values.out, text)
    process.stderr.write(`Wrote ${rows.length} suggestions to ${values.out}\n`)
  } else process.stdout.write(text)
}

export const run = async (argv: ReadonlyArray<string>): Promise<number> => {
  const [command, ...rest] = argv
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        print(HELP)
        return command === undefined ? 2 : 0
      case "--version":
      case "version":
        print(ENGINE_VERSION)
        return 0
      case "serve": {
        const { values } = parse(rest, { port: { type: "string" }, host: { type: "string" } })
        if (values.help) {
          print(HELP)
          return 0
        }
        let port: number | undefined
        if (values.port !== undefined) {
          port = Number(values.port)
          if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number, got "${values.port}"`)
        }
        const { serve } = await import("./Serve.js")
        await serve({ ...(port !== undefined ? { port } : {}), ...(values.host ? { host: values.host } : {}), ...(values.db ? { db: values.db } : {}) })
        return 0
      }
      case "keys":
        await keys(rest)
        return 0
      case "topics":
        await topics(rest)
        return 0
      case "feedback":
        await feedback(rest)
        return 0
      default:
        throw new UsageError(`Unknown command: ${command}`)
    }
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`decorum: ${e.message}\nRun "decorum --help" for usage.\n`)
      return 2
    }
    process.stderr.write(`decorum: ${(e as Error).message}\n`)
    return 1
  }
}
