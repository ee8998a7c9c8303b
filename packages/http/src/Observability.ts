/**
 * What an operator sees of each request: its id (`X-Request-Id`, on every response and every log
 * line of the request), an access log line when asked for, and the request metrics behind
 * `GET /metrics` (Prometheus text) when metrics are on.
 *
 * Off by default; the hosts turn it on from `DECORUM_METRICS` and `DECORUM_ACCESS_LOG` (see
 * `EngineConfig`). With both off a request costs one id and one log annotation more, nothing else.
 */
import { EngineInfo, Metrics } from "@decorum/core"
import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Context, Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { DecorumApi } from "./Api.js"
import { type Family, familyOfPath } from "./Families.js"
import * as Prometheus from "./Prometheus.js"

/** The settings; absent means both off. */
export class ObservabilityConfig extends Context.Tag("@decorum/http/ObservabilityConfig")<
  ObservabilityConfig,
  {
    /** Serve `GET /metrics` on the API's port and record the request metrics. */
    readonly metrics: boolean
    /** One log line per request: method, path (no query string), route, status, duration. Never keys. */
    readonly accessLog: boolean
  }
>() {}

export const defaults: ObservabilityConfig["Type"] = { metrics: false, accessLog: false }

export const layer = (options: Partial<ObservabilityConfig["Type"]> = {}) =>
  Layer.succeed(ObservabilityConfig, ObservabilityConfig.of({ ...defaults, ...options }))

// ---------------------------------------------------------------- request ids

/** A client's id is kept when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise one is made. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/

export const requestIdOf = (header: string | undefined): string => (header !== undefined && WELL_FORMED.test(header) ? header : randomUUID())

// ---------------------------------------------------------------- routes

interface Route {
  readonly method: string
  readonly template: string
  readonly pattern: RegExp | null
}

/** The API's routes, as metric labels: the path template (`/v0.2/article-contexts/:id`), never a raw path. */
const routes: ReadonlyArray<Route> = Object.values(DecorumApi.groups).flatMap((group) =>
  Object.values(group.endpoints).map((endpoint): Route => {
    // `::` is the router's escaped colon (`comments::analyze` is `/comments:analyze`).
    const template = endpoint.path.replace(/::/g, ":")
    return {
      method: endpoint.method,
      template,
      pattern: /\/:\w/.test(template)
        ? new RegExp(`^${template.replace(/[.$*+?()[\]{}|\\^]/g, "\\$&").replace(/\/:\w+/g, "/[^/]+")}$`)
        : null
    }
  })
)
const staticRoutes = new Map(routes.filter((r) => r.pattern === null).map((r) => [`${r.method} ${r.template}`, r.template]))
const paramRoutes = routes.filter((r) => r.pattern !== null)

/** The route template a request matched, or `unmatched`. */
export const routeOf = (method: string, path: string): string =>
  staticRoutes.get(`${method} ${path}`) ?? paramRoutes.find((r) => r.method === method && r.pattern!.test(path))?.template ?? "unmatched"

// ---------------------------------------------------------------- metrics

/**
 * Where `GET /metrics` takes its text from when the host serves from several processes
 * (`decorum serve --workers N`): the figures of the whole server, not of the process that happens
 * to receive the scrape. Absent: this process's registry (`Prometheus.scrape`).
 */
export class ServerMetrics extends Context.Tag("@decorum/http/ServerMetrics")<ServerMetrics, { readonly scrape: Effect.Effect<string> }>() {}

/** `GET /metrics`: every metric of the registry (or of the whole server) in the Prometheus text format, with the model info. */
export const metricsResponse = (info: EngineInfo["Type"]) => Effect.gen(function*() {
  yield* Metrics.recordModelInfo(info)
  const server = yield* Effect.serviceOption(ServerMetrics)
  const text = Option.isSome(server) ? yield* server.value.scrape : yield* Prometheus.scrape
  return HttpServerResponse.text(text, { contentType: Prometheus.CONTENT_TYPE })
})

/** An app that answers `GET /metrics` and 404 to anything else (the separate `--metrics-port` listener). */
export const metricsApp: HttpApp.Default<never, EngineInfo> = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  request.method === "GET" && request.url.split("?")[0] === "/metrics"
    ? Effect.flatMap(EngineInfo, metricsResponse)
    : Effect.succeed(HttpServerResponse.text("Not Found\n", { status: 404 })))

// The metrics' updates are built once per label set (routes, families and statuses are few), as
// plain functions (`Metrics.labelled`): a tagged metric makes and hashes a new key on every update.
// Module caches, documented constants: each entry is a pure function of its labels (the metrics are
// Effect's global ones), and routes x families x statuses are a small finite set.
const requestCounters = new Map<string, (input: number) => void>()
const durationHistograms = new Map<string, (input: number) => void>()

const record = (route: string, family: Family, status: number, seconds: number): void => {
  const countKey = `${route} ${family} ${status}`
  let counter = requestCounters.get(countKey)
  if (counter === undefined) {
    counter = Metrics.labelled(Metrics.httpRequests, [["route", route], ["family", family], ["status", String(status)]])
    requestCounters.set(countKey, counter)
  }
  const durationKey = `${route} ${family}`
  let histogram = durationHistograms.get(durationKey)
  if (histogram === undefined) {
    histogram = Metrics.labelled(Metrics.httpDuration, [["route", route], ["family", family]])
    durationHistograms.set(durationKey, histogram)
  }
  counter(1)
  histogram(seconds)
}

// ---------------------------------------------------------------- the wrapper

/**
 * Wraps the app: the request id (from `X-Request-Id` when well-formed) on the response and on
 * every log line; with metrics on, `GET /metrics` and the request metrics; with the access log on,
 * one line per request.
 */
export const observe = (
  settings: ObservabilityConfig["Type"],
  info: EngineInfo["Type"],
  /** The app, told the request id so that it sets it with its own headers (one copy of the response). */
  app: (requestId: string) => HttpApp.Default
): HttpApp.Default =>
  !settings.metrics && !settings.accessLog
    ? Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const id = requestIdOf(request.headers["x-request-id"])
      return Effect.annotateLogs(app(id), "request_id", id)
    })
    : Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const id = requestIdOf(request.headers["x-request-id"])
      const path = request.url.split("?")[0] ?? "/"
      if (settings.metrics && request.method === "GET" && path === "/metrics") {
        return HttpServerResponse.setHeader(yield* metricsResponse(info), "x-request-id", id)
      }
      const started = performance.now()
      const response = yield* Effect.annotateLogs(app(id), "request_id", id)
      yield* answeredNow(settings, request.method, path, id, response.status, (performance.now() - started) / 1000)
      return response
    })

/** Whether `answeredNow` does anything (metrics or the access log are on). */
export const observing = (settings: ObservabilityConfig["Type"]): boolean => settings.metrics || settings.accessLog

/**
 * After a request was answered: its metrics, as a plain function, and its access log line (an
 * effect, `Effect.void` without the access log), as the settings ask.
 */
export const answeredNow = (
  settings: ObservabilityConfig["Type"],
  method: string,
  path: string,
  id: string,
  status: number,
  seconds: number
): Effect.Effect<void> => {
  const route = routeOf(method, path)
  if (settings.metrics) record(route, familyOfPath(path), status, seconds)
  if (!settings.accessLog) return Effect.void
  return Effect.logInfo("access").pipe(
    Effect.annotateLogs({
      request_id: id,
      method,
      path,
      route,
      status,
      duration_ms: Math.round(seconds * 1e4) / 10
    })
  )
}

