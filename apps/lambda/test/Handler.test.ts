import { AccountStore, Auth } from "@decorum/core"
import { ProviderFailure, StoreFailure } from "@decorum/domain"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { engineLayer } from "../../../packages/http/test/harness.js"
import * as Handler from "../src/Handler.js"
import { fixtures, toEvent, toResponse } from "./aws.js"

describe("Lambda handler", () => {
  const scope = Effect.runSync(Scope.make())
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  it("builds the runtime once and reuses it across invocations", async () => {
    let builds = 0
    const engine = Layer.unwrapEffect(Effect.sync(() => {
      builds++
      return engineLayer(undefined)
    }))
    const handler = Handler.make(engine, { jsonLogs: false })
    assert.isTrue(await handler.ready())
    for (let i = 0; i < 3; i++) {
      const res = toResponse(await handler(toEvent("v2", "/healthz")))
      assert.deepStrictEqual(await res.json(), { status: "ok" })
    }
    assert.strictEqual(builds, 1)
    await handler.dispose()
  })

  it("answers 503 when the engine cannot start, and builds again on the next event", async () => {
    let attempts = 0
    const engine = Layer.unwrapEffect(Effect.sync(() =>
      ++attempts === 1 ? Layer.fail(new StoreFailure({ operation: "PgStore.connect", message: "connection refused" })) : engineLayer(undefined)
    ))
    const handler = Handler.make(engine, { jsonLogs: false })
    const first = toResponse(await handler(toEvent("v1", "/healthz")))
    assert.strictEqual(first.status, 503)
    const body = (await first.json()) as { error: unknown; message: unknown; code: unknown }
    assert.deepStrictEqual({ error: body.error, code: body.code }, { error: "Service Unavailable", code: 503 })
    assert.isString(body.message)
    const second = toResponse(await handler(toEvent("v1", "/healthz")))
    assert.strictEqual(second.status, 200)
    assert.strictEqual(attempts, 2)
    await handler.dispose()
  })

  it("dispose() lets invocations in flight finish before the runtime closes; later ones answer 503 (issue 10, item 4)", async () => {
    const N = 4
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let arrived!: () => void
    const allArrived = new Promise<void>((resolve) => (arrived = resolve))
    let count = 0
    let closed = false
    // Held requests wait in the provider until released; they fail if the runtime closed under them.
    const hook = (_section: string, comment: string) =>
      comment.includes("[held]")
        ? Effect.gen(function*() {
          if (++count === N) arrived()
          yield* Effect.promise(() => released)
          if (closed) return yield* new ProviderFailure({ provider: "test", evaluation: "perspective", message: "closed under a request" })
        })
        : Effect.void
    const prebuilt = await Effect.runPromise(Layer.buildWithScope(engineLayer(hook), scope))
    const key = await Effect.runPromise(Effect.provide(Effect.map(Auth.createKey("lambda@example.com"), (k) => k.key), Context.pick(AccountStore)(prebuilt)))
    // The runtime the handler builds (and dispose closes) marks itself closed on release.
    const engine = Layer.merge(Layer.succeedContext(prebuilt), Layer.scopedDiscard(Effect.addFinalizer(() => Effect.sync(() => (closed = true)))))
    const handler = Handler.make(engine, { jsonLogs: false })
    assert.isTrue(await handler.ready())
    const analyze = (text: string) =>
      handler(toEvent("v2", `/v1alpha1/comments:analyze?key=${key}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ comment: { text }, requestedAttributes: { TOXICITY: {} } })
      }))
    const held = Array.from({ length: N }, (_, i) => analyze(`held ${i} [held]`))
    await allArrived
    const disposing = handler.dispose()
    const late = toResponse(await analyze("too late"))
    assert.strictEqual(late.status, 503)
    assert.strictEqual((await late.json()).error.status, "UNAVAILABLE")
    release()
    for (const result of await Promise.all(held)) assert.strictEqual(toResponse(result).status, 200)
    await disposing
    assert.isTrue(closed)
  })

  it("builds the discovery rootUrl from the platform's host and protocol, not a client's X-Forwarded-Host (issue 10, item 5)", async () => {
    const handler = Handler.make(engineLayer(undefined), { jsonLogs: false })
    for (const kind of ["v1", "v2", "url"] as const) {
      const base = kind === "v1" ? fixtures.v1().headers!["Host"]! : (kind === "v2" ? fixtures.v2() : fixtures.url()).headers!["host"]!
      const res = toResponse(await handler(toEvent(kind, "/$discovery/rest?version=v1alpha1", { headers: { "x-forwarded-host": "attacker.example" } })))
      assert.strictEqual(((await res.json()) as { rootUrl: string }).rootUrl, `https://${base}/`)
    }
    await handler.dispose()
  })

  it("refuses events that are not HTTP events", async () => {
    const handler = Handler.make(engineLayer(undefined), { jsonLogs: false })
    const refused = await handler({ Records: [] } as never).then(() => undefined, (error: unknown) => error)
    assert.instanceOf(refused, Error)
    assert.match((refused as Error).message, /HTTP events only/)
    await handler.dispose()
  })
})
