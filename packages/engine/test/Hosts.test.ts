/**
 * One configuration, three hosts: every variable of the README's table is set once, and the Node
 * server, the Lambda handler and the in-process host each see it (their `EngineConfig`, and what
 * it changes in their answers: the port, the discovery document's root URL, the body limit, the
 * rate limit, the model set).
 */
import { Adaptation, Auth, EngineInfo, RateLimiter } from "@decorum/core"
import { DecorumLayerConfig, Decorum } from "@decorum/embedded"
import { EngineConfig, type EngineSettings } from "@decorum/engine"
import { Handler, Settings } from "@decorum/lambda"
import { MetricsServer, serverLayer } from "@decorum/server"
import { HttpServer } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { toEvent, toResponse } from "../../../apps/lambda/test/aws.js"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")

const freePort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** Every variable, each set to a value that differs from its default. */
const environment = (port: number): Record<string, string> => ({
  PORT: String(port),
  HOST: "127.0.0.1",
  DECORUM_DRAIN_TIMEOUT_MS: "2500",
  DECORUM_DRAIN_GRACE_MS: "100",
  DECORUM_FAST_PATH: "false",
  DATABASE_URL: "memory",
  DECORUM_PUBLIC_URL: "https://moderation.example.com/",
  DECORUM_TRUST_PROXY: "10.0.0.0/8, ::1",
  DECORUM_BODY_LIMIT_BYTES: "2048",
  DECORUM_RATE_LIMIT_PER_MINUTE: "1",
  DECORUM_RATE_LIMIT_BURST: "2",
  DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE: "2",
  DECORUM_LOCAL_MODEL: "trained",
  DECORUM_MODEL_DIR: join(root, "packages/local/models"),
  // The judge off: the operator's mapping is read as a setting but never loaded.
  DECORUM_JUDGE: "linear",
  DECORUM_JUDGE_MODEL: "/nonexistent/mapping.json",
  DECORUM_JUDGE_BUDGET_MS: "40",
  DECORUM_ENGINE: "cascade",
  OPENAI_API_KEY: "sk-test",
  OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
  DECORUM_LLM_MODEL: "test-model",
  DECORUM_LLM_TIMEOUT_MS: "1500",
  DECORUM_CASCADE_BAND: "0.3,0.7",
  DECORUM_LLM_ATTRIBUTES: "true",
  DECORUM_LLM_STRUCTURED_OUTPUT: "json_object",
  DECORUM_LLM_TEMPERATURE: "0.2",
  DECORUM_LLM_MAX_RETRIES: "1",
  DECORUM_LLM_MAX_CONCURRENCY: "3",
  DECORUM_LLM_CACHE_SIZE: "10",
  DECORUM_LLM_BREAKER_THRESHOLD: "4",
  DECORUM_LLM_BREAKER_COOLDOWN_MS: "999",
  DECORUM_FETCH_ALLOW_PRIVATE: "true",
  DECORUM_FETCH_TIMEOUT_MS: "777",
  DECORUM_FETCH_MAX_BYTES: "4096",
  DECORUM_METRICS: "true",
  DECORUM_METRICS_PORT: "0",
  DECORUM_METRICS_HOST: "127.0.0.2",
  DECORUM_ACCESS_LOG: "true",
  DECORUM_ADAPT_EVERY: "25",
  // Nothing listens on the discard port: the exports fail quietly, the hosts still start.
  OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9",
  OTEL_SERVICE_NAME: "decorum-hosts",
  OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=abc%20def"
})

const expected = (port: number) => ({
  store: { db: "memory", source: "DATABASE_URL" },
  server: { port, host: "127.0.0.1", drainTimeoutMs: 2500, drainGraceMs: 100, fastPath: false },
  http: { publicUrl: "https://moderation.example.com/", trustProxy: ["10.0.0.0/8", "::1"], bodyLimitBytes: 2048, rateLimit: { perMinute: 1, burst: 2 }, authFailureLimit: { perMinute: 2 } },
  model: { directory: join(root, "packages/local/models") },
  judge: "linear",
  judgeModel: "/nonexistent/mapping.json",
  judgeBudgetMs: 40,
  fetch: { allowPrivate: true, timeoutMs: 777, maxBytes: 4096 },
  llm: {
    mode: "cascade",
    apiKey: "sk-test",
    baseURL: "http://127.0.0.1:9/v1",
    model: "test-model",
    timeoutMs: 1500,
    cascadeBand: [0.3, 0.7],
    llmAttributes: true,
    structuredOutput: "json_object",
    temperature: 0.2,
    maxRetries: 1,
    maxConcurrency: 3,
    cacheSize: 10,
    breakerThreshold: 4,
    breakerCooldownMs: 999,
    baseBackoffMs: 250,
    headers: undefined
  },
  observability: {
    metrics: true,
    metricsPort: 0,
    metricsHost: "127.0.0.2",
    accessLog: true,
    otlp: { endpoint: "http://127.0.0.1:9", serviceName: "decorum-hosts", headers: { "x-api-key": "abc def" } }
  },
  adaptation: { every: 25 }
})

const plain = (s: EngineSettings): unknown => ({
  ...s,
  store: { ...s.store, db: Redacted.value(s.store.db) },
  llm: { ...s.llm, apiKey: s.llm.apiKey === undefined ? undefined : Redacted.value(s.llm.apiKey) }
})

const provider = (env: Record<string, string>) => Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

const EMAIL = "hosts@example.com"

describe("one EngineConfig in every host", () => {
  it("the README's table lists exactly the variables this test sets", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8")
    const table = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1))
    const listed = Array.from(table.matchAll(/^\| `([A-Z_]+)` \|/gm), (m) => m[1]!).sort()
    assert.deepStrictEqual(listed, [...Object.keys(environment(0)), "DECORUM_DB"].sort())
  })

  it.live("the Node server", () =>
    Effect.gen(function*() {
      const port = yield* freePort
      const context = yield* Layer.build(serverLayer().pipe(Layer.provide(provider(environment(port)))))
      assert.deepStrictEqual(plain(Context.get(context, EngineConfig)), expected(port))
      const address = Context.get(context, HttpServer.HttpServer).address
      assert.deepStrictEqual(address._tag === "TcpAddress" ? [address.hostname, address.port] : [], ["127.0.0.1", port])
      assert.match(Context.get(context, EngineInfo).modelVersion, /\+openai:test-model$/)
      assert.deepStrictEqual(Context.get(context, EngineInfo).judge, { mode: "linear", state: "off" })
      // DECORUM_ADAPT_EVERY: the server runs the background refitter.
      assert.isTrue(Option.isSome(Context.getOption(context as Context.Context<unknown>, Adaptation.Refits)))

      const { key } = yield* Effect.provide(Auth.createKey(EMAIL), context)
      const url = `http://127.0.0.1:${port}`
      const discovery = yield* Effect.promise(() => fetch(`${url}/$discovery/rest?version=v1alpha1`).then((r) => r.json()))
      assert.strictEqual(discovery.rootUrl, "https://moderation.example.com/")
      // Another account, so that this request leaves the first one's bucket alone.
      const other = (yield* Effect.provide(Auth.createKey("other@example.com"), context)).key
      const big = yield* Effect.promise(() =>
        fetch(`${url}/v1alpha1/comments:analyze?key=${other}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ comment: { text: "x".repeat(3000) }, requestedAttributes: { TOXICITY: {} } })
        })
      )
      assert.strictEqual(big.status, 413)
      const statuses: Array<number> = []
      for (let i = 0; i < 3; i++) {
        const res = yield* Effect.promise(() => fetch(`${url}/v0.2/usercheck`, { headers: { "x-user-email": EMAIL, "x-api-key": key } }))
        statuses.push(res.status)
      }
      assert.deepStrictEqual(statuses, [200, 200, 429], "DECORUM_RATE_LIMIT_BURST=2 requests, then 429")
      // DECORUM_METRICS on the API's port, DECORUM_METRICS_PORT on its own listener, on DECORUM_METRICS_HOST.
      const metrics = yield* Effect.promise(() => fetch(`${url}/metrics`).then((r) => r.text()))
      assert.include(metrics, `decorum_http_requests_total{route="/v0.2/usercheck",family="native",status="429"} 1`)
      const listener = Context.get(context, MetricsServer)!.address
      assert.strictEqual(listener._tag === "TcpAddress" ? listener.hostname : "", "127.0.0.2")
      const apart = yield* Effect.promise(() => fetch(`http://127.0.0.2:${listener._tag === "TcpAddress" ? listener.port : 0}/metrics`).then((r) => r.text()))
      assert.include(apart, "# TYPE decorum_http_requests_total counter")
      const wrong: Array<number> = []
      for (let i = 0; i < 3; i++) {
        const res = yield* Effect.promise(() => fetch(`${url}/v0.2/usercheck`, { headers: { "x-user-email": EMAIL, "x-api-key": `${key}x` } }))
        wrong.push(res.status)
      }
      assert.deepStrictEqual(wrong, [401, 401, 429], "DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE=2 failures from one address, then 429")
    }).pipe(Effect.scoped))

  it.live("the Lambda handler", () =>
    Effect.gen(function*() {
      const port = yield* freePort
      const layer = Settings.engineFromEnv().pipe(Layer.provide(provider(environment(port))))
      const context = yield* Layer.build(layer)
      assert.deepStrictEqual(plain(Context.get(context, EngineConfig)), expected(port))
      assert.match(Context.get(context, EngineInfo).modelVersion, /\+openai:test-model$/)

      const handler = Handler.make(layer, { jsonLogs: false })
      yield* Effect.addFinalizer(() => Effect.promise(() => handler.dispose()))
      const discovery = toResponse(yield* Effect.promise(() => handler(toEvent("v2", "/$discovery/rest?version=v1alpha1"))))
      assert.strictEqual((yield* Effect.promise(() => discovery.json())).rootUrl, "https://moderation.example.com/")
      // Failed authentications count against the event's source IP.
      const wrong: Array<number> = []
      for (let i = 0; i < 3; i++) {
        wrong.push(toResponse(yield* Effect.promise(() => handler(toEvent("v2", "/v0.2/usercheck", { headers: { "x-user-email": EMAIL, "x-api-key": "dk_wrong" } })))).status)
      }
      assert.deepStrictEqual(wrong, [401, 401, 429], "DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE=2 failures from one source IP, then 429")
      // The handler's runtime has its own memory store, so the limiter is exercised directly here.
      const limiter = Context.unsafeGet(context as unknown as Context.Context<RateLimiter>, RateLimiter)
      const account = (yield* Auth.createKey(EMAIL).pipe(Effect.provide(context))).account.id
      yield* limiter.consume(account)
      yield* limiter.consume(account)
      const third = yield* Effect.either(limiter.consume(account))
      assert.isTrue(Either.isLeft(third), "DECORUM_RATE_LIMIT_BURST=2 requests, then refused")
    }).pipe(Effect.scoped))

  it.live("the in-process host", () =>
    Effect.gen(function*() {
      const port = yield* freePort
      const context = yield* Layer.build(DecorumLayerConfig().pipe(Layer.provide(provider(environment(port)))))
      assert.deepStrictEqual(plain(Context.get(context, EngineConfig)), expected(port))
      assert.match(Context.get(context, Decorum).info.modelVersion, /\+openai:test-model$/)
      // Refits run in the long-running Node server only (docs/adaptation.md).
      assert.isTrue(Option.isNone(Context.getOption(context as Context.Context<unknown>, Adaptation.Refits)))
    }).pipe(Effect.scoped))

  it.live("DECORUM_DB wins over DATABASE_URL in every host", () =>
    Effect.gen(function*() {
      const env = { DECORUM_DB: "memory", DATABASE_URL: "postgres://unused@127.0.0.1:1/x", DECORUM_LOCAL_MODEL: "lexicon" }
      for (const layer of [serverLayer({ port: 0, host: "127.0.0.1" }), Settings.engineFromEnv(), DecorumLayerConfig()]) {
        const context = yield* Layer.build((layer as Layer.Layer<EngineConfig, unknown>).pipe(Layer.provide(provider(env))))
        const { store } = Context.get(context, EngineConfig)
        assert.deepStrictEqual([Redacted.value(store.db), store.source], ["memory", "DECORUM_DB"])
      }
    }).pipe(Effect.scoped))
})
