/**
 * A server start interrupted while the listen is under way must not leave a listener behind. A
 * cluster worker's listen waits for the primary to bind the port; a worker told to stop during
 * that wait ended its program, then the listen completed and kept the process alive: `decorum
 * serve --workers 2` with a database it could not open hung forever (seen in CI). Here the listen
 * is held back until after the interruption, as the primary's answer was.
 */
import { Listen } from "@decorum/http/node"
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { createServer, type Server } from "node:http"
import { once } from "node:events"

/** A server whose listen waits until `release` is called, and says when it was asked to listen. */
const delayedListen = () => {
  const server = createServer()
  const listen = server.listen.bind(server) as (...args: Array<unknown>) => Server
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const asked = Deferred.unsafeMake<void>(undefined as never)
  server.listen = ((...args: Array<unknown>) => {
    Effect.runSync(Deferred.succeed(asked, undefined))
    void gate.then(() => listen(...args))
    return server
  }) as typeof server.listen
  return { server, release, asked }
}

describe("Listen.layer", () => {
  it.live("closes a server whose listen completes after the start was interrupted", () =>
    Effect.gen(function*() {
      const { asked, release, server } = delayedListen()
      const scope = yield* Scope.make()
      const fiber = yield* Effect.fork(Layer.buildWithScope(Listen.layer(server, { port: 0, host: "127.0.0.1" }), scope))
      yield* Deferred.await(asked)
      yield* Fiber.interrupt(fiber)
      yield* Scope.close(scope, Exit.void)
      const closed = once(server, "close")
      release()
      yield* Effect.promise(() => once(server, "listening"))
      // Without the late close the server listens on, and this waits until the test times out.
      yield* Effect.promise(() => closed)
      assert.isFalse(server.listening)
    }))

  it.live("serves while the scope is open and closes when it closes", () =>
    Effect.gen(function*() {
      const server = createServer((_, res) => res.end("ok"))
      const scope = yield* Scope.make()
      yield* Layer.buildWithScope(Listen.layer(server, { port: 0, host: "127.0.0.1" }), scope)
      assert.isTrue(server.listening)
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      const text = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/`).then((r) => r.text()))
      assert.strictEqual(text, "ok")
      yield* Scope.close(scope, Exit.void)
      assert.isFalse(server.listening)
    }))
})
