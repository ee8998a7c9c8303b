import { RateLimiter } from "@decorum/core"
import { AccountId } from "@decorum/domain"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"

const a = AccountId.make(1)

describe("RateLimiter.memory", () => {
  it.effect("allows the burst, refuses the next with a retry time, and refills with time", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      yield* limiter.consume(a)
      yield* limiter.consume(a)
      const refused = yield* Effect.either(limiter.consume(a))
      expect(Either.isLeft(refused)).toBe(true)
      if (Either.isLeft(refused)) expect(refused.left.retryAfterSeconds).toBe(30)
      yield* TestClock.adjust("30 seconds")
      yield* limiter.consume(a)
      expect(Either.isLeft(yield* Effect.either(limiter.consume(a)))).toBe(true)
    }).pipe(Effect.provide(RateLimiter.memory({ perMinute: 2, burst: 2 }))))

  it.effect("keeps accounts apart", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      yield* limiter.consume(a)
      expect(Either.isLeft(yield* Effect.either(limiter.consume(a)))).toBe(true)
      yield* limiter.consume(AccountId.make(2))
    }).pipe(Effect.provide(RateLimiter.memory({ perMinute: 1, burst: 1 }))))
})
