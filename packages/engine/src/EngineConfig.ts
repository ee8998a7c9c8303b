/**
 * The engine's one configuration: every setting the README's table lists, read once through
 * effect's `Config` (the environment by default) or given as options, and validated with messages
 * that name the variable and echo its value (`DECORUM_FETCH_MAX_BYTES=-1: must be a whole number
 * >= 1`; secrets are never echoed). The Node server, Lambda and the in-process host all build their
 * engine from this service.
 *
 * - `EngineConfig.layerConfig()`: read from the environment (or the current `ConfigProvider`).
 * - `EngineConfig.layer(options)`: from options, with the same defaults and checks.
 * - `EngineConfig.describe(error)`: a `ConfigError` as the lines an operator reads.
 */
import { AuthFailureLimiter, EngineModes, type RateLimitOptions, TrustedProxies } from "@decorum/core"
import { FetchDefaults, type LocalEngine } from "@decorum/local"
import { LlmEvaluators, OpenAiClient, OpenAiEvaluation } from "@decorum/openai"
import { Config, ConfigError, Context, Effect, Either, Layer, Option, Redacted } from "effect"

/** How long shutdown waits for requests in flight by default (ms). */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000

/** How long the listener stays open on shutdown before it stops accepting, by default (ms). */
export const DEFAULT_DRAIN_GRACE_MS = 0

/** The interface `/metrics` listens on by default when it has its own port: loopback only. */
export const DEFAULT_METRICS_HOST = "127.0.0.1"

/** The settings, every default filled in. */
export interface EngineSettings {
  readonly store: {
    /** `DECORUM_DB`, else `DATABASE_URL`: a SQLite file path, a `postgres://` URL, or `memory`. Default `./decorum.db`. */
    readonly db: Redacted.Redacted<string>
    /** Where `db` came from: the variable that set it, an option, or the default. */
    readonly source: "DECORUM_DB" | "DATABASE_URL" | "option" | "default"
  }
  readonly server: {
    /** `PORT`, default 8080 (0: any free port). */
    readonly port: number
    /** `HOST`, default `0.0.0.0`. */
    readonly host: string
    /**
     * `DECORUM_DRAIN_TIMEOUT_MS`, default 10000: on shutdown, how long requests in flight may run
     * before their connections are closed.
     */
    readonly drainTimeoutMs: number
    /**
     * `DECORUM_DRAIN_GRACE_MS`, default 0: on shutdown, how long the listener stays open (serving
     * as usual, every answer with `Connection: close`, `/readyz` 503) before it stops accepting, so
     * a load balancer has time to stop sending. Part of `drainTimeoutMs`, never beyond it.
     */
    readonly drainGraceMs: number
    /**
     * `DECORUM_FAST_PATH`, default true: the Node server answers Perspective's analyze and
     * suggestscore without the per-request HttpApi machinery (same handlers, same answers;
     * docs/performance.md). `false` serves every request through HttpApi.
     */
    readonly fastPath: boolean
  }
  readonly http: {
    /** `DECORUM_PUBLIC_URL`: the external base URL; null derives it from each request. */
    readonly publicUrl: string | null
    /**
     * `DECORUM_TRUST_PROXY`: comma-separated IP addresses and CIDR ranges (IPv4 and IPv6) of reverse
     * proxies whose `X-Forwarded-For` (the client address), `X-Forwarded-Host` and
     * `X-Forwarded-Proto` (the discovery document's `rootUrl`) are honoured; empty: none.
     */
    readonly trustProxy: ReadonlyArray<string>
    /** `DECORUM_BODY_LIMIT_BYTES`; null: the HTTP layer's default (1 MiB). */
    readonly bodyLimitBytes: number | null
    /** `DECORUM_RATE_LIMIT_PER_MINUTE` and `DECORUM_RATE_LIMIT_BURST`; null: no limit. */
    readonly rateLimit: { readonly perMinute: number; readonly burst: number } | null
    /**
     * `DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE`, default 30: failed authentications per minute per
     * client address (as many at once), beyond which the address is answered 429; null (`0`): no limit.
     */
    readonly authFailureLimit: { readonly perMinute: number } | null
  }
  /** `DECORUM_LOCAL_MODEL` (`trained`, `lexicon`, a directory), with `trained` read from `DECORUM_MODEL_DIR` when set. */
  readonly model: LocalEngine.ModelChoice
  /** `DECORUM_FETCH_ALLOW_PRIVATE`, `DECORUM_FETCH_TIMEOUT_MS`, `DECORUM_FETCH_MAX_BYTES`. */
  readonly fetch: { readonly allowPrivate: boolean; readonly timeoutMs: number; readonly maxBytes: number }
  /** `DECORUM_ENGINE`, `OPENAI_*` and `DECORUM_LLM_*`, `DECORUM_CASCADE_BAND`. */
  readonly llm: LlmSettings
  readonly observability: ObservabilitySettings
  readonly adaptation: {
    /**
     * `DECORUM_ADAPT_EVERY`: the server refits an account's adapters in the background once this
     * many corrections have been stored since its last fit (docs/adaptation.md); null (unset): never.
     */
    readonly every: number | null
  }
}

export interface ObservabilitySettings {
  /** `DECORUM_METRICS`: serve `GET /metrics` (Prometheus text) on the API's port. Default false. */
  readonly metrics: boolean
  /** `DECORUM_METRICS_PORT` (the CLI's `--metrics-port`): serve `/metrics` on this port instead; null: none. */
  readonly metricsPort: number | null
  /** `DECORUM_METRICS_HOST`: the interface the `/metrics` listener binds to. Default `127.0.0.1` (loopback only). */
  readonly metricsHost: string
  /** `DECORUM_ACCESS_LOG`: one log line per request (method, path, route, status, duration; never keys). Default false. */
  readonly accessLog: boolean
  /** `OTEL_EXPORTER_OTLP_ENDPOINT` (with `OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_HEADERS`): OTLP/HTTP export; null: none. */
  readonly otlp: { readonly endpoint: string; readonly serviceName: string; readonly headers: Readonly<Record<string, string>> } | null
}

export interface LlmSettings {
  readonly mode: EngineModes.EngineMode
  readonly apiKey: Redacted.Redacted<string> | undefined
  readonly baseURL: string
  readonly model: string
  readonly timeoutMs: number
  readonly cascadeBand: readonly [number, number]
  readonly llmAttributes: boolean
  readonly structuredOutput: OpenAiClient.StructuredOutput
  readonly temperature: number | undefined
  readonly maxRetries: number
  readonly maxConcurrency: number
  readonly cacheSize: number
  readonly breakerThreshold: number
  readonly breakerCooldownMs: number
  /** First retry backoff (options only; the environment keeps the default). */
  readonly baseBackoffMs: number
  /** Extra headers for every request to the provider (options only). */
  readonly headers: Readonly<Record<string, string>> | undefined
}

// ---------------------------------------------------------------- checks, shared by both sources

/** A check of one raw value: the parsed value, or what is wrong with it (the caller names the setting). */
type Check<A> = (raw: string) => Either.Either<A, string>

const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER): Check<number> => (raw) => {
  const n = Number(raw)
  return raw.trim() !== "" && Number.isInteger(n) && n >= min && n <= max
    ? Either.right(n)
    : Either.left(max === Number.MAX_SAFE_INTEGER ? `must be a whole number >= ${min}` : `must be a whole number from ${min} to ${max}`)
}

const number = (min: number, max = Infinity): Check<number> => (raw) => {
  const n = Number(raw)
  return raw.trim() !== "" && Number.isFinite(n) && n >= min && n <= max
    ? Either.right(n)
    : Either.left(max === Infinity ? `must be a number >= ${min}` : `must be a number from ${min} to ${max}`)
}

const TRUE = ["true", "yes", "on", "1"]
const FALSE = ["false", "no", "off", "0"]
const boolean: Check<boolean> = (raw) => {
  const v = raw.trim().toLowerCase()
  return TRUE.includes(v) ? Either.right(true) : FALSE.includes(v) ? Either.right(false) : Either.left("must be true or false")
}

const oneOf = <const A extends string>(...values: ReadonlyArray<A>): Check<A> => (raw) =>
  (values as ReadonlyArray<string>).includes(raw.trim())
    ? Either.right(raw.trim() as A)
    : Either.left(`must be one of ${values.join(", ")}`)

const httpUrl: Check<string> = (raw) => {
  try {
    const url = new URL(raw.trim())
    return url.protocol === "http:" || url.protocol === "https:" ? Either.right(raw.trim()) : Either.left("must be an http:// or https:// URL")
  } catch {
    return Either.left("must be an http:// or https:// URL")
  }
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i

/**
 * A store spec: `memory`, a `postgres://` (or `postgresql://`) URL, or a SQLite file path. Any
 * other URL (`mysql://...`) is refused rather than taken for a file name.
 */
const checkDb: Check<string> = (raw) => {
  const value = raw.trim()
  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase()
  if (scheme !== undefined && scheme !== "postgres" && scheme !== "postgresql") {
    return Either.left(`must be a SQLite file path, a postgres:// URL or "memory" (${scheme}:// is not supported)`)
  }
  return value === "" ? Either.left("must not be empty") : Either.right(value)
}

/** A TCP port: a whole number from 0 to 65535 (0: any free port). */
const checkPort: Check<number> = wholeNumber(0, 65535)

/** Two numbers `low,high` with 0 <= low <= high <= 1. */
const band: Check<readonly [number, number]> = (raw) => {
  const parts = raw.split(/[,\s]+|(?<=\d)-(?=\d|\.)/).filter((p) => p !== "").map(Number)
  return parts.length === 2 && parts.every(Number.isFinite) && parts[0]! >= 0 && parts[0]! <= parts[1]! && parts[1]! <= 1
    ? Either.right([parts[0]!, parts[1]!] as const)
    : Either.left("must be two numbers 0 <= low <= high <= 1, such as 0.25,0.75")
}

/** Credentials in a URL are never echoed in a message. */
const shown = (raw: string) => raw.replace(/\/\/([^:@/]+):[^@/]+@/, "//$1:***@")

const invalid = (name: string, raw: string | undefined, reason: string) =>
  ConfigError.InvalidData([name], raw === undefined ? `${name}: ${reason}` : `${name}=${shown(raw)}: ${reason}`)

// ---------------------------------------------------------------- from the environment

/** An optional variable: unset or blank is `None`; anything else must pass the check. */
const variable = <A>(name: string, check: Check<A>, options: { readonly secret?: boolean } = {}): Config.Config<Option.Option<A>> =>
  Config.option(Config.string(name)).pipe(
    Config.mapOrFail((raw) => {
      if (Option.isNone(raw) || raw.value.trim() === "") return Either.right(Option.none())
      return Either.mapBoth(check(raw.value), {
        onLeft: (reason) => invalid(name, options.secret ? undefined : raw.value, reason),
        onRight: Option.some
      })
    })
  )

const withDefault = <A>(config: Config.Config<Option.Option<A>>, fallback: A) => Config.map(config, Option.getOrElse(() => fallback))
const orUndefined = <A>(config: Config.Config<Option.Option<A>>) => Config.map(config, Option.getOrUndefined)

const anyText: Check<string> = (raw) => Either.right(raw.trim())

/** A comma-separated list of IP addresses (v4 or v6). */
const proxyList: Check<ReadonlyArray<string>> = (raw) =>
  Either.match(TrustedProxies.parse(raw), {
    onLeft: (problem) => Either.left(`must be comma-separated IP addresses or CIDR ranges, e.g. 10.0.0.1,10.1.0.0/16,2001:db8::/32 (${problem})`),
    onRight: (proxies) => Either.right(proxies.entries)
  })

const d = LlmEvaluators.defaultPolicy

/** A rate of failed authentications per minute as the setting: 0 turns the limit off. */
const authFailureLimitOf = (perMinute: number): EngineSettings["http"]["authFailureLimit"] => (perMinute === 0 ? null : { perMinute })

/** `DECORUM_DB`, else `DATABASE_URL`, else `./decorum.db`: what the CLI's store commands read. */
const storeConfig: Config.Config<EngineSettings["store"]> = Config.all({ db: variable("DECORUM_DB", checkDb), url: variable("DATABASE_URL", checkDb) }).pipe(
  Config.map(({ db, url }): EngineSettings["store"] =>
    Option.isSome(db)
      ? { db: Redacted.make(db.value), source: "DECORUM_DB" }
      : Option.isSome(url)
      ? { db: Redacted.make(url.value), source: "DATABASE_URL" }
      : { db: Redacted.make("./decorum.db"), source: "default" }
  )
)

const rateLimitConfig = Config.all({
  perMinute: variable("DECORUM_RATE_LIMIT_PER_MINUTE", number(Number.MIN_VALUE)),
  burst: variable("DECORUM_RATE_LIMIT_BURST", number(1))
}).pipe(
  Config.mapOrFail(({ burst, perMinute }) => {
    if (Option.isNone(perMinute)) {
      return Option.isSome(burst)
        ? Either.left(invalid("DECORUM_RATE_LIMIT_BURST", undefined, "is set but DECORUM_RATE_LIMIT_PER_MINUTE is not"))
        : Either.right(null)
    }
    return Either.right({ perMinute: perMinute.value, burst: Option.getOrElse(burst, () => Math.max(1, perMinute.value)) })
  })
)

const llmConfig: Config.Config<LlmSettings> = Config.all({
  mode: withDefault(variable("DECORUM_ENGINE", oneOf("local", "llm", "cascade")), "local" as const),
  apiKey: orUndefined(variable("OPENAI_API_KEY", (raw) => Either.right(Redacted.make(raw.trim())), { secret: true })),
  baseURL: withDefault(variable("OPENAI_BASE_URL", httpUrl), OpenAiClient.DEFAULT_BASE_URL),
  model: withDefault(variable("DECORUM_LLM_MODEL", anyText), OpenAiEvaluation.DEFAULT_MODEL),
  timeoutMs: withDefault(variable("DECORUM_LLM_TIMEOUT_MS", wholeNumber(1)), d.timeoutMs),
  cascadeBand: withDefault(variable("DECORUM_CASCADE_BAND", band), EngineModes.DEFAULT_BAND),
  llmAttributes: withDefault(variable("DECORUM_LLM_ATTRIBUTES", boolean), false),
  structuredOutput: withDefault(variable("DECORUM_LLM_STRUCTURED_OUTPUT", oneOf("auto", "json_schema", "json_object")), "auto" as const),
  temperature: orUndefined(variable("DECORUM_LLM_TEMPERATURE", number(0, 2))),
  maxRetries: withDefault(variable("DECORUM_LLM_MAX_RETRIES", wholeNumber(0)), d.maxRetries),
  maxConcurrency: withDefault(variable("DECORUM_LLM_MAX_CONCURRENCY", wholeNumber(1)), d.maxConcurrency),
  cacheSize: withDefault(variable("DECORUM_LLM_CACHE_SIZE", wholeNumber(0)), d.cacheSize),
  breakerThreshold: withDefault(variable("DECORUM_LLM_BREAKER_THRESHOLD", wholeNumber(1)), d.breakerThreshold),
  breakerCooldownMs: withDefault(variable("DECORUM_LLM_BREAKER_COOLDOWN_MS", wholeNumber(0)), d.breakerCooldownMs)
}).pipe(
  // The backoff and extra headers are options only; the environment keeps their defaults.
  Config.map((llm): LlmSettings => ({ ...llm, baseBackoffMs: d.baseBackoffMs, headers: undefined })),
  Config.mapOrFail((llm) => Either.map(checkKey(llm, "OPENAI_API_KEY", "DECORUM_ENGINE", "OPENAI_BASE_URL"), () => llm))
)

/** An LLM mode against api.openai.com needs a key; self-hosted servers usually do not. */
const checkKey = (llm: LlmSettings, key: string, mode: string, base: string): Either.Either<void, ConfigError.ConfigError> =>
  llm.mode !== "local" && (llm.apiKey === undefined || Redacted.value(llm.apiKey).trim() === "") && llm.baseURL === OpenAiClient.DEFAULT_BASE_URL
    ? Either.left(invalid(key, undefined, `is required with ${mode}=${llm.mode} against api.openai.com (or set ${base} to a server that needs no key)`))
    : Either.right(undefined)

const modelConfig = Config.all({
  choice: withDefault(variable("DECORUM_LOCAL_MODEL", anyText), "trained"),
  directory: orUndefined(variable("DECORUM_MODEL_DIR", anyText))
}).pipe(Config.map(({ choice, directory }) => locateModel(choiceOf(choice), directory)))

const choiceOf = (value: string): LocalEngine.ModelChoice => (value === "trained" || value === "lexicon" ? value : { directory: value })

/** `trained` read from `directory` when one is set (a bundle carries the files elsewhere); any other choice unchanged. */
const locateModel = (model: LocalEngine.ModelChoice, directory: string | undefined): LocalEngine.ModelChoice =>
  model === "trained" && directory !== undefined ? { directory } : model

const fetchConfig: Config.Config<EngineSettings["fetch"]> = Config.all({
  allowPrivate: withDefault(variable("DECORUM_FETCH_ALLOW_PRIVATE", boolean), false),
  timeoutMs: withDefault(variable("DECORUM_FETCH_TIMEOUT_MS", wholeNumber(1)), FetchDefaults.timeoutMs),
  maxBytes: withDefault(variable("DECORUM_FETCH_MAX_BYTES", wholeNumber(1)), FetchDefaults.maxBytes)
})

/** `OTEL_EXPORTER_OTLP_HEADERS`: comma-separated `key=value` pairs, values URL-encoded (the OpenTelemetry spec). */
const otlpHeaders: Check<Record<string, string>> = (raw) => {
  const headers: Record<string, string> = {}
  for (const part of raw.split(",")) {
    if (part.trim() === "") continue
    const eq = part.indexOf("=")
    if (eq <= 0) return Either.left("must be comma-separated key=value pairs")
    try {
      headers[part.slice(0, eq).trim()] = decodeURIComponent(part.slice(eq + 1).trim())
    } catch {
      return Either.left("must be comma-separated key=value pairs with URL-encoded values")
    }
  }
  return Either.right(headers)
}

const observabilityConfig: Config.Config<ObservabilitySettings> = Config.all({
  metrics: withDefault(variable("DECORUM_METRICS", boolean), false),
  metricsPort: Config.map(variable("DECORUM_METRICS_PORT", wholeNumber(0, 65535)), Option.getOrNull),
  metricsHost: withDefault(variable("DECORUM_METRICS_HOST", anyText), DEFAULT_METRICS_HOST),
  accessLog: withDefault(variable("DECORUM_ACCESS_LOG", boolean), false),
  endpoint: variable("OTEL_EXPORTER_OTLP_ENDPOINT", httpUrl),
  serviceName: withDefault(variable("OTEL_SERVICE_NAME", anyText), "decorum"),
  headers: withDefault(variable("OTEL_EXPORTER_OTLP_HEADERS", otlpHeaders, { secret: true }), {})
}).pipe(
  Config.map(({ accessLog, endpoint, headers, metrics, metricsHost, metricsPort, serviceName }): ObservabilitySettings => ({
    metrics,
    metricsPort,
    metricsHost,
    accessLog,
    otlp: Option.match(endpoint, { onNone: () => null, onSome: (url) => ({ endpoint: url, serviceName, headers }) })
  }))
)

/** Every variable of the README's table (and the finer LLM knobs of docs/llm.md). */
const config: Config.Config<EngineSettings> = Config.all({
  store: storeConfig,
  server: Config.all({
    port: withDefault(variable("PORT", checkPort), 8080),
    host: withDefault(variable("HOST", anyText), "0.0.0.0"),
    drainTimeoutMs: withDefault(variable("DECORUM_DRAIN_TIMEOUT_MS", wholeNumber(0)), DEFAULT_DRAIN_TIMEOUT_MS),
    drainGraceMs: withDefault(variable("DECORUM_DRAIN_GRACE_MS", wholeNumber(0)), DEFAULT_DRAIN_GRACE_MS),
    fastPath: withDefault(variable("DECORUM_FAST_PATH", boolean), true)
  }),
  http: Config.all({
    publicUrl: Config.map(variable("DECORUM_PUBLIC_URL", httpUrl), Option.getOrNull),
    trustProxy: withDefault(variable("DECORUM_TRUST_PROXY", proxyList), []),
    bodyLimitBytes: Config.map(variable("DECORUM_BODY_LIMIT_BYTES", wholeNumber(1024)), Option.getOrNull),
    rateLimit: rateLimitConfig,
    authFailureLimit: Config.map(
      withDefault(variable("DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE", number(0)), AuthFailureLimiter.DEFAULT_PER_MINUTE),
      authFailureLimitOf
    )
  }),
  model: modelConfig,
  fetch: fetchConfig,
  llm: llmConfig,
  observability: observabilityConfig,
  adaptation: Config.all({ every: Config.map(variable("DECORUM_ADAPT_EVERY", wholeNumber(1)), Option.getOrNull) })
})

// ---------------------------------------------------------------- from options

/** The engine mode and the LLM provider's options. */
export interface LlmOptions extends OpenAiEvaluation.OpenAiOptions, Partial<EngineModes.ModeOptions> {}

/** The in-process host's options: the same settings, as values. */
export interface EngineOptions {
  /** A SQLite file path, a `postgres://` URL, or `"memory"` (nothing persisted). Default `./decorum.db`. */
  readonly db?: string | Redacted.Redacted<string>
  readonly port?: number
  readonly host?: string
  /** On shutdown, how long requests in flight may run (ms). Default 10000. */
  readonly drainTimeoutMs?: number
  /** On shutdown, how long the listener stays open before it stops accepting (ms, part of `drainTimeoutMs`). Default 0. */
  readonly drainGraceMs?: number
  /** The Node server's fast path for Perspective's analyze and suggestscore. Default true. */
  readonly fastPath?: boolean
  readonly publicUrl?: string | null
  /** IP addresses of trusted reverse proxies (their `X-Forwarded-*` headers are honoured). Default none. */
  readonly trustProxy?: ReadonlyArray<string>
  readonly bodyLimitBytes?: number | null
  readonly rateLimit?: RateLimitOptions | null
  /** Failed authentications per minute per client address (as many at once); 0 turns it off. Default 30. */
  readonly authFailureLimitPerMinute?: number
  /** The local model set: `trained` (the shipped models), `lexicon`, or `{ directory }` of retrained models. */
  readonly model?: LocalEngine.ModelChoice
  /** URL fetching for article contexts. See `docs/relevance.md`. */
  readonly fetch?: LocalEngine.FetchOptions
  /** LLM modes (`local` by default). See `docs/llm.md`. */
  readonly llm?: LlmOptions
  /** Metrics, access log, OTLP export (all off by default). */
  readonly observability?: Partial<ObservabilitySettings>
  /** Refit an account's adapters after this many new corrections (the Node server only). Default null: never. */
  readonly adaptEvery?: number | null
}

const checked = <A>(name: string, value: A | undefined | null, check: (raw: string) => Either.Either<unknown, string>, fallback: A) =>
  value === undefined || value === null
    ? Either.right(fallback)
    : Either.mapBoth(check(String(value)), { onLeft: (reason) => invalid(name, String(value), reason), onRight: () => value })

/** The settings from options, checked as the environment's variables are (the option's path names it). */
const make = (options: EngineOptions = {}): Effect.Effect<EngineSettings, ConfigError.ConfigError> =>
  Effect.gen(function*() {
    const llm = options.llm ?? {}
    const fetch = options.fetch ?? {}
    // The types say what each option holds; a caller without them (plain JavaScript) gets the same
    // named error for a value of the wrong kind as for a wrong value.
    if (options.db !== undefined && typeof options.db !== "string" && !Redacted.isRedacted(options.db)) {
      return yield* Effect.fail(invalid("db", String(options.db), "must be a SQLite file path, a postgres:// URL or \"memory\""))
    }
    const model = options.model ?? "trained"
    const directory = typeof model === "object" && model !== null ? (model as { readonly directory?: unknown }).directory : undefined
    if (model !== "trained" && model !== "lexicon" && (typeof directory !== "string" || directory.trim() === "")) {
      return yield* Effect.fail(invalid("model", typeof model === "object" ? JSON.stringify(model) : String(model), "must be \"trained\", \"lexicon\" or { directory: \"/path/to/model/files\" }"))
    }
    const db = options.db === undefined ? "./decorum.db" : Redacted.isRedacted(options.db) ? Redacted.value(options.db) : options.db
    yield* Either.mapLeft(checkDb(db), (reason) => invalid("db", undefined, reason))
    const rate = options.rateLimit ?? null
    const settings: Omit<EngineSettings, "observability" | "adaptation"> = {
      store: { db: Redacted.make(db.trim()), source: options.db === undefined ? "default" : "option" },
      server: {
        port: yield* checked("port", options.port, checkPort, 8080),
        host: options.host ?? "0.0.0.0",
        drainTimeoutMs: yield* checked("drainTimeoutMs", options.drainTimeoutMs, wholeNumber(0), DEFAULT_DRAIN_TIMEOUT_MS),
        drainGraceMs: yield* checked("drainGraceMs", options.drainGraceMs, wholeNumber(0), DEFAULT_DRAIN_GRACE_MS),
        fastPath: options.fastPath ?? true
      },
      http: {
        publicUrl: options.publicUrl === undefined || options.publicUrl === null ? null : yield* checked("publicUrl", options.publicUrl, httpUrl, ""),
        trustProxy: options.trustProxy === undefined ? [] : yield* Either.mapLeft(proxyList(options.trustProxy.join(",")), (reason) => invalid("trustProxy", options.trustProxy!.join(","), reason)),
        bodyLimitBytes: options.bodyLimitBytes === undefined || options.bodyLimitBytes === null
          ? null
          : yield* checked("bodyLimitBytes", options.bodyLimitBytes, wholeNumber(1024), 0),
        rateLimit: rate === null
          ? null
          : {
            perMinute: yield* checked("rateLimit.perMinute", rate.perMinute, number(Number.MIN_VALUE), 0),
            burst: yield* checked("rateLimit.burst", rate.burst, number(1), Math.max(1, rate.perMinute))
          },
        authFailureLimit: authFailureLimitOf(
          yield* checked("authFailureLimitPerMinute", options.authFailureLimitPerMinute, number(0), AuthFailureLimiter.DEFAULT_PER_MINUTE)
        )
      },
      model,
      fetch: {
        allowPrivate: fetch.allowPrivate ?? false,
        timeoutMs: yield* checked("fetch.timeoutMs", fetch.timeoutMs, wholeNumber(1), FetchDefaults.timeoutMs),
        maxBytes: yield* checked("fetch.maxBytes", fetch.maxBytes, wholeNumber(1), FetchDefaults.maxBytes)
      },
      llm: {
        mode: yield* checked<EngineModes.EngineMode>("llm.mode", llm.mode, oneOf("local", "llm", "cascade"), "local"),
        apiKey: llm.apiKey === undefined ? undefined : Redacted.isRedacted(llm.apiKey) ? llm.apiKey : Redacted.make(llm.apiKey),
        baseURL: yield* checked("llm.baseURL", llm.baseURL?.trim() || undefined, httpUrl, OpenAiClient.DEFAULT_BASE_URL),
        model: llm.model?.trim() || OpenAiEvaluation.DEFAULT_MODEL,
        timeoutMs: yield* checked("llm.timeoutMs", llm.timeoutMs, wholeNumber(1), d.timeoutMs),
        cascadeBand: yield* checked("llm.cascadeBand", llm.cascadeBand, (raw) => band(raw), EngineModes.DEFAULT_BAND),
        llmAttributes: llm.llmAttributes ?? false,
        structuredOutput: yield* checked<OpenAiClient.StructuredOutput>("llm.structuredOutput", llm.structuredOutput, oneOf("auto", "json_schema", "json_object"), "auto"),
        temperature: yield* checked("llm.temperature", llm.temperature, number(0, 2), undefined),
        maxRetries: yield* checked("llm.maxRetries", llm.maxRetries, wholeNumber(0), d.maxRetries),
        maxConcurrency: yield* checked("llm.maxConcurrency", llm.maxConcurrency, wholeNumber(1), d.maxConcurrency),
        cacheSize: yield* checked("llm.cacheSize", llm.cacheSize, wholeNumber(0), d.cacheSize),
        breakerThreshold: yield* checked("llm.breakerThreshold", llm.breakerThreshold, wholeNumber(1), d.breakerThreshold),
        breakerCooldownMs: yield* checked("llm.breakerCooldownMs", llm.breakerCooldownMs, wholeNumber(0), d.breakerCooldownMs),
        baseBackoffMs: yield* checked("llm.baseBackoffMs", llm.baseBackoffMs, number(0), d.baseBackoffMs),
        headers: llm.headers
      }
    }
    const observability = options.observability ?? {}
    const otlp = observability.otlp ?? null
    const withObservability: EngineSettings = {
      ...settings,
      adaptation: {
        every: options.adaptEvery === undefined || options.adaptEvery === null ? null : yield* checked("adaptEvery", options.adaptEvery, wholeNumber(1), 0)
      },
      observability: {
        metrics: observability.metrics ?? false,
        metricsPort: observability.metricsPort === undefined || observability.metricsPort === null
          ? null
          : yield* checked("observability.metricsPort", observability.metricsPort, wholeNumber(0, 65535), 0),
        metricsHost: observability.metricsHost ?? DEFAULT_METRICS_HOST,
        accessLog: observability.accessLog ?? false,
        otlp: otlp === null ? null : { ...otlp, endpoint: yield* checked("observability.otlp.endpoint", otlp.endpoint, httpUrl, "") }
      }
    }
    yield* checkKey(settings.llm, "llm.apiKey", "llm.mode", "llm.baseURL")
    return withObservability
  })

// ---------------------------------------------------------------- for hosts

/** The LLM settings as `OpenAiEvaluation.layer` takes them. */
const openAiOptions = (llm: LlmSettings): OpenAiEvaluation.OpenAiOptions => ({
  apiKey: llm.apiKey,
  baseURL: llm.baseURL,
  model: llm.model,
  timeoutMs: llm.timeoutMs,
  structuredOutput: llm.structuredOutput,
  temperature: llm.temperature,
  maxRetries: llm.maxRetries,
  maxConcurrency: llm.maxConcurrency,
  cacheSize: llm.cacheSize,
  breakerThreshold: llm.breakerThreshold,
  breakerCooldownMs: llm.breakerCooldownMs,
  baseBackoffMs: llm.baseBackoffMs,
  headers: llm.headers
})

/**
 * A configuration error as an operator reads it: one line per problem, each naming the variable
 * (`DECORUM_ENGINE=foo: must be one of local, llm, cascade`).
 */
const describe = (error: ConfigError.ConfigError): string => {
  const lines: Array<string> = []
  const walk = (e: ConfigError.ConfigError): void => {
    switch (e._op) {
      case "And":
      case "Or":
        walk(e.left)
        walk(e.right)
        return
      case "InvalidData":
      case "MissingData":
      case "SourceUnavailable":
      case "Unsupported": {
        const name = e.path.join(".")
        lines.push(name === "" || e.message.startsWith(name) ? e.message : `${name}: ${e.message}`)
        return
      }
    }
  }
  walk(error)
  return Array.from(new Set(lines)).join("\n")
}

export class EngineConfig extends Context.Tag("@decorum/engine/EngineConfig")<EngineConfig, EngineSettings>() {
  /** Every variable of the README's table (and the finer LLM knobs of docs/llm.md). */
  static readonly config = config
  /** `DECORUM_DB`, else `DATABASE_URL`, else `./decorum.db`: all the store commands need. */
  static readonly storeConfig = storeConfig
  /** `DECORUM_FETCH_*`: all creating an article context needs besides the store. */
  static readonly fetchConfig = fetchConfig
  /** The settings from options, checked as the environment's variables are. */
  static readonly make = make
  /** Read from the environment (or the current `ConfigProvider`); `settings` defaults to `config`. */
  static readonly layerConfig = (settings: Config.Config<EngineSettings> = config): Layer.Layer<EngineConfig, ConfigError.ConfigError> =>
    Layer.effect(EngineConfig, settings)
  /** From options, with the environment's defaults and checks (an option's path stands for the variable). */
  static readonly layer = (options: EngineOptions = {}): Layer.Layer<EngineConfig, ConfigError.ConfigError> =>
    Layer.effect(EngineConfig, make(options))
  /** A configuration error as the lines an operator reads, each naming the variable. */
  static readonly describe = describe
  /** The check of a store spec (`--db`, `DECORUM_DB`): what is wrong with it, or the spec. */
  static readonly checkDb = checkDb
  /** The check of a TCP port (`--port`, `PORT`). */
  static readonly checkPort = checkPort
  /** `trained` read from a directory when one is set; any other choice unchanged. */
  static readonly locateModel = locateModel
  /** The LLM settings as `OpenAiEvaluation.layer` takes them. */
  static readonly openAiOptions = openAiOptions
}
