/**
 * Graceful shutdown of the Node server: on SIGTERM (or SIGINT) the server stops accepting
 * connections, closes idle keep-alive connections, lets every request already received finish
 * (each answered with `Connection: close`), and only then closes the engine and its store. A
 * request still running after the drain timeout (`DECORUM_DRAIN_TIMEOUT_MS`, default 10 s; a stuck
 * or slow client) has its connection closed, so shutdown never waits longer than that. The
 * timeout is `EngineConfig`'s `server.drainTimeoutMs`.
 */
import { Deferred, Duration, Effect, Layer } from "effect"
import type { IncomingMessage, Server, ServerResponse } from "node:http"

/** Requests received and not yet answered (their response not yet closed). */
export interface InFlight {
  readonly size: () => number
  /** From now on every response says `Connection: close`; resolves when none is in flight. */
  readonly drain: () => Promise<void>
}

/** Tracks the requests of `server`. Install before the server serves anything. */
export const track = (server: Server): InFlight => {
  const open = new Set<ServerResponse>()
  let draining = false
  let idle: (() => void) | undefined
  server.on("request", (_request: IncomingMessage, response: ServerResponse) => {
    open.add(response)
    if (draining && !response.headersSent) response.setHeader("connection", "close")
    response.once("close", () => {
      open.delete(response)
      if (draining) {
        // The connection of a finished response is idle now: close it rather than keep it alive.
        server.closeIdleConnections()
        if (open.size === 0) idle?.()
      }
    })
  })
  return {
    size: () => open.size,
    drain: () => {
      draining = true
      for (const response of open) if (!response.headersSent) response.setHeader("connection", "close")
      return open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve))
    }
  }
}

/**
 * A layer whose release drains `server`: build it after (on top of) the layer that serves, so that
 * it is released first, while the app still answers and before the engine and its store close.
 */
export const layer = (server: Server, inFlight: InFlight, timeoutMs: number) =>
  Layer.scopedDiscard(
    Effect.addFinalizer(() =>
      Effect.gen(function*() {
        yield* Effect.logInfo(`Shutdown: draining ${inFlight.size()} request(s) in flight (at most ${timeoutMs} ms)`)
        // Stop accepting; Node also closes the connections that are idle now.
        server.close()
        server.closeIdleConnections()
        const drained = yield* Deferred.make<void>()
        void inFlight.drain().then(() => Effect.runFork(Deferred.succeed(drained, undefined)))
        // A finalizer runs uninterruptibly: the wait is made interruptible so the timeout can end it.
        const finished = yield* Effect.interruptible(Deferred.await(drained)).pipe(Effect.timeoutTo({
          duration: Duration.millis(timeoutMs),
          onSuccess: () => true,
          onTimeout: () => false
        }))
        if (!finished) {
          yield* Effect.logWarning(`Shutdown: ${inFlight.size()} request(s) still running after ${timeoutMs} ms; closing their connections`)
          server.closeAllConnections()
        }
      })
    )
  )
