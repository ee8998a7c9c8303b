/**
 * The composition root: which store, which engine, which models, from the one `EngineConfig`.
 * The local evaluators are always there (the default, and the safety net of the LLM modes); the
 * LLM modes go on top when configured; a store; `EngineInfo`; the per-account rate limiter when
 * one is configured. The Node server, Lambda and the in-process host all build their engine here.
 *
 * - `Engine.layer`: the engine, from the `EngineConfig` service.
 * - `Engine.layerConfig`: the engine and its `EngineConfig`, read from the environment.
 * - `Engine.layerOptions(options)`: the engine and its `EngineConfig`, from options.
 */
import {
  type AccountStore,
  type ArticleContextStore,
  type ArticleFetcher,
  Adaptation,
  type AttributeScorer,
  type CommentScorer,
  type DogWhistleChecker,
  ENGINE_VERSION,
  EngineInfo,
  EngineModes,
  MemoryStores,
  RateLimiter,
  AuthFailureLimiter,
  type LlmDetector,
  type RelevanceChecker,
  type SpamChecker,
  type StoreHealth,
  type SuggestionStore,
  type TopicProfiler
} from "@decorum/core"
import type { StoreFailure } from "@decorum/domain"
import { AttributeModel, Judge, LocalAttributeScorer, LocalEngine } from "@decorum/local"
import { OpenAiClient, OpenAiEvaluation } from "@decorum/openai"
import { StoreLayer } from "@decorum/store-sql"
import { type ConfigError, Effect, Layer, Redacted } from "effect"
import { EngineConfig, type EngineOptions, type EngineSettings } from "./EngineConfig.js"

const { openAiOptions } = EngineConfig

/** Everything an engine provides. */
export type EngineServices =
  | CommentScorer
  | SpamChecker
  | RelevanceChecker
  | DogWhistleChecker
  | LlmDetector
  | AttributeScorer
  | TopicProfiler
  | ArticleFetcher
  | AttributeModel
  | AccountStore
  | ArticleContextStore
  | SuggestionStore
  | StoreHealth
  | EngineInfo
  | Adaptation.AdapterStore
  | Adaptation.SiteAdapters

/** The store a spec names: `memory`, a `postgres://` URL, or a SQLite file path. */
export const layerStore = (db: Redacted.Redacted<string>) => (Redacted.value(db) === "memory" ? MemoryStores.layer : StoreLayer.layer(db))

/** The operator's classifier for the judge, when `DECORUM_JUDGE_MODEL` names one. */
const judgeModelOf = (settings: Pick<EngineSettings, "judgeModel">) => (settings.judgeModel === undefined ? {} : { judgeModel: settings.judgeModel })

/** The judge's settings as the local engine takes them. */
const judgeOf = (settings: EngineSettings) => ({ judge: settings.judge, judgeBudgetMs: settings.judgeBudgetMs, ...judgeModelOf(settings) })

const engineInfo = (settings: EngineSettings) =>
  Layer.effect(
    EngineInfo,
    Effect.map(Effect.all([AttributeModel, Effect.serviceOption(Judge.Judge)]), ([model, judge]) => ({
      engineVersion: ENGINE_VERSION,
      modelVersion: EngineModes.modelSet(settings.llm.mode, model.version, OpenAiEvaluation.modelName(settings.llm)),
      ...(judge._tag === "Some" ? { judge: judge.value.status } : {})
    }))
  )

// Local mode is the quiet default (the server's banner names the model set); LLM modes log their
// configuration once, with the key redacted, since that is what an operator checks first.
const logConfiguration = ({ llm }: EngineSettings) =>
  (llm.mode === "local" ? Effect.logDebug : Effect.logInfo)("Decorum evaluation engine", {
    mode: llm.mode,
    ...(llm.mode === "local"
      ? {}
      : {
        model: llm.model,
        baseURL: OpenAiClient.redactUrl(llm.baseURL),
        apiKey: llm.apiKey ? "<redacted>" : "(none)",
        timeoutMs: llm.timeoutMs,
        cascadeBand: llm.mode === "cascade" ? llm.cascadeBand.join(",") : undefined,
        llmAttributes: llm.llmAttributes
      })
  })

/** How often a server checks the store's adapter version (a single-row query). */
export const ADAPTER_POLL = "2 seconds"

/** The engine for given settings. */
export const fromSettings = (
  settings: EngineSettings
): Layer.Layer<EngineServices | RateLimiter | AuthFailureLimiter, ConfigError.ConfigError | StoreFailure> => {
  const local = LocalEngine.layer({ fetch: settings.fetch, model: settings.model, ...judgeOf(settings) })
  const { llm } = settings
  // `local` builds no LLM client at all; `llm` and `cascade` combine the local ports with the LLM's.
  const providers = llm.mode === "local"
    ? Layer.empty
    : EngineModes.layer({ mode: llm.mode, cascadeBand: llm.cascadeBand, llmAttributes: llm.llmAttributes }).pipe(
      Layer.provide(OpenAiEvaluation.layer(openAiOptions(llm)))
    )
  const limiter = settings.http.rateLimit === null ? RateLimiter.unlimited : RateLimiter.memory(settings.http.rateLimit)
  const authFailures = settings.http.authFailureLimit === null
    ? AuthFailureLimiter.unlimited
    : AuthFailureLimiter.memory(settings.http.authFailureLimit)
  // Every account's adopted adapters, reloaded within `ADAPTER_POLL` of a change in the store
  // (another instance's `decorum adapt` included), off the request path.
  const adapters = Adaptation.layer({ poll: ADAPTER_POLL })
  return Layer.mergeAll(providers, engineInfo(settings), limiter, authFailures, adapters, Layer.effectDiscard(logConfiguration(settings))).pipe(
    Layer.provideMerge(local),
    Layer.provideMerge(layerStore(settings.store.db))
  )
}

/**
 * What `Analyze.analyze` reads of the engine for given settings, on no database (for a host that
 * only analyzes and stores nothing: the archive scorer). The local engine loads only the attribute
 * models, the language identifier and the per-language sets (a third of the model bytes, so a
 * worker thread starts sooner); an LLM mode is the whole engine on a memory store.
 */
export const analyzeLayer = (
  settings: EngineSettings
): Layer.Layer<AttributeScorer | EngineInfo | AttributeModel, ConfigError.ConfigError | StoreFailure> =>
  settings.llm.mode === "local"
    ? engineInfo(settings).pipe(Layer.provideMerge(LocalEngine.analyzeLayer({ model: settings.model, ...judgeOf(settings) })))
    : fromSettings({ ...settings, store: { ...settings.store, db: Redacted.make("memory") } })

/** The engine, from the `EngineConfig` service. */
export const layer: Layer.Layer<EngineServices | RateLimiter | AuthFailureLimiter, ConfigError.ConfigError | StoreFailure, EngineConfig> = Layer.unwrapEffect(
  Effect.map(EngineConfig, fromSettings)
)

/** The engine and its `EngineConfig`, read from the environment (every variable of the README). */
export const layerConfig: Layer.Layer<EngineServices | RateLimiter | AuthFailureLimiter | EngineConfig, ConfigError.ConfigError | StoreFailure> = layer.pipe(
  Layer.provideMerge(EngineConfig.layerConfig())
)

/** The engine and its `EngineConfig`, from options (checked as the environment's variables are). */
export const layerOptions = (
  options: EngineOptions = {}
): Layer.Layer<EngineServices | RateLimiter | AuthFailureLimiter | EngineConfig, ConfigError.ConfigError | StoreFailure> =>
  layer.pipe(Layer.provideMerge(EngineConfig.layer(options)))

/** Only what creating an article context needs (the topic profiler and URL fetcher), for the CLI. */
export const layerTopic = (settings: Pick<EngineSettings, "fetch">) => LocalEngine.layerTopic({ fetch: settings.fetch })

/**
 * The background refitter of `DECORUM_ADAPT_EVERY` (for a long-running host: the Node server), on
 * an engine's stores and its local model set: like `decorum adapt`, it scores the corrected texts
 * with the shipped models whatever `DECORUM_ENGINE` says.
 */
export const layerRefit = (
  every: number,
  /** Where fits compute (`RefitWorker.layer`: a worker thread); without one, on the serving fiber, cooperatively. */
  runner: Layer.Layer<Adaptation.FitRunner> = Layer.empty as unknown as Layer.Layer<Adaptation.FitRunner>
): Layer.Layer<Adaptation.Refits, never, AttributeModel | AccountStore | SuggestionStore | Adaptation.AdapterStore> =>
  Adaptation.layerRefits({ every }).pipe(Layer.provide(Layer.merge(LocalAttributeScorer, runner)))

/**
 * What `decorum adapt` needs besides the store: the shipped models, to score the corrected texts,
 * linear (adapters are fitted on the linear models' scores, whatever `DECORUM_JUDGE` says), and,
 * unless `DECORUM_JUDGE=linear` (servers that never load the encoder), the shipped encoder when it
 * starts (`Adaptation.Embedder`: an encoder adapter is fitted beside the hashed one).
 */
export const layerAdapt = (settings: Pick<EngineSettings, "model"> & Partial<Pick<EngineSettings, "judge">>) => {
  const linear = LocalEngine.layer({ model: settings.model, judge: "linear" })
  return settings.judge === "linear" ? linear : Layer.merge(linear, LocalEngine.layerEmbedder({ model: settings.model }))
}
