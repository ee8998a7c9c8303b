/**
 * Composition: the four evaluation ports of the core, configured per engine mode.
 *
 * The layer requires the local `CommentScorer | SpamChecker | RelevanceChecker | AttributeScorer`
 * and provides the same four tags:
 * - `local` (the default): the local services, unchanged. No LLM client is built.
 * - `llm`: every evaluation asks the LLM; when it fails (after its retries, on timeout, malformed
 *   twice, or with the circuit open) the local model answers and `provenance.fallbackFrom` names
 *   the LLM prompt that failed.
 * - `cascade`: the local model answers first; the LLM is asked only when the local verdict falls in
 *   the uncertainty band, or when the caller asked for `detail: "full"`. If the LLM then fails, the
 *   local answer stands, marked with `fallbackFrom`.
 * Attribute analysis (Perspective) stays local unless `llmAttributes` is set.
 *
 * Wiring: `OpenAiEngine.layer(options).pipe(Layer.provide(localLayer))`, or `layerConfig` to read
 * the environment.
 */
import {
  type AttributeAnalysis,
  type CommentScore,
  type Evaluated,
  ProviderFailure,
  type RelevanceCheck,
  type SpamCheck
} from "@decorum/domain"
import { AttributeScorer, CommentScorer, RelevanceChecker, SpamChecker } from "@decorum/core"
import { Config, ConfigError, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import type { LlmClient } from "./LlmClient.js"
import * as LlmEvaluators from "./LlmEvaluators.js"
import * as OpenAiClient from "./OpenAiClient.js"

export type EngineMode = "local" | "llm" | "cascade"

export type Ports = CommentScorer | SpamChecker | RelevanceChecker | AttributeScorer

export interface OpenAiEngineOptions {
  /** Default `local`. */
  readonly mode?: EngineMode | undefined
  /** Required for OpenAI and Azure OpenAI; self-hosted servers usually need none. */
  readonly apiKey?: Redacted.Redacted<string> | string | undefined
  /** Default `https://api.openai.com/v1`. */
  readonly baseURL?: string | undefined
  /** Default `gpt-4o-mini`. Azure OpenAI: the deployment name. */
  readonly model?: string | undefined
  /** Longest an evaluation waits for the LLM (retries included) before the local model answers. Default 10000. */
  readonly timeoutMs?: number | undefined
  /**
   * Cascade: the LLM is asked when the local probability of the verdict's class (spam, on-topic,
   * banned topic, toxicity, attribute) falls in `[low, high]`. Default `[0.25, 0.75]`.
   */
  readonly cascadeBand?: readonly [number, number] | undefined
  /** Also send Perspective attribute analysis to the LLM (in `llm` and `cascade` modes). Default false. */
  readonly llmAttributes?: boolean | undefined
  /** Default `auto`: JSON schema, switching to JSON mode if the provider rejects it. */
  readonly structuredOutput?: OpenAiClient.StructuredOutput | undefined
  /** Sent only when set. */
  readonly temperature?: number | undefined
  /** Extra headers for every request to the provider. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Default 2. */
  readonly maxRetries?: number | undefined
  /** Requests in flight to the provider at once. Default 16. */
  readonly maxConcurrency?: number | undefined
  /** Validated answers kept in memory (LRU). Default 1000; 0 disables the cache. */
  readonly cacheSize?: number | undefined
  /** Consecutive failures that open the circuit. Default 5. */
  readonly breakerThreshold?: number | undefined
  /** How long the circuit stays open. Default 30000. */
  readonly breakerCooldownMs?: number | undefined
  /** First retry backoff (doubled, jittered, capped at 2 s). Default 250. */
  readonly baseBackoffMs?: number | undefined
}

export interface ResolvedOptions {
  readonly mode: EngineMode
  readonly apiKey: Redacted.Redacted<string> | undefined
  readonly baseURL: string
  readonly model: string
  readonly cascadeBand: readonly [number, number]
  readonly llmAttributes: boolean
  readonly structuredOutput: OpenAiClient.StructuredOutput
  readonly temperature: number | undefined
  readonly headers: Readonly<Record<string, string>> | undefined
  readonly policy: LlmEvaluators.LlmPolicy
}

export const DEFAULT_MODEL = "gpt-4o-mini"
export const DEFAULT_BAND: readonly [number, number] = [0.25, 0.75]

const positive = (name: string, value: number | undefined, fallback: number, min = 0): Either.Either<number, string> =>
  value === undefined
    ? Either.right(fallback)
    : Number.isFinite(value) && value >= min
    ? Either.right(value)
    : Either.left(`${name} must be a number >= ${min}, got ${value}`)

/** Fills in defaults and checks the options; a `Left` says what is wrong. */
export const resolveOptions = (
  options: OpenAiEngineOptions,
  /** false when the caller brings its own `LlmClient`. */
  requireKey = true
): Either.Either<ResolvedOptions, string> =>
  Either.gen(function*() {
    const mode = options.mode ?? "local"
    const baseURL = options.baseURL && options.baseURL.trim() !== "" ? options.baseURL.trim() : OpenAiClient.DEFAULT_BASE_URL
    try {
      new URL(baseURL)
    } catch {
      return yield* Either.left(`OPENAI_BASE_URL is not a URL: ${OpenAiClient.redactUrl(baseURL)}`)
    }
    const apiKey = options.apiKey === undefined
      ? undefined
      : Redacted.isRedacted(options.apiKey)
      ? options.apiKey
      : Redacted.make(options.apiKey)
    const keyValue = apiKey ? Redacted.value(apiKey).trim() : ""
    if (requireKey && mode !== "local" && keyValue === "" && baseURL === OpenAiClient.DEFAULT_BASE_URL) {
      return yield* Either.left(`OPENAI_API_KEY is required for ${mode} mode against api.openai.com (set OPENAI_BASE_URL for a server that needs no key)`)
    }
    const band = options.cascadeBand ?? DEFAULT_BAND
    if (!(band[0] >= 0 && band[1] <= 1 && band[0] <= band[1])) {
      return yield* Either.left(`the cascade band must be two numbers 0 <= low <= high <= 1, got ${band.join(",")}`)
    }
    const d = LlmEvaluators.defaultPolicy
    const policy: LlmEvaluators.LlmPolicy = {
      timeoutMs: yield* positive("DECORUM_LLM_TIMEOUT_MS", options.timeoutMs, d.timeoutMs, 1),
      maxRetries: yield* positive("maxRetries", options.maxRetries, d.maxRetries),
      baseBackoffMs: yield* positive("baseBackoffMs", options.baseBackoffMs, d.baseBackoffMs),
      maxBackoffMs: d.maxBackoffMs,
      maxConcurrency: yield* positive("maxConcurrency", options.maxConcurrency, d.maxConcurrency, 1),
      breakerThreshold: yield* positive("breakerThreshold", options.breakerThreshold, d.breakerThreshold, 1),
      breakerCooldownMs: yield* positive("breakerCooldownMs", options.breakerCooldownMs, d.breakerCooldownMs),
      cacheSize: yield* positive("cacheSize", options.cacheSize, d.cacheSize)
    }
    return {
      mode,
      apiKey: keyValue === "" ? undefined : apiKey,
      baseURL,
      model: options.model && options.model.trim() !== "" ? options.model.trim() : DEFAULT_MODEL,
      cascadeBand: [band[0], band[1]] as const,
      llmAttributes: options.llmAttributes ?? false,
      structuredOutput: options.structuredOutput ?? "auto",
      temperature: options.temperature,
      headers: options.headers,
      policy
    }
  })

/** What goes into `EngineInfo.modelVersion` for this configuration. */
export const modelSet = (options: OpenAiEngineOptions, localVersion: string): string => {
  const mode = options.mode ?? "local"
  const llm = `openai:${options.model ?? DEFAULT_MODEL}`
  return mode === "local" ? localVersion : mode === "llm" ? llm : `${localVersion}+${llm}`
}

// ---------------------------------------------------------------- fallback and cascade

const fellBack = <A>(result: Evaluated<A>, from: string): Evaluated<A> => ({
  value: result.value,
  provenance: { model: result.provenance.model, fallbackFrom: from }
})

/** The LLM, or the local model when the LLM fails; both failing is the local model's failure. */
export const withFallback = <A>(
  llm: Effect.Effect<Evaluated<A>, ProviderFailure>,
  local: Effect.Effect<Evaluated<A>, ProviderFailure>
): Effect.Effect<Evaluated<A>, ProviderFailure> =>
  Effect.catchAll(llm, (failure) =>
    local.pipe(
      Effect.map((result) => fellBack(result, failure.provider)),
      Effect.mapError((localFailure) =>
        new ProviderFailure({
          provider: localFailure.provider,
          evaluation: localFailure.evaluation,
          message: `${failure.message} The local fallback failed too: ${localFailure.message}`,
          transient: localFailure.transient || failure.transient
        })
      )
    ))

/** Local first; the LLM only for uncertain verdicts (or `full` detail), the local answer standing if it fails. */
export const cascade = <A>(
  local: Effect.Effect<Evaluated<A>, ProviderFailure>,
  llm: Effect.Effect<Evaluated<A>, ProviderFailure>,
  uncertain: (value: A) => boolean,
  full: boolean
): Effect.Effect<Evaluated<A>, ProviderFailure> =>
  full
    ? withFallback(llm, local)
    : Effect.matchEffect(local, {
      onFailure: (localFailure) =>
        llm.pipe(
          Effect.map((result) => fellBack(result, localFailure.provider)),
          Effect.mapError(() => localFailure)
        ),
      onSuccess: (result) =>
        uncertain(result.value)
          ? Effect.catchAll(llm, (failure) => Effect.succeed(fellBack(result, failure.provider)))
          : Effect.succeed(result)
    })

/** Probability of the class a verdict names, from a verdict and the confidence in it. */
const classProbability = (verdict: boolean, confidence: number) => (verdict ? confidence : 1 - confidence)

export const uncertainty = (band: readonly [number, number]) => {
  const inBand = (p: number) => p >= band[0] && p <= band[1]
  return {
    commentScore: (v: CommentScore) => inBand(v.toxicity_score),
    spam: (v: SpamCheck) => inBand(classProbability(v.is_spam, v.confidence)),
    relevance: (v: RelevanceCheck, bannedTopicsAsked: boolean) =>
      inBand(classProbability(v.on_topic.on_topic, v.on_topic.confidence)) ||
      (bannedTopicsAsked && inBand(classProbability(v.banned_topics.banned_topics.length > 0, v.banned_topics.confidence))),
    attributes: (v: AttributeAnalysis) => Object.values(v).some((r) => r !== undefined && inBand(r.summary))
  }
}

// ---------------------------------------------------------------- layers

const make = (resolved: ResolvedOptions) =>
  Effect.gen(function*() {
    const local = {
      scorer: yield* CommentScorer,
      spam: yield* SpamChecker,
      relevance: yield* RelevanceChecker,
      attributes: yield* AttributeScorer
    }
    const llm = yield* LlmEvaluators.make(resolved.policy)
    const u = uncertainty(resolved.cascadeBand)
    const pick = <A>(
      localEff: Effect.Effect<Evaluated<A>, ProviderFailure>,
      llmEff: Effect.Effect<Evaluated<A>, ProviderFailure>,
      uncertain: (a: A) => boolean,
      full: boolean
    ) => (resolved.mode === "llm" ? withFallback(llmEff, localEff) : cascade(localEff, llmEff, uncertain, full))

    return Context.empty().pipe(
      Context.add(
        CommentScorer,
        CommentScorer.of({
          score: (input) => pick(local.scorer.score(input), llm.scoreComment(input), u.commentScore, input.detail === "full")
        })
      ),
      Context.add(
        SpamChecker,
        SpamChecker.of({
          check: (input) => pick(local.spam.check(input), llm.checkSpam(input), u.spam, input.detail === "full")
        })
      ),
      Context.add(
        RelevanceChecker,
        RelevanceChecker.of({
          check: (input) =>
            pick(
              local.relevance.check(input),
              llm.checkRelevance(input),
              (v) => u.relevance(v, input.bannedTopics.length > 0),
              input.detail === "full"
            )
        })
      ),
      Context.add(
        AttributeScorer,
        resolved.llmAttributes
          ? AttributeScorer.of({
            analyze: (input) => pick(local.attributes.analyze(input), llm.analyzeAttributes(input), u.attributes, false)
          })
          : local.attributes
      )
    )
  })

// Local mode is the quiet default (the server's banner names the model set); LLM modes log their
// configuration once, with the key redacted, since that is what an operator checks first.
const logConfiguration = (resolved: ResolvedOptions) =>
  (resolved.mode === "local" ? Effect.logDebug : Effect.logInfo)("Decorum evaluation engine", {
    mode: resolved.mode,
    ...(resolved.mode === "local"
      ? {}
      : {
        model: resolved.model,
        baseURL: OpenAiClient.redactUrl(resolved.baseURL),
        apiKey: resolved.apiKey ? "<redacted>" : "(none)",
        timeoutMs: resolved.policy.timeoutMs,
        cascadeBand: resolved.mode === "cascade" ? resolved.cascadeBand.join(",") : undefined,
        llmAttributes: resolved.llmAttributes
      })
  })

/** The four ports for an engine mode, on a given `LlmClient` (for other providers and test doubles). */
export const layerWithClient = (options: OpenAiEngineOptions): Layer.Layer<Ports, ConfigError.ConfigError, Ports | LlmClient> =>
  Layer.effectContext(
    Effect.gen(function*() {
      const resolved = yield* Either.mapLeft(resolveOptions(options, false), (m) => ConfigError.InvalidData([], m))
      return resolved.mode === "local" ? yield* Effect.context<Ports>() : yield* make(resolved)
    })
  )

/** The four ports for an engine mode, with the LLM on the openai SDK. */
export const layer = (options: OpenAiEngineOptions): Layer.Layer<Ports, ConfigError.ConfigError, Ports> =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const resolved = yield* Either.mapLeft(resolveOptions(options), (m) => ConfigError.InvalidData([], m))
      yield* logConfiguration(resolved)
      if (resolved.mode === "local") return Layer.effectContext(Effect.context<Ports>())
      const client = OpenAiClient.layer({
        apiKey: resolved.apiKey,
        baseURL: resolved.baseURL,
        model: resolved.model,
        // The SDK's own deadline is a backstop; the evaluators' deadline fires first.
        timeoutMs: resolved.policy.timeoutMs + 1_000,
        structuredOutput: resolved.structuredOutput,
        temperature: resolved.temperature,
        headers: resolved.headers
      })
      return Layer.effectContext(make(resolved)).pipe(Layer.provide(client))
    })
  )

const optionalString = (name: string) =>
  Config.option(Config.string(name)).pipe(Config.map(Option.filter((s) => s.trim() !== "")), Config.map(Option.getOrUndefined))
const optionalNumber = (name: string) => Config.option(Config.number(name)).pipe(Config.map(Option.getOrUndefined))

export const parseBand = (raw: string): Either.Either<readonly [number, number], string> => {
  const parts = raw.split(/[,\s]+|(?<=\d)-(?=\d|\.)/).filter((p) => p !== "").map(Number)
  return parts.length === 2 && parts.every(Number.isFinite)
    ? Either.right([parts[0]!, parts[1]!] as const)
    : Either.left(`DECORUM_CASCADE_BAND must be two numbers such as 0.25,0.75, got ${raw}`)
}

/**
 * The options from the environment: `DECORUM_ENGINE`, `OPENAI_API_KEY` (redacted), `OPENAI_BASE_URL`,
 * `DECORUM_LLM_MODEL`, `DECORUM_LLM_TIMEOUT_MS`, `DECORUM_CASCADE_BAND`, and the finer knobs
 * `DECORUM_LLM_ATTRIBUTES`, `DECORUM_LLM_STRUCTURED_OUTPUT`, `DECORUM_LLM_TEMPERATURE`,
 * `DECORUM_LLM_MAX_RETRIES`, `DECORUM_LLM_MAX_CONCURRENCY`, `DECORUM_LLM_CACHE_SIZE`,
 * `DECORUM_LLM_BREAKER_THRESHOLD`, `DECORUM_LLM_BREAKER_COOLDOWN_MS`.
 */
export const config: Config.Config<OpenAiEngineOptions> = Config.all({
  mode: Config.literal("local", "llm", "cascade")("DECORUM_ENGINE").pipe(Config.withDefault("local" as const)),
  apiKey: Config.option(Config.redacted("OPENAI_API_KEY")).pipe(Config.map(Option.getOrUndefined)),
  baseURL: optionalString("OPENAI_BASE_URL"),
  model: optionalString("DECORUM_LLM_MODEL"),
  timeoutMs: optionalNumber("DECORUM_LLM_TIMEOUT_MS"),
  cascadeBand: Config.option(
    Config.string("DECORUM_CASCADE_BAND").pipe(
      Config.mapOrFail((raw) => Either.mapLeft(parseBand(raw), (m) => ConfigError.InvalidData(["DECORUM_CASCADE_BAND"], m)))
    )
  ).pipe(Config.map(Option.getOrUndefined)),
  llmAttributes: Config.option(Config.boolean("DECORUM_LLM_ATTRIBUTES")).pipe(Config.map(Option.getOrUndefined)),
  structuredOutput: Config.option(Config.literal("auto", "json_schema", "json_object")("DECORUM_LLM_STRUCTURED_OUTPUT")).pipe(
    Config.map(Option.getOrUndefined)
  ),
  temperature: optionalNumber("DECORUM_LLM_TEMPERATURE"),
  maxRetries: optionalNumber("DECORUM_LLM_MAX_RETRIES"),
  maxConcurrency: optionalNumber("DECORUM_LLM_MAX_CONCURRENCY"),
  cacheSize: optionalNumber("DECORUM_LLM_CACHE_SIZE"),
  breakerThreshold: optionalNumber("DECORUM_LLM_BREAKER_THRESHOLD"),
  breakerCooldownMs: optionalNumber("DECORUM_LLM_BREAKER_COOLDOWN_MS")
})

/** `layer` with the options read from the environment (`config`). */
export const layerConfig: Layer.Layer<Ports, ConfigError.ConfigError, Ports> = Layer.unwrapEffect(Effect.map(config, layer))
