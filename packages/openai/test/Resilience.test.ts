import { it } from "@effect/vitest"
import { LlmError, Resilience } from "@decorum/openai"
import { Effect, Exit, Fiber, TestClock } from "effect"
import { describe, expect } from "vitest"

describe("circuit breaker", () => {
  const failing = Effect.fail("boom" as const)
  const rejected = () => "rejected" as const

  it.effect("opens after the threshold, lets one trial through after the cooldown, and closes on success", () =>
    Effect.gen(function*() {
      const breaker = yield* Resilience.makeCircuitBreaker({ failureThreshold: 2, cooldownMs: 1_000 })
      let runs = 0
      const counted = <A, E>(eff: Effect.Effect<A, E>) => Effect.suspend(() => (runs++, eff))
      expect(yield* Effect.flip(breaker.protect(counted(failing), rejected))).toBe("boom")
      expect(yield* breaker.state).toBe("closed")
      expect(yield* Effect.flip(breaker.protect(counted(failing), rejected))).toBe("boom")
      expect(yield* breaker.state).toBe("open")
      expect(yield* Effect.flip(breaker.protect(counted(Effect.succeed(1)), rejected))).toBe("rejected")
      expect(runs).toBe(2)

      yield* TestClock.adjust("1 second")
      expect(yield* breaker.state).toBe("half-open")
      // The trial fails: open again for a whole cooldown.
      expect(yield* Effect.flip(breaker.protect(counted(failing), rejected))).toBe("boom")
      expect(yield* Effect.flip(breaker.protect(counted(Effect.succeed(1)), rejected))).toBe("rejected")
      expect(runs).toBe(3)

      yield* TestClock.adjust("1 second")
      expect(yield* breaker.protect(counted(Effect.succeed(42)), rejected)).toBe(42)
      expect(yield* breaker.state).toBe("closed")
    }))

  it.effect("rejects other calls while the half-open trial is running", () =>
    Effect.gen(function*() {
      const breaker = yield* Resilience.makeCircuitBreaker({ failureThreshold: 1, cooldownMs: 10 })
      yield* Effect.flip(breaker.protect(failing, rejected))
      yield* TestClock.adjust("10 millis")
      const trial = yield* Effect.fork(breaker.protect(Effect.as(Effect.sleep("50 millis"), "ok"), rejected))
      yield* Effect.yieldNow()
      expect(yield* Effect.flip(breaker.protect(Effect.succeed("second"), rejected))).toBe("rejected")
      yield* TestClock.adjust("50 millis")
      expect(yield* Fiber.join(trial)).toBe("ok")
      expect(yield* breaker.state).toBe("closed")
    }))
})

describe("LRU cache", () => {
  it.effect("evicts the least recently used entry", () =>
    Effect.gen(function*() {
      const cache = yield* Resilience.makeLruCache<number>(2)
      yield* cache.set("a", 1)
      yield* cache.set("b", 2)
      expect(yield* cache.get("a")).toBe(1) // a is now the most recent
      yield* cache.set("c", 3)
      expect(yield* cache.get("b")).toBeUndefined()
      expect(yield* cache.get("a")).toBe(1)
      expect(yield* cache.get("c")).toBe(3)
      expect(yield* cache.size).toBe(2)
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
      expect(attempts).toBe(1)
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(fiber)).toBe("done")

      let rejectedAttempts = 0
      const exit = yield* Effect.exit(Effect.retry(
        Effect.suspend(() => (rejectedAttempts++, Effect.fail(new LlmError({ kind: "rejected", status: 401, message: "401" })))),
        schedule
      ))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(rejectedAttempts).toBe(1)
    }))

  it.effect("does not wait for a Retry-After beyond the deadline", () =>
    Effect.gen(function*() {
      let attempts = 0
      const exit = yield* Effect.exit(Effect.retry(
        Effect.suspend(() => (attempts++, Effect.fail(new LlmError({ kind: "rate_limited", message: "429", retryAfterMs: 60_000 })))),
        schedule
      ))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(attempts).toBe(1)
    }))
})
