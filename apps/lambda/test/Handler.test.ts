import { StoreFailure } from "@decorum/domain"
import { Effect, Exit, Layer, Scope } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { engineLayer } from "../../../packages/http/test/harness.js"
import * as Handler from "../src/Handler.js"
import { toEvent, toResponse } from "./aws.js"

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
    expect(await handler.ready()).toBe(true)
    for (let i = 0; i < 3; i++) {
      const res = toResponse(await handler(toEvent("v2", "/healthz")))
      expect(await res.json()).toEqual({ status: "ok" })
    }
    expect(builds).toBe(1)
    await handler.dispose()
  })

  it("answers 503 when the engine cannot start, and builds again on the next event", async () => {
    let attempts = 0
    const engine = Layer.unwrapEffect(Effect.sync(() =>
      ++attempts === 1 ? Layer.fail(new StoreFailure({ operation: "PgStore.connect", message: "connection refused" })) : engineLayer(undefined)
    ))
    const handler = Handler.make(engine, { jsonLogs: false })
    const first = toResponse(await handler(toEvent("v1", "/healthz")))
    expect(first.status).toBe(503)
    expect(await first.json()).toEqual({ error: "Service Unavailable", message: expect.any(String), code: 503 })
    const second = toResponse(await handler(toEvent("v1", "/healthz")))
    expect(second.status).toBe(200)
    expect(attempts).toBe(2)
    await handler.dispose()
  })

  it("refuses events that are not HTTP events", async () => {
    const handler = Handler.make(engineLayer(undefined), { jsonLogs: false })
    await expect(handler({ Records: [] } as never)).rejects.toThrow(/HTTP events only/)
    await handler.dispose()
  })
})
