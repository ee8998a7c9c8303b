/**
 * `decorum serve`: the Node HTTP host. Wiring only: the engine (from `@decorum/embedded`), the
 * HTTP contract (from `@decorum/http`) and Node's HTTP server. On a first start with no account it
 * creates one and prints a key and a curl line that works.
 */
import { AccountStore, Auth, EngineInfo, RateLimiter } from "@decorum/core"
import { Engine } from "@decorum/embedded"
import { HttpApp, HttpConfig } from "@decorum/http"
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Cause, type ConfigError, Context, Effect, Exit, Fiber, Layer, Logger } from "effect"
import type { StoreFailure } from "@decorum/domain"
import type { ServeError } from "@effect/platform/HttpServerError"
import { createServer } from "node:http"
import { defaultDb, defaultHost, defaultPort } from "./Settings.js"

export interface ServeOptions {
  readonly port?: number
  readonly host?: string
  readonly db?: string
}

export const FIRST_ACCOUNT_EMAIL = "admin@localhost"

const httpConfigFromEnv = () => {
  const limit = process.env["DECORUM_BODY_LIMIT_BYTES"]
  const bodyLimitBytes = limit ? Number(limit) : undefined
  if (bodyLimitBytes !== undefined && (!Number.isInteger(bodyLimitBytes) || bodyLimitBytes < 1024)) {
    throw new Error(`DECORUM_BODY_LIMIT_BYTES must be an integer >= 1024, got "${limit}"`)
  }
  return HttpConfig.layer({
    ...(bodyLimitBytes ? { bodyLimitBytes } : {}),
    publicBaseUrl: process.env["DECORUM_PUBLIC_URL"]?.trim() || null
  })
}

/** `DECORUM_RATE_LIMIT_PER_MINUTE` (and `DECORUM_RATE_LIMIT_BURST`): per-account limits; unset means none. */
const rateLimitFromEnv = () => {
  const perMinute = process.env["DECORUM_RATE_LIMIT_PER_MINUTE"]?.trim()
  if (!perMinute) return Layer.empty
  const rate = Number(perMinute)
  const burstRaw = process.env["DECORUM_RATE_LIMIT_BURST"]?.trim()
  const burst = burstRaw ? Number(burstRaw) : rate
  if (!(rate > 0) || !(burst >= 1)) {
    throw new Error(`DECORUM_RATE_LIMIT_PER_MINUTE and DECORUM_RATE_LIMIT_BURST must be positive numbers`)
  }
  return RateLimiter.memory({ perMinute: rate, burst })
}

/** The whole server as one layer, for `serve` and for tests that start it in-process. */
export const serverLayer = (
  options: ServeOptions = {}
): Layer.Layer<HttpServer.HttpServer | EngineInfo | AccountStore, ConfigError.ConfigError | StoreFailure | ServeError> => {
  const port = options.port ?? defaultPort()
  const host = options.host ?? defaultHost()
  const db = options.db ?? defaultDb()
  const engine = Engine.layerFromEnv({ db })
  return HttpApiBuilder.serve().pipe(
    Layer.provide(HttpApp.layer),
    Layer.provideMerge(Layer.mergeAll(engine, httpConfigFromEnv(), rateLimitFromEnv())),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port, host }))
  )
}

const banner = (options: { url: string; db: string; model: string; version: string }) =>
  `Decorum ${options.version} listening on ${options.url}\n  models: ${options.model}\n  store:  ${options.db.replace(/\/\/([^:@/]+):[^@/]+@/, "//$1:***@")}\n  docs:   ${options.url}/docs`

const firstRun = (url: string) =>
  Effect.gen(function*() {
    const store = yield* AccountStore
    if ((yield* store.countAccounts) > 0) {
      return `Create an API key with: npx decorum keys create --email you@example.com`
    }
    const { key } = yield* Auth.createKey(FIRST_ACCOUNT_EMAIL, "created on first start")
    const body = JSON.stringify({ comment: "Check out my channel!!! Subscribe now at http://spam.example/free-gift" })
    return [
      `First start: created the account ${FIRST_ACCOUNT_EMAIL} with this API key (shown once; store it now):`,
      ``,
      `  ${key}`,
      ``,
      `Try it:`,
      ``,
      `  curl -s ${url}/v0.2/antispam -H 'X-User-Email: ${FIRST_ACCOUNT_EMAIL}' -H 'X-API-Key: ${key}' -H 'Content-Type: application/json' -d '${body}'`,
      ``,
      `  curl -s '${url}/v1alpha1/comments:analyze?key=${key}' -H 'Content-Type: application/json' -d '{"comment":{"text":"you are an idiot"},"requestedAttributes":{"TOXICITY":{},"INSULT":{}}}'`
    ].join("\n")
  })

/** Starts the server and runs until SIGINT or SIGTERM. */
export const serve = async (options: ServeOptions = {}): Promise<void> => {
  const db = options.db ?? defaultDb()
  const program = Effect.scoped(
    Effect.gen(function*() {
      const context = yield* Layer.build(serverLayer({ ...options, db }))
      const address = Context.get(context, HttpServer.HttpServer).address
      const info = Context.get(context, EngineInfo)
      const port = address._tag === "TcpAddress" ? address.port : 0
      const url = `http://localhost:${port}`
      const hint = yield* Effect.provide(firstRun(url), context)
      process.stdout.write(`${banner({ url, db, model: info.modelVersion, version: info.engineVersion })}\n\n${hint}\n`)
      return yield* Effect.never
    })
  )
  // Logs go to stderr in logfmt, so stdout carries only the banner (and scripts can read it).
  const fiber = Effect.runFork(program.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger)))))
  const stop = () => {
    Effect.runFork(Fiber.interrupt(fiber))
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
  const exit = await Effect.runPromise(Fiber.await(fiber))
  process.off("SIGINT", stop)
  process.off("SIGTERM", stop)
  if (Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause)) {
    const failure = Cause.failureOption(exit.cause)
    throw new Error(failure._tag === "Some" ? describeFailure(failure.value) : Cause.pretty(exit.cause))
  }
}

/** A start-up failure in words an operator can act on (a busy port, an unreadable database, ...). */
const describeFailure = (failure: unknown): string => {
  const error = failure as { message?: unknown; cause?: { code?: unknown; message?: unknown } }
  if (error.cause?.code === "EADDRINUSE") return `cannot listen: the address is already in use (${String(error.cause.message)})`
  const message = typeof error.message === "string" ? error.message.trim() : ""
  if (message !== "") return message
  if (typeof error.cause?.message === "string" && error.cause.message !== "") return error.cause.message
  return String(failure)
}
