/** `decorum serve`: starts the HTTP server (loaded on demand, so the other commands never load it). */
import { Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { CommandFailure, db, typed } from "./Shared.js"

/** A TCP port, 0 to 65535 (0: any free port). */
export const parsePort = (raw: string): Option.Option<number> => {
  const n = Number(raw)
  return raw.trim() !== "" && Number.isInteger(n) && n >= 0 && n <= 65535 ? Option.some(n) : Option.none()
}

export const port = typed("port", "PORT", parsePort, "a port number").pipe(
  Options.withDescription("The TCP port to listen on (default 8080, or $PORT; 0 picks a free one)."),
  Options.optional
)

export const host = Options.text("host").pipe(
  Options.withPseudoName("HOST"),
  Options.withDescription("The address to bind (default 0.0.0.0, or $HOST)."),
  Options.optional
)

export const metricsPort = typed("metrics-port", "PORT", parsePort, "a port number").pipe(
  Options.withDescription("Serve GET /metrics (Prometheus text) on this port, apart from the API (or $DECORUM_METRICS_PORT)."),
  Options.optional
)

export const workers = typed("workers", "N", (raw) => {
  const n = Number(raw)
  return Number.isInteger(n) && n >= 1 && n <= 256 ? Option.some(n) : Option.none()
}, "a whole number from 1 to 256").pipe(
  Options.withDescription("Server processes sharing the port (default: one per core; 1 serves in a single process)."),
  Options.optional
)

export const command = Command.make("serve", { port, host, db, metricsPort, workers }, (args) =>
  Effect.tryPromise({
    try: async () => {
      const { serve } = await import("../Serve.js")
      await serve({
        ...Option.match(args.port, { onNone: () => ({}), onSome: (port) => ({ port }) }),
        ...Option.match(args.host, { onNone: () => ({}), onSome: (host) => ({ host }) }),
        ...Option.match(args.db, { onNone: () => ({}), onSome: (db) => ({ db }) }),
        ...Option.match(args.metricsPort, { onNone: () => ({}), onSome: (metricsPort) => ({ metricsPort }) }),
        ...Option.match(args.workers, { onNone: () => ({}), onSome: (workers) => ({ workers }) }),
        // Refits run on worker threads started on this same script (bin.ts dispatches them).
        ...(process.argv[1] === undefined ? {} : { refitWorkerEntry: process.argv[1] })
      })
    },
    catch: (e) => new CommandFailure({ message: e instanceof Error ? e.message : String(e) })
  })).pipe(Command.withDescription("Run the HTTP server (Perspective and native APIs) until SIGINT or SIGTERM."))
