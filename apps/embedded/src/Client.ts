/**
 * `createDecorum(options)`: the in-process API for code that does not use Effect. Every method of
 * the `Decorum` service as a promise, over one runtime (the engine, the store's connection, the
 * models) built once and kept until `close()`.
 *
 * A rejected promise carries the domain's error itself (`InvalidComment`, `UnknownArticleContext`,
 * `ProviderFailure`, ...): test it with `instanceof` or by its `_tag`. A bug (a defect) rejects with
 * the underlying `Error`.
 */
import type { ArticleContextSummary } from "@decorum/core"
import type { CommentScore, DogwhistleCheck, Evaluated, LlmDetection, Native, Perspective, RelevanceCheck, SpamCheck } from "@decorum/domain"
import { Cause, type Effect, Exit, ManagedRuntime } from "effect"
import {
  type AnalyzeOptions,
  type AnalyzeRequest,
  type CommentScoreRequest,
  Decorum,
  type DecorumOptions,
  type DecorumService,
  type DogwhistleRequest,
  type EvaluationOptions,
  type InitTopicRequest,
  layer,
  type LlmDetectRequest,
  type MegacallRequest,
  type MegacallResult,
  type RelevanceRequest,
  type SpamCheckRequest,
  type SuggestScoreRequest
} from "./Decorum.js"

export interface DecorumClient {
  /** The engine version and the configured model set. */
  readonly info: DecorumService["info"]
  readonly scoreComment: (request: CommentScoreRequest, options?: EvaluationOptions) => Promise<Evaluated<CommentScore>>
  readonly checkSpam: (request: SpamCheckRequest, options?: EvaluationOptions) => Promise<Evaluated<SpamCheck>>
  readonly checkRelevance: (request: RelevanceRequest, options?: EvaluationOptions) => Promise<Evaluated<RelevanceCheck>>
  /** Coded language (dog whistles): terms quoted from the comment, categories, subtlety, harm; `details` null when none. */
  readonly checkDogwhistle: (request: DogwhistleRequest, options?: EvaluationOptions) => Promise<Evaluated<DogwhistleCheck>>
  /** Machine-written text: likelihood, confidence (low for short comments), signals quoting the comment. */
  readonly detectLlm: (request: LlmDetectRequest, options?: EvaluationOptions) => Promise<Evaluated<LlmDetection>>
  readonly megacall: (request: MegacallRequest, options?: EvaluationOptions) => Promise<MegacallResult>
  readonly analyze: (request: AnalyzeRequest, options?: AnalyzeOptions) => Promise<Evaluated<Perspective.AnalyzeCommentResponse>>
  readonly suggestScore: (request: SuggestScoreRequest) => Promise<Perspective.SuggestCommentScoreResponse>
  readonly createArticleContext: (request: InitTopicRequest) => Promise<Native.ArticleContextView>
  readonly getArticleContext: (id: string) => Promise<Native.ArticleContextView>
  readonly deleteArticleContext: (id: string) => Promise<void>
  readonly listArticleContexts: () => Promise<ReadonlyArray<ArticleContextSummary>>
  /**
   * Closes the runtime: the store's connections, and everything else the engine holds. Calls made
   * before `close()` finish first (for at most `drainTimeoutMs`, default 10 s; then they are
   * interrupted; the option `drainTimeoutMs` of `createDecorum` sets the default); calls made
   * after it reject with `DecorumClosedError`.
   */
  readonly close: (options?: { readonly drainTimeoutMs?: number }) => Promise<void>
}

/** Rejections of a closed client. */
export class DecorumClosedError extends Error {
  readonly _tag = "DecorumClosedError"
  constructor() {
    super("This Decorum instance is closed.")
    this.name = "DecorumClosedError"
  }
}

/** How long `close()` waits for calls in flight by default. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000

/** Resolves when every promise has settled, or after `timeoutMs`, whichever comes first. */
const drain = async (running: ReadonlyArray<Promise<unknown>>, timeoutMs: number): Promise<void> => {
  if (running.length === 0) return
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([
    Promise.allSettled(running),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs)
    })
  ])
  clearTimeout(timer)
}

/** The failure itself (a domain error), the defect itself, or an interruption as an `Error`. */
const unwrap = <A>(exit: Exit.Exit<A, unknown>): A => {
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.failureOption(exit.cause)
  if (failure._tag === "Some") throw failure.value
  const defect = Cause.dieOption(exit.cause)
  if (defect._tag === "Some") throw defect.value
  throw new Error(Cause.pretty(exit.cause))
}

/**
 * Builds an engine from options (the same options as the server: `db`, `llm`, `fetch`, `model`;
 * plus `account`) and resolves once it is ready: models loaded, store opened and migrated. A
 * configuration or store failure rejects here, with the domain error.
 */
export const createDecorum = async (given: DecorumOptions = {}): Promise<DecorumClient> => {
  // `null` from an untyped caller is no options, as `undefined` is
  const options: DecorumOptions = given ?? {}
  const runtime = ManagedRuntime.make(layer(options))
  let closed = false
  const service = await runtime.runPromiseExit(Decorum).then(async (exit) => {
    if (Exit.isFailure(exit)) await runtime.dispose()
    return unwrap(exit)
  })
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS
  // Calls in flight, so that close() lets them finish before the store closes under them.
  const inFlight = new Set<Promise<unknown>>()
  const call = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
    if (closed) return Promise.reject(new DecorumClosedError())
    const running = runtime.runPromiseExit(effect)
    inFlight.add(running)
    void running.finally(() => inFlight.delete(running))
    return running.then(unwrap)
  }
  return {
    info: service.info,
    scoreComment: (request, options) => call(service.scoreComment(request, options)),
    checkSpam: (request, options) => call(service.checkSpam(request, options)),
    checkRelevance: (request, options) => call(service.checkRelevance(request, options)),
    checkDogwhistle: (request, options) => call(service.checkDogwhistle(request, options)),
    detectLlm: (request, options) => call(service.detectLlm(request, options)),
    megacall: (request, options) => call(service.megacall(request, options)),
    analyze: (request, options) => call(service.analyze(request, options)),
    suggestScore: (request) => call(service.suggestScore(request)),
    createArticleContext: (request) => call(service.createArticleContext(request)),
    getArticleContext: (id) => call(service.getArticleContext(id)),
    deleteArticleContext: (id) => call(service.deleteArticleContext(id)),
    listArticleContexts: () => call(service.listArticleContexts()),
    close: async (closeOptions = {}) => {
      if (closed) return
      closed = true
      await drain([...inFlight], closeOptions.drainTimeoutMs ?? drainTimeoutMs)
      await runtime.dispose()
    }
  }
}

