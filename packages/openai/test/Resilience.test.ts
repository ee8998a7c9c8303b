import { assert, describe, it } from "@effect/vitest"
import { LlmError, Resilience } from "@decorum/openai"
import { Effect, Exit, Fiber, TestClock } from "effect"

describe("circuit breaker", () => {
  const failing = Effect.fail("boom" as const)
  const rejected = () => "rejected" as const

  it.effect("opens after the threshold, lets one trial through after the cooldown, and closes on success", () =>
    Effect.gen(function*() {
      const breaker = yield* Resilience.makeCircuitBreaker({ failureThreshold: 2, cooldownMs: 1_000 })
      let runs = 0
      const counted = <A, E>(eff: Effect.Effect<A, E>) => Effect.suspend(() => (runs++, eff))
      assert.strictEqual(yield* Effect.flip(breaker.protect(counted(failing), rejected)), "boom")
      assert.strictEqual(yield* breaker.state, "closed")
      assert.strictEqual(yield* Effect.flip(breaker.protect(counted(failing), rejected)), "boom")
      assert.strictEqual(yield* breaker.state, "open")
      assert.strictEqual(yield* Effect.flip(breaker.protect(counted(Effect.succeed(1)), rejected)), "rejected")
      assert.strictEqual(runs, 2)

      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* breaker.state, "half-open")
      // The trial fails: open again for a whole cooldown.
      assert.strictEqual(yield* Effect.flip(breaker.protect(counted(failing), rejected)), "boom")
      assert.strictEqual(yield* Effect.flip(breaker.protect(counted(Effect.succeed(1)), rejected)), "rejected")
      assert.strictEqual(runs, 3)

      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* breaker.protect(counted(Effect.succeed(42)), rejected), 42)
      assert.strictEqual(yield* breaker.state, "closed")
    }))

  it.effect("rejects other calls while the half-open trial is running", () =>
    Effect.gen(function*() {
      const breaker = yield* Resilience.makeCircuitBreaker({ failureThreshold: 1, cooldownMs: 10 })
      yield* Effect.flip(breaker.protect(failing, rejected))
      yield* TestClock.adjust("10 millis")
      const trial = yield* Effect.fork(breaker.protect(Effect.as(Effect.sleep("50 millis"), "ok"), rejected))
      yield* Effect.yieldNow()
      assert.strictEqual(yield* Effect.flip(breaker.protect(Effect.succeed("second"), rejected)), "rejected")
      yield* TestClock.adjust("50 millis")
      assert.strictEqual(yield* Fiber.join(trial), "ok")
      assert.strictEqual(yield* breaker.state, "closed")
    }))
})

describe("LRU cache", () => {
  it.effect("evicts the least recently used entry", () =>
    Effect.gen(function*() {
      const cache = yield* Resilience.makeLruCache<number>(2)
      yield* cache.set("a", 1)
      yield* cache.set("b", 2)
      assert.strictEqual(yield* cache.get("a"), 1) // a is now the most recent
      yield* cache.set("c", 3)
      assert.isUndefined(yield* cache.get("b"))
      assert.strictEqual(yield* cache.get("a"), 1)
      assert.strictEqual(yield* cache.get("c"), 3)
      assert.strictEqual(yield* cache.size, 2)
    }))
})

describe("transient retry schedule", () => {
  const schedule = Resilience.transientRetrySchedule({ maxRetries: 3, baseBackoffMs: 100, maxBackoffMs: 1_000, maxRetryAfterMs: 5_000 })

  it.effect("waits at least as long as Retry-After, and never retries a rejected request", () =>
    Effect.gen(function*() {
      let attempts = 0
      const rateLimited = Effect.suspend(() => {
        attempts++
        return attempts < 2 ? Effect.fail(new LlmError({ kind: "rate_limited", message: "429", retryAfterMs: 3_000 })) : Effect.succeed("done")
      })
      const fiber = yield* Effect.fork(Effect.retry(rateLimited, schedule))
      yield* TestClock.adjust("2999 millis")
      assert.strictEqual(attempts, 1)
      yield* TestClock.adjust("1 millis")
      assert.strictEqual(yield* Fiber.join(fiber), "done")

      let rejectedAttempts = 0
      const exit = yield* Effect.exit(Effect.retry(
        Effect.suspend(() => (rejectedAttempts++, Effect.fail(new LlmError({ kind: "rejected", status: 401, message: "401" })))),
        schedule
      ))
      assert.isTrue(Exit.isFailure(exit))
      assert.strictEqual(rejectedAttempts, 1)
    }))

  it.effect("does not wait for a Retry-After beyond the deadline", () =>
    Effect.gen(function*() {
      let attempts = 0
      const exit = yield* Effect.exit(Effect.retry(
        Effect.suspend(() => (attempts++, Effect.fail(new LlmError({ kind: "rate_limited", message: "429", retryAfterMs: 60_000 })))),
        schedule
      ))
      assert.isTrue(Exit.isFailure(exit))
      assert.strictEqual(attempts, 1)
    }))
})
