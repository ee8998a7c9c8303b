/**
 * The LLM's side of the evaluations on the openai SDK: the core's `LlmEvaluation` port, for the
 * core's engine modes (`EngineModes.layer`: `llm` and `cascade`) to combine with the local ports.
 * Any OpenAI-compatible server (OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp).
 *
 * Wiring: `OpenAiEvaluation.layer(options)` (the SDK client), or `layerWithClient(options)` on any
 * `LlmClient` (other providers, test doubles).
 */
import { LlmEvaluation } from "@decorum/core"
import { ConfigError, Effect, Either, Layer, Redacted } from "effect"
import type { LlmClient } from "./LlmClient.js"
import * as LlmEvaluators from "./LlmEvaluators.js"
import * as OpenAiClient from "./OpenAiClient.js"

export interface OpenAiOptions {
  /** Required for OpenAI and Azure OpenAI; self-hosted servers usually need none. */
  readonly apiKey?: Redacted.Redacted<string> | string | undefined
  /** Default `https://api.openai.com/v1`. */
  readonly baseURL?: string | undefined
  /** Default `gpt-4o-mini`. Azure OpenAI: the deployment name. */
  readonly model?: string | undefined
  /** Longest an evaluation waits for the LLM (retries included) before the local model answers. Default 10000. */
  readonly timeoutMs?: number | undefined
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
  readonly apiKey: Redacted.Redacted<string> | undefined
  readonly baseURL: string
  readonly model: string
  readonly structuredOutput: OpenAiClient.StructuredOutput
  readonly temperature: number | undefined
  readonly headers: Readonly<Record<string, string>> | undefined
  readonly policy: LlmEvaluators.LlmPolicy
}

export const DEFAULT_MODEL = "gpt-4o-mini"

const positive = (name: string, value: number | undefined, fallback: number, min = 0): Either.Either<number, string> =>
  value === undefined
    ? Either.right(fallback)
    : Number.isFinite(value) && value >= min
    ? Either.right(value)
    : Either.left(`${name} must be a number >= ${min}, got ${value}`)

/** Fills in defaults and checks the options; a `Left` says what is wrong. */
export const resolveOptions = (
  options: OpenAiOptions,
  /** false when the caller brings its own `LlmClient`. */
  requireKey = true
): Either.Either<ResolvedOptions, string> =>
  Either.gen(function*() {
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
    if (requireKey && keyValue === "" && baseURL === OpenAiClient.DEFAULT_BASE_URL) {
      return yield* Either.left(`OPENAI_API_KEY is required against api.openai.com (set OPENAI_BASE_URL for a server that needs no key)`)
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
      apiKey: keyValue === "" ? undefined : apiKey,
      baseURL,
      model: options.model && options.model.trim() !== "" ? options.model.trim() : DEFAULT_MODEL,
      structuredOutput: options.structuredOutput ?? "auto",
      temperature: options.temperature,
      headers: options.headers,
      policy
    }
  })

/** The provenance name of this configuration's model, as `EngineInfo.modelVersion` shows it. */
export const modelName = (options: Pick<OpenAiOptions, "model">): string => `openai:${options.model?.trim() || DEFAULT_MODEL}`

const port = (evaluators: LlmEvaluators.LlmEvaluatorsService) =>
  LlmEvaluation.of({
    scoreComment: evaluators.scoreComment,
    checkSpam: evaluators.checkSpam,
    checkRelevance: evaluators.checkRelevance,
    checkDogwhistle: evaluators.checkDogwhistle,
    detectLlm: evaluators.detectLlm,
    analyzeAttributes: evaluators.analyzeAttributes
  })

/** The LLM port on a given `LlmClient` (other providers, test doubles). */
export const layerWithClient = (options: OpenAiOptions): Layer.Layer<LlmEvaluation, ConfigError.ConfigError, LlmClient> =>
  Layer.effect(
    LlmEvaluation,
    Effect.gen(function*() {
      const resolved = yield* Either.mapLeft(resolveOptions(options, false), (m) => ConfigError.InvalidData([], m))
      return port(yield* LlmEvaluators.make(resolved.policy))
    })
  )

/** The LLM port on the openai SDK. */
export const layer = (options: OpenAiOptions): Layer.Layer<LlmEvaluation, ConfigError.ConfigError> =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const resolved = yield* Either.mapLeft(resolveOptions(options), (m) => ConfigError.InvalidData([], m))
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
      return Layer.effect(LlmEvaluation, Effect.map(LlmEvaluators.make(resolved.policy), port)).pipe(Layer.provide(client))
    })
  )
