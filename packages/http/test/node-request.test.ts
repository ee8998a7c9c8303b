/**
 * The fast path's `HttpServerRequest` over Node's `IncomingMessage` (`internal/nodeRequest.ts`)
 * reads its body with the Node host's one collector (`Body.collectNodeBytes`): a client that goes
 * away in the middle of its body settles the read at once, instead of leaving the request (and
 * what it holds) waiting for an end that never comes.
 */
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Exit, Option } from "effect"
import { createServer, type IncomingMessage, request as httpRequest } from "node:http"
import type { AddressInfo } from "node:net"
import { NodeRequest } from "../src/internal/nodeRequest.js"

/**
 * A server on a free port (closed with the scope) whose first request is handed over, and a client
 * request to it that `send` starts (its errors are ignored: the tests break connections on purpose).
 */
const firstRequest = (headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const arrived = yield* Deferred.make<IncomingMessage>()
    const server = createServer((request) => Deferred.unsafeDone(arrived, Exit.succeed(request)))
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
      () => Effect.sync(() => server.close())
    )
    const { port } = server.address() as AddressInfo
    const client = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/", headers })
    client.on("error", () => {})
    return { client, incoming: Deferred.await(arrived) }
  })

describe("NodeRequest body", () => {
  it.live("a client aborting mid-body fails the read at once", () =>
    Effect.gen(function*() {
      const { client, incoming: arrived } = yield* firstRequest({ "content-length": "1000" })
      client.write("{\"comment\":")
      const incoming = yield* arrived
      const read = yield* Effect.fork(new NodeRequest(incoming).text)
      client.destroy()
      // Settled by the stream's close; the bound only keeps a regression from hanging the suite.
      const exit = yield* read.await.pipe(Effect.timeout(Duration.seconds(5)), Effect.option)
      assert.isTrue(Option.isSome(exit), "the read was still waiting 5 s after the client went away")
      assert.isTrue(Exit.isFailure(Option.getOrThrow(exit)))
    }).pipe(Effect.scoped))

  it.live("a request destroyed mid-body without an error (only 'close' is emitted) fails the read at once", () =>
    Effect.gen(function*() {
      const { client, incoming: arrived } = yield* firstRequest({ "content-length": "1000" })
      client.write("{\"comment\":")
      const incoming = yield* arrived
      const read = yield* Effect.fork(new NodeRequest(incoming).text)
      incoming.destroy()
      const exit = yield* read.await.pipe(Effect.timeout(Duration.seconds(5)), Effect.option)
      assert.isTrue(Option.isSome(exit), "the read was still waiting 5 s after the request was destroyed")
      assert.isTrue(Exit.isFailure(Option.getOrThrow(exit)))
      client.destroy()
    }).pipe(Effect.scoped))

  it.live("reads a whole body as UTF-8", () =>
    Effect.gen(function*() {
      const { client, incoming: arrived } = yield* firstRequest()
      client.end("{\"comment\":\"é\"}")
      const incoming = yield* arrived
      assert.strictEqual(yield* new NodeRequest(incoming).text, "{\"comment\":\"é\"}")
      client.destroy()
    }).pipe(Effect.scoped))
})
