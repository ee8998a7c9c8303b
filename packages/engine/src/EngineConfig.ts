/**
 * The engine's one configuration: every setting the README's table lists, read once through
 * effect's `Config` (the environment by default) or given as options, and validated with messages
 * that name the variable and echo its value (`DECORUM_FETCH_MAX_BYTES=-1: must be a whole number
 * >= 1`; secrets are never echoed). The Node server, Lambda and the in-process host all build their
 * engine from this service.
 *
 * Each setting is written once, in `Settings` below: its variable, its option's path in
 * `EngineOptions`, its check and its default. Both sources are read by the same `Config` (options
 * through a `ConfigProvider` keyed by option path), so a variable and its option cannot drift apart.
 *
 * - `EngineConfig.layerConfig()`: read from the environment (or the current `ConfigProvider`).
 * - `EngineConfig.layer(options)`: from options, with the same defaults and checks.
 * - `EngineConfig.describe(error)`: a `ConfigError` as the lines an operator reads.
 * - `EngineConfig.settings`, `EngineConfig.variables`: the table, and the variables it reads.
 */
import { AuthFailureLimiter, EngineModes, type RateLimitOptions, TrustedProxies } from "@decorum/core"
import { FetchDefaults, Judge, type LocalEngine } from "@decorum/local"
import { LlmEvaluators, OpenAiClient, OpenAiEvaluation } from "@decorum/openai"
import { Config, ConfigError, ConfigProvider, Context, Effect, Either, Layer, Option, Redacted } from "effect"

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
  /**
   * `DECORUM_JUDGE`, default `cascade`: the neural judge behind the linear attribute models (issue 27):
   * `linear` (off), `cascade` (the comments the linear models are unsure about) or `neural` (every English comment).
   */
  readonly judge: Judge.Mode
  /**
   * `DECORUM_JUDGE_MODEL`: the mapping file of the operator's ONNX classifier, which the judge runs
   * instead of its built-in heads (docs/bring-your-own-model.md); one that does not load leaves the
   * built-in judge serving, and `/readyz` says why.
   */
  readonly judgeModel: string | undefined
  /**
   * `DECORUM_JUDGE_BUDGET_MS`, default 25: a comment is judged only if the judge can answer it
   * within this many ms; otherwise it is answered with the linear scores at once (`over_budget`,
   * docs/judge.md). 0: no budget.
   */
  readonly judgeBudgetMs: number
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

const anyText: Check<string> = (raw) => Either.right(raw.trim())

/** A comma-separated list of IP addresses (v4 or v6). */
const proxyList: Check<ReadonlyArray<string>> = (raw) =>
  Either.match(TrustedProxies.parse(raw), {
    onLeft: (problem) => Either.left(`must be comma-separated IP addresses or CIDR ranges, e.g. 10.0.0.1,10.1.0.0/16,2001:db8::/32 (${problem})`),
    onRight: (proxies) => Either.right(proxies.entries)
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

const secretText: Check<Redacted.Redacted<string>> = (raw) => Either.right(Redacted.make(raw.trim()))

const choiceOf = (value: string): LocalEngine.ModelChoice => (value === "trained" || value === "lexicon" ? value : { directory: value })

/** `trained` read from `directory` when one is set (a bundle carries the files elsewhere); any other choice unchanged. */
const locateModel = (model: LocalEngine.ModelChoice, directory: string | undefined): LocalEngine.ModelChoice =>
  model === "trained" && directory !== undefined ? { directory } : model

// ---------------------------------------------------------------- the settings, each written once

/** The dotted paths of an options object's values (`"fetch.timeoutMs"`, `"model"`): what a setting's option may name. */
type OptionPath<T, Prefix extends string = ""> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends ReadonlyArray<unknown> | Redacted.Redacted<unknown> | string | number | boolean ? `${Prefix}${K}`
    : NonNullable<T[K]> extends object ? `${Prefix}${K}` | OptionPath<NonNullable<T[K]>, `${Prefix}${K}.`>
    : `${Prefix}${K}`
}[keyof T & string]

/** The dotted paths of an options object's leaves: values that are not objects of further options (a record counts as a leaf). */
type LeafPath<T, Prefix extends string = ""> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends ReadonlyArray<unknown> | Redacted.Redacted<unknown> | string | number | boolean ? `${Prefix}${K}`
    : NonNullable<T[K]> extends object ? string extends keyof NonNullable<T[K]> ? `${Prefix}${K}` : LeafPath<NonNullable<T[K]>, `${Prefix}${K}.`>
    : `${Prefix}${K}`
}[keyof T & string]

/**
 * One setting: the environment variable and the option that set it (either may be absent: a
 * setting of one source only), the check of a raw value, and the default. Both sources read the
 * same definition, so a variable and its option cannot drift apart in check, default or message.
 */
interface Setting<A, D, O extends OptionPath<EngineOptions> | undefined = OptionPath<EngineOptions> | undefined> {
  readonly env: string | undefined
  readonly option: O
  readonly check: Check<A>
  readonly fallback: D
  /** Never echo the value in a message: always, or only when it comes from an option. */
  readonly secret: boolean | "option"
  /** An option's value as the raw text the check reads (default: `String`, arrays joined by commas). */
  readonly encode?: (value: any) => string
}

const setting = <A, D = A, const O extends OptionPath<EngineOptions> | undefined = undefined>(
  env: string | undefined,
  option: O,
  check: Check<A>,
  fallback: D,
  extra: { readonly secret?: boolean | "option"; readonly encode?: (value: any) => string } = {}
): Setting<A, D, O> => ({ env, option, check, fallback, secret: extra.secret ?? false, ...(extra.encode ? { encode: extra.encode } : {}) })

const d = LlmEvaluators.defaultPolicy
const none = undefined
const nothing = null

/**
 * Every setting of the README's table (and the finer LLM knobs of docs/llm.md): its variable, its
 * option in `EngineOptions`, its check and its default. `EngineConfig.config` reads them from the
 * environment, `EngineConfig.make(options)` from options, both through `settingsIn` below.
 */
const Settings = {
  port: setting("PORT", "port", checkPort, 8080),
  host: setting("HOST", "host", anyText, "0.0.0.0"),
  db: setting("DECORUM_DB", "db", checkDb, none, { secret: "option" }),
  databaseUrl: setting("DATABASE_URL", none, checkDb, none),
  publicUrl: setting("DECORUM_PUBLIC_URL", "publicUrl", httpUrl, nothing),
  trustProxy: setting("DECORUM_TRUST_PROXY", "trustProxy", proxyList, [] as ReadonlyArray<string>),
  bodyLimitBytes: setting("DECORUM_BODY_LIMIT_BYTES", "bodyLimitBytes", wholeNumber(1024), nothing),
  drainTimeoutMs: setting("DECORUM_DRAIN_TIMEOUT_MS", "drainTimeoutMs", wholeNumber(0), DEFAULT_DRAIN_TIMEOUT_MS),
  drainGraceMs: setting("DECORUM_DRAIN_GRACE_MS", "drainGraceMs", wholeNumber(0), DEFAULT_DRAIN_GRACE_MS),
  fastPath: setting("DECORUM_FAST_PATH", "fastPath", boolean, true),
  ratePerMinute: setting("DECORUM_RATE_LIMIT_PER_MINUTE", "rateLimit.perMinute", number(Number.MIN_VALUE), none),
  rateBurst: setting("DECORUM_RATE_LIMIT_BURST", "rateLimit.burst", number(1), none),
  authFailuresPerMinute: setting("DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE", "authFailureLimitPerMinute", number(0), AuthFailureLimiter.DEFAULT_PER_MINUTE),
  localModel: setting("DECORUM_LOCAL_MODEL", "model", anyText, "trained", {
    encode: (model: LocalEngine.ModelChoice) => (typeof model === "string" ? model : model.directory)
  }),
  modelDir: setting("DECORUM_MODEL_DIR", none, anyText, none),
  judge: setting("DECORUM_JUDGE", "judge", oneOf(...Judge.MODES), "cascade" as Judge.Mode),
  judgeModel: setting("DECORUM_JUDGE_MODEL", "judgeModel", anyText, none),
  judgeBudgetMs: setting("DECORUM_JUDGE_BUDGET_MS", "judgeBudgetMs", wholeNumber(0), Judge.DEFAULT_BUDGET_MS),
  mode: setting("DECORUM_ENGINE", "llm.mode", oneOf("local", "llm", "cascade"), "local" as const),
  apiKey: setting("OPENAI_API_KEY", "llm.apiKey", secretText, none, { secret: true }),
  baseURL: setting("OPENAI_BASE_URL", "llm.baseURL", httpUrl, OpenAiClient.DEFAULT_BASE_URL),
  llmModel: setting("DECORUM_LLM_MODEL", "llm.model", anyText, OpenAiEvaluation.DEFAULT_MODEL),
  llmTimeoutMs: setting("DECORUM_LLM_TIMEOUT_MS", "llm.timeoutMs", wholeNumber(1), d.timeoutMs),
  cascadeBand: setting("DECORUM_CASCADE_BAND", "llm.cascadeBand", band, EngineModes.DEFAULT_BAND),
  llmAttributes: setting("DECORUM_LLM_ATTRIBUTES", "llm.llmAttributes", boolean, false),
  structuredOutput: setting("DECORUM_LLM_STRUCTURED_OUTPUT", "llm.structuredOutput", oneOf("auto", "json_schema", "json_object"), "auto" as const),
  temperature: setting("DECORUM_LLM_TEMPERATURE", "llm.temperature", number(0, 2), none),
  maxRetries: setting("DECORUM_LLM_MAX_RETRIES", "llm.maxRetries", wholeNumber(0), d.maxRetries),
  maxConcurrency: setting("DECORUM_LLM_MAX_CONCURRENCY", "llm.maxConcurrency", wholeNumber(1), d.maxConcurrency),
  cacheSize: setting("DECORUM_LLM_CACHE_SIZE", "llm.cacheSize", wholeNumber(0), d.cacheSize),
  breakerThreshold: setting("DECORUM_LLM_BREAKER_THRESHOLD", "llm.breakerThreshold", wholeNumber(1), d.breakerThreshold),
  breakerCooldownMs: setting("DECORUM_LLM_BREAKER_COOLDOWN_MS", "llm.breakerCooldownMs", wholeNumber(0), d.breakerCooldownMs),
  fetchAllowPrivate: setting("DECORUM_FETCH_ALLOW_PRIVATE", "fetch.allowPrivate", boolean, false),
  fetchTimeoutMs: setting("DECORUM_FETCH_TIMEOUT_MS", "fetch.timeoutMs", wholeNumber(1), FetchDefaults.timeoutMs),
  fetchMaxBytes: setting("DECORUM_FETCH_MAX_BYTES", "fetch.maxBytes", wholeNumber(1), FetchDefaults.maxBytes),
  metrics: setting("DECORUM_METRICS", "observability.metrics", boolean, false),
  metricsPort: setting("DECORUM_METRICS_PORT", "observability.metricsPort", wholeNumber(0, 65535), nothing),
  metricsHost: setting("DECORUM_METRICS_HOST", "observability.metricsHost", anyText, DEFAULT_METRICS_HOST),
  accessLog: setting("DECORUM_ACCESS_LOG", "observability.accessLog", boolean, false),
  adaptEvery: setting("DECORUM_ADAPT_EVERY", "adaptEvery", wholeNumber(1), nothing),
  otlpEndpoint: setting("OTEL_EXPORTER_OTLP_ENDPOINT", "observability.otlp.endpoint", httpUrl, nothing),
  otlpServiceName: setting("OTEL_SERVICE_NAME", "observability.otlp.serviceName", anyText, "decorum"),
  otlpHeaders: setting("OTEL_EXPORTER_OTLP_HEADERS", "observability.otlp.headers", otlpHeaders, {} as Readonly<Record<string, string>>, {
    secret: true,
    encode: (headers: Readonly<Record<string, string>>) => Object.entries(headers).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join(",")
  }),
  /** First retry backoff: an option only, the environment keeps the default. */
  baseBackoffMs: setting(none, "llm.baseBackoffMs", number(0), d.baseBackoffMs)
} as const

/** Every environment variable the engine reads, in the README's order. */
const variables: ReadonlyArray<string> = Object.values(Settings).flatMap((s) => (s.env === undefined ? [] : [s.env]))

/**
 * Every option of `EngineOptions` is a setting of the table (`llm.headers`, an object of extra
 * request headers, is the one option outside it): an option added to the type without its setting
 * (so silently ignored) fails to compile here, naming it.
 */
type OptionsWithoutSetting = Exclude<LeafPath<EngineOptions>, (typeof Settings)[keyof typeof Settings]["option"] | "llm.headers">
const everyOptionIsASetting: [OptionsWithoutSetting] extends [never] ? true : { readonly withoutSetting: OptionsWithoutSetting } = true
void everyOptionIsASetting

// ---------------------------------------------------------------- reading, one way for both sources

/** Where the settings come from: the environment (named by variable) or options (named by option path). */
type Source = "env" | "option"

const nameOf = (source: Source, s: Setting<unknown, unknown>): string | undefined => (source === "env" ? s.env : s.option)

/** One setting from the source: unset or blank is the default; anything else must pass the check. */
const read = <A, D>(source: Source, s: Setting<A, D>): Config.Config<A | D> => {
  const name = nameOf(source, s)
  if (name === undefined) return Config.succeed(s.fallback)
  const secret = s.secret === true || (s.secret === "option" && source === "option")
  return Config.option(Config.string(name)).pipe(
    Config.mapOrFail((raw): Either.Either<A | D, ConfigError.ConfigError> => {
      if (Option.isNone(raw) || raw.value.trim() === "") return Either.right(s.fallback)
      return Either.mapLeft(s.check(raw.value), (reason) => invalid(name, secret ? undefined : raw.value, reason))
    })
  )
}

/** A rate of failed authentications per minute as the setting: 0 turns the limit off. */
const authFailureLimitOf = (perMinute: number): EngineSettings["http"]["authFailureLimit"] => (perMinute === 0 ? null : { perMinute })

/** `DECORUM_DB`, else `DATABASE_URL`, else `./decorum.db`: what the CLI's store commands read. */
const storeIn = (source: Source): Config.Config<EngineSettings["store"]> =>
  Config.all({ db: read(source, Settings.db), url: read(source, Settings.databaseUrl) }).pipe(
    Config.map(({ db, url }): EngineSettings["store"] =>
      db !== undefined
        ? { db: Redacted.make(db), source: source === "env" ? "DECORUM_DB" : "option" }
        : url !== undefined
        ? { db: Redacted.make(url), source: "DATABASE_URL" }
        : { db: Redacted.make("./decorum.db"), source: "default" }
    )
  )

const rateLimitIn = (source: Source) =>
  Config.all({ perMinute: read(source, Settings.ratePerMinute), burst: read(source, Settings.rateBurst) }).pipe(
    Config.mapOrFail(({ burst, perMinute }) =>
      perMinute === undefined
        ? burst !== undefined
          ? Either.left(invalid(nameOf(source, Settings.rateBurst)!, undefined, `is set but ${nameOf(source, Settings.ratePerMinute)} is not`))
          : Either.right(null)
        : Either.right({ perMinute, burst: burst ?? Math.max(1, perMinute) })
    )
  )

/** An LLM mode against api.openai.com needs a key; self-hosted servers usually do not. */
const checkKey = (source: Source, llm: LlmSettings): Either.Either<LlmSettings, ConfigError.ConfigError> =>
  llm.mode !== "local" && (llm.apiKey === undefined || Redacted.value(llm.apiKey).trim() === "") && llm.baseURL === OpenAiClient.DEFAULT_BASE_URL
    ? Either.left(invalid(
      nameOf(source, Settings.apiKey)!,
      undefined,
      `is required with ${nameOf(source, Settings.mode)}=${llm.mode} against api.openai.com (or set ${nameOf(source, Settings.baseURL)} to a server that needs no key)`
    ))
    : Either.right(llm)

const llmIn = (source: Source): Config.Config<LlmSettings> =>
  Config.all({
    mode: read(source, Settings.mode),
    apiKey: read(source, Settings.apiKey),
    baseURL: read(source, Settings.baseURL),
    model: read(source, Settings.llmModel),
    timeoutMs: read(source, Settings.llmTimeoutMs),
    cascadeBand: read(source, Settings.cascadeBand),
    llmAttributes: read(source, Settings.llmAttributes),
    structuredOutput: read(source, Settings.structuredOutput),
    temperature: read(source, Settings.temperature),
    maxRetries: read(source, Settings.maxRetries),
    maxConcurrency: read(source, Settings.maxConcurrency),
    cacheSize: read(source, Settings.cacheSize),
    breakerThreshold: read(source, Settings.breakerThreshold),
    breakerCooldownMs: read(source, Settings.breakerCooldownMs),
    baseBackoffMs: read(source, Settings.baseBackoffMs)
  }).pipe(
    // Extra headers are options only (an object, not a setting of the table): `make` adds them.
    Config.map((llm): LlmSettings => ({ ...llm, headers: undefined })),
    Config.mapOrFail((llm) => checkKey(source, llm))
  )

const modelIn = (source: Source): Config.Config<LocalEngine.ModelChoice> =>
  Config.all({ choice: read(source, Settings.localModel), directory: read(source, Settings.modelDir) }).pipe(
    Config.map(({ choice, directory }) => locateModel(choiceOf(choice), directory))
  )

const fetchIn = (source: Source): Config.Config<EngineSettings["fetch"]> =>
  Config.all({
    allowPrivate: read(source, Settings.fetchAllowPrivate),
    timeoutMs: read(source, Settings.fetchTimeoutMs),
    maxBytes: read(source, Settings.fetchMaxBytes)
  })

const observabilityIn = (source: Source): Config.Config<ObservabilitySettings> =>
  Config.all({
    metrics: read(source, Settings.metrics),
    metricsPort: read(source, Settings.metricsPort),
    metricsHost: read(source, Settings.metricsHost),
    accessLog: read(source, Settings.accessLog),
    endpoint: read(source, Settings.otlpEndpoint),
    serviceName: read(source, Settings.otlpServiceName),
    headers: read(source, Settings.otlpHeaders)
  }).pipe(
    Config.map(({ accessLog, endpoint, headers, metrics, metricsHost, metricsPort, serviceName }): ObservabilitySettings => ({
      metrics,
      metricsPort,
      metricsHost,
      accessLog,
      otlp: endpoint === null ? null : { endpoint, serviceName, headers }
    }))
  )

/** All the settings from one source. */
const settingsIn = (source: Source): Config.Config<EngineSettings> =>
  Config.all({
    store: storeIn(source),
    server: Config.all({
      port: read(source, Settings.port),
      host: read(source, Settings.host),
      drainTimeoutMs: read(source, Settings.drainTimeoutMs),
      drainGraceMs: read(source, Settings.drainGraceMs),
      fastPath: read(source, Settings.fastPath)
    }),
    http: Config.all({
      publicUrl: read(source, Settings.publicUrl),
      trustProxy: read(source, Settings.trustProxy),
      bodyLimitBytes: read(source, Settings.bodyLimitBytes),
      rateLimit: rateLimitIn(source),
      authFailureLimit: Config.map(read(source, Settings.authFailuresPerMinute), authFailureLimitOf)
    }),
    model: modelIn(source),
    judge: read(source, Settings.judge),
    judgeModel: read(source, Settings.judgeModel),
    judgeBudgetMs: read(source, Settings.judgeBudgetMs),
    fetch: fetchIn(source),
    llm: llmIn(source),
    observability: observabilityIn(source),
    adaptation: Config.all({ every: read(source, Settings.adaptEvery) })
  })

/** Every variable of the README's table (and the finer LLM knobs of docs/llm.md). */
const config: Config.Config<EngineSettings> = settingsIn("env")
const storeConfig = storeIn("env")
const fetchConfig = fetchIn("env")
const fromOptions = settingsIn("option")

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
  /** Requests per minute per account, and as many at once (`burst`, default `perMinute`). Default null: no limit. */
  readonly rateLimit?: Pick<RateLimitOptions, "perMinute" | "burst"> | null
  /** Failed authentications per minute per client address (as many at once); 0 turns it off. Default 30. */
  readonly authFailureLimitPerMinute?: number
  /** The local model set: `trained` (the shipped models), `lexicon`, or `{ directory }` of retrained models. */
  readonly model?: LocalEngine.ModelChoice
  /** The neural judge behind the linear attribute models: `linear`, `cascade` (default) or `neural`. See `docs/models.md`. */
  readonly judge?: Judge.Mode
  /** The mapping file of your own ONNX classifier for the judge. See `docs/bring-your-own-model.md`. */
  readonly judgeModel?: string
  /** The judge's latency budget per comment (ms), beyond which it is answered linear; 0: none. Default 25. See `docs/judge.md`. */
  readonly judgeBudgetMs?: number
  /** URL fetching for article contexts. See `docs/relevance.md`. */
  readonly fetch?: Pick<LocalEngine.FetchOptions, "allowPrivate" | "timeoutMs" | "maxBytes">
  /** LLM modes (`local` by default). See `docs/llm.md`. */
  readonly llm?: LlmOptions
  /** Metrics, access log, OTLP export (all off by default). */
  readonly observability?: Partial<ObservabilitySettings>
  /** Refit an account's adapters after this many new corrections (the Node server only). Default null: never. */
  readonly adaptEvery?: number | null
}

/** An option's value at a dotted path (`"fetch.timeoutMs"`). */
const optionAt = (options: EngineOptions, path: string): unknown =>
  path.split(".").reduce<unknown>((o, key) => (o !== null && typeof o === "object" ? (o as Record<string, unknown>)[key] : undefined), options)

/** An option's value as the raw text its setting's check reads, as a variable's would be. */
const encode = (s: Setting<unknown, unknown>, value: unknown): string =>
  s.encode !== undefined
    ? s.encode(value)
    : Redacted.isRedacted(value)
    ? String(Redacted.value(value))
    : Array.isArray(value)
    ? value.join(",")
    : String(value)

/** The options as a `ConfigProvider` keyed by option path: read by the same settings as the environment. */
const providerOf = (options: EngineOptions): ConfigProvider.ConfigProvider => {
  const values = new Map<string, string>()
  for (const s of Object.values(Settings) as ReadonlyArray<Setting<unknown, unknown>>) {
    const value = s.option === undefined ? undefined : optionAt(options, s.option)
    if (value !== undefined && value !== null) values.set(s.option!, encode(s, value))
  }
  return ConfigProvider.fromMap(values)
}

/** The settings from options, checked as the environment's variables are (the option's path names it). */
const make = (options: EngineOptions = {}): Effect.Effect<EngineSettings, ConfigError.ConfigError> =>
  Effect.gen(function*() {
    // The types say what each option holds; a caller without them (plain JavaScript) gets the same
    // named error for a value of the wrong kind as for a wrong value.
    if (options.db !== undefined && typeof options.db !== "string" && !Redacted.isRedacted(options.db)) {
      return yield* Effect.fail(invalid("db", String(options.db), "must be a SQLite file path, a postgres:// URL or \"memory\""))
    }
    // Blank is "unset" to a variable; a blank `db` option is a mistake, as before.
    if (options.db !== undefined && (Redacted.isRedacted(options.db) ? Redacted.value(options.db) : options.db).trim() === "") {
      return yield* Effect.fail(invalid("db", undefined, "must not be empty"))
    }
    const model = options.model ?? "trained"
    const directory = typeof model === "object" && model !== null ? (model as { readonly directory?: unknown }).directory : undefined
    if (model !== "trained" && model !== "lexicon" && (typeof directory !== "string" || directory.trim() === "")) {
      return yield* Effect.fail(invalid("model", typeof model === "object" ? JSON.stringify(model) : String(model), "must be \"trained\", \"lexicon\" or { directory: \"/path/to/model/files\" }"))
    }
    const settings = yield* Effect.withConfigProvider(fromOptions, providerOf(options))
    // Extra headers for the provider: an object, options only.
    return options.llm?.headers === undefined ? settings : { ...settings, llm: { ...settings.llm, headers: options.llm.headers } }
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
  /** Every setting, written once: its variable, its option, its check and its default. */
  static readonly settings = Settings
  /** Every environment variable the engine reads (the README's table lists exactly these). */
  static readonly variables = variables
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
