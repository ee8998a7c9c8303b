/**
 * The fast path of the Node host: Perspective's analyze and suggestscore (Google-shaped and compat
 * families) served without the per-request HttpApi machinery (router, the platform's request and
 * response pipeline, the HTTP tracer middleware, a fiber that suspends while the body arrives),
 * which cost several times the engine's own work on every request (docs/performance.md).
 *
 * It is not a second implementation of those routes, nor a second route table. The routes are the
 * endpoints of `DecorumApi` that have a route in `Handlers.perspectiveRoutes` (by group and endpoint
 * name), at the paths the API declares for them (`HttpApi.reflect`). Each route is one
 * `Handlers.PerspectiveRoute` (its family, authentication, body schema and answer), which the
 * HttpApi group serves through `Handlers.perspectiveHandler`; here the same parts run in the same
 * order, on the services `make` states it requires:
 *
 * 1. the route's authentication (`Credentials`: the core's auth step with the key cache and the
 *    limiters): as the plain function `route.callerNow` when no part of it needs an effect (a
 *    cached key), else the effect `route.caller`, on a runtime made from the one built at start-up
 *    (synchronously when it completes synchronously, else as a fiber);
 * 2. the body with `Body`'s own functions (content type, compressed 415, the limit under every
 *    framing with 413, JSON, nesting depth), and `Requests.decodeEither` (the same compiled decoder);
 * 3. the route's answer (the engine): `route.answerNow` when the scorer answers without I/O (the
 *    local models), else the effect `route.answer` on the same runtime;
 * 4. errors through `Respond.errorResponse` (the one mapping table), defects through
 *    `Respond.defectResponse` as `Respond.inFamily` answers them; the engine headers and request id
 *    as `HttpApp.envelope` sets them (`withEngineHeaders`); metrics and the access log through
 *    `Observability.answeredNow`; the response written as the platform writes it.
 *
 * The plain functions are the effects' own rules (each effect calls them), over the members of
 * the core's ports for a caller without a fiber (`AccountStore.findKeyNow`,
 * `AttributeScorer.analyzeNow`, `RateLimiter.consumeAt`, `AuthFailureLimiter.admitAt`), so with a
 * cached key and the local models a request runs no fiber at all; the request's runtime is made
 * only when a step needs it.
 *
 * A request takes the fast path only when it is exactly one of those routes as written (`POST`,
 * the path byte for byte, no query or only `key=` with a key-shaped value); anything else (other
 * spellings the router also accepts, other query strings, other methods and routes) falls through
 * to the HttpApi app. With a tracer on (OTLP export) nothing takes the fast path, so every request
 * keeps its server span.
 *
 * `packages/http/test/fastpath.test.ts` sends a corpus of requests to servers with and without the
 * fast path and requires the same status, headers and body bytes.
 */
import { Analyze, type Auth, EngineInfo, Requests } from "@decorum/core"
import type { DecorumError } from "@decorum/domain"
import { Perspective } from "@decorum/domain"
import { HttpApi, HttpServer, HttpServerError, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Cause, Context, Effect, Either, Exit, type Fiber, FiberRef, Layer, Option, Runtime } from "effect"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { DecorumApi } from "./Api.js"
import * as Body from "./Body.js"
import * as Credentials from "./Credentials.js"
import type { Family } from "./ErrorMapping.js"
import { renderDefect } from "./ErrorMapping.js"
import * as Handlers from "./Handlers.js"
import { HttpConfig } from "./HttpConfig.js"
import { withEngineHeaders } from "./HttpApp.js"
import { NodeRequest } from "./internal/nodeRequest.js"
import * as Observability from "./Observability.js"
import { defectResponse, errorResponse, json } from "./Respond.js"

export interface FastPath {
  /** Serves `request` when it is a fast route (true); otherwise leaves it untouched (false). */
  readonly handle: (request: IncomingMessage, response: ServerResponse) => boolean
}

/** A fast path that serves nothing (every request goes to the HttpApi app). */
export const none: FastPath = { handle: () => false }

type Routes = typeof Handlers.perspectiveRoutes

/** One of `Handlers.perspectiveRoutes`. */
type AnyRoute = { readonly [G in keyof Routes]: Routes[G][keyof Routes[G]] }[keyof Routes]

/** What the routes read from their context: the request, the core's ports, the configuration. */
type RequestServices = AnyRoute extends Handlers.PerspectiveRoute<infer _Req, infer RAuth, infer RAnswer> ? RAuth | RAnswer : never

/** What the fast path needs of the context it is built in: the routes' services, but the request (its own). */
export type Services = Exclude<RequestServices, HttpServerRequest.HttpServerRequest | HttpServerRequest.ParsedSearchParams>

/** What a request's steps may read: the routes' services, and `HttpConfig` (reading a body). */
type StepServices = RequestServices | HttpConfig

/** A route as served here: its request type is decoded and answered within `answer`. */
interface Route {
  readonly family: Family
  readonly caller: Effect.Effect<Auth.Caller, DecorumError, RequestServices>
  readonly callerNow: Handlers.PerspectiveRoute<unknown, never, never>["callerNow"]
  /**
   * Decodes the parsed body with the route's schema and answers it: without a fiber when the
   * answer needs no effect (an `Either`), else the route's effect.
   */
  readonly answer: (
    analyzing: Analyze.NowServices,
    caller: Auth.Caller,
    body: unknown
  ) => Either.Either<HttpServerResponse.HttpServerResponse, DecorumError> | Effect.Effect<HttpServerResponse.HttpServerResponse, DecorumError, RequestServices>
}

/**
 * `route` with its request type hidden. The table holds routes of different request types, which
 * each route decodes (`schema`) and answers (`answer`, `answerNow`) itself: only its own `Req` is
 * ever handed to its answer, so the table need not know it (hence the one cast below, where the
 * table is built).
 */
const fastRoute = <Req>(route: Handlers.PerspectiveRoute<Req, RequestServices, RequestServices>): Route => ({
  family: route.family,
  caller: route.caller,
  callerNow: route.callerNow,
  answer: (analyzing, caller, body) => {
    const decoded = Requests.decodeEither(route.schema, Perspective.normalizeRequestKeys(body))
    if (Either.isLeft(decoded)) return Either.left(decoded.left)
    return route.answerNow?.(analyzing, caller, decoded.right) ?? route.answer(caller, decoded.right)
  }
})

/**
 * A path of the router as clients write it: `::` is a literal colon (`comments::analyze` is
 * `comments:analyze` on the wire); undefined for a path with parameters (`:id`, `*`).
 */
const wirePath = (path: string): string | undefined => {
  const literals = path.split("::")
  return literals.some((literal) => /[:*]/.test(literal)) ? undefined : literals.join(":")
}

/**
 * The fast routes by path as clients write it: the endpoints of `DecorumApi` that have a route in
 * `Handlers.perspectiveRoutes`, at the paths the API declares for them.
 */
const routes: ReadonlyMap<string, Route> = (() => {
  const byGroup: Readonly<Record<string, Readonly<Record<string, AnyRoute>> | undefined>> = Handlers.perspectiveRoutes
  const out = new Map<string, Route>()
  HttpApi.reflect(DecorumApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group }) => {
      const route = byGroup[group.identifier]?.[endpoint.name]
      if (route === undefined) return
      const path = wirePath(endpoint.path)
      // Served here only as `POST` to a path without parameters: any other is a mistake in the table.
      if (endpoint.method !== "POST" || path === undefined) {
        throw new Error(`FastPath: ${group.identifier}.${endpoint.name} (${endpoint.method} ${endpoint.path}) is not a POST to a fixed path`)
      }
      out.set(path, fastRoute(route as Handlers.PerspectiveRoute<unknown, RequestServices, RequestServices>))
    }
  })
  return out
})()

/** The fast routes' paths, as clients write them. */
export const paths: ReadonlyArray<string> = [...routes.keys()]

/** The only query string taken here: a key (as `?key=`), whose parsed form is plain. */
const KEY_QUERY = /^key=([A-Za-z0-9_-]+)$/

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({})

/** Writes a response as the platform's Node server does (`writeHead` with its headers, then the body). */
const write = (response: ServerResponse, answer: HttpServerResponse.HttpServerResponse) => {
  if (response.writableEnded || response.destroyed) return
  const body = answer.body
  response.writeHead(answer.status, answer.headers)
  if (body._tag === "Uint8Array") response.end(body.body)
  else if (body._tag === "Raw" && (typeof body.body === "string" || body.body instanceof Uint8Array)) response.end(body.body)
  else response.end()
}

/**
 * The fast path, with the services the routes need taken from the context it is built in (the
 * same the HttpApi app is built with).
 */
export const make: Effect.Effect<FastPath, never, Services | EngineInfo | HttpConfig> = Effect.gen(function*() {
  const runtime = yield* Effect.runtime<Services | HttpConfig>()
  // A tracer records a server span around every request the router serves: keep them all there.
  if (yield* FiberRef.get(FiberRef.currentTracerEnabled)) return none
  const info = yield* EngineInfo
  const { bodyLimitBytes } = yield* HttpConfig
  const observability = Option.getOrElse(yield* Effect.serviceOption(Observability.ObservabilityConfig), () => Observability.defaults)
  const observing = Observability.observing(observability)
  // What the routes' synchronous steps read (`callerNow`, `answerNow`), taken once.
  const credentials = yield* Credentials.nowServices
  const analyzing = yield* Analyze.nowServices
  const tooLarge = Body.tooLargeFor(bodyLimitBytes)
  const { context, fiberRefs, runtimeFlags } = runtime

  const handle = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (request.method !== "POST") return false
    const url = request.url ?? ""
    const query = url.indexOf("?")
    const path = query === -1 ? url : url.slice(0, query)
    const route = routes.get(path)
    if (route === undefined) return false
    let params = NO_PARAMS
    if (query !== -1) {
      const key = KEY_QUERY.exec(url.slice(query + 1))
      if (key === null) return false
      params = { key: key[1]! }
    }
    serve(route, path, params, request, response)
    return true
  }

  const serve = (route: Route, path: string, params: Readonly<Record<string, string>>, request: IncomingMessage, response: ServerResponse) => {
    const started = observing ? performance.now() : 0
    const id = Observability.requestIdOf(request.headers["x-request-id"] as string | undefined)
    const family: Family = route.family
    // The request's runtime (its request in context) is built only for a step that needs an
    // effect: with a cached key and the local models, none does.
    let runtimeRun: (<A, E>(effect: Effect.Effect<A, E, StepServices>) => Exit.Exit<A, E>) | undefined
    const run = <A, E>(effect: Effect.Effect<A, E, StepServices>): Exit.Exit<A, E> => {
      runtimeRun ??= Runtime.runSyncExit(
        Runtime.make({
          context: Context.add(
            Context.add(context, HttpServerRequest.HttpServerRequest, new NodeRequest(request, request.url)),
            HttpServerRequest.ParsedSearchParams,
            params
          ),
          fiberRefs,
          runtimeFlags
        })
      )
      return runtimeRun(Effect.annotateLogs(effect, "request_id", id))
    }
    // A fiber still running (an asynchronous step) when the client goes away is interrupted, as
    // the platform's server interrupts its request's fiber.
    let running: Fiber.RuntimeFiber<unknown, unknown> | undefined
    let stopReading: (() => void) | undefined
    response.once("close", () => {
      if (response.writableEnded) return
      stopReading?.()
      running?.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId)
    })

    const finish = (answer: HttpServerResponse.HttpServerResponse) => {
      write(response, withEngineHeaders(info, answer, id))
      if (observing) {
        const log = Observability.answeredNow(observability, request.method!, path, id, answer.status, (performance.now() - started) / 1000)
        if (log !== Effect.void) run(log)
      }
    }
    // As `Respond.inFamily`: typed errors in the family's envelope; defects logged, then 500.
    const defect = (cause: Cause.Cause<unknown>) => {
      const answered = run(defectResponse(family, cause))
      finish(Exit.isSuccess(answered) ? answered.value : json(renderDefect(family).body, 500))
    }
    const settle = <A>(exit: Exit.Exit<A, unknown>, next: (value: A) => void) => {
      if (Exit.isSuccess(exit)) return next(exit.value)
      if (Cause.isInterruptedOnly(exit.cause)) return
      const failure = Cause.failureOption(exit.cause)
      if (Option.isSome(failure)) return finish(errorResponse(family, failure.value as DecorumError))
      defect(exit.cause)
    }
    /** Runs a step of the route on the request's runtime: synchronously when it can, else as a fiber. */
    const step = <A>(effect: Effect.Effect<A, DecorumError, StepServices>, next: (value: A) => void) => {
      const exit = run(effect)
      if (Exit.isFailure(exit)) {
        const async = Cause.dieOption(exit.cause)
        if (Option.isSome(async) && Runtime.isAsyncFiberException(async.value)) {
          running = async.value.fiber
          running.addObserver((fiberExit) => {
            running = undefined
            guarded(() => settle(fiberExit as Exit.Exit<A, unknown>, next))
          })
          return
        }
      }
      settle(exit, next)
    }
    const guarded = (body: () => void) => {
      try {
        body()
      } catch (error) {
        defect(Cause.die(error))
      }
    }
    const fail = (error: DecorumError) => finish(errorResponse(family, error))

    const answer = (caller: Auth.Caller) => {
      const type = Body.mediaType(request.headers["content-type"])
      const unsupported = Body.unsupportedType(type, {})
      if (unsupported !== undefined) return fail(unsupported)
      const decodeAndAnswer = (text: string) => {
        const parsed = Body.parseObject(type, text, {})
        if (Either.isLeft(parsed)) return fail(parsed.left)
        // Without a fiber when the answer needs no effect (the local models), else as one.
        const answered = route.answer(analyzing, caller, parsed.right)
        if (!Either.isEither(answered)) return step(answered, finish)
        return Either.isLeft(answered) ? fail(answered.left) : finish(answered.right)
      }
      if (request.readableEnded || request.destroyed) {
        // Nothing left to read from the stream (a client gone already): the HttpApi path's reader decides.
        return step(Body.readText, decodeAndAnswer)
      }
      const refused = Body.refusedBeforeReading(request.headers as Record<string, string | undefined>, request, bodyLimitBytes, tooLarge)
      if (refused !== undefined) return fail(refused)
      stopReading = Body.collectNodeBody(request, bodyLimitBytes, tooLarge, (text) => {
        stopReading = undefined
        guarded(() => (Either.isLeft(text) ? fail(text.left) : decodeAndAnswer(text.right)))
      })
    }

    // The order of `Handlers.perspectiveHandler`: authenticate, read and decode the body, answer.
    guarded(() => {
      // Without a fiber when the authentication needs no effect (a cached key), else as one.
      const caller = route.callerNow?.(credentials, { headers: request.headers, remoteAddress: request.socket?.remoteAddress, params })
      if (caller === undefined) step(route.caller, answer)
      else settle(caller, answer)
    })
  }

  return { handle } satisfies FastPath
})

/**
 * The HTTP server of a Node host with the fast path in front of the app: wraps the listener's
 * `HttpServer` (`NodeHttpServer.layer` over `server`) so that serving the app registers one Node
 * request listener that offers each request to the fast path first and hands the others to the
 * platform's handler of the app. `enabled: false` hands every request to the app.
 */
export const layer = (
  server: Server,
  options: {
    readonly enabled: boolean
    /** Told of every request the fast path took (tests prove with it that the fast path served). */
    readonly onServed?: (request: IncomingMessage) => void
  }
) =>
  Layer.effect(
    HttpServer.HttpServer,
    Effect.gen(function*() {
      const listener = yield* HttpServer.HttpServer
      const path = options.enabled ? yield* make : none
      return HttpServer.make({
        address: listener.address,
        serve: (app, middleware) =>
          Effect.gen(function*() {
            const handler = yield* NodeHttpServer.makeHandler(app, middleware!)
            const served = options.onServed
            const dispatch = (request: IncomingMessage, response: ServerResponse) => {
              if (!path.handle(request, response)) handler(request, response)
              else served?.(request)
            }
            yield* Effect.addFinalizer(() => Effect.sync(() => server.off("request", dispatch)))
            server.on("request", dispatch)
          })
      })
    })
  )
