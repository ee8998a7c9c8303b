/**
 * Starts the HTTP host on a real loopback socket with test providers and in-memory stores.
 * Shared by the contract suite of every host.
 */
import { AccountStore, ArticleContextStore, Auth, AuthFailureLimiter, type AuthFailureLimitOptions, EngineInfo, MemoryStores, RateLimiter, type RateLimitOptions, SuggestionStore } from "@decorum/core"
import { TestProviders } from "@decorum/core/testing"
import { ProviderFailure, type ScoreSuggestion } from "@decorum/domain"
import { type Families, HttpConfig, HttpApp, NodeServer } from "@decorum/http"
import { FastPath } from "@decorum/http/node"
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Deferred, Effect, Exit, Layer, Ref, Scope } from "effect"

/** Every route that takes a JSON body, with the family whose error envelope it answers in. */
export const JSON_ROUTES: ReadonlyArray<readonly [path: string, family: Families.Family]> = [
  ["/v0.2/inittopic", "native"],
  ["/v0.2/commentscore", "native"],
  ["/v0.2/antispam", "native"],
  ["/v0.2/commentrelevance", "native"],
  ["/v0.2/dogwhistle", "native"],
  ["/v0.2/llmdetect", "native"],
  ["/v0.2/megacall", "native"],
  ["/v0.2/external-compat/analyse", "compat"],
  ["/v0.2/external-compat/suggestscore", "compat"],
  ["/v0.2/perspective-compat/analyse", "compat"],
  ["/v0.2/perspective-compat/suggestscore", "compat"],
  ["/v1alpha1/comments:analyze", "google"],
  ["/v1alpha1/comments:suggestscore", "google"]
]

export const ENGINE_INFO = { engineVersion: "0.1.0", modelVersion: "test-model-1" }

/**
 * Test hooks, keyed by markers in the comment text:
 * - `[overlap]`: each section waits until all three of comment_score, spam_check and
 *   relevance_check have started; it fails after 5 s if they never overlap (sequential execution).
 * - `[fail-spam]`: the spam provider fails.
 * - `[fail-llmdetect]`: the machine-written-text provider fails.
 * - `[hang]`: every section waits forever (until interrupted).
 */
export const makeHook = Effect.gen(function*() {
  const started = yield* Ref.make(0)
  const allStarted = yield* Deferred.make<void>()
  return (section: TestProviders.Section, comment: string): Effect.Effect<void, ProviderFailure> => {
    if (comment.includes("[hang]")) return Effect.never
    if (comment.includes("[fail-spam]") && section === "spam_check") return Effect.fail(TestProviders.failure(section))
    if (comment.includes("[fail-llmdetect]") && section === "llm_detection") return Effect.fail(TestProviders.failure(section))
    if (!comment.includes("[overlap]") || section === "perspective") return Effect.void
    return Effect.gen(function*() {
      const n = yield* Ref.updateAndGet(started, (x) => x + 1)
      if (n === 3) yield* Deferred.succeed(allStarted, undefined)
      yield* Deferred.await(allStarted).pipe(
        Effect.timeoutFail({
          duration: "5 seconds",
          onTimeout: () =>
            new ProviderFailure({ provider: "test", evaluation: section, message: "sections did not run concurrently" })
        })
      )
    })
  }
})

export interface HostOptions {
  /** `HttpConfig.publicBaseUrl` (the discovery document's `rootUrl`); derived from requests when absent. */
  readonly publicBaseUrl?: string
  /** `HttpConfig.trustProxy`; none when absent. */
  readonly trustProxy?: ReadonlyArray<string>
  /** Per-account rate limit; none when absent. */
  readonly rateLimit?: RateLimitOptions
  /** The store ports (a SQL store, say); in-memory stores when absent. */
  readonly stores?: Layer.Layer<Layer.Layer.Success<typeof MemoryStores.layer>>
  /** Failed authentications per client address; none when absent. */
  readonly authFailureLimit?: AuthFailureLimitOptions
  /** `HttpConfig.bodyLimitBytes`; 256 KiB when absent. */
  readonly bodyLimitBytes?: number
  /** `HttpConfig.batchTimeLimitMs`; the default when absent. */
  readonly batchTimeLimitMs?: number
  /**
   * Serve the hot routes through the fast path (`FastPath`), as `decorum serve` does by default.
   * Default: true, unless `DECORUM_FAST_PATH=false` (to run the suites through HttpApi alone).
   */
  readonly fastPath?: boolean
  /** `EngineInfo` (the judge's status, say); `ENGINE_INFO` when absent. */
  readonly engineInfo?: EngineInfo["Type"]
}

export const engineLayer = (hook: TestProviders.Options["hook"], options: HostOptions = {}) =>
  Layer.mergeAll(
    TestProviders.layer(hook ? { hook } : {}),
    options.stores ?? MemoryStores.layer,
    Layer.succeed(EngineInfo, options.engineInfo ?? ENGINE_INFO),
    HttpConfig.layer({
      bodyLimitBytes: options.bodyLimitBytes ?? 256 * 1024,
      publicBaseUrl: options.publicBaseUrl ?? null,
      trustProxy: options.trustProxy ?? [],
      ...(options.batchTimeLimitMs ? { batchTimeLimitMs: options.batchTimeLimitMs } : {})
    }),
    options.rateLimit ? RateLimiter.memory(options.rateLimit) : Layer.empty,
    options.authFailureLimit ? AuthFailureLimiter.memory(options.authFailureLimit) : Layer.empty
  )

export interface TestHost {
  readonly url: string
  readonly createKey: (email: string) => Promise<string>
  readonly revokeKey: (key: string) => Promise<void>
  readonly close: () => Promise<void>
  /** Score suggestions in the host's store, oldest first (optionally of one account). */
  readonly listSuggestions: (email?: string) => Promise<ReadonlyArray<ScoreSuggestion>>
  /** Article contexts an account has stored (to prove that analyze traffic stores none). */
  readonly countArticleContexts: (email: string) => Promise<number>
  /** Client addresses the limiter of failed authentications tracks now (0 without one). */
  readonly authFailureAddresses: () => Promise<number>
}

export const startHttpHost = async (options: HostOptions = {}): Promise<TestHost> => {
  const scope = Effect.runSync(Scope.make())
  const hook = await Effect.runPromise(makeHook)
  const engine = await Effect.runPromise(Layer.buildWithScope(engineLayer(hook, options), scope))
  // The server decorum serve listens with (parser rejections in the envelope), shared with the fast path.
  const node = NodeServer.createServer()
  const server = HttpApiBuilder.serve().pipe(
    Layer.provide(HttpApp.layer),
    Layer.provide(FastPath.layer(node, { enabled: options.fastPath ?? process.env["DECORUM_FAST_PATH"] !== "false" })),
    Layer.provide(Layer.succeedContext(engine)),
    Layer.provideMerge(NodeHttpServer.layer(() => node, { port: 0, host: "127.0.0.1" })),
    // As `decorum serve` without a trace exporter: spans off (the fast path serves only then).
    Layer.provide(Layer.setTracerEnabled(false))
  )
  const context = await Effect.runPromise(Layer.buildWithScope(server, scope))
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.runPromise(Effect.provide(effect, engine) as Effect.Effect<A, E>)
  return {
    url: `http://127.0.0.1:${address.port}`,
    createKey: (email) => run(Effect.map(Auth.createKey(email), (k) => k.key)),
    revokeKey: async (key) => {
      await run(Effect.flatMap(AccountStore, (store) => store.revokeKey(Auth.parseKeyId(key)!)))
    },
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
    listSuggestions: (email) => run(Effect.flatMap(SuggestionStore, (store) => store.list(email === undefined ? {} : { email }))),
    authFailureAddresses: () =>
      run(Effect.flatMap(Effect.serviceOption(AuthFailureLimiter), (limiter) => (limiter._tag === "Some" ? limiter.value.size : Effect.succeed(0)))),
    countArticleContexts: (email) =>
      run(Effect.gen(function*() {
        const account = yield* Effect.flatMap(AccountStore, (store) => store.findAccount(email))
        if (account._tag === "None") return 0
        const contexts = yield* Effect.flatMap(ArticleContextStore, (store) => store.list(account.value.id))
        return contexts.length
      }))
  }
}
