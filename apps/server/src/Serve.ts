/**
 * `decorum serve`: the Node HTTP host. Wiring only: the engine and its configuration (from
 * `@decorum/engine`), the HTTP contract (from `@decorum/http`) and Node's HTTP server. On a first
 * start with no account it creates one and prints a key and a curl line that works.
 */
import { AccountStore, Auth, EngineInfo, ENGINE_VERSION } from "@decorum/core"
import { DEFAULT_DRAIN_TIMEOUT_MS, Engine, EngineConfig, type EngineSettings, RefitWorker } from "@decorum/engine"
import { HttpApp, NodeServer, Observability, Readiness, Telemetry } from "@decorum/http"
import { FastPath, Listen } from "@decorum/http/node"
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Config, ConfigError, Context, Effect, Layer, Logger, Redacted } from "effect"
import type { StoreFailure } from "@decorum/domain"
import type { ServeError } from "@effect/platform/HttpServerError"
import cluster, { type Worker } from "node:cluster"
import type { Server } from "node:http"
import { availableParallelism } from "node:os"
import * as ClusterMetrics from "./ClusterMetrics.js"
import * as Drain from "./Drain.js"

/** What the command line sets; each overrides its variable (`--port` over `PORT`, ...). */
export interface ServeOptions {
  readonly port?: number
  readonly host?: string
  readonly db?: string
  /** `--metrics-port`: `/metrics` on its own listener. */
  readonly metricsPort?: number
  /** Server processes sharing the port (node:cluster). Default: one per core; 1 serves in this process. */
  readonly workers?: number
  /** Over `DECORUM_FAST_PATH`: the fast path for the hot routes (tests and benchmarks compare both). */
  readonly fastPath?: boolean
  /**
   * The script refit worker threads start on (it must run `RefitWorker.runRefitWorker` for them, as
   * the `decorum` command's `bin.ts` does). Unset: automatic refits compute on the serving thread.
   */
  readonly refitWorkerEntry?: string | URL
}

export const FIRST_ACCOUNT_EMAIL = "admin@localhost"

/** The configuration from the environment, with the command line's flags over it. */
export const configWith = (options: ServeOptions): Config.Config<EngineSettings> =>
  Config.map(EngineConfig.config, (settings) => ({
    ...settings,
    store: options.db === undefined ? settings.store : { db: Redacted.make(options.db), source: "option" },
    server: {
      ...settings.server,
      port: options.port ?? settings.server.port,
      host: options.host ?? settings.server.host,
      fastPath: options.fastPath ?? settings.server.fastPath
    },
    observability: options.metricsPort === undefined ? settings.observability : { ...settings.observability, metricsPort: options.metricsPort }
  }))

/** OTLP export when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; nothing otherwise. */
export const telemetryLayer = (settings: EngineSettings, serviceVersion: string) =>
  Telemetry.layer(settings.observability.otlp && { ...settings.observability.otlp, serviceVersion })

/** `/metrics` alone on its own port (`--metrics-port`, `DECORUM_METRICS_PORT`) and interface (`DECORUM_METRICS_HOST`, loopback by default), beside the API. */
export class MetricsServer extends Context.Tag("@decorum/server/MetricsServer")<MetricsServer, HttpServer.HttpServer | null>() {}

/** Built after the API (it needs its `EngineInfo`), never beside it: a failing start must not race a listener. */
const metricsListener = (settings: EngineSettings) =>
  settings.observability.metricsPort === null
    ? Layer.succeed(MetricsServer, null)
    : Layer.effect(MetricsServer, HttpServer.HttpServer).pipe(
      Layer.provideMerge(HttpServer.serve(Observability.metricsApp)),
      Layer.provide(Listen.layer(NodeServer.createServer(), { port: settings.observability.metricsPort, host: settings.observability.metricsHost }))
    )

/** In a cluster worker with metrics on, `/metrics` reports the whole server (gathered by the primary). */
const workerMetrics = (settings: EngineSettings) =>
  cluster.isWorker && (settings.observability.metrics || settings.observability.metricsPort !== null) ? ClusterMetrics.layerWorker : Layer.empty

/** Node's `http.Server` behind the API (benchmarks hand it requests made in memory). */
export class NodeListener extends Context.Tag("@decorum/server/NodeListener")<NodeListener, Server>() {}

/** The whole server on the `EngineConfig` service. */
export const layerWith = (options: Pick<ServeOptions, "refitWorkerEntry"> = {}): Layer.Layer<
  HttpServer.HttpServer | EngineInfo | AccountStore | MetricsServer | NodeListener,
  ConfigError.ConfigError | StoreFailure | ServeError,
  EngineConfig
> => Layer.unwrapEffect(
  Effect.map(EngineConfig, (settings) => {
    // Node's server with its own parser rejections (400, 431, 417, ...) answered in an envelope.
    const server = NodeServer.createServer()
    const inFlight = Drain.track(server)
    // DECORUM_ADAPT_EVERY: a fiber of this process refits adapters in the background, off the
    // request path (a correction's answer never waits for it), each fit on a worker thread of its
    // own when the host gives the script to start it on (so no answer waits for the fit's CPU either).
    // (Not with the `memory` store, which only this thread can see.)
    const runner = options.refitWorkerEntry === undefined || Redacted.value(settings.store.db) === "memory"
      ? undefined
      : RefitWorker.layer(options.refitWorkerEntry, settings.store.db)
    const engine = settings.adaptation.every === null
      ? Engine.layer
      : Engine.layerRefit(settings.adaptation.every, runner).pipe(Layer.provideMerge(Engine.layer))
    return HttpApiBuilder.serve().pipe(
      Layer.provide(HttpApp.layer),
      Layer.provide(FastPath.layer(server, { enabled: settings.server.fastPath })),
      Layer.provideMerge(
        Layer.mergeAll(engine, HttpApp.settingsLayer(settings), workerMetrics(settings), Readiness.layer(inFlight.stopping))
      ),
      Layer.provideMerge(Listen.layer(server, { port: settings.server.port, host: settings.server.host })),
      // Layers are released in reverse: the drain before the app (which still answers while it
      // runs), the engine and its store, and the listener.
      (api) =>
        Drain.layer(server, inFlight, { timeoutMs: settings.server.drainTimeoutMs, graceMs: settings.server.drainGraceMs }).pipe(Layer.provideMerge(api)),
      (api) => metricsListener(settings).pipe(Layer.provideMerge(api)),
      Layer.merge(Layer.succeed(NodeListener, server)),
      // With no OTLP endpoint nothing reads the spans: they are turned off (building, timing and
      // ending a span object for every request and step costs more than the model). With one, the
      // exporter's tracer records them.
      Layer.provide(settings.observability.otlp === null ? Layer.setTracerEnabled(false) : telemetryLayer(settings, ENGINE_VERSION))
    )
  })
)

/** The whole server as one layer, configured from the environment and the flags, for `serve` and for tests. */
export const serverLayer = (
  options: ServeOptions = {}
): Layer.Layer<HttpServer.HttpServer | EngineInfo | AccountStore | EngineConfig | MetricsServer | NodeListener, ConfigError.ConfigError | StoreFailure | ServeError> =>
  layerWith(options).pipe(Layer.provideMerge(EngineConfig.layerConfig(configWith(options))))

const banner = (options: { url: string; db: string; model: string; judge?: string; version: string }) =>
  `Decorum ${options.version} listening on ${options.url}\n  models: ${options.model}\n${options.judge === undefined ? "" : `  judge:  ${options.judge}\n`}  store:  ${options.db.replace(/\/\/([^:@/]+):[^@/]+@/, "//$1:***@")}\n  docs:   ${options.url}/docs\n  playground: ${options.url}/playground (paste a comment, see every evaluation)`

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
      `Try it in a browser: open ${url}/playground and sign in with ${FIRST_ACCOUNT_EMAIL} and this key. Or with curl:`,
      ``,
      `  curl -s ${url}/v0.2/antispam -H 'X-User-Email: ${FIRST_ACCOUNT_EMAIL}' -H 'X-API-Key: ${key}' -H 'Content-Type: application/json' -d '${body}'`,
      ``,
      `  curl -s '${url}/v1alpha1/comments:analyze?key=${key}' -H 'Content-Type: application/json' -d '{"comment":{"text":"you are an idiot"},"requestedAttributes":{"TOXICITY":{},"INSULT":{}}}'`
    ].join("\n")
  })

/** What a cluster worker tells the primary once it listens, so the banner is printed once. */
interface Listening {
  readonly type: "decorum-listening"
  readonly url: string
  readonly db: string
  readonly model: string
  readonly judge?: string
  readonly version: string
}

/** The judge's line of the banner: its model and mode, or why scores are the linear models' alone. */
const judgeLine = (judge: EngineInfo["Type"]["judge"]): string | undefined =>
  judge === undefined ? undefined
  : judge.state === "ready" ? `${judge.model ?? "?"} (DECORUM_JUDGE=${judge.mode}${judge.backend === "operator" ? ", your model" : ""})`
  : judge.state === "off" ? `off (DECORUM_JUDGE=${judge.mode})`
  : `unavailable, linear scores only: ${judge.reason ?? "no reason given"}`

/**
 * Once the server listens: the banner and the first-run hint on stdout, or, in a cluster worker,
 * the message that lets the primary print them once for every worker.
 */
const announce = Layer.effectDiscard(
  Effect.gen(function*() {
    const address = (yield* HttpServer.HttpServer).address
    const info = yield* EngineInfo
    const db = Redacted.value((yield* EngineConfig).store.db)
    const url = `http://localhost:${address._tag === "TcpAddress" ? address.port : 0}`
    if (cluster.isWorker) {
      const judge = judgeLine(info.judge)
      const listening: Listening = { type: "decorum-listening", url, db, model: info.modelVersion, version: info.engineVersion, ...(judge === undefined ? {} : { judge }) }
      process.send?.(listening)
      return
    }
    const hint = yield* firstRun(url)
    const line = judgeLine(info.judge)
    process.stdout.write(`${banner({ url, db, model: info.modelVersion, version: info.engineVersion, ...(line === undefined ? {} : { judge: line }) })}\n\n${hint}\n`)
  })
)

/**
 * From the first SIGINT or SIGTERM until the server has closed, the next ones are ignored:
 * `NodeRuntime.runMain` stops listening after the first (its interruption starts the drain), and
 * a second one (`npx` forwards the signal `pkill` also sent to this process; a primary signals the
 * workers a terminal's Ctrl-C already reached) must not end the process by default while it
 * drains. Built first, so released last.
 */
const holdSignals = Layer.scopedDiscard(
  Effect.acquireRelease(
    Effect.sync(() => {
      const ignore = () => {}
      process.on("SIGINT", ignore)
      process.on("SIGTERM", ignore)
      return ignore
    }),
    (ignore) =>
      Effect.sync(() => {
        process.off("SIGINT", ignore)
        process.off("SIGTERM", ignore)
      })
  )
)

/**
 * The drain closes every connection at its limit; should closing the engine or the store then
 * hang, the process still ends (with 1: something did not close) rather than outlive it. Built
 * last, so released first: the clock starts with the shutdown. A second later than a cluster
 * primary's own kill, so that in a cluster the primary says which.
 */
const watchdog = Layer.scopedDiscard(
  Effect.flatMap(EngineConfig, ({ server }) =>
    Effect.addFinalizer(() =>
      Effect.sync(() => {
        const margin = STOP_MARGIN_MS + 1_000
        setTimeout(() => {
          process.stderr.write(`decorum: still closing ${margin} ms past the drain limit (${server.drainTimeoutMs} ms); exiting\n`)
          process.exit(1)
        }, server.drainTimeoutMs + margin).unref()
      })
    ))
)

/**
 * One server process, as a program: the server layer launched (it serves until interrupted), with
 * its banner. A start-up failure is written in words an operator can act on (exit 1).
 */
export const program = (options: ServeOptions): Effect.Effect<never, unknown> =>
  Layer.launch(Layer.mergeAll(announce, watchdog).pipe(Layer.provide(serverLayer(options)), Layer.provide(holdSignals))).pipe(
    Effect.tapErrorCause((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.void : Effect.sync(() => {
        const failure = Cause.failureOption(cause)
        process.stderr.write(`decorum: ${failure._tag === "Some" ? describeFailure(failure.value) : Cause.pretty(cause)}\n`)
      })
    ),
    // Logs go to stderr in logfmt, so stdout carries only the banner (and scripts can read it).
    Effect.provide(Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger)))
  )

/**
 * One server process until SIGINT or SIGTERM, on `NodeRuntime.runMain`: the first signal
 * interrupts the program, whose finalizers drain the server (`Drain.ts`) and close the engine and
 * its store; the process then exits 0 (1 when the start failed or something did not close).
 */
const serveProcess = (options: ServeOptions): Promise<never> =>
  new Promise<never>(() => NodeRuntime.runMain(program(options), { disableErrorReporting: true, disablePrettyLogger: true }))

/** A worker that dies sooner than this after its start is restarted after a pause, not at once. */
const QUICK_DEATH_MS = 5_000

/**
 * How long past its drain limit a worker told to stop may take (closing the store, exiting) before
 * it is killed. Its drain ends at the limit whatever its clients do, so this is only for closing.
 */
const STOP_MARGIN_MS = 2_000

/**
 * The cluster primary: forks `count` workers running this same command (they share the port),
 * prints the banner once all of them listen (creating the first account once), restarts a worker that dies, and on
 * SIGINT or SIGTERM stops every worker (each finishes its in-flight requests) and returns.
 *
 * A worker still running `killAfterMs` after it was told to stop (its drain timeout, and a margin
 * for closing the store) is killed: the primary never waits for a worker forever.
 */
const servePrimary = async (count: number, killAfterMs: number): Promise<void> => {
  const started = new Map<number, number>()
  let stopping = false
  let announced = false
  let printed = false
  let startupFailure: string | undefined
  const fork = () => started.set(cluster.fork().id, Date.now())
  let finish: () => void = () => {}
  const finished = new Promise<void>((resolve) => (finish = resolve))
  const live = () => Object.values(cluster.workers ?? {}).filter((w) => w !== undefined && !w.isDead())

  const stop = (signal?: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    const workers = live()
    if (signal !== undefined && workers.length > 0) {
      process.stderr.write(`decorum: ${signal}, stopping: waiting for ${workers.length} server process${workers.length === 1 ? "" : "es"} to finish their requests\n`)
    }
    for (const worker of workers) worker!.process.kill("SIGTERM")
    if (live().length === 0) return finish()
    const kill = setTimeout(() => {
      for (const worker of live()) {
        process.stderr.write(`decorum: server process ${worker!.process.pid} still running ${killAfterMs} ms after SIGTERM; killing it\n`)
        worker!.process.kill("SIGKILL")
      }
    }, killAfterMs)
    void finished.then(() => clearTimeout(kill))
  }
  // A scrape of /metrics on any worker: the merged figures of every live worker.
  cluster.on("message", ClusterMetrics.primary(() => live() as Array<Worker>))
  // The banner, the servers' signal that they are ready, is printed once every first worker
  // listens (a replacement of one that died before listening counts in its place).
  const listening = new Set<number>()
  cluster.on("message", (worker, message: Listening) => {
    if (message?.type !== "decorum-listening") return
    // From the first worker that listens on, a worker that dies is replaced rather than a failed start.
    announced = true
    listening.add(worker.id)
    if (printed || listening.size < count) return
    printed = true
    const hint = Effect.runPromise(
      Effect.provide(firstRun(message.url), Engine.layerStore(Redacted.make(message.db))).pipe(
        Effect.catchAll((e) => Effect.succeed(`(could not check the accounts: ${e.message})`))
      )
    )
    void hint.then((text) => process.stdout.write(`${banner(message)}\n  workers: ${count} processes\n\n${text}\n`))
  })
  cluster.on("exit", (worker, code, signal) => {
    const life = Date.now() - (started.get(worker.id) ?? 0)
    started.delete(worker.id)
    if (stopping) {
      if (live().length === 0) finish()
      return
    }
    if (!announced) {
      // No worker ever listened: a configuration or port problem every restart would repeat.
      startupFailure = `a server process could not start (exit code ${code ?? signal})`
      stop()
      return
    }
    process.stderr.write(`decorum: server process ${worker.process.pid} exited (${code ?? signal}); starting another\n`)
    if (life < QUICK_DEATH_MS) setTimeout(() => stopping || fork(), 1_000)
    else fork()
  })
  // Handled until every worker has exited (see serveProcess): a second signal changes nothing.
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
  // Each worker accepts from the shared listening socket itself (rather than the primary accepting
  // and handing each connection over, node:cluster's default on Linux). With the hand-over, a
  // SIGTERM reset the connections the primary had accepted and not yet handed over, and left
  // unanswered the ones a worker refused because it had stopped listening: a rolling deploy lost
  // requests whose bytes had arrived. Now every connection in the queue when the workers stop is
  // taken by one of them and answered (Drain.ts).
  cluster.schedulingPolicy = cluster.SCHED_NONE
  for (let i = 0; i < count; i++) fork()
  await finished
  process.off("SIGINT", stop)
  process.off("SIGTERM", stop)
  if (startupFailure !== undefined) throw new Error(startupFailure)
}

/**
 * Starts the server and runs until SIGINT or SIGTERM: `workers` processes on one port (default
 * one per core), or this process alone with `workers: 1`.
 */
export const serve = async (options: ServeOptions = {}): Promise<void> => {
  const workers = options.workers ?? availableParallelism()
  if (cluster.isPrimary && workers > 1) {
    const drainTimeoutMs = await prepareStore(options)
    return servePrimary(workers, drainTimeoutMs + STOP_MARGIN_MS)
  }
  return serveProcess(options)
}

/**
 * Opens and migrates the store once in the primary before any worker starts. On a first start the
 * SQLite file does not exist yet, and workers started together would each create it and switch it
 * to WAL at the same moment: SQLite refuses one of them at once ("database is locked", since
 * waiting could deadlock), and that worker's failure stopped the whole server (seen once in 25
 * fresh starts of `npx decorum serve`). Concurrent first migrations race the same way. Any failure
 * here is left for the workers to report, in the words they always use. Gives the workers' drain
 * timeout (the default when the configuration is bad: the workers will say why and exit).
 */
const prepareStore = (options: ServeOptions): Promise<number> =>
  Effect.runPromise(
    Effect.flatMap(configWith(options), (settings) =>
      Effect.scoped(Layer.build(Engine.layerStore(settings.store.db))).pipe(Effect.ignore, Effect.as(settings.server.drainTimeoutMs))).pipe(
        Effect.orElseSucceed(() => DEFAULT_DRAIN_TIMEOUT_MS)
      )
  )

/** A start-up failure in words an operator can act on (a busy port, an unreadable database, ...). */
const describeFailure = (failure: unknown): string => {
  if (ConfigError.isConfigError(failure)) return `bad configuration:\n${EngineConfig.describe(failure)}`
  const error = failure as { message?: unknown; cause?: { code?: unknown; message?: unknown } }
  if (error.cause?.code === "EADDRINUSE") return `cannot listen: the address is already in use (${String(error.cause.message)})`
  const message = typeof error.message === "string" ? error.message.trim() : ""
  if (message !== "") return message
  if (typeof error.cause?.message === "string" && error.cause.message !== "") return error.cause.message
  return String(failure)
}
