import { RateLimiter } from "@decorum/core"
import { AccountId } from "@decorum/domain"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"

const a = AccountId.make(1)

describe("RateLimiter.memory", () => {
  it.effect("allows the burst, refuses the next with a retry time, and refills with time", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      yield* limiter.consume(a)
      yield* limiter.consume(a)
      const refused = yield* Effect.either(limiter.consume(a))
      assert.isTrue(Either.isLeft(refused))
      if (Either.isLeft(refused)) assert.strictEqual(refused.left.retryAfterSeconds, 30)
      yield* TestClock.adjust("30 seconds")
      yield* limiter.consume(a)
      assert.isTrue(Either.isLeft(yield* Effect.either(limiter.consume(a))))
    }).pipe(Effect.provide(RateLimiter.memory({ perMinute: 2, burst: 2 }))))

  it.effect("keeps accounts apart", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      yield* limiter.consume(a)
      assert.isTrue(Either.isLeft(yield* Effect.either(limiter.consume(a))))
      yield* limiter.consume(AccountId.make(2))
    }).pipe(Effect.provide(RateLimiter.memory({ perMinute: 1, burst: 1 }))))
})
