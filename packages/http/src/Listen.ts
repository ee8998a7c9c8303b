/**
 * `HttpServer` over a Node `http.Server` that listens on a port, without the leak of an interrupted
 * start.
 *
 * `NodeHttpServer.layer` asks the server to listen and waits for the callback, with nothing to
 * undo if the wait is interrupted; its release closes the server only if it already listens. A
 * start interrupted during that wait (SIGTERM while a cluster worker waits for the primary to bind
 * the port, which takes a round trip) released nothing, then the listen completed: the server
 * listened for a process that had finished, and kept it alive. A `decorum serve --workers N` whose
 * first worker failed (a database it cannot open) sent SIGTERM to the others and waited for them
 * forever.
 *
 * Here a listener that is not listening yet when the layer is released is closed the moment it
 * does, so the process ends as it should.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import type { ListenOptions } from "node:net"
import type { Server } from "node:http"

/** Closes `server` now if it listens, or as soon as a listen still under way completes. */
const closeEvenIfLate = (server: Server): void => {
  if (server.listening) {
    server.close()
    return
  }
  server.once("listening", () => server.close())
}

/** `NodeHttpServer.layer` on `server`; once released, the server is closed even if its listen completes later. */
export const layer = (server: Server, options: ListenOptions) =>
  NodeHttpServer.layer(() => server, options).pipe(
    // Built first, so released last: after NodeHttpServer's own release, which closed a server
    // that was listening by then.
    Layer.provideMerge(Layer.scopedDiscard(Effect.addFinalizer(() => Effect.sync(() => closeEvenIfLate(server)))))
  )
