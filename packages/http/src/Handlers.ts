/**
 * Handlers of every group. Each one authenticates, reads and decodes its body, calls the core and
 * answers; errors are rendered by `Respond.inFamily` through the one mapping table.
 */
import { Analyze, ArticleContexts, type Auth, EngineInfo, Evaluations, Megacall, StoreHealth, Suggest } from "@decorum/core"
import { type Account, type DecorumError, type Evaluated, Native, Perspective } from "@decorum/domain"
import { type HttpApi, HttpApiBuilder, type HttpApiEndpoint, type HttpApiGroup, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Effect, Either, type Exit, Option, type Schema } from "effect"
import { DecorumApi } from "./Api.js"
import * as Batch from "./Batch.js"
import * as Body from "./Body.js"
import * as Credentials from "./Credentials.js"
import * as Authentication from "./Authentication.js"
import { googleCaller, googleCallerNow, headerCaller, headerCallerNow } from "./Credentials.js"
import { discoveryDocument } from "./Discovery.js"
import { Readiness } from "./Readiness.js"
import { render } from "./ErrorMapping.js"
import { evaluated, inFamily, json, provenanceHeaders } from "./Respond.js"

const NATIVE_FORM: Body.FormSpec = {
  arrays: ["banned_topics", "requested_attributes", "sensitive_topics", "dogwhistle_examples", "context_comments"],
  booleans: ["run_comment_score", "run_spam_check", "run_relevance_check", "run_perspective", "run_dogwhistle_check", "run_llm_detect", "span_annotations"]
}

const nativeBody = <A, I>(schema: Parameters<typeof Body.decode<A, I>>[0]) =>
  Effect.gen(function*() {
    const raw = yield* Body.readObject({ form: NATIVE_FORM })
    const decoded = yield* Body.decode(schema, raw)
    return { raw, decoded }
  })

/** `X-Decorum-Detail: full`: the cascade engine consults the LLM even when the local verdict is sure (other engines ignore it). */
const evaluationOptions = Effect.map(HttpServerRequest.HttpServerRequest, (request): Evaluations.EvaluationOptions => {
  const detail = request.headers["x-decorum-detail"]?.trim().toLowerCase()
  return detail === "full" || detail === "basic" ? { detail } : {}
})

const perspectiveBody = <A, I>(schema: Parameters<typeof Body.decode<A, I>>[0]) =>
  Effect.gen(function*() {
    const raw = yield* Body.readObject()
    return yield* Body.decode(schema, Perspective.normalizeRequestKeys(raw))
  })

/**
 * A native single evaluation: authenticate, decode the body with `schema`, evaluate, and answer the
 * result with its provenance headers.
 */
const singleEvaluation = <Req, I, A, E extends DecorumError, R>(
  schema: Parameters<typeof Body.decode<Req, I>>[0],
  section: string,
  evaluate: (account: Account, request: Req, options: Evaluations.EvaluationOptions) => Effect.Effect<Evaluated<A>, E, R>
) =>
  inFamily(
    "native",
    Effect.gen(function*() {
      const account = yield* Authentication.account
      const { decoded } = yield* nativeBody(schema)
      return evaluated(section, yield* evaluate(account, decoded, yield* evaluationOptions))
    })
  )

export const ALLOWED_ENDPOINTS = [
  "inittopic",
  "commentscore",
  "antispam",
  "commentrelevance",
  "dogwhistle",
  "llmdetect",
  "megacall",
  "usercheck",
  "article-contexts",
  "external-compat/analyse",
  "external-compat/suggestscore",
  "perspective-compat/analyse",
  "perspective-compat/suggestscore"
]

export const NativeLive = HttpApiBuilder.group(DecorumApi, "native", (handlers) =>
  handlers
    .handleRaw("inittopic", () =>
      inFamily(
        "native",
        Effect.gen(function*() {
          const account = yield* Authentication.account
          const { decoded } = yield* nativeBody(Native.InitTopicRequest)
          const context = yield* ArticleContexts.create(account, decoded)
          return json({ article_id: context.id })
        })
      ))
    .handleRaw("commentscore", () => singleEvaluation(Native.CommentScoreRequest, "comment_score", Evaluations.scoreComment))
    .handleRaw("antispam", () => singleEvaluation(Native.SpamCheckRequest, "spam_check", Evaluations.checkSpam))
    .handleRaw("commentrelevance", () => singleEvaluation(Native.RelevanceRequest, "relevance_check", Evaluations.checkRelevance))
    .handleRaw("dogwhistle", () => singleEvaluation(Native.DogwhistleRequest, "dogwhistle_check", Evaluations.checkDogwhistle))
    .handleRaw("llmdetect", () => singleEvaluation(Native.LlmDetectRequest, "llm_detection", Evaluations.detectLlm))
    .handleRaw("megacall", () =>
      inFamily(
        "native",
        Effect.gen(function*() {
          const account = yield* Authentication.account
          const { decoded, raw } = yield* nativeBody(Native.MegacallRequest)
          const result = yield* Megacall.megacall(account, decoded, raw, yield* evaluationOptions)
          const body: Record<string, unknown> = {}
          const provenances: Array<readonly [string, import("@decorum/domain").Provenance]> = []
          for (const name of Megacall.Sections) {
            const section = result[name]
            if (section) {
              body[name] = section.value
              provenances.push([name, section.provenance])
            }
          }
          const failed = Object.entries(result.failures)
          const headers = provenanceHeaders(provenances)
          if (failed.length > 0) {
            body["errors"] = Object.fromEntries(failed.map(([name, failure]) => [name, render("native", failure!).body]))
            headers["x-decorum-partial"] = failed.map(([name]) => name).join(", ")
          }
          return json(body, 200, headers)
        })
      ))
    .handleRaw("usercheck", () =>
      inFamily(
        "native",
        Effect.gen(function*() {
          yield* Authentication.account
          const response: Native.UserCheckResponse = {
            active: true,
            status: "ACTIVE",
            plan_name: "self-hosted",
            allowed_endpoints: ALLOWED_ENDPOINTS,
            error: null
          }
          return json(response)
        })
      ))
    .handleRaw("listArticleContexts", () =>
      inFamily(
        "native",
        Effect.gen(function*() {
          const account = yield* Authentication.account
          const contexts = yield* ArticleContexts.list(account)
          const response: Native.ArticleContextList = { article_contexts: contexts.map(ArticleContexts.summaryView) }
          return json(response)
        })
      ))
    .handleRaw("getArticleContext", ({ path }) =>
      inFamily(
        "native",
        Effect.gen(function*() {
          const account = yield* Authentication.account
          return json(ArticleContexts.view(yield* ArticleContexts.get(account, path.id)))
        })
      ))
    .handleRaw("deleteArticleContext", ({ path }) =>
      inFamily(
        "native",
        Effect.gen(function*() {
          const account = yield* Authentication.account
          yield* ArticleContexts.remove(account, path.id)
          return json({ deleted: true, article_id: path.id.toLowerCase() })
        })
      ))
)

/**
 * A Perspective route: its family (the error envelope), its authentication, the schema of its
 * body and what it answers. The HttpApi groups below serve each through `perspectiveHandler`; the
 * fast path (`FastPath.ts`) serves the same route from the same parts in the same order, without
 * the router: one definition of each route, whichever way a request reaches it.
 */
export interface PerspectiveRoute<Req, RAuth, RAnswer> {
  readonly family: "google" | "compat"
  /** The account and the id of the key that authenticated it (suggestions record the key). */
  readonly caller: Effect.Effect<Auth.Caller, DecorumError, RAuth>
  readonly schema: Schema.Schema<Req, any, never>
  readonly answer: (caller: Auth.Caller, request: Req) => Effect.Effect<HttpServerResponse.HttpServerResponse, DecorumError, RAnswer>
  /**
   * `caller` without a fiber, for the fast path: the same answer as an `Exit` when it needs no
   * effect (a cached key), else undefined having done nothing (then `caller` runs).
   */
  readonly callerNow?: (services: Credentials.NowServices, request: Credentials.RequestView) => Exit.Exit<Auth.Caller, DecorumError> | undefined
  /** `answer` without a fiber, for the fast path: its answer when it needs no effect, else undefined having done nothing. */
  readonly answerNow?: (
    services: Analyze.NowServices,
    caller: Auth.Caller,
    request: Req
  ) => Either.Either<HttpServerResponse.HttpServerResponse, DecorumError> | undefined
}

/**
 * The caller (authenticated by the route's middleware, `Authentication`, as `route.caller` does),
 * read and decode the body, answer; every error in the route's family.
 */
export const perspectiveHandler = <Req, RAuth, RAnswer>(route: PerspectiveRoute<Req, RAuth, RAnswer>) =>
  inFamily(
    route.family,
    Effect.gen(function*() {
      const caller = yield* Authentication.caller
      const request = yield* perspectiveBody(route.schema)
      return yield* route.answer(caller, request)
    })
  )

/** `Either.map` over an answer that may not be ready without an effect (undefined). */
const mapNow = <A, B, E>(now: Either.Either<A, E> | undefined, f: (a: A) => B): Either.Either<B, E> | undefined =>
  now === undefined ? undefined : Either.map(now, f)

/** The analyze route of a family: its own authentication, one implementation of the answer. */
const analyzeRoute = <RAuth>(
  family: "google" | "compat",
  caller: Effect.Effect<Auth.Caller, DecorumError, RAuth>,
  callerNow: NonNullable<PerspectiveRoute<unknown, unknown, unknown>["callerNow"]>
) => ({
  family,
  caller,
  callerNow,
  schema: Perspective.AnalyzeCommentRequest,
  answer: (caller: Auth.Caller, request: Perspective.AnalyzeCommentRequest) =>
    Effect.map(Analyze.analyze(request, family, caller.account), (result) => evaluated("perspective", result)),
  answerNow: (services: Analyze.NowServices, caller: Auth.Caller, request: Perspective.AnalyzeCommentRequest) =>
    mapNow(Analyze.analyzeNow(services, request, family, caller.account), (result) => evaluated("perspective", result))
})

/** The suggestscore route of a family (a store write: always an effect). */
const suggestScoreRoute = <RAuth>(
  family: "google" | "compat",
  caller: Effect.Effect<Auth.Caller, DecorumError, RAuth>,
  callerNow: NonNullable<PerspectiveRoute<unknown, unknown, unknown>["callerNow"]>
) => ({
  family,
  caller,
  callerNow,
  schema: Perspective.SuggestCommentScoreRequest,
  answer: (caller: Auth.Caller, request: Perspective.SuggestCommentScoreRequest) =>
    Effect.map(Suggest.suggestScore(caller.account, request, caller.keyId), (response) => json(response))
})

/** `POST /v0.2/{external,perspective}-compat/analyse`. */
export const compatAnalyse = analyzeRoute("compat", headerCaller, headerCallerNow)

/** `POST /v0.2/{external,perspective}-compat/suggestscore`. */
export const compatSuggestScore = suggestScoreRoute("compat", headerCaller, headerCallerNow)

/** `POST /v1alpha1/comments:analyze`. */
export const googleAnalyze = analyzeRoute("google", googleCaller, googleCallerNow)

/** `POST /v1alpha1/comments:suggestscore`. */
export const googleSuggestScore = suggestScoreRoute("google", googleCaller, googleCallerNow)

type ApiGroups = typeof DecorumApi extends HttpApi.HttpApi<infer _Id, infer Groups, infer _E, infer _R> ? Groups : never

/**
 * The Perspective routes by group and endpoint of `DecorumApi` (names the API must declare). The
 * groups below serve each through `perspectiveHandler`; the Node fast path (`FastPath.ts`) serves
 * the same routes at the paths the API declares for these endpoints.
 */
export const perspectiveRoutes = {
  compat: { analyse: compatAnalyse, suggestscore: compatSuggestScore },
  perspectiveCompat: { analyse: compatAnalyse, suggestscore: compatSuggestScore },
  google: { analyze: googleAnalyze, suggestscore: googleSuggestScore }
} as const satisfies {
  readonly [G in HttpApiGroup.HttpApiGroup.Name<ApiGroups>]?: {
    readonly [E in HttpApiEndpoint.HttpApiEndpoint.Name<HttpApiGroup.HttpApiGroup.EndpointsWithName<ApiGroups, G>>]?: unknown
  }
}

const compatHandlers = (group: "compat" | "perspectiveCompat") =>
  HttpApiBuilder.group(DecorumApi, group, (handlers) =>
    handlers
      .handleRaw("analyse", () => perspectiveHandler(compatAnalyse))
      .handleRaw("suggestscore", () => perspectiveHandler(compatSuggestScore))
  )

export const CompatLive = compatHandlers("compat")
export const PerspectiveCompatLive = compatHandlers("perspectiveCompat")

export const GoogleLive = HttpApiBuilder.group(DecorumApi, "google", (handlers) =>
  handlers
    .handleRaw("analyze", () => perspectiveHandler(googleAnalyze))
    .handleRaw("suggestscore", () => perspectiveHandler(googleSuggestScore))
    .handleRaw("discovery", () =>
      inFamily(
        "google",
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const params = yield* HttpServerRequest.ParsedSearchParams
          return yield* discoveryDocument(request, params)
        })
      ))
    .handleRaw("batch", () => inFamily("google", Batch.handle))
)

export const OpsLive = HttpApiBuilder.group(DecorumApi, "ops", (handlers) =>
  handlers
    .handleRaw("healthz", () => Effect.succeed(json({ status: "ok" })))
    .handleRaw("readyz", () =>
      Effect.gen(function*() {
        const info = yield* EngineInfo
        // The judge (issue 27) never makes the server unready: unavailable, it serves the linear
        // models, and the body says so (`judge.state`, `judge.reason`).
        const judge = info.judge === undefined ? {} : { judge: info.judge }
        const readiness = yield* Effect.serviceOption(Readiness)
        if (Option.isSome(readiness) && readiness.value.stopping()) {
          return json({ status: "unavailable", model: info.modelVersion, reason: "The server is shutting down.", ...judge }, 503)
        }
        const health = yield* StoreHealth
        return yield* health.ping.pipe(
          Effect.as(json({ status: "ready", model: info.modelVersion, ...judge })),
          Effect.catchAll((e) => Effect.succeed(json({ status: "unavailable", model: info.modelVersion, reason: e.message, ...judge }, 503)))
        )
      }))
)
