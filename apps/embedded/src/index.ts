/**
 * `@decorum/embedded`: the engine in your own process.
 *
 * - `createDecorum(options)`: promises, for any Node code.
 * - `Decorum` (an Effect service) and `DecorumLayer(options)`: for Effect code.
 * - `Engine`, `EngineConfig`: the engine assembly and configuration every host uses (from `@decorum/engine`).
 *
 * See docs/embedding.md.
 */
export { Engine, EngineConfig, type EngineOptions, type EngineSettings } from "@decorum/engine"
export {
  type AnalyzeOptions,
  type AnalyzeRequest,
  articleView,
  type CommentScoreRequest,
  type DogwhistleRequest,
  Decorum,
  DEFAULT_ACCOUNT,
  type DecorumOptions,
  type DecorumService,
  defaultModel,
  engineLayer,
  type EngineServices,
  type EvaluationOptions,
  type InitTopicRequest,
  type LlmDetectRequest,
  layer as DecorumLayer,
  layerConfig as DecorumLayerConfig,
  make as makeDecorum,
  type MegacallRequest,
  type MegacallResult,
  type RelevanceRequest,
  type SpamCheckRequest,
  type SuggestScoreRequest
} from "./Decorum.js"
export { createDecorum, type DecorumClient, DecorumClosedError } from "./Client.js"

// The core's functions, for Effect users who provide the engine themselves (`Engine.layer`).
export { Analyze, ArticleContexts, Auth, EngineInfo, Evaluations, Megacall, Suggest } from "@decorum/core"

// The errors a call can fail with (Schema.TaggedError classes: `instanceof` works, `_tag` names them).
export {
  type DecorumError,
  FetchFailed,
  InvalidArticleContextId,
  InvalidComment,
  InvalidRequest,
  MissingParameter,
  NoEvaluationRequested,
  NoRequestedAttributes,
  NotFound,
  PayloadTooLarge,
  ProviderFailure,
  RateLimited,
  StoreFailure,
  Unauthorized,
  UnknownArticleContext,
  UnsupportedAttribute,
  UnsupportedContent,
  UnsupportedEvaluation,
  UnsupportedMediaType
} from "@decorum/domain"

// The result and request shapes.
export type { CommentScore, DogwhistleCheck, Evaluated, LlmDetection, Provenance, RelevanceCheck, SpamCheck } from "@decorum/domain"
export { Native, Perspective } from "@decorum/domain"
