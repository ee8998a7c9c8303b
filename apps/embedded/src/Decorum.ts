/**
 * The in-process host: the engine's evaluations as a service, with no HTTP in the path.
 *
 * - Effect users provide `Decorum.layer(options)` (or `DecorumLayer`) and call the `Decorum`
 *   service, whose methods are effects failing with the domain's tagged errors.
 * - Everyone else calls `createDecorum(options)` (see `Client.ts`), the same methods as promises.
 *
 * Requests are the wire shapes of the HTTP contract (`@decorum/domain`'s `Native` and
 * `Perspective` schemas), decoded with the same schemas and answered by the same core functions,
 * so an answer here is the body the server would send for the same input. Every evaluation comes
 * back as `Evaluated<A>`: the value and its provenance (the model that produced it).
 *
 * In-process callers have one implicit account (`options.account`, default `embedded@localhost`,
 * created when the layer is built): the article contexts and score suggestions made through an
 * instance belong to it, as they would belong to an API key's account on the server.
 */
import {
  AccountStore,
  Analyze,
  type ArticleContextSummary,
  ArticleContexts,
  EngineInfo,
  Evaluations,
  Megacall,
  Requests,
  Suggest
} from "@decorum/core"
import {
  type CommentScore,
  type DecorumError,
  type DogwhistleCheck,
  type Evaluated,
  type LlmDetection,
  Native,
  Perspective,
  type RelevanceCheck,
  type SpamCheck,
  type StoreFailure
} from "@decorum/domain"
import { Engine, type EngineConfig, type EngineOptions, type EngineServices } from "@decorum/engine"
import type { LocalEngine } from "@decorum/local"
import { ConfigError, Context, Effect, Layer } from "effect"

export type { EngineServices }

export interface DecorumOptions extends EngineOptions {
  /**
   * Where accounts, article contexts and score suggestions live: a SQLite file path, a
   * `postgres://` URL, or `"memory"`. Default here: `"memory"` (nothing persisted; the server's
   * default is the file `./decorum.db`).
   */
  readonly db?: string
  /** The account everything this instance creates belongs to. Default `embedded@localhost`. */
  readonly account?: string
}

export const DEFAULT_ACCOUNT = "embedded@localhost"

/** Per-call options: `detail: "full"` makes the cascade engine consult the LLM (the server's `X-Decorum-Detail`). */
export type EvaluationOptions = Evaluations.EvaluationOptions

/** The combined evaluation: one `Evaluated` per section that answered, and the sections that failed. */
export type MegacallResult = Megacall.MegacallResult

/** Request shapes: the HTTP contract's bodies (`Native` snake_case; `Perspective` lowerCamelCase, snake_case accepted). */
export type CommentScoreRequest = Native.CommentScoreRequest
export type SpamCheckRequest = Native.SpamCheckRequest
export type RelevanceRequest = Native.RelevanceRequest
/** `/v0.2/dogwhistle`: the comment, optionally its article context, the site's sensitive topics and coded-term examples, its thread. */
export type DogwhistleRequest = Native.DogwhistleRequest
/** `/v0.2/llmdetect`: the comment. */
export type LlmDetectRequest = Native.LlmDetectRequest
/** A megacall request (any of the six `run_*` flags); unknown fields are ignored. */
export type MegacallRequest = Native.MegacallRequest & { readonly [flag: string]: unknown }
export type InitTopicRequest = Native.InitTopicRequest
export type AnalyzeRequest = Perspective.AnalyzeCommentRequest
export type SuggestScoreRequest = Perspective.SuggestCommentScoreRequest

export interface AnalyzeOptions {
  /**
   * Which Perspective family's rules apply: `compat` (default: `TOXICITY` when no attribute is
   * requested, spans only with `spanAnnotations`) or `google` (`comments:analyze`: attributes
   * required, one whole-text span per attribute).
   */
  readonly family?: Analyze.Family
}

export interface DecorumService {
  /** The engine version and the configured model set (the server's `X-Engine-Version` / `X-Model-Version`). */
  readonly info: { readonly engineVersion: string; readonly modelVersion: string }
  readonly scoreComment: (request: CommentScoreRequest, options?: EvaluationOptions) => Effect.Effect<Evaluated<CommentScore>, DecorumError>
  readonly checkSpam: (request: SpamCheckRequest, options?: EvaluationOptions) => Effect.Effect<Evaluated<SpamCheck>, DecorumError>
  readonly checkRelevance: (request: RelevanceRequest, options?: EvaluationOptions) => Effect.Effect<Evaluated<RelevanceCheck>, DecorumError>
  /** Coded language (dog whistles): terms quoted from the comment, categories, subtlety, harm; `details` null when none. */
  readonly checkDogwhistle: (request: DogwhistleRequest, options?: EvaluationOptions) => Effect.Effect<Evaluated<DogwhistleCheck>, DecorumError>
  /** Machine-written text: likelihood, confidence (low for short comments), signals quoting the comment. */
  readonly detectLlm: (request: LlmDetectRequest, options?: EvaluationOptions) => Effect.Effect<Evaluated<LlmDetection>, DecorumError>
  readonly megacall: (request: MegacallRequest, options?: EvaluationOptions) => Effect.Effect<MegacallResult, DecorumError>
  /** Perspective attribute analysis (`comments:analyze`). */
  readonly analyze: (request: AnalyzeRequest, options?: AnalyzeOptions) => Effect.Effect<Evaluated<Perspective.AnalyzeCommentResponse>, DecorumError>
  /** Stores a moderator's correction durably (`comments:suggestscore`). */
  readonly suggestScore: (request: SuggestScoreRequest) => Effect.Effect<Perspective.SuggestCommentScoreResponse, DecorumError>
  /** Creates an article context from `text` or `url` (`/v0.2/inittopic`); answers the stored context. */
  readonly createArticleContext: (request: InitTopicRequest) => Effect.Effect<Native.ArticleContextView, DecorumError>
  readonly getArticleContext: (id: string) => Effect.Effect<Native.ArticleContextView, DecorumError>
  readonly deleteArticleContext: (id: string) => Effect.Effect<void, DecorumError>
  readonly listArticleContexts: () => Effect.Effect<ReadonlyArray<ArticleContextSummary>, DecorumError>
}

/** The in-process API as an Effect service. */
export class Decorum extends Context.Tag("@decorum/embedded/Decorum")<Decorum, DecorumService>() {}

const decode = Requests.decode

/** An article context as the HTTP contract shows it (`GET /v0.2/article-contexts/{id}`). */
export const articleView = ArticleContexts.view

/** The `Decorum` service over an engine (anything `Engine.layer` provides). */
export const make = (email: string = DEFAULT_ACCOUNT): Effect.Effect<DecorumService, StoreFailure, EngineServices> =>
  Effect.gen(function*() {
    const context = yield* Effect.context<EngineServices>()
    const account = yield* (yield* AccountStore).ensureAccount(email)
    const info = yield* EngineInfo
    const run = <A, E>(effect: Effect.Effect<A, E, EngineServices>) => Effect.provide(effect, context)
    return Decorum.of({
      info: { engineVersion: info.engineVersion, modelVersion: info.modelVersion },
      scoreComment: (request, options = {}) =>
        run(Effect.flatMap(decode(Native.CommentScoreRequest, request), (r) => Evaluations.scoreComment(account, r, options))),
      checkSpam: (request, options = {}) =>
        run(Effect.flatMap(decode(Native.SpamCheckRequest, request), (r) => Evaluations.checkSpam(account, r, options))),
      checkRelevance: (request, options = {}) =>
        run(Effect.flatMap(decode(Native.RelevanceRequest, request), (r) => Evaluations.checkRelevance(account, r, options))),
      checkDogwhistle: (request, options = {}) =>
        run(Effect.flatMap(decode(Native.DogwhistleRequest, request), (r) => Evaluations.checkDogwhistle(account, r, options))),
      detectLlm: (request, options = {}) =>
        run(Effect.flatMap(decode(Native.LlmDetectRequest, request), (r) => Evaluations.detectLlm(account, r, options))),
      megacall: (request, options = {}) =>
        run(Effect.flatMap(decode(Native.MegacallRequest, request), (r) => Megacall.megacall(account, r, request, options))),
      analyze: (request, options = {}) =>
        run(Effect.flatMap(
          decode(Perspective.AnalyzeCommentRequest, Perspective.normalizeRequestKeys(request)),
          (r) => Analyze.analyze(r, options.family ?? "compat", account)
        )),
      suggestScore: (request) =>
        run(Effect.flatMap(
          decode(Perspective.SuggestCommentScoreRequest, Perspective.normalizeRequestKeys(request)),
          (r) => Suggest.suggestScore(account, r, null)
        )),
      createArticleContext: (request) =>
        run(Effect.flatMap(decode(Native.InitTopicRequest, request), (r) => Effect.map(ArticleContexts.create(account, r), articleView))),
      getArticleContext: (id) => run(Effect.map(ArticleContexts.get(account, id), articleView)),
      deleteArticleContext: (id) => run(ArticleContexts.remove(account, id)),
      listArticleContexts: () => run(ArticleContexts.list(account))
    })
  })

/** The local model set every host uses when none is configured (`DECORUM_LOCAL_MODEL` unset): the shipped models. */
export const defaultModel = (): LocalEngine.ModelChoice => "trained"

/**
 * The engine and its `EngineConfig` from options, with this host's default store (`db: "memory"`).
 * The options are checked as the server checks its environment.
 */
export const engineLayer = (
  options: DecorumOptions = {}
): Layer.Layer<EngineServices | EngineConfig, ConfigError.ConfigError | StoreFailure> => {
  const { account: _account, ...engine } = options
  return Engine.layerOptions({ ...engine, db: options.db ?? "memory" })
}

/** The `Decorum` service and the engine under it, from options (the same settings as the server's engine). */
export const layer = (options: DecorumOptions = {}): Layer.Layer<Decorum | EngineServices | EngineConfig, ConfigError.ConfigError | StoreFailure> => {
  // `null` (from an untyped caller) is no options; an account that is not an email's text is refused by name
  if (options !== null && options !== undefined && typeof options !== "object") {
    return Layer.fail(ConfigError.InvalidData([], `options=${String(options).slice(0, 80)}: must be an object of options ({ db, account, model, llm, fetch, ... })`))
  }
  const given: DecorumOptions = options ?? {}
  const account: unknown = given.account
  if (account !== undefined && (typeof account !== "string" || account.trim() === "")) {
    return Layer.fail(ConfigError.InvalidData(["account"], `account=${String(account).slice(0, 80)}: must be an email address (the account's text)`))
  }
  return Layer.effect(Decorum, make(given.account)).pipe(Layer.provideMerge(engineLayer(given)))
}

/**
 * The `Decorum` service on the engine the environment configures: every variable the server reads
 * (`DECORUM_DB`, `DECORUM_ENGINE`, ...), so an app and a server configured alike answer alike.
 */
export const layerConfig = (account?: string): Layer.Layer<Decorum | EngineServices | EngineConfig, ConfigError.ConfigError | StoreFailure> =>
  Layer.effect(Decorum, make(account)).pipe(Layer.provideMerge(Engine.layerConfig))
