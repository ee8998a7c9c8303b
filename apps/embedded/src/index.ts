/**
 * `@decorum/embedded`: the engine in your own process.
 *
 * - `createDecorum(options)`: promises, for any Node code.
 * - `Decorum` (an Effect service) and `DecorumLayer(options)`: for Effect code.
 * - `Engine`: the engine assembly every host uses (`Engine.layer`, `Engine.layerFromEnv`).
 *
 * See docs/embedding.md.
 */
export * as Engine from "./Engine.js"
export type { EngineOptions } from "./Engine.js"
export {
  type AnalyzeOptions,
  type AnalyzeRequest,
  articleView,
  type CommentScoreRequest,
  Decorum,
  DEFAULT_ACCOUNT,
  type DecorumOptions,
  type DecorumService,
  defaultModel,
  engineLayer,
  type EngineServices,
  type EvaluationOptions,
  type InitTopicRequest,
  layer as DecorumLayer,
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
export type { CommentScore, Evaluated, Provenance, RelevanceCheck, SpamCheck } from "@decorum/domain"
export { Native, Perspective } from "@decorum/domain"
