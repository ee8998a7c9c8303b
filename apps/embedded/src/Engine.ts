/**
 * Assembles a complete engine from options: the local evaluators (always there: the default and
 * the safety net), the LLM modes on top when configured, a store, and `EngineInfo`. Every host
 * (the Node server, Lambda, the in-process API) builds its engine here, so they all serve the same
 * evaluations with the same configuration options.
 */
import { ENGINE_VERSION, EngineInfo, MemoryStores } from "@decorum/core"
import { AttributeModel, LocalEngine } from "@decorum/local"
import { OpenAiEngine } from "@decorum/openai"
import { StoreLayer } from "@decorum/store-sql"
import { Config, Effect, Layer } from "effect"

export interface EngineOptions {
  /** A SQLite file path, a `postgres://` URL, or `"memory"` (nothing persisted). Default `./decorum.db`. */
  readonly db?: string
  /** LLM modes (`local` by default). See `docs/llm.md`. */
  readonly llm?: OpenAiEngine.OpenAiEngineOptions
  /** URL fetching for article contexts. See `docs/relevance.md`. */
  readonly fetch?: LocalEngine.FetchOptions
  /** The local model set: `trained` (the shipped models), `lexicon`, or `{ directory }` of retrained models. */
  readonly model?: LocalEngine.ModelChoice
}

const storeLayer = (db: string | undefined) => (db === "memory" ? MemoryStores.layer : StoreLayer.fromUrl(db ?? "./decorum.db"))

const engineInfo = (llm: OpenAiEngine.OpenAiEngineOptions) =>
  Layer.effect(
    EngineInfo,
    Effect.map(AttributeModel, (model) => ({ engineVersion: ENGINE_VERSION, modelVersion: OpenAiEngine.modelSet(llm, model.version) }))
  )

/** Everything the HTTP contract and the in-process API need, from explicit options. */
export const layer = (options: EngineOptions = {}) => {
  const llm = options.llm ?? {}
  const local = LocalEngine.layer({ ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.model ? { model: options.model } : {}) })
  const providers = OpenAiEngine.layer(llm)
  return Layer.mergeAll(providers, engineInfo(llm)).pipe(
    Layer.provideMerge(local),
    Layer.provideMerge(storeLayer(options.db))
  )
}

/**
 * `DECORUM_MODEL_DIR`: where the shipped (`trained`) model files are, when they are not beside the
 * package's code (a bundle: the Lambda bundle carries them in `models/` next to `handler.mjs`).
 * Unset: `packages/local/models`. A retrained set is chosen with `DECORUM_LOCAL_MODEL=<dir>` instead.
 */
export const modelDirectoryConfig: Config.Config<string | undefined> = Config.option(Config.string("DECORUM_MODEL_DIR")).pipe(
  Config.map((dir) => (dir._tag === "Some" && dir.value.trim() !== "" ? dir.value.trim() : undefined))
)

/** `trained` read from the given directory, when one is set; any other choice unchanged. */
export const locateModel = (model: LocalEngine.ModelChoice, directory: string | undefined): LocalEngine.ModelChoice =>
  model === "trained" && directory !== undefined ? { directory } : model

/** The same engine, with the LLM, fetch and model options read from the environment (`README.md`). */
export const layerFromEnv = (options: { readonly db?: string } = {}) =>
  Layer.unwrapEffect(
    Effect.map(
      Config.all({ llm: OpenAiEngine.config, fetch: LocalEngine.fetchConfig, model: LocalEngine.modelConfig, modelDirectory: modelDirectoryConfig }),
      ({ fetch, llm, model, modelDirectory }) => layer({ ...options, llm, fetch, model: locateModel(model, modelDirectory) })
    )
  )

/** Only what creating an article context needs (the topic profiler and URL fetcher), for the CLI. */
export const topicLayer = () => LocalEngine.topicLayer()
