/** `decorum topics create|list|delete`: article contexts (the topic a comment is judged against). */
import { ArticleContexts } from "@decorum/core"
import type { DecorumError } from "@decorum/domain"
import { Args, Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect, Layer, Option } from "effect"
import { accountOf, CommandFailure, db, email, engine, failWithMessage, group, json, storeLayer, withStore } from "./Shared.js"

/** The article's text, given inline or as a file to read: exactly one of the two. */
const source = Options.text("text").pipe(
  Options.withPseudoName("TEXT"),
  Options.withDescription("The article's text."),
  Options.map((text) => ({ _tag: "Text", text }) as const),
  Options.orElse(Options.text("file").pipe(
    Options.withPseudoName("FILE"),
    Options.withDescription("A file holding the article's text."),
    Options.map((path) => ({ _tag: "File", path }) as const)
  ))
)

const readSource = (input: typeof source extends Options.Options<infer A> ? A : never) =>
  input._tag === "Text"
    ? Effect.succeed(input.text)
    : Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(input.path)).pipe(
      Effect.mapError((e) => new CommandFailure({ message: `cannot read ${input.path}: ${e.message}` }))
    )

/** Creating a topic computes its profile, so it needs the engine's topic profiler as well as the store. */
const withTopicEngine = <A, R>(db: Option.Option<string>, effect: Effect.Effect<A, DecorumError | CommandFailure, R>) =>
  failWithMessage(Effect.provide(
    effect,
    Layer.unwrapEffect(Effect.flatMap(engine, ({ Engine, EngineConfig }) => Effect.map(EngineConfig.fetchConfig, (fetch) => Engine.layerTopic({ fetch })))).pipe(
      Layer.provideMerge(storeLayer(db))
    )
  ))

const create = Command.make(
  "create",
  {
    email,
    source,
    title: Options.text("title").pipe(Options.withPseudoName("TITLE"), Options.withDescription("The article's title."), Options.optional),
    description: Options.text("description").pipe(Options.withPseudoName("TEXT"), Options.withDescription("What the discussion is about, in a sentence."), Options.optional),
    json,
    db
  },
  (args) =>
    Effect.gen(function*() {
      const text = yield* readSource(args.source)
      const context = yield* withTopicEngine(
        args.db,
        Effect.flatMap(accountOf(args.email), (account) =>
          ArticleContexts.create(account, { text, title: Option.getOrNull(args.title), topic_description: Option.getOrNull(args.description) }))
      )
      yield* Console.log(args.json ? JSON.stringify({ article_id: context.id }) : context.id)
    })
).pipe(Command.withDescription("Create an article context from text or a file; prints its id."))

const list = Command.make("list", { email, json, db }, (args) =>
  Effect.gen(function*() {
    const contexts = yield* withStore(args.db, Effect.flatMap(accountOf(args.email), (a) => ArticleContexts.list(a)))
    if (args.json) {
      return yield* Console.log(JSON.stringify(contexts.map((c) => ({
        article_id: c.id,
        title: c.title,
        source_url: c.sourceUrl,
        text_length: c.textLength,
        created_at: c.createdAt.toISOString()
      }))))
    }
    if (contexts.length === 0) yield* Console.log("No article contexts.")
    for (const c of contexts) yield* Console.log(`${c.id}  ${c.createdAt.toISOString()}  ${c.textLength} chars  ${c.title ?? c.sourceUrl ?? ""}`)
  })).pipe(Command.withDescription("List an account's article contexts."))

const remove = Command.make(
  "delete",
  { email, id: Args.text({ name: "ARTICLE_ID" }).pipe(Args.withDescription("The article context's id.")), db },
  (args) =>
    withStore(args.db, Effect.flatMap(accountOf(args.email), (a) => ArticleContexts.remove(a, args.id))).pipe(
      Effect.zipRight(Console.log(`Deleted ${args.id}.`))
    )
).pipe(Command.withDescription("Delete an article context."))

export const command = group("topics", "Create, list and delete article contexts (topics).", [create, list, remove])
