/**
 * The whole HTTP contract as one layer, shared by every host: the Node server serves it with
 * `HttpApiBuilder.serve(middleware)`, the Lambda host with `HttpApiBuilder.toWebHandler`.
 */
import { EngineInfo } from "@decorum/core"
import { MethodNotAllowed, NotFound } from "@decorum/domain"
import { HttpApi, HttpApiBuilder, type HttpApp, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Layer, Option } from "effect"
import { DecorumApi } from "./Api.js"
import * as Authentication from "./Authentication.js"
import { BatchDispatcher } from "./Batch.js"
import { familyOfPath } from "./Families.js"
import { CompatLive, GoogleLive, NativeLive, OpsLive, PerspectiveCompatLive } from "./Handlers.js"
import * as Observability from "./Observability.js"
import * as Playground from "./Playground.js"
import { HttpConfig } from "./HttpConfig.js"
import { defectResponse, errorResponse } from "./Respond.js"

/** Every group of the API with its handlers. Requires the core's ports and EngineInfo, HttpConfig. */
export const ApiLive = HttpApiBuilder.api(DecorumApi).pipe(
  Layer.provide([NativeLive, CompatLive, PerspectiveCompatLive, GoogleLive, OpsLive]),
  // The authentication middleware the API and its groups declare.
  Layer.provide(Authentication.layer)
)

/**
 * Each endpoint of the API as a path pattern and its method (for 405 and `Allow`). In the router's
 * paths `:name` is a parameter and `::` a literal colon.
 */
const endpointMethods: ReadonlyArray<{ readonly pattern: RegExp; readonly method: string }> = Object.values(
  DecorumApi.groups as Record<string, { readonly endpoints: Record<string, { readonly path: string; readonly method: string }> }>
).flatMap((group) =>
  Object.values(group.endpoints).map((endpoint) => ({
    pattern: new RegExp(
      `^${endpoint.path.split("/").map((segment) => (/^:[^:]/.test(segment) ? "[^/]+" : segment.replaceAll("::", ":").replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/")}$`
    ),
    method: endpoint.method.toUpperCase()
  }))
)

/** The methods the API serves on a path (empty: an unknown path). */
export const allowedMethods = (path: string): ReadonlyArray<string> => [
  ...new Set(endpointMethods.filter((endpoint) => endpoint.pattern.test(path)).map((endpoint) => endpoint.method))
]

/** An unknown path is 404; a known path asked with a method it does not serve is 405 with `Allow`. */
const notFound = (path: string, method: string) => {
  const allow = allowedMethods(path)
  return errorResponse(
    familyOfPath(path),
    allow.length > 0
      ? new MethodNotAllowed({ method, allow, message: `${method} is not allowed on ${path}; allowed: ${allow.join(", ")}.` })
      : new NotFound({ message: `No route for ${method} ${path}.` })
  )
}

/**
 * Around an app, before the response is written: names the engine and model set (and the request
 * id, when given) on every response, and answers unknown routes and unexpected failures in the
 * family's envelope instead of an empty body.
 */
export const envelope = (info: EngineInfo["Type"], app: HttpApp.Default) => (requestId: string | null): HttpApp.Default =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const path = request.url.split("?")[0] ?? "/"
    const response = yield* app.pipe(
      Effect.catchAllCause((cause) => {
        const failure = Cause.failureOption(cause)
        if (Option.isSome(failure) && (failure.value as { _tag?: unknown })?._tag === "RouteNotFound") {
          return Effect.succeed(notFound(path, request.method))
        }
        if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
        return defectResponse(familyOfPath(path), cause)
      })
    )
    return withEngineHeaders(info, response, requestId)
  })

/** The engine version, the model set (unless the answer named its own) and the request id, on a response. */
export const withEngineHeaders = (info: EngineInfo["Type"], response: HttpServerResponse.HttpServerResponse, requestId: string | null) =>
  HttpServerResponse.setHeaders(response, {
    "x-engine-version": info.engineVersion,
    ...(response.headers["x-model-version"] === undefined ? { "x-model-version": info.modelVersion } : {}),
    ...(requestId === null ? {} : { "x-request-id": requestId })
  })

/**
 * What every request goes through around its route: `Observability.observe` (request id, metrics,
 * access log) around `envelope`. The HttpApi's middleware (below) and the fast path
 * (`FastPath.ts`) both serve through this one function.
 */
export const observed = (info: EngineInfo["Type"], observability: Option.Option<Observability.ObservabilityConfig["Type"]>, app: HttpApp.Default): HttpApp.Default =>
  Observability.observe(Option.getOrElse(observability, () => Observability.defaults), info, envelope(info, app))

/**
 * Applied around the whole app: `observed` (engine headers, request ids, metrics, access log,
 * unknown routes and unexpected failures in the family's envelope). It also provides the
 * `BatchDispatcher` through which `POST /batch` runs each part through this same app (same routes,
 * auth, handlers and envelope).
 */
export const EnvelopeMiddleware = HttpApiBuilder.middleware(
  Effect.map(
    Effect.all([EngineInfo, Effect.serviceOption(Observability.ObservabilityConfig)]),
    ([info, observability]) => (app: HttpApp.Default): HttpApp.Default => {
      // `POST /batch` answers each of its parts by running this same app on a synthetic request
      // (inside the batch's own request id).
      const dispatcher = BatchDispatcher.of({
        dispatch: (inner) => Effect.provideService(envelope(info, app)(null), HttpServerRequest.HttpServerRequest, inner)
      })
      return Effect.provideService(observed(info, observability, app), BatchDispatcher, dispatcher)
    }
  )
)

/**
 * The interactive reference at `/docs` (Scalar, served inline and offline), loaded on its first
 * request: `HttpApiScalar` carries a 3.3 MB script that a host never serving `/docs` (a Lambda
 * cold start, a command) should not load, parse and encode at start-up. The page is
 * `HttpApiScalar.layer`'s own, built once on a router of its own.
 */
const docs = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const api = yield* HttpApi.Api
    const page = yield* Effect.cached(
      Effect.promise(() => import("@effect/platform/HttpApiScalar")).pipe(
        Effect.flatMap((Scalar) =>
          Layer.build(Layer.merge(HttpApiBuilder.Router.Live, Scalar.layer({ path: "/docs" })).pipe(Layer.provide(Layer.succeed(HttpApi.Api, api))))
        ),
        Effect.flatMap((context) => Effect.provide(HttpApiBuilder.Router.router, context)),
        Effect.flatMap(HttpRouter.toHttpApp),
        Effect.scoped
      )
    )
    yield* router.get("/docs", Effect.flatten(page))
  })
)

/**
 * The API plus `/openapi.json`, the interactive reference at `/docs` (served inline, offline) and
 * the playground page at `/playground`.
 */
export const layer = Layer.mergeAll(
  HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" }),
  docs,
  Playground.layer,
  EnvelopeMiddleware
).pipe(Layer.provideMerge(ApiLive))

/**
 * What a host's configuration says of HTTP: the `http` and `observability` settings of
 * `@decorum/engine`'s `EngineSettings` (read once, from the environment or options, by
 * `EngineConfig`; this package does not depend on the engine, the shape is enough).
 */
export interface HostSettings {
  readonly http: {
    readonly bodyLimitBytes: number | null
    readonly publicUrl: string | null
    readonly trustProxy: ReadonlyArray<string>
  }
  readonly observability: {
    readonly metrics: boolean
    readonly accessLog: boolean
  }
}

/**
 * The settings every host gives `layer` (and the Node fast path) besides the engine, from its
 * configuration: `HttpConfig` (body limit, public URL, trusted proxies) and `ObservabilityConfig`
 * (metrics, access log). The Node server and the Lambda handler both build theirs here.
 */
export const settingsLayer = (settings: HostSettings): Layer.Layer<HttpConfig | Observability.ObservabilityConfig> =>
  Layer.merge(
    HttpConfig.layer({
      ...(settings.http.bodyLimitBytes !== null ? { bodyLimitBytes: settings.http.bodyLimitBytes } : {}),
      publicBaseUrl: settings.http.publicUrl,
      trustProxy: settings.http.trustProxy
    }),
    Observability.layer({ metrics: settings.observability.metrics, accessLog: settings.observability.accessLog })
  )
