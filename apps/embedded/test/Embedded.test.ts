/**
 * The in-process host answers exactly what the Node server answers for the same input: both are
 * built from the same engine options (the real local engine, in-memory stores), the server is
 * called over a real socket, and every value, model version and error is compared.
 */
import { Auth, SuggestionStore } from "@decorum/core"
import { HttpApp, HttpConfig } from "@decorum/http"
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { afterAll, assert, beforeAll, describe, it, layer } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  createDecorum,
  Decorum,
  type DecorumClient,
  DecorumClosedError,
  DecorumLayer,
  type DecorumOptions,
  defaultModel,
  Engine,
  InvalidArticleContextId,
  InvalidComment,
  InvalidRequest,
  MissingParameter,
  NoEvaluationRequested,
  NotFound,
  UnknownArticleContext,
  UnsupportedAttribute
} from "../src/index.js"

const options: DecorumOptions = { db: "memory", model: defaultModel() }
const ARTICLE = "The city council approved a new budget for public parks and libraries. Residents debated library opening hours and the cost of new books."
const EMAIL = "moderator@example.com"

interface Server {
  readonly url: string
  readonly key: string
  readonly close: () => Promise<void>
}

/** The Node host over an engine built from `options`, on a loopback port. */
const startServer = async (): Promise<Server> => {
  const scope = Effect.runSync(Scope.make())
  const layer = HttpApiBuilder.serve().pipe(
    Layer.provide(HttpApp.layer),
    Layer.provideMerge(Layer.mergeAll(Engine.layerOptions(options), HttpConfig.layer())),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
  )
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  const key = await Effect.runPromise(Effect.provide(Effect.map(Auth.createKey(EMAIL), (k) => k.key), context))
  return { url: `http://127.0.0.1:${address.port}`, key, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

describe("createDecorum: the same answers as the server", () => {
  let server: Server
  let decorum: DecorumClient
  let serverArticle: string
  let localArticle: string

  const post = async (path: string, body: unknown) => {
    const res = await fetch(server.url + path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-user-email": EMAIL, "x-api-key": server.key },
      body: JSON.stringify(body)
    })
    return { status: res.status, model: res.headers.get("x-model-version"), engine: res.headers.get("x-engine-version"), body: await res.json() }
  }

  /** The error a promise rejects with. */
  const rejection = (promise: Promise<unknown>) => promise.then(() => assert.fail("expected a rejection"), (e: unknown) => e)

  beforeAll(async () => {
    ;[server, decorum] = await Promise.all([startServer(), createDecorum(options)])
    serverArticle = (await post("/v0.2/inittopic", { text: ARTICLE, title: "Council budget" })).body.article_id
    localArticle = (await decorum.createArticleContext({ text: ARTICLE, title: "Council budget" })).article_id
  })
  afterAll(async () => {
    await Promise.all([server?.close(), decorum?.close()])
  })

  it("names the same engine and model set", async () => {
    const res = await post("/v0.2/antispam", { comment: "hello there" })
    assert.deepStrictEqual(decorum.info, { engineVersion: res.engine, modelVersion: res.model })
  })

  it("reads the same article context view (apart from its id and creation time)", async () => {
    const res = await fetch(`${server.url}/v0.2/article-contexts/${serverArticle}`, { headers: { "x-user-email": EMAIL, "x-api-key": server.key } })
    const { article_id: _a, created_at: _c, ...fromServer } = await res.json()
    const { article_id, created_at: _d, ...local } = await decorum.getArticleContext(localArticle)
    assert.strictEqual(article_id, localArticle)
    assert.deepStrictEqual(local, fromServer)
  })

  const comments = [
    "You are an idiot and this plan is stupid.",
    "Longer library hours would help students who work during the day.",
    "Buy cheap watches now!!! Subscribe at http://spam.example/deal",
    "Everyone knows politics ruins everything, so the budget is wrong."
  ]

  it("scores comments identically", async () => {
    for (const comment of comments) {
      const res = await post("/v0.2/commentscore", { article_context_id: serverArticle, comment, reply_to_comment: "Parks first." })
      const local = await decorum.scoreComment({ article_context_id: localArticle, comment, reply_to_comment: "Parks first." })
      assert.strictEqual(res.status, 200)
      assert.deepStrictEqual(local.value, res.body)
      assert.strictEqual(local.provenance.model, res.model)
    }
  })

  it("checks spam identically, with and without an article context", async () => {
    for (const comment of comments) {
      const res = await post("/v0.2/antispam", { comment })
      assert.deepStrictEqual((await decorum.checkSpam({ comment })).value, res.body)
      const withArticle = await post("/v0.2/antispam", { comment, article_context_id: serverArticle })
      assert.deepStrictEqual((await decorum.checkSpam({ comment, article_context_id: localArticle })).value, withArticle.body)
    }
  })

  it("checks relevance and banned topics identically", async () => {
    for (const comment of comments) {
      const request = { comment, banned_topics: ["politics", "cryptocurrency"] }
      const res = await post("/v0.2/commentrelevance", { ...request, article_context_id: serverArticle })
      const local = await decorum.checkRelevance({ ...request, article_context_id: localArticle })
      assert.deepStrictEqual(local.value, res.body)
      assert.strictEqual(local.provenance.model, res.model)
    }
  })

  it("answers the combined evaluation identically, section by section", async () => {
    const request = {
      comment: comments[0]!,
      banned_topics: ["politics"],
      run_comment_score: true,
      run_spam_check: true,
      run_relevance_check: true,
      run_perspective: true,
      requested_attributes: ["TOXICITY", "INSULT", "PROFANITY"],
      run_llm_detect: false
    }
    const res = await post("/v0.2/megacall", { ...request, article_context_id: serverArticle })
    const local = await decorum.megacall({ ...request, article_context_id: localArticle })
    assert.strictEqual(res.status, 200)
    assert.deepStrictEqual(Object.keys(res.body).sort(), ["comment_score", "perspective", "relevance_check", "spam_check"])
    for (const section of ["comment_score", "spam_check", "relevance_check", "perspective"] as const) {
      assert.deepStrictEqual(local[section]?.value, res.body[section])
    }
    assert.deepStrictEqual(local.failures, {})
  })

  it("checks dog whistles and machine-written text identically, in both forms and in the combined call", async () => {
    const comment = "Author: Sam\nAuthor email: sam@example.com\n\nThe globalists are at it again. Moreover, it is important to note that the budget is a rich tapestry."
    const dogRequest = { comment, sensitive_topics: ["finance"], dogwhistle_examples: ["at it again"], reply_to_comment: "Who decides the budget?" }
    const pairs = [
      [await post("/v0.2/dogwhistle", { ...dogRequest, article_context_id: serverArticle }), () => decorum.checkDogwhistle({ ...dogRequest, article_context_id: localArticle })],
      [await post("/v0.2/llmdetect", { comment }), () => decorum.detectLlm({ comment })]
    ] as const
    for (const [res, local] of pairs) {
      if (res.status === 200) {
        const answered = await local()
        assert.deepStrictEqual(answered.value, res.body)
        assert.strictEqual(answered.provenance.model, res.model)
      } else {
        // A detector whose files are not shipped: both fail alike, as the provider's failure.
        assert.strictEqual(res.status, 502)
        const failure = await rejection(local())
        assert.deepInclude(failure, { _tag: "ProviderFailure", message: res.body.message })
      }
    }
    const request = { ...dogRequest, run_dogwhistle_check: true, run_llm_detect: true, run_spam_check: true }
    const res = await post("/v0.2/megacall", request)
    const local = await decorum.megacall(request)
    assert.strictEqual(res.status, 200)
    for (const section of ["spam_check", "dogwhistle_check", "llm_detection"] as const) {
      assert.deepStrictEqual(local[section]?.value, res.body[section])
      assert.deepStrictEqual(local.failures[section]?.message, res.body.errors?.[section]?.message)
    }
  })

  it("analyses attributes identically on both Perspective families", async () => {
    const request = {
      comment: { text: "What kind of idiot name is foo? Nice library though." },
      requestedAttributes: { TOXICITY: {}, INSULT: {}, SEVERE_TOXICITY: {}, TOXICITY_EXPERIMENTAL: { scoreThreshold: 0.01 } },
      spanAnnotations: true,
      clientToken: "t-1"
    }
    const compat = await post("/v0.2/external-compat/analyse", request)
    const local = await decorum.analyze(request)
    assert.deepStrictEqual(local.value, compat.body)
    assert.strictEqual(local.provenance.model, compat.model)
    const google = await fetch(`${server.url}/v1alpha1/comments:analyze?key=${server.key}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ comment: { text: "you are an idiot" }, requested_attributes: { TOXICITY: {} }, languages: ["en"] })
    })
    const googleLocal = await decorum.analyze(
      { comment: { text: "you are an idiot" }, requested_attributes: { TOXICITY: {} }, languages: ["en"] } as never,
      { family: "google" }
    )
    assert.deepStrictEqual(googleLocal.value, await google.json())
  })

  it("stores score suggestions and answers what the server answers", async () => {
    const request = { comment: { text: "you are lovely" }, attributeScores: { TOXICITY: { summaryScore: { value: 0 } } }, clientToken: "c-1", languages: ["en"] }
    const res = await post("/v0.2/external-compat/suggestscore", request)
    assert.deepStrictEqual(await decorum.suggestScore(request), res.body)
  })

  it("rejects with the domain's error classes, with the server's messages", async () => {
    const cases: Array<[string, unknown, () => Promise<unknown>, new(...args: Array<any>) => Error]> = [
      ["/v0.2/antispam", { comment: "  " }, () => decorum.checkSpam({ comment: "  " }), InvalidComment],
      ["/v0.2/antispam", { comment: 42 }, () => decorum.checkSpam({ comment: 42 } as never), InvalidRequest],
      ["/v0.2/commentscore", { comment: "hi" }, () => decorum.scoreComment({ comment: "hi" }), MissingParameter],
      ["/v0.2/megacall", { comment: "hi" }, () => decorum.megacall({ comment: "hi" }), NoEvaluationRequested]
    ]
    for (const [path, body, call, type] of cases) {
      const res = await post(path, body)
      const error = await rejection(call())
      assert.instanceOf(error, type)
      assert.strictEqual((error as Error & { readonly _tag: string })._tag, type.name)
      assert.strictEqual((error as Error).message, res.body.message)
    }
    const unknown = "00000000-0000-4000-8000-000000000000"
    const error = await rejection(decorum.scoreComment({ comment: "hi", article_context_id: unknown }))
    assert.instanceOf(error, UnknownArticleContext)
    assert.strictEqual((error as UnknownArticleContext).message, (await post("/v0.2/commentscore", { comment: "hi", article_context_id: unknown })).body.message)
    assert.instanceOf(await rejection(decorum.analyze({ comment: { text: "x" }, requestedAttributes: { NOPE: {} } })), UnsupportedAttribute)
  })

  it("refuses deeply nested input with InvalidRequest, as the server answers 400 (issue 10, item 3)", async () => {
    let deep: unknown = "x"
    for (let i = 0; i < 20_000; i++) deep = [deep]
    for (const call of [
      () => decorum.analyze({ comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} }, context: deep } as never),
      () => decorum.suggestScore({ comment: deep, attribute_scores: {} } as never),
      () => decorum.checkSpam({ comment: deep } as never),
      () => decorum.megacall({ comment: "hi", run_spam_check: true, banned_topics: deep } as never)
    ]) {
      const error = await rejection(call())
      assert.instanceOf(error, InvalidRequest)
      assert.include((error as Error).message, "deeper than")
    }
  })

  it("deletes an article context, after which it is not found", async () => {
    const { article_id } = await decorum.createArticleContext({ text: "Tomatoes need sun." })
    assert.include((await decorum.listArticleContexts()).map((c) => c.id), article_id)
    await decorum.deleteArticleContext(article_id)
    assert.instanceOf(await rejection(decorum.getArticleContext(article_id)), NotFound)
  })

  it("refuses an id that is not a UUID with InvalidArticleContextId, even from an untyped caller", async () => {
    for (const id of ["not-a-uuid", 123, null, { id: 1 }] as ReadonlyArray<unknown>) {
      for (const call of [() => decorum.getArticleContext(id as string), () => decorum.deleteArticleContext(id as string)]) {
        const error = await rejection(call())
        assert.instanceOf(error, InvalidArticleContextId)
        assert.include((error as Error).message, "must be a UUID")
      }
    }
  })
})

describe("createDecorum: lifecycle", () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "decorum-embedded-"))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("close() lets calls already made finish before the store closes (issue 10, item 4)", async () => {
    // An article server that holds every response until the test releases it: the calls that
    // fetch from it are in flight, for certain, when close() is called.
    const N = 6
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let arrived!: () => void
    const allArrived = new Promise<void>((resolve) => (arrived = resolve))
    let count = 0
    const articles = createServer((_req, res) => {
      if (++count === N) arrived()
      void released.then(() => res.end("<html><body><p>The council extended library opening hours for residents.</p></body></html>"))
    }).listen(0, "127.0.0.1")
    await new Promise<void>((resolve) => articles.once("listening", () => resolve()))
    const port = (articles.address() as { port: number }).port
    const db = join(dir, "drain.db")
    const decorum = await createDecorum({ ...options, db, fetch: { allowPrivate: true } })
    try {
      const calls = Array.from({ length: N }, (_, i) => decorum.createArticleContext({ url: `http://127.0.0.1:${port}/article/${i}` }))
      await allArrived
      const closing = decorum.close()
      assert.instanceOf(await decorum.checkSpam({ comment: "too late" }).catch((e: unknown) => e), DecorumClosedError)
      release()
      const settled = await Promise.allSettled(calls)
      await closing
      assert.deepStrictEqual(settled.filter((s) => s.status === "rejected").map((s) => String((s as PromiseRejectedResult).reason)), [])
      const reopened = await createDecorum({ ...options, db })
      try {
        assert.lengthOf(await reopened.listArticleContexts(), N)
      } finally {
        await reopened.close()
      }
    } finally {
      release()
      articles.closeAllConnections()
      articles.close()
    }
  })

  it("persists to a SQLite file, closes it, and reopens it", async () => {
    const db = join(dir, "embedded.db")
    const first = await createDecorum({ ...options, db, account: "site@example.com" })
    const { article_id } = await first.createArticleContext({ text: ARTICLE })
    await first.close()
    await first.close()
    assert.instanceOf(await first.checkSpam({ comment: "hi" }).catch((e: unknown) => e), DecorumClosedError)
    const second = await createDecorum({ ...options, db, account: "site@example.com" })
    try {
      assert.strictEqual((await second.getArticleContext(article_id)).article_id, article_id)
    } finally {
      await second.close()
    }
    // Another account does not see it.
    const other = await createDecorum({ ...options, db, account: "other@example.com" })
    try {
      assert.instanceOf(await other.getArticleContext(article_id).catch((e: unknown) => e), NotFound)
    } finally {
      await other.close()
    }
  })

  it("rejects options of the wrong kind (an untyped caller) with a ConfigError naming the option, and takes null as no options", async () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [{ db: 5 }, "db=5"],
      [{ model: "bogus" }, "model=bogus"],
      [{ model: { dir: "/tmp" } }, "model="],
      [{ account: 5 }, "account=5"],
      [{ account: "  " }, "account="],
      ["memory", "options=memory"]
    ]
    for (const [bad, named] of cases) {
      const error = await createDecorum(bad as DecorumOptions).catch((e: unknown) => e)
      assert.strictEqual((error as { _tag?: string })._tag, "ConfigError", JSON.stringify(bad))
      assert.include(String((error as Error).message), named)
    }
    const fromNull = await createDecorum(null as unknown as DecorumOptions)
    try {
      assert.match(fromNull.info.modelVersion, /^local-/)
    } finally {
      await fromNull.close()
    }
  })

  it("rejects creation with the store's error when the store cannot open", async () => {
    const error = await createDecorum({ ...options, db: join(dir, "missing-dir", "x.db") }).catch((e: unknown) => e)
    assert.strictEqual((error as { _tag?: string })._tag, "StoreFailure")
  })
})

describe("DecorumLayer: the Effect API", () => {
  layer(DecorumLayer(options))((it) => {
    it.effect("fails with tagged errors a caller can catch by tag, and stores suggestions", () =>
      Effect.gen(function*() {
        const decorum = yield* Decorum
        const tag = yield* decorum.checkSpam({ comment: "" }).pipe(
          Effect.as("no error"),
          Effect.catchTag("InvalidComment", (e) => Effect.succeed(`${e._tag}: ${e.reason}`))
        )
        assert.strictEqual(tag, "InvalidComment: empty")
        const spam = yield* decorum.checkSpam({ comment: "Buy cheap watches now!!! Subscribe at http://spam.example/deal" })
        assert.isTrue(spam.value.is_spam)
        assert.strictEqual(spam.provenance.model, decorum.info.modelVersion)
        yield* decorum.suggestScore({ comment: { text: "fine" }, attributeScores: { TOXICITY: { summaryScore: { value: 0.1 } } } })
        const stored = yield* Effect.flatMap(SuggestionStore, (s) => s.list({ email: "embedded@localhost" }))
        assert.deepStrictEqual(stored.map((s) => s.attributeScores), [{ TOXICITY: 0.1 }])
      }))
  })
})
