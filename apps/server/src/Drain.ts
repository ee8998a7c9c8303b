/**
 * Graceful shutdown of the Node server (a rolling deploy loses nothing). On SIGTERM (or SIGINT):
 *
 * 1. At once: `/readyz` answers 503 and every response from now on says `Connection: close`.
 * 2. For the grace period (`DECORUM_DRAIN_GRACE_MS`, default 0) the listener stays open and serves
 *    as usual, so that a load balancer that has not yet seen the 503 loses nothing it sends.
 * 3. Then the listener closes, but only after one more full turn of the event loop: every
 *    connection already in the kernel's accept queue is accepted first, and every byte already
 *    in a connection's buffer is read (the signal can be handled before the sockets that became
 *    readable before it). Closing the listener at once reset those connections, and closing
 *    "idle" connections at once cut requests whose bytes had arrived but were not read yet.
 * 4. Idle keep-alive connections (no request begun on them) are closed; every other connection
 *    is answered (with `Connection: close`) and closed by its response.
 * 5. Whatever is still open when the drain limit (`DECORUM_DRAIN_TIMEOUT_MS`, counted from the
 *    signal, grace included) passes is closed, so nothing outlives it. Then the engine and its
 *    store close.
 *
 * The work counted is per connection, not per `request` event: a connection counts from the
 * moment it is accepted until its last response is sent, so a request whose headers have not all
 * been read yet, a megacall, or a `/batch` and all its parts (answered as one response) count.
 */
import { Deferred, Duration, Effect, Layer } from "effect"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { Socket } from "node:net"

/** The connections of a server, and its drain. */
export interface InFlight {
  /** Requests received and not yet answered. */
  readonly requests: () => number
  /** Connections open and not yet answered for good (idle keep-alive ones included). */
  readonly connections: () => number
  /** Connections accepted since the start. */
  readonly accepted: () => number
  /** Whether the drain has begun (readiness then answers 503). */
  readonly stopping: () => boolean
  /** From now on every response says `Connection: close`. */
  readonly begin: () => void
  /**
   * Closes idle connections (nothing begun on them) and resolves when every connection has been
   * answered (its last response sent with `Connection: close`) or closed.
   */
  readonly drained: () => Promise<void>
  /** Closes every connection still open (the drain limit passed). */
  readonly destroyAll: () => void
}

interface Tracked {
  /** Responses begun on the connection and not yet finished. */
  pending: number
  /** A response with `Connection: close` has finished on it: Node ends it; nothing more is read. */
  served: boolean
}

/** Tracks the connections and requests of `server`. Install before the server serves anything. */
export const track = (server: Server): InFlight => {
  const sockets = new Map<Socket, Tracked>()
  let requests = 0
  let accepted = 0
  let stopping = false
  let check: (() => void) | undefined
  const done = (t: Tracked) => t.served && t.pending === 0
  server.on("connection", (socket: Socket) => {
    accepted++
    const tracked: Tracked = { pending: 0, served: false }
    sockets.set(socket, tracked)
    socket.once("close", () => {
      sockets.delete(socket)
      check?.()
    })
  })
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    requests++
    const tracked = sockets.get(request.socket as Socket)
    if (tracked) tracked.pending++
    if (stopping && !response.headersSent) response.setHeader("connection", "close")
    let settled = false
    const settle = () => {
      if (settled) return
      settled = true
      requests--
      if (tracked) {
        tracked.pending--
        // Node ends a connection after a response that says `Connection: close`.
        if (!response.shouldKeepAlive || /close/i.test(String(response.getHeader("connection") ?? ""))) tracked.served = true
      }
      check?.()
    }
    response.once("finish", settle)
    response.once("close", settle)
  })
  return {
    requests: () => requests,
    connections: () => [...sockets.values()].filter((t) => !done(t)).length,
    accepted: () => accepted,
    stopping: () => stopping,
    begin: () => {
      stopping = true
      // Responses not begun yet: Node reads the header when it writes the head.
      for (const [socket, tracked] of sockets) {
        const current = (socket as { _httpMessage?: ServerResponse | null })._httpMessage
        if (tracked.pending > 0 && current && !current.headersSent) current.setHeader("connection", "close")
      }
    },
    drained: () =>
      new Promise<void>((resolve) => {
        // Node's idle connections: nothing of a request read on them (its parser's view, so a
        // request whose headers are half read is not idle), and no response being written.
        server.closeIdleConnections()
        check = () => {
          for (const tracked of sockets.values()) if (!done(tracked)) return
          check = undefined
          resolve()
        }
        check()
      }),
    destroyAll: () => {
      server.closeAllConnections()
      for (const socket of sockets.keys()) socket.destroy()
    }
  }
}

/** Resolves after the event loop has polled for I/O once more (two check phases from now). */
const anotherPoll = Effect.async<void>((resume) => {
  setImmediate(() => setImmediate(() => resume(Effect.void)))
})

/** The most connections a listener's accept queue holds (Node's default backlog, 511, and one). */
const ACCEPT_QUEUE = 512

/**
 * Lets the event loop take every connection already in the listener's accept queue. libuv accepts
 * one connection per turn of the loop (measured: two per `anotherPoll` on Node 24), so a busy
 * server can have dozens queued whose clients have sent their whole request: the loop turns until
 * a turn accepts nothing (the queue is empty), at most `ACCEPT_QUEUE` times (what arrives meanwhile
 * came after the signal), and reads what is buffered on the connections taken.
 */
const acceptQueued = (inFlight: InFlight) =>
  Effect.gen(function*() {
    for (let turn = 0; turn < ACCEPT_QUEUE; turn++) {
      const before = inFlight.accepted()
      yield* anotherPoll
      if (inFlight.accepted() === before) break
    }
    // The last connections taken: their bytes are read on the next turn.
    yield* anotherPoll
  })

/**
 * A layer whose release drains `server`: build it after (on top of) the layer that serves, so that
 * it is released first, while the app still answers and before the engine and its store close.
 * `graceMs` is part of `timeoutMs`.
 */
export const layer = (server: Server, inFlight: InFlight, options: { readonly timeoutMs: number; readonly graceMs: number }) =>
  Layer.scopedDiscard(
    Effect.addFinalizer(() =>
      Effect.gen(function*() {
        const started = Date.now()
        inFlight.begin()
        const grace = Math.min(options.graceMs, options.timeoutMs)
        yield* Effect.logInfo(
          `Shutdown: stopping: /readyz answers 503; ` +
            (grace > 0 ? `accepting for ${grace} ms more (DECORUM_DRAIN_GRACE_MS), then ` : "") +
            `draining (at most ${options.timeoutMs} ms in all)`
        )
        // A finalizer runs uninterruptibly: the waits are made interruptible so the limit can end them.
        const work = Effect.gen(function*() {
          if (grace > 0) yield* Effect.sleep(Duration.millis(grace))
          // Accept what is in the accept queue and read what is in the sockets' buffers, then close.
          yield* acceptQueued(inFlight)
          server.close()
          yield* Effect.logInfo(`Shutdown: draining ${inFlight.requests()} request(s) in flight on ${inFlight.connections()} connection(s); no longer accepting`)
          const drained = yield* Deferred.make<void>()
          void inFlight.drained().then(() => Effect.runFork(Deferred.succeed(drained, undefined)))
          yield* Deferred.await(drained)
        })
        const finished = yield* Effect.interruptible(work).pipe(Effect.timeoutTo({
          duration: Duration.millis(Math.max(0, options.timeoutMs - (Date.now() - started))),
          onSuccess: () => true,
          onTimeout: () => false
        }))
        if (!finished) {
          server.close()
          yield* Effect.logWarning(`Shutdown: ${inFlight.requests()} request(s) still running after ${options.timeoutMs} ms; closing their connections`)
        }
        // Nothing outlives the drain: a connection left (a client that never closed its side) is closed.
        inFlight.destroyAll()
      })
    )
  )
