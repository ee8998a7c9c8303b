import { EngineConfig, type EngineSettings } from "@decorum/engine"
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Redacted } from "effect"
import { readFileSync } from "node:fs"

const read = (env: Record<string, string>) =>
  Effect.either(Effect.withConfigProvider(EngineConfig.config, ConfigProvider.fromMap(new Map(Object.entries(env)))))

/** The settings with the secrets unwrapped, so they compare as plain data. */
const plain = (s: EngineSettings): unknown => ({
  ...s,
  store: { ...s.store, db: Redacted.value(s.store.db) },
  llm: { ...s.llm, apiKey: s.llm.apiKey === undefined ? undefined : Redacted.value(s.llm.apiKey) }
})

const problem = (env: Record<string, string>) =>
  Effect.map(read(env), (result) => {
    assert.isTrue(Either.isLeft(result), `expected ${JSON.stringify(env)} to be refused`)
    return Either.isLeft(result) ? EngineConfig.describe(result.left) : ""
  })

describe("EngineConfig from the environment", () => {
  it.effect("has the README's defaults when nothing is set", () =>
    Effect.gen(function*() {
      const settings = yield* Effect.flatMap(read({}), Either.match({ onLeft: Effect.die, onRight: Effect.succeed }))
      assert.deepStrictEqual(plain(settings), {
        store: { db: "./decorum.db", source: "default" },
        server: { port: 8080, host: "0.0.0.0", drainTimeoutMs: 10_000, drainGraceMs: 0, fastPath: true },
        http: { publicUrl: null, trustProxy: [], bodyLimitBytes: null, rateLimit: null, authFailureLimit: { perMinute: 30 } },
        model: "trained",
        judge: "cascade",
        judgeModel: undefined,
        judgeBudgetMs: 25,
        fetch: { allowPrivate: false, timeoutMs: 10_000, maxBytes: 5_242_880 },
        llm: {
          mode: "local",
          apiKey: undefined,
          baseURL: "https://api.openai.com/v1",
          model: "gpt-4o-mini",
          timeoutMs: 10_000,
          cascadeBand: [0.25, 0.75],
          llmAttributes: false,
          structuredOutput: "auto",
          temperature: undefined,
          maxRetries: 2,
          maxConcurrency: 16,
          cacheSize: 1000,
          breakerThreshold: 5,
          breakerCooldownMs: 30_000,
          baseBackoffMs: 250,
          headers: undefined
        },
        observability: { metrics: false, metricsPort: null, metricsHost: "127.0.0.1", accessLog: false, otlp: null },
        adaptation: { every: null }
      })
    }))

  it.effect("reads DATABASE_URL when DECORUM_DB is unset, and blank values as unset", () =>
    Effect.gen(function*() {
      const fromUrl = yield* read({ DATABASE_URL: "postgres://u:p@db:5432/x", DECORUM_DB: "  ", PORT: "" })
      assert.isTrue(Either.isRight(fromUrl))
      if (Either.isRight(fromUrl)) {
        assert.strictEqual(Redacted.value(fromUrl.right.store.db), "postgres://u:p@db:5432/x")
        assert.strictEqual(fromUrl.right.store.source, "DATABASE_URL")
        assert.strictEqual(fromUrl.right.server.port, 8080)
      }
    }))

  it.effect("reads trained models from DECORUM_MODEL_DIR, and only the trained ones", () =>
    Effect.gen(function*() {
      const located = yield* read({ DECORUM_MODEL_DIR: "/var/task/models/" })
      assert.deepStrictEqual<unknown>(Either.getOrUndefined(Either.map(located, (s) => s.model)), { directory: "/var/task/models/" })
      const lexicon = yield* read({ DECORUM_MODEL_DIR: "/var/task/models/", DECORUM_LOCAL_MODEL: "lexicon" })
      assert.deepStrictEqual<unknown>(Either.getOrUndefined(Either.map(lexicon, (s) => s.model)), "lexicon")
      const retrained = yield* read({ DECORUM_MODEL_DIR: "/var/task/models/", DECORUM_LOCAL_MODEL: "/retrained" })
      assert.deepStrictEqual<unknown>(Either.getOrUndefined(Either.map(retrained, (s) => s.model)), { directory: "/retrained" })
    }))

  it.effect("refuses a bad value with a message naming the variable and its value", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [Record<string, string>, string]> = [
        [{ DECORUM_ENGINE: "foo" }, "DECORUM_ENGINE=foo: must be one of local, llm, cascade"],
        [{ DECORUM_FETCH_MAX_BYTES: "-1" }, "DECORUM_FETCH_MAX_BYTES=-1: must be a whole number >= 1"],
        [{ DECORUM_FETCH_TIMEOUT_MS: "soon" }, "DECORUM_FETCH_TIMEOUT_MS=soon: must be a whole number >= 1"],
        [{ DECORUM_FETCH_ALLOW_PRIVATE: "maybe" }, "DECORUM_FETCH_ALLOW_PRIVATE=maybe: must be true or false"],
        [{ PORT: "-1" }, "PORT=-1: must be a whole number from 0 to 65535"],
        [{ PORT: "70000" }, "PORT=70000: must be a whole number from 0 to 65535"],
        [{ DECORUM_DRAIN_TIMEOUT_MS: "soon" }, "DECORUM_DRAIN_TIMEOUT_MS=soon: must be a whole number >= 0"],
        [{ DECORUM_JUDGE_BUDGET_MS: "fast" }, "DECORUM_JUDGE_BUDGET_MS=fast: must be a whole number >= 0"],
        [{ DECORUM_DB: "mysql://root:hunter2@db/x" }, "DECORUM_DB=mysql://root:***@db/x: must be a SQLite file path, a postgres:// URL or \"memory\" (mysql:// is not supported)"],
        [{ DATABASE_URL: "mongodb://db/x" }, "DATABASE_URL=mongodb://db/x: must be a SQLite file path"],
        [{ DECORUM_PUBLIC_URL: "moderation.example.com" }, "DECORUM_PUBLIC_URL=moderation.example.com: must be an http:// or https:// URL"],
        [{ DECORUM_TRUST_PROXY: "10.0.0.1,proxy.example" }, "DECORUM_TRUST_PROXY=10.0.0.1,proxy.example: must be comma-separated IP addresses or CIDR ranges"],
        [{ DECORUM_TRUST_PROXY: "10.0.0.0/33" }, "DECORUM_TRUST_PROXY=10.0.0.0/33: must be comma-separated IP addresses or CIDR ranges, e.g. 10.0.0.1,10.1.0.0/16,2001:db8::/32 (\"10.0.0.0/33\": the prefix length must be a whole number from 0 to 32)"],
        [{ DECORUM_TRUST_PROXY: "2001:db8::/129" }, "from 0 to 128"],
        [{ DECORUM_TRUST_PROXY: "10.0.0.0/" }, "the prefix length must be"],
        [{ DECORUM_BODY_LIMIT_BYTES: "100" }, "DECORUM_BODY_LIMIT_BYTES=100: must be a whole number >= 1024"],
        [{ DECORUM_RATE_LIMIT_PER_MINUTE: "0" }, "DECORUM_RATE_LIMIT_PER_MINUTE=0: must be a number >="],
        [{ DECORUM_RATE_LIMIT_BURST: "5" }, "DECORUM_RATE_LIMIT_BURST: is set but DECORUM_RATE_LIMIT_PER_MINUTE is not"],
        [{ DECORUM_RATE_LIMIT_PER_MINUTE: "60", DECORUM_RATE_LIMIT_BURST: "0.5" }, "DECORUM_RATE_LIMIT_BURST=0.5: must be a number >= 1"],
        [{ DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE: "-1" }, "DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE=-1: must be a number >= 0"],
        [{ DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE: "lots" }, "DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE=lots: must be a number >= 0"],
        [{ OPENAI_BASE_URL: "not a url" }, "OPENAI_BASE_URL=not a url: must be an http:// or https:// URL"],
        [{ DECORUM_LLM_TIMEOUT_MS: "0" }, "DECORUM_LLM_TIMEOUT_MS=0: must be a whole number >= 1"],
        [{ DECORUM_CASCADE_BAND: "0.8,0.2" }, "DECORUM_CASCADE_BAND=0.8,0.2: must be two numbers 0 <= low <= high <= 1"],
        [{ DECORUM_LLM_ATTRIBUTES: "sometimes" }, "DECORUM_LLM_ATTRIBUTES=sometimes: must be true or false"],
        [{ DECORUM_LLM_STRUCTURED_OUTPUT: "xml" }, "DECORUM_LLM_STRUCTURED_OUTPUT=xml: must be one of auto, json_schema, json_object"],
        [{ DECORUM_LLM_TEMPERATURE: "3" }, "DECORUM_LLM_TEMPERATURE=3: must be a number from 0 to 2"],
        [{ DECORUM_LLM_MAX_RETRIES: "-2" }, "DECORUM_LLM_MAX_RETRIES=-2: must be a whole number >= 0"],
        [{ DECORUM_LLM_MAX_CONCURRENCY: "0" }, "DECORUM_LLM_MAX_CONCURRENCY=0: must be a whole number >= 1"],
        [{ DECORUM_LLM_CACHE_SIZE: "lots" }, "DECORUM_LLM_CACHE_SIZE=lots: must be a whole number >= 0"],
        [{ DECORUM_LLM_BREAKER_THRESHOLD: "0" }, "DECORUM_LLM_BREAKER_THRESHOLD=0: must be a whole number >= 1"],
        [{ DECORUM_LLM_BREAKER_COOLDOWN_MS: "-5" }, "DECORUM_LLM_BREAKER_COOLDOWN_MS=-5: must be a whole number >= 0"],
        [{ DECORUM_ENGINE: "llm" }, "OPENAI_API_KEY: is required with DECORUM_ENGINE=llm against api.openai.com"],
        [{ DECORUM_METRICS: "maybe" }, "DECORUM_METRICS=maybe: must be true or false"],
        [{ DECORUM_METRICS_PORT: "99999" }, "DECORUM_METRICS_PORT=99999: must be a whole number from 0 to 65535"],
        [{ DECORUM_ACCESS_LOG: "sometimes" }, "DECORUM_ACCESS_LOG=sometimes: must be true or false"],
        [{ DECORUM_ADAPT_EVERY: "0" }, "DECORUM_ADAPT_EVERY=0: must be a whole number >= 1"],
        [{ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" }, "OTEL_EXPORTER_OTLP_ENDPOINT=collector:4318: must be an http:// or https:// URL"],
        [{ OTEL_EXPORTER_OTLP_HEADERS: "api-key" }, "OTEL_EXPORTER_OTLP_HEADERS: must be comma-separated key=value pairs"]
      ]
      for (const [env, message] of cases) {
        assert.include(yield* problem(env), message, JSON.stringify(env))
      }
    }))

  it.effect("DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE=0 turns the limit on failed authentications off", () =>
    Effect.gen(function*() {
      const off = yield* Effect.flatMap(read({ DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE: "0" }), Either.match({ onLeft: Effect.die, onRight: Effect.succeed }))
      assert.strictEqual(off.http.authFailureLimit, null)
      const set = yield* Effect.flatMap(read({ DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE: "6" }), Either.match({ onLeft: Effect.die, onRight: Effect.succeed }))
      assert.deepStrictEqual(set.http.authFailureLimit, { perMinute: 6 })
    }))

  it.effect("reports every bad variable at once, and never echoes a secret", () =>
    Effect.gen(function*() {
      const text = yield* problem({ DECORUM_ENGINE: "foo", PORT: "x", DECORUM_DB: "mysql://root:hunter2@db/x", OPENAI_API_KEY: "sk-secret" })
      assert.include(text, "DECORUM_ENGINE=foo")
      assert.include(text, "PORT=x")
      assert.include(text, "DECORUM_DB=mysql://root:***@db/x")
      assert.notInclude(text, "hunter2")
      assert.notInclude(text, "sk-secret")
    }))
})

describe("EngineConfig from options", () => {
  it.effect("fills the same defaults and names the option that is wrong", () =>
    Effect.gen(function*() {
      const settings = yield* EngineConfig.make({ db: "memory", llm: { mode: "cascade", baseURL: "http://127.0.0.1:1/v1", model: "m" } })
      assert.strictEqual(Redacted.value(settings.store.db), "memory")
      assert.deepStrictEqual(settings.llm.cascadeBand, [0.25, 0.75])
      assert.strictEqual(settings.fetch.maxBytes, 5_242_880)
      assert.deepStrictEqual(settings.http.authFailureLimit, { perMinute: 30 })
      assert.strictEqual((yield* EngineConfig.make({ db: "memory", authFailureLimitPerMinute: 0 })).http.authFailureLimit, null)
      for (
        const [options, message] of [
          [{ llm: { timeoutMs: 0 } }, "llm.timeoutMs=0: must be a whole number >= 1"],
          [{ db: "mysql://db/x" }, "db: must be a SQLite file path"],
          [{ db: Redacted.make(" ") }, "db: must not be empty"],
          [{ fetch: { maxBytes: -1 } }, "fetch.maxBytes=-1"],
          [{ llm: { mode: "llm" } }, "llm.apiKey: is required with llm.mode=llm"],
          [{ rateLimit: { perMinute: 60, burst: 0 } }, "rateLimit.burst=0"],
          [{ authFailureLimitPerMinute: -3 }, "authFailureLimitPerMinute=-3: must be a number >= 0"]
        ] as const
      ) {
        const result = yield* Effect.either(EngineConfig.make(options))
        assert.isTrue(Either.isLeft(result), JSON.stringify(options))
        if (Either.isLeft(result)) assert.include(EngineConfig.describe(result.left), message)
      }
    }))
})

describe("EngineConfig: each setting written once", () => {
  it("the README's table lists exactly the variables of the settings table, in its order", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8")
    const start = readme.indexOf("## Configuration")
    const table = readme.slice(start, readme.indexOf("\n## ", start + 1))
    const listed = Array.from(table.matchAll(/^\| `([A-Z_]+)` \|/gm), (m) => m[1]!)
    assert.deepStrictEqual(listed, [...EngineConfig.variables])
  })

  it.effect("a value given as a variable and as its option gives the same settings", () =>
    Effect.gen(function*() {
      const env = {
        DECORUM_DB: "memory",
        PORT: "9090",
        HOST: "127.0.0.1",
        DECORUM_DRAIN_TIMEOUT_MS: "2000",
        DECORUM_DRAIN_GRACE_MS: "500",
        DECORUM_FAST_PATH: "false",
        DECORUM_PUBLIC_URL: "https://moderation.example.com",
        DECORUM_TRUST_PROXY: "10.0.0.1,10.1.0.0/16",
        DECORUM_BODY_LIMIT_BYTES: "2048",
        DECORUM_RATE_LIMIT_PER_MINUTE: "60",
        DECORUM_RATE_LIMIT_BURST: "5",
        DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE: "0",
        DECORUM_LOCAL_MODEL: "/models/retrained",
        DECORUM_JUDGE: "neural",
        DECORUM_JUDGE_MODEL: "/models/mine/mapping.json",
        DECORUM_JUDGE_BUDGET_MS: "0",
        DECORUM_FETCH_ALLOW_PRIVATE: "true",
        DECORUM_FETCH_TIMEOUT_MS: "3000",
        DECORUM_FETCH_MAX_BYTES: "1000",
        DECORUM_ENGINE: "cascade",
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: "http://127.0.0.1:1/v1",
        DECORUM_LLM_MODEL: "m",
        DECORUM_LLM_TIMEOUT_MS: "1500",
        DECORUM_CASCADE_BAND: "0.3,0.7",
        DECORUM_LLM_ATTRIBUTES: "true",
        DECORUM_LLM_STRUCTURED_OUTPUT: "json_object",
        DECORUM_LLM_TEMPERATURE: "0.5",
        DECORUM_LLM_MAX_RETRIES: "1",
        DECORUM_LLM_MAX_CONCURRENCY: "4",
        DECORUM_LLM_CACHE_SIZE: "0",
        DECORUM_LLM_BREAKER_THRESHOLD: "3",
        DECORUM_LLM_BREAKER_COOLDOWN_MS: "100",
        DECORUM_METRICS: "true",
        DECORUM_METRICS_PORT: "9100",
        DECORUM_METRICS_HOST: "0.0.0.0",
        DECORUM_ACCESS_LOG: "true",
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_SERVICE_NAME: "moderation",
        OTEL_EXPORTER_OTLP_HEADERS: "api-key=a%2Cb,x=y",
        DECORUM_ADAPT_EVERY: "50"
      }
      const fromEnv = yield* Effect.flatMap(read(env), Either.match({ onLeft: Effect.die, onRight: Effect.succeed }))
      const fromOptions = yield* EngineConfig.make({
        db: Redacted.make("memory"),
        port: 9090,
        host: "127.0.0.1",
        drainTimeoutMs: 2000,
        drainGraceMs: 500,
        fastPath: false,
        publicUrl: "https://moderation.example.com",
        trustProxy: ["10.0.0.1", "10.1.0.0/16"],
        bodyLimitBytes: 2048,
        rateLimit: { perMinute: 60, burst: 5 },
        authFailureLimitPerMinute: 0,
        model: { directory: "/models/retrained" },
        judge: "neural",
        judgeModel: "/models/mine/mapping.json",
        judgeBudgetMs: 0,
        fetch: { allowPrivate: true, timeoutMs: 3000, maxBytes: 1000 },
        llm: {
          mode: "cascade",
          apiKey: "sk-test",
          baseURL: "http://127.0.0.1:1/v1",
          model: "m",
          timeoutMs: 1500,
          cascadeBand: [0.3, 0.7],
          llmAttributes: true,
          structuredOutput: "json_object",
          temperature: 0.5,
          maxRetries: 1,
          maxConcurrency: 4,
          cacheSize: 0,
          breakerThreshold: 3,
          breakerCooldownMs: 100
        },
        observability: {
          metrics: true,
          metricsPort: 9100,
          metricsHost: "0.0.0.0",
          accessLog: true,
          otlp: { endpoint: "http://collector:4318", serviceName: "moderation", headers: { "api-key": "a,b", x: "y" } }
        },
        adaptEvery: 50
      })
      assert.deepStrictEqual(plain(fromOptions), plain({ ...fromEnv, store: { ...fromEnv.store, source: "option" } }))
      // Every value set differs from its default, so a setting either source ignored would show.
      const defaults = yield* Effect.flatMap(read({}), Either.match({ onLeft: Effect.die, onRight: Effect.succeed }))
      for (const group of ["server", "http", "fetch", "llm", "observability", "adaptation"] as const) {
        for (const [key, value] of Object.entries(fromEnv[group])) {
          if (group === "llm" && (key === "baseBackoffMs" || key === "headers")) continue
          assert.notDeepEqual(value, (defaults[group] as Record<string, unknown>)[key], `${group}.${key}`)
        }
      }
      assert.notStrictEqual(fromEnv.judge, defaults.judge)
      assert.notStrictEqual(fromEnv.judgeModel, defaults.judgeModel)
      assert.notStrictEqual(fromEnv.judgeBudgetMs, defaults.judgeBudgetMs)
      // Every variable but DATABASE_URL and DECORUM_MODEL_DIR (no option of their own) is set above.
      assert.deepStrictEqual(Object.keys(env).sort(), EngineConfig.variables.filter((v) => v !== "DATABASE_URL" && v !== "DECORUM_MODEL_DIR").sort())
    }))
})
