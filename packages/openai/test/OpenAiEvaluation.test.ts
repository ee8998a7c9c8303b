/**
 * The engine against a real Chat Completions server on loopback (`FakeChatServer`), scripted per
 * test. The openai SDK is the client under test, unmodified.
 */
import { assert, describe, it } from "@effect/vitest"
import { AccountStore, ArticleContextStore, AttributeScorer, CommentScorer, EngineModes, Megacall, MemoryStores, RelevanceChecker, SpamChecker } from "@decorum/core"
import { ArticleContextId } from "@decorum/domain"
import { OpenAiEvaluation } from "@decorum/openai"
import { FakeChatServer, LocalStub } from "@decorum/openai/testing"
import { Effect, Either, Layer, Logger, LogLevel, TestClock } from "effect"

const KEY = "sk-test-0123456789abcdefSECRET"
const COMMENT = "Trams never work anywhere. Only a fool would pay for this."
const scoreInput = (comment = COMMENT) => ({ comment, article: LocalStub.article(), replyTo: null })
const spamInput = (comment = COMMENT) => ({ comment, article: null })

/** The core's engine modes over the local stub and this package's LLM port, against `server`. */
const engine = (
  server: FakeChatServer.FakeChatServer,
  options: OpenAiEvaluation.OpenAiOptions & Partial<EngineModes.ModeOptions> = {},
  local = LocalStub.make()
) => {
  const { cascadeBand, llmAttributes, mode = "llm", ...llm } = options
  return EngineModes.layer({ mode, cascadeBand, llmAttributes }).pipe(
    Layer.provide(OpenAiEvaluation.layer({
      baseURL: server.url,
      apiKey: KEY,
      model: "test-model",
      timeoutMs: 3_000,
      baseBackoffMs: 10,
      ...llm
    })),
    Layer.provide(local.layer)
  )
}

const quiet = Logger.minimumLogLevel(LogLevel.None)

const score = (comment = COMMENT) => Effect.flatMap(CommentScorer, (s) => s.score(scoreInput(comment)))
const spam = (comment = COMMENT) => Effect.flatMap(SpamChecker, (s) => s.check(spamInput(comment)))

/** Replies to request number i (0-based) with `replies[i]`, and with a good answer after them. */
const sequence = (...replies: ReadonlyArray<FakeChatServer.Reply>): FakeChatServer.Script => (r) =>
  replies[r.index] ?? { type: "answer", content: FakeChatServer.goodAnswer(r.body) }

describe("llm mode", () => {
  it.scopedLive("answers from the LLM with structured output, and names the model and prompt", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make()
      const result = yield* score().pipe(Effect.provide(engine(server)), Effect.provide(quiet))
      assert.deepStrictEqual(result.provenance, { model: "openai:test-model@comment-score-v2" })
      assert.lengthOf(result.value.logical_fallacies, 1)
      assert.strictEqual(result.value.overall_score, 4)
      assert.lengthOf(server.requests, 1)
      const request = server.requests[0]!
      assert.strictEqual(request.path, "/v1/chat/completions")
      assert.strictEqual(request.headers.authorization, `Bearer ${KEY}`)
      assert.strictEqual(request.body.model, "test-model")
      assert.nestedInclude(request.body.response_format, { type: "json_schema", "json_schema.name": "comment-score", "json_schema.strict": true })
      assert.strictEqual(FakeChatServer.tagged(request.body, "comment"), COMMENT)
      // The portable subset of JSON schema: closed objects, every property required, no numeric constraints.
      const schema = request.body.response_format!.json_schema!.schema as { required: Array<string>; properties: object; additionalProperties: boolean }
      assert.deepStrictEqual(schema.required, Object.keys(schema.properties))
      assert.isFalse(schema.additionalProperties)
      assert.notMatch(JSON.stringify(schema), /"(minimum|maximum|\$ref|\$schema)"/)
    }))

  it.scopedLive("repairs near-quotes and drops quotes that are not in the comment", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(() => ({
        type: "answer",
        content: {
          logical_fallacies: [{ fallacy_name: "hasty generalisation", quoted_logical_fallacy_example: "\"trams never work anywhere\"", explanation_and_suggestions: "x", suggested_rewrite: "" }],
          objectionable_phrases: [{ quoted_objectionable_phrase: "you absolute moron", explanation: "invented", suggested_rewrite: "" }],
          negative_tone_phrases: [],
          appears_low_effort: false,
          overall_score: 2,
          toxicity_score: 0.6,
          toxicity_explanation: "Insulting."
        }
      }))
      const result = yield* score().pipe(Effect.provide(engine(server)), Effect.provide(quiet))
      assert.deepStrictEqual(result.value.logical_fallacies.map((f) => f.quoted_logical_fallacy_example), ["Trams never work anywhere"])
      assert.deepStrictEqual(result.value.objectionable_phrases, [])
      for (const f of result.value.logical_fallacies) assert.isTrue(COMMENT.includes(f.quoted_logical_fallacy_example))
    }))

  it.scopedLive("retries a malformed answer once, then falls back to the local model", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(sequence({ type: "answer", content: "{\"reasoning\": \"cut off" }))
      const healed = yield* spam().pipe(Effect.provide(engine(server)), Effect.provide(quiet))
      assert.deepStrictEqual(healed.provenance, { model: "openai:test-model@spam-check-v1" })
      assert.lengthOf(server.requests, 2)

      server.setScript(() => ({ type: "answer", content: { reasoning: "no is_spam field" } }))
      const local = LocalStub.make()
      const fallback = yield* spam("another comment").pipe(Effect.provide(engine(server, {}, local)), Effect.provide(quiet))
      assert.deepStrictEqual(fallback.provenance, { model: LocalStub.MODEL, fallbackFrom: "openai:test-model@spam-check-v1" })
      assert.lengthOf(server.requests, 4)
      assert.strictEqual(local.calls.spam_check, 1)
    }))

  it.scopedLive("honours Retry-After on a 429", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(sequence({ type: "status", status: 429, headers: { "retry-after": "1" } }))
      const result = yield* spam().pipe(Effect.provide(engine(server)), Effect.provide(quiet))
      assert.isUndefined(result.provenance.fallbackFrom)
      assert.lengthOf(server.requests, 2)
      assert.isAtLeast(server.requests[1]!.at - server.requests[0]!.at, 950)
    }))

  it.scopedLive("retries 500s with backoff, and falls back when they persist", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(sequence({ type: "status", status: 500 }, { type: "status", status: 503 }))
      const healed = yield* spam().pipe(Effect.provide(engine(server, { maxRetries: 2 })), Effect.provide(quiet))
      assert.isUndefined(healed.provenance.fallbackFrom)
      assert.lengthOf(server.requests, 3)

      server.setScript(() => ({ type: "status", status: 500 }))
      const fallback = yield* spam("other").pipe(Effect.provide(engine(server, { maxRetries: 2 })), Effect.provide(quiet))
      assert.deepStrictEqual(fallback.provenance, { model: LocalStub.MODEL, fallbackFrom: "openai:test-model@spam-check-v1" })
      assert.lengthOf(server.requests, 6)
    }))

  it.scopedLive("does not retry a request the provider rejects (401)", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(() => ({ type: "status", status: 401, body: { error: { message: "Incorrect API key" } } }))
      const result = yield* spam().pipe(Effect.provide(engine(server)), Effect.provide(quiet))
      assert.strictEqual(result.provenance.fallbackFrom, "openai:test-model@spam-check-v1")
      assert.lengthOf(server.requests, 1)
    }))

  it.scopedLive("falls back when the LLM is slower than the timeout, without waiting for it", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(() => ({ type: "answer", content: "{}", delayMs: 5_000 }))
      const started = Date.now()
      const result = yield* score().pipe(Effect.provide(engine(server, { timeoutMs: 300 })), Effect.provide(quiet))
      assert.isBelow(Date.now() - started, 2_500)
      assert.deepStrictEqual(result.provenance, { model: LocalStub.MODEL, fallbackFrom: "openai:test-model@comment-score-v2" })
      assert.lengthOf(server.requests, 1)
    }))

  it.scopedLive("retries after a connection reset", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(sequence({ type: "reset" }))
      const result = yield* spam().pipe(Effect.provide(engine(server)), Effect.provide(quiet))
      assert.isUndefined(result.provenance.fallbackFrom)
      assert.lengthOf(server.requests, 2)
    }))

  it.scopedLive("switches to JSON mode when the provider has no structured output", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make((r) =>
        r.body.response_format?.type === "json_schema"
          ? { type: "status", status: 400, body: { error: { message: "Unknown response_format type json_schema" } } }
          : { type: "answer", content: "```json\n{\"reasoning\": \"An ad.\", \"is_spam\": true, \"confidence\": 0.9}\n```" }
      )
      const layer = engine(server)
      const [first, second] = yield* Effect.all([spam(), spam("second comment")]).pipe(Effect.provide(layer), Effect.provide(quiet))
      assert.deepStrictEqual(first.value, { reasoning: "An ad.", is_spam: true, confidence: 0.9 })
      assert.isTrue(second.value.is_spam)
      // 400 + JSON mode for the first; JSON mode straight away for the second.
      assert.deepStrictEqual(server.requests.map((r) => r.body.response_format?.type), ["json_schema", "json_object", "json_object"])
      const system = server.requests[1]!.body.messages!.map((m) => m.content).join("\n")
      assert.include(system, "JSON schema")
    }))
})

describe("circuit breaker, cache and concurrency", () => {
  // On the TestClock: the breaker's cooldown is passed with TestClock.adjust; the HTTP is real.
  it.scoped("opens after repeated failures (no more calls), and closes after a successful trial", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(() => ({ type: "status", status: 500 }))
      const layer = engine(server, { maxRetries: 0, breakerThreshold: 2, breakerCooldownMs: 400, cacheSize: 0 })
      yield* Effect.gen(function*() {
        for (let i = 0; i < 2; i++) assert.isDefined((yield* spam(`c${i}`)).provenance.fallbackFrom)
        assert.lengthOf(server.requests, 2)
        // Open: the provider is not called at all, the local model answers at once.
        const whileOpen = yield* spam("c2")
        assert.deepStrictEqual(whileOpen.provenance, { model: LocalStub.MODEL, fallbackFrom: "openai:test-model@spam-check-v1" })
        assert.lengthOf(server.requests, 2)

        server.setScript((r) => ({ type: "answer", content: FakeChatServer.goodAnswer(r.body) }))
        yield* TestClock.adjust("399 millis")
        yield* spam("still open")
        assert.lengthOf(server.requests, 2)
        // Past the cooldown, one trial goes through and closes the circuit.
        yield* TestClock.adjust("1 millis")
        const trial = yield* spam("c3")
        assert.isUndefined(trial.provenance.fallbackFrom)
        yield* spam("c4")
        assert.lengthOf(server.requests, 4)
      }).pipe(Effect.provide(layer), Effect.provide(quiet))
    }))

  it.scopedLive("answers a repeated comment from the cache, keyed by model, prompt and input", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make()
      yield* Effect.gen(function*() {
        const a = yield* score()
        const b = yield* score()
        assert.deepStrictEqual(b, a)
        assert.lengthOf(server.requests, 1)
        yield* score("A different comment.")
        yield* spam() // same text, another prompt
        assert.lengthOf(server.requests, 3)
      }).pipe(Effect.provide(engine(server)), Effect.provide(quiet))

      // Another model is another key (and a cache of 0 keeps nothing).
      yield* score().pipe(Effect.provide(engine(server, { model: "other-model", cacheSize: 0 })), Effect.provide(quiet))
      yield* score().pipe(Effect.provide(engine(server, { model: "other-model", cacheSize: 0 })), Effect.provide(quiet))
      assert.lengthOf(server.requests, 5)
    }))

  it.scopedLive("keeps at most maxConcurrency requests in flight", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make((r) => ({ type: "answer", content: FakeChatServer.goodAnswer(r.body), delayMs: 100 }))
      const results = yield* Effect.all(
        Array.from({ length: 6 }, (_, i) => spam(`comment ${i}`)),
        { concurrency: "unbounded" }
      ).pipe(Effect.provide(engine(server, { maxConcurrency: 2 })), Effect.provide(quiet))
      assert.isTrue(results.every((r) => r.provenance.fallbackFrom === undefined))
      assert.lengthOf(server.requests, 6)
      assert.strictEqual(server.maxInFlight(), 2)
    }))
})

describe("combined evaluation", () => {
  const setup = Effect.gen(function*() {
    const account = yield* (yield* AccountStore).ensureAccount("editor@example.com")
    const a = LocalStub.article()
    const stored = yield* (yield* ArticleContextStore).insert(ArticleContextId.make(globalThis.crypto.randomUUID()), {
      accountId: account.id,
      text: a.text,
      title: a.title,
      topicDescription: a.topicDescription,
      sourceUrl: null,
      profile: a.profile
    })
    return { account, articleId: stored.id }
  })
  const all = { run_comment_score: true, run_spam_check: true, run_relevance_check: true }

  it.scopedLive("runs three slow LLM sections at once", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make((r) => ({ type: "answer", content: FakeChatServer.goodAnswer(r.body), delayMs: 300 }))
      const result = yield* Effect.gen(function*() {
        const { account, articleId } = yield* setup
        return yield* Megacall.megacall(account, { comment: COMMENT, article_context_id: articleId, banned_topics: ["politics"], ...all })
      }).pipe(Effect.provide(Layer.merge(engine(server), MemoryStores.layer)), Effect.provide(quiet))
      assert.strictEqual(server.maxInFlight(), 3)
      assert.strictEqual(result.comment_score?.provenance.model, "openai:test-model@comment-score-v2")
      assert.strictEqual(result.spam_check?.provenance.model, "openai:test-model@spam-check-v1")
      assert.strictEqual(result.relevance_check?.provenance.model, "openai:test-model@relevance-v1")
      assert.deepStrictEqual(result.failures, {})
    }))

  it.scopedLive("keeps every section when one LLM section times out: that one falls back", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make((r) =>
        r.body.response_format?.json_schema?.name === "relevance"
          ? { type: "answer", content: "{}", delayMs: 5_000 }
          : { type: "answer", content: FakeChatServer.goodAnswer(r.body) }
      )
      const result = yield* Effect.gen(function*() {
        const { account, articleId } = yield* setup
        return yield* Megacall.megacall(account, { comment: COMMENT, article_context_id: articleId, ...all })
      }).pipe(Effect.provide(Layer.merge(engine(server, { timeoutMs: 300 }), MemoryStores.layer)), Effect.provide(quiet))
      assert.isUndefined(result.comment_score?.provenance.fallbackFrom)
      assert.isUndefined(result.spam_check?.provenance.fallbackFrom)
      assert.deepStrictEqual(result.relevance_check?.provenance, { model: LocalStub.MODEL, fallbackFrom: "openai:test-model@relevance-v1" })
      assert.deepStrictEqual(result.failures, {})
    }))
})

describe("cascade mode", () => {
  it.scopedLive("asks the LLM only for uncertain verdicts or full detail, and keeps the local answer if the LLM fails", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make()
      const local = LocalStub.make({ toxicity: 0.05 })
      yield* Effect.gen(function*() {
        const certain = yield* score()
        assert.deepStrictEqual(certain.provenance, { model: LocalStub.MODEL })
        assert.lengthOf(server.requests, 0)

        const full = yield* Effect.flatMap(CommentScorer, (s) => s.score({ ...scoreInput(), detail: "full" }))
        assert.strictEqual(full.provenance.model, "openai:test-model@comment-score-v2")
        assert.lengthOf(server.requests, 1)

        local.settings.toxicity = 0.5
        const uncertain = yield* score("Is this really worth it?")
        assert.strictEqual(uncertain.provenance.model, "openai:test-model@comment-score-v2")
        assert.lengthOf(server.requests, 2)

        local.settings.spamConfidence = 0.6
        server.setScript(() => ({ type: "status", status: 500 }))
        const kept = yield* spam()
        assert.deepStrictEqual(kept.provenance, { model: LocalStub.MODEL, fallbackFrom: "openai:test-model@spam-check-v1" })
        assert.strictEqual(kept.value.confidence, 0.6)

        local.settings.onTopicConfidence = 0.99
        const relevance = yield* Effect.flatMap(RelevanceChecker, (r) => r.check({ ...scoreInput(), bannedTopics: [] }))
        assert.deepStrictEqual(relevance.provenance, { model: LocalStub.MODEL })
      }).pipe(Effect.provide(engine(server, { mode: "cascade", maxRetries: 0 }, local)), Effect.provide(quiet))
    }))

  it.scopedLive("asks the LLM when the local model fails", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make()
      const result = yield* spam().pipe(
        Effect.provide(engine(server, { mode: "cascade" }, LocalStub.make({ failing: true }))),
        Effect.provide(quiet)
      )
      assert.deepStrictEqual(result.provenance, { model: "openai:test-model@spam-check-v1", fallbackFrom: LocalStub.MODEL })
    }))
})

describe("attributes and local mode", () => {
  it.scopedLive("scores Perspective attributes per sentence through the LLM when asked to", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make()
      const text = "First sentence. Second one."
      const result = yield* Effect.flatMap(AttributeScorer, (s) =>
        s.analyze({
          text,
          attributes: ["TOXICITY", "INSULT"],
          spans: [{ begin: 0, end: 15 }, { begin: 16, end: 27 }],
          context: { article: null, parent: null, entries: [] }
        })).pipe(Effect.provide(engine(server, { llmAttributes: true })), Effect.provide(quiet))
      assert.strictEqual(result.provenance.model, "openai:test-model@attributes-v1")
      assert.deepStrictEqual(result.value.TOXICITY, { summary: 0.2, spans: [0.2, 0.2] })
      assert.include(Object.keys(server.requests[0]!.body.response_format!.json_schema!.schema as object), "properties")
    }))

  it.scopedLive("local mode passes the local evaluators through and never asks the LLM", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make()
      const result = yield* score().pipe(
        Effect.provide(engine(server, { mode: "local", llmAttributes: true })),
        Effect.provide(quiet)
      )
      assert.deepStrictEqual(result.provenance, { model: LocalStub.MODEL })
      assert.lengthOf(server.requests, 0)
    }))
})

describe("configuration", () => {
  it.effect("requires a key for api.openai.com, and none for another server", () =>
    Effect.gen(function*() {
      const noKey = OpenAiEvaluation.resolveOptions({})
      assert.include(Either.isLeft(noKey) && noKey.left, "OPENAI_API_KEY")
      assert.isTrue(Either.isRight(OpenAiEvaluation.resolveOptions({ baseURL: "http://localhost:11434/v1" })))
      assert.isTrue(Either.isLeft(OpenAiEvaluation.resolveOptions({ baseURL: "not a url" })))
      assert.strictEqual(OpenAiEvaluation.modelName({ model: "m" }), "openai:m")
    }))
})
