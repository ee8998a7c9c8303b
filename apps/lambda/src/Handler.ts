/**
 * The Lambda host: the HTTP contract (`HttpApp.layer`, the same routes, auth, handlers and error
 * envelopes as the Node server) served as a web handler (`HttpApiBuilder.toWebHandler`), fed by
 * API Gateway v1, v2 and Function URL events. Wiring only.
 *
 * The runtime (engine, store pool, models) is built once per cold start and reused by every
 * invocation of that execution environment. A failed build (the database unreachable) is not kept:
 * the invocation answers 503 and the next one builds again.
 */
import { Unavailable } from "@decorum/domain"
import { ClientAddress, ErrorMapping, Families, HttpApp } from "@decorum/http"
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { DEFAULT_DRAIN_TIMEOUT_MS as ENGINE_DRAIN_TIMEOUT_MS, EngineConfig } from "@decorum/engine"
import { Cause, ConfigError, Context, Effect, Layer, Logger, Runtime } from "effect"
import { fromResponse, isHttpEvent, isV2, type LambdaHttpEvent, type LambdaHttpResult, sourceIpOf, toRequest } from "./Events.js"

/** What `HttpApp.layer` needs: the engine's ports, `EngineInfo` and `HttpConfig`. */
export type AppRequirements = Layer.Layer.Context<typeof HttpApp.layer>

export interface LambdaHandler {
  /** The function's handler: one HTTP event in, one API Gateway / Function URL result out. */
  (event: LambdaHttpEvent, context?: unknown): Promise<LambdaHttpResult>
  /** Builds the runtime now (at cold start) instead of on the first event. Never rejects. */
  readonly ready: () => Promise<boolean>
  /**
   * Closes the runtime (store pool). Invocations already running finish first (for at most
   * `drainTimeoutMs`, default 10 s); invocations that arrive meanwhile answer 503.
   */
  readonly dispose: (options?: { readonly drainTimeoutMs?: number }) => Promise<void>
}

export interface HandlerOptions {
  /** Log as JSON lines (what CloudWatch indexes). Default true. */
  readonly jsonLogs?: boolean
}

const unavailable = (kind: "v1" | "v2") =>
  fromResponse(
    new Response(
      JSON.stringify({ error: "Service Unavailable", message: "The engine could not start; see the function's logs.", code: 503 }),
      { status: 503, headers: { "content-type": "application/json" } }
    ),
    kind
  )

/** The answer of an invocation that arrives while the handler is being disposed, in its family's envelope. */
const closing = (path: string, kind: "v1" | "v2") => {
  const rendered = ErrorMapping.render(
    Families.familyOfPath(path),
    new Unavailable({ message: "The server is shutting down; send the request again." })
  )
  return fromResponse(
    new Response(JSON.stringify(rendered.body), { status: rendered.status, headers: { "content-type": "application/json", connection: "close" } }),
    kind
  )
}

/** How long `dispose()` waits for invocations in flight by default. */
export const DEFAULT_DRAIN_TIMEOUT_MS = ENGINE_DRAIN_TIMEOUT_MS

const logStartFailure = (error: unknown) => {
  const cause = Runtime.isFiberFailure(error) ? error[Runtime.FiberFailureCauseId] : Cause.die(error)
  const failure = Cause.failureOption(cause)
  // Bad configuration is the operator's to fix: name each variable, without a stack trace.
  const log = failure._tag === "Some" && ConfigError.isConfigError(failure.value)
    ? Effect.logError(`Decorum engine failed to start: bad configuration: ${EngineConfig.describe(failure.value)}`)
    : Effect.logError("Decorum engine failed to start", cause)
  Effect.runSync(log.pipe(Effect.provide(Logger.json)))
}

/**
 * A Lambda handler over an engine layer (anything that provides what `HttpApp.layer` needs:
 * `Settings.engineFromEnv()` in production, test providers in tests).
 */
export const make = <E>(engine: Layer.Layer<AppRequirements, E>, options: HandlerOptions = {}): LambdaHandler => {
  // The logger is provided first, so that building the engine logs as JSON too.
  const app = Layer.mergeAll(HttpApp.layer.pipe(Layer.provide(engine)), HttpServer.layerContext).pipe(
    Layer.provideMerge(options.jsonLogs === false ? Layer.empty : Logger.json)
  )
  let web: ReturnType<typeof HttpApiBuilder.toWebHandler> | undefined

  const current = () => (web ??= HttpApiBuilder.toWebHandler(app))

  // `toWebHandler` builds its runtime on the first request and keeps it. The per-request promise
  // only rejects when that build failed: then the runtime is dropped, to be built again next time.
  // The event's source IP is the request's peer (failed authentications are limited per address).
  const serve = async (request: Request, sourceIp?: string): Promise<Response | undefined> => {
    const handler = current()
    try {
      return await handler.handler(request, sourceIp === undefined ? undefined : Context.make(ClientAddress.PeerAddress, sourceIp))
    } catch (error) {
      if (web === handler) web = undefined
      logStartFailure(error)
      await handler.dispose().catch(() => undefined)
      return undefined
    }
  }

  // Invocations in flight, so that dispose() lets them finish before the store closes under them.
  const inFlight = new Set<Promise<unknown>>()
  let disposing = false

  const lambda = async (event: LambdaHttpEvent): Promise<LambdaHttpResult> => {
    if (!isHttpEvent(event)) throw new Error("Decorum's Lambda handler serves API Gateway and Function URL HTTP events only")
    const kind = isV2(event) ? "v2" : "v1"
    const request = toRequest(event)
    if (disposing) return closing(new URL(request.url).pathname, kind)
    const running = serve(request, sourceIpOf(event))
    inFlight.add(running)
    try {
      const response = await running
      return response ? fromResponse(response, kind) : unavailable(kind)
    } finally {
      inFlight.delete(running)
    }
  }

  return Object.assign(lambda, {
    ready: async () => (await serve(new Request("http://localhost/healthz"))) !== undefined,
    dispose: async (options: { readonly drainTimeoutMs?: number } = {}) => {
      disposing = true
      try {
        if (inFlight.size > 0) {
          let timer: ReturnType<typeof setTimeout> | undefined
          await Promise.race([
            Promise.allSettled([...inFlight]),
            new Promise<void>((resolve) => (timer = setTimeout(resolve, options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS)))
          ])
          clearTimeout(timer)
        }
        const handler = web
        web = undefined
        await handler?.dispose()
      } finally {
        disposing = false
      }
    }
  })
}
