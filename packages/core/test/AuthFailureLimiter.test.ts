import { AuthFailureLimiter } from "@decorum/core"
import { StoreFailure, Unauthorized } from "@decorum/domain"
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Either, Fiber, Option, Ref, TestClock } from "effect"

const refused = (address: string) =>
  Effect.flatMap(AuthFailureLimiter, (limiter) => Effect.map(Effect.either(limiter.admit(address)), Either.isLeft))

const fail = (address: string, times = 1) =>
  Effect.flatMap(AuthFailureLimiter, (limiter) => Effect.repeatN(limiter.failed(address), times - 1))

describe("AuthFailureLimiter.memory", () => {
  it.effect("admits until the burst of failures is spent, then refuses with a retry time, and refills with time", () =>
    Effect.gen(function*() {
      const limiter = yield* AuthFailureLimiter
      yield* fail("203.0.113.1", 2)
      assert.isFalse(yield* refused("203.0.113.1"))
      yield* fail("203.0.113.1")
      const error = yield* Effect.flip(limiter.admit("203.0.113.1"))
      assert.strictEqual(error._tag, "RateLimited")
      assert.strictEqual(error.retryAfterSeconds, 20)
      assert.isFalse(yield* refused("203.0.113.2"))
      yield* TestClock.adjust("20 seconds")
      assert.isFalse(yield* refused("203.0.113.1"))
    }).pipe(Effect.provide(AuthFailureLimiter.memory({ perMinute: 3, burst: 3 }))))

  it.effect("failures admitted together push the wait further (concurrent guesses buy nothing)", () =>
    Effect.gen(function*() {
      const limiter = yield* AuthFailureLimiter
      // Ten attempts admitted at once, all failing: the address owes seven more failures.
      for (let i = 0; i < 10; i++) yield* limiter.admit("198.51.100.1")
      yield* fail("198.51.100.1", 10)
      assert.strictEqual((yield* Effect.flip(limiter.admit("198.51.100.1"))).retryAfterSeconds, 160)
    }).pipe(Effect.provide(AuthFailureLimiter.memory({ perMinute: 3, burst: 3 }))))

  it.effect("tracks a bounded number of addresses, forgetting among equals the one whose last failure is oldest", () =>
    Effect.gen(function*() {
      const limiter = yield* AuthFailureLimiter
      for (let i = 0; i < 5_000; i++) yield* limiter.failed(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
      assert.strictEqual(yield* limiter.size, 100)
      // The most recent addresses are still refused; the oldest were forgotten.
      assert.isTrue(yield* refused("10.0.19.135"))
      assert.isFalse(yield* refused("10.0.0.0"))
    }).pipe(Effect.provide(AuthFailureLimiter.memory({ perMinute: 1, burst: 1, maxAddresses: 100 }))))

  it.effect("forgets the addresses with the most failures left first: a spent address stays limited while fresh ones churn", () =>
    Effect.gen(function*() {
      const limiter = yield* AuthFailureLimiter
      yield* fail("192.0.2.66", 3)
      assert.isTrue(yield* refused("192.0.2.66"))
      // An attacker rotating through 5,000 /64s, one guess each, 50 times the table's size.
      for (let i = 0; i < 5_000; i++) {
        yield* limiter.failed(`2001:db8:${i.toString(16)}::1`)
        if (i % 1_000 === 0) yield* TestClock.adjust("1 millis")
      }
      assert.strictEqual(yield* limiter.size, 100)
      assert.isTrue(yield* refused("192.0.2.66"))
      // Among the fresh ones, the oldest were forgotten.
      assert.isFalse(yield* refused("2001:db8:1387::1"))
    }).pipe(Effect.provide(AuthFailureLimiter.memory({ perMinute: 3, burst: 3, maxAddresses: 100 }))))

  it.effect("forgets an address once its bucket is full again, so the table empties by itself", () =>
    Effect.gen(function*() {
      const limiter = yield* AuthFailureLimiter
      yield* fail("192.0.2.1", 2)
      yield* fail("192.0.2.2")
      assert.strictEqual(yield* limiter.size, 2)
      yield* TestClock.adjust("40 seconds")
      assert.isFalse(yield* refused("203.0.113.9"))
      assert.strictEqual(yield* limiter.size, 0)
    }).pipe(Effect.provide(AuthFailureLimiter.memory({ perMinute: 3, burst: 3 }))))

  it.effect("counts an IPv6 client per /64 and an IPv4-mapped address as its IPv4 address", () =>
    Effect.gen(function*() {
      yield* fail("2001:db8:1:2::1")
      assert.isTrue(yield* refused("2001:0db8:0001:0002:ffff:eeee:dddd:cccc"))
      assert.isFalse(yield* refused("2001:db8:1:3::1"))
      yield* fail("::ffff:192.0.2.9")
      assert.isTrue(yield* refused("192.0.2.9"))
    }).pipe(Effect.provide(AuthFailureLimiter.memory({ perMinute: 1, burst: 1 }))))

  it("addressKey", () => {
    assert.strictEqual(AuthFailureLimiter.addressKey("2001:DB8::1"), "2001:db8:0:0::/64")
    assert.strictEqual(AuthFailureLimiter.addressKey("::1"), "0:0:0:0::/64")
    assert.strictEqual(AuthFailureLimiter.addressKey("64:ff9b::192.0.2.1"), "64:ff9b:0:0::/64")
    assert.strictEqual(AuthFailureLimiter.addressKey("fe80::1%eth0"), "fe80:0:0:0::/64")
    assert.strictEqual(AuthFailureLimiter.addressKey("::ffff:10.1.2.3"), "10.1.2.3")
    assert.lengthOf(AuthFailureLimiter.addressKey("x".repeat(500)), 64)
  })
})

describe("AuthFailureLimiter.guard", () => {
  const limited = AuthFailureLimiter.memory({ perMinute: 1, burst: 1 })
  const at = Option.some("192.0.2.1")

  it.effect("counts a wrong key, and then refuses before authenticating", () =>
    Effect.gen(function*() {
      let ran = 0
      const wrong = Effect.suspend(() => {
        ran++
        return Effect.fail(new Unauthorized({ reason: "invalid", message: "no" }))
      })
      assert.strictEqual((yield* Effect.flip(AuthFailureLimiter.guard(at, wrong)))._tag, "Unauthorized")
      assert.strictEqual((yield* Effect.flip(AuthFailureLimiter.guard(at, wrong)))._tag, "RateLimited")
      assert.strictEqual(ran, 1)
    }).pipe(Effect.provide(limited)))

  /**
   * Runs `n` guarded authentications at once: each is admitted, then waits until all `n` are in
   * flight, then ends as `outcome(i)` says. Their errors' tags (or "ok") in order.
   */
  const atOnce = (n: number, outcome: (i: number) => Effect.Effect<string, Unauthorized>) =>
    Effect.gen(function*() {
      const inFlight = yield* Ref.make(0)
      const allIn = yield* Deferred.make<void>()
      const attempt = (i: number) =>
        Effect.zipRight(
          Effect.flatMap(Ref.updateAndGet(inFlight, (k) => k + 1), (k) => (k === n ? Deferred.succeed(allIn, undefined) : Effect.void)),
          Effect.zipRight(Deferred.await(allIn), outcome(i))
        )
      const fibers = yield* Effect.forEach(Array.from({ length: n }, (_, i) => i), (i) =>
        Effect.fork(Effect.match(AuthFailureLimiter.guard(at3, attempt(i)), { onFailure: (e) => e._tag, onSuccess: () => "ok" })))
      return yield* Effect.forEach(fibers, Fiber.join)
    })
  const at3 = Option.some("198.51.100.3")
  const wrongKey = Effect.fail(new Unauthorized({ reason: "invalid", message: "no" }))

  it.effect("of wrong keys sent at once from a new address, only the burst is answered; the rest are refused and counted", () =>
    Effect.gen(function*() {
      const tags = yield* atOnce(10, () => wrongKey)
      assert.lengthOf(tags.filter((t) => t === "Unauthorized"), 3)
      assert.lengthOf(tags.filter((t) => t === "RateLimited"), 7)
      // All ten count: the address owes seven more failures than its burst (7 x 20 s + 20 s).
      assert.strictEqual((yield* Effect.flip((yield* AuthFailureLimiter).admit("198.51.100.3"))).retryAfterSeconds, 160)
    }).pipe(Effect.provide(AuthFailureLimiter.memory({ perMinute: 3, burst: 3 }))))

  it.effect("a right key landing after concurrent guesses spent the burst is refused too (nothing learnt)", () =>
    Effect.gen(function*() {
      const admitted = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const right = Effect.zipRight(Deferred.succeed(admitted, undefined), Effect.zipRight(Deferred.await(release), Effect.succeed("account")))
      const rightFiber = yield* Effect.fork(Effect.flip(AuthFailureLimiter.guard(at3, right)))
      yield* Deferred.await(admitted)
      // Admitted before any failure; four guesses from the same address land meanwhile.
      assert.deepStrictEqual((yield* atOnce(4, () => wrongKey)).sort(), ["RateLimited", "Unauthorized", "Unauthorized", "Unauthorized"])
      yield* Deferred.succeed(release, undefined)
      assert.strictEqual((yield* Fiber.join(rightFiber))._tag, "RateLimited")
    }).pipe(Effect.provide(AuthFailureLimiter.memory({ perMinute: 3, burst: 3 }))))

  it.effect("many right keys at once from one address are never refused", () =>
    Effect.gen(function*() {
      const tags = yield* atOnce(50, () => Effect.succeed("account"))
      assert.isTrue(tags.every((t) => t === "ok"))
      assert.strictEqual(yield* (yield* AuthFailureLimiter).size, 0)
    }).pipe(Effect.provide(AuthFailureLimiter.memory({ perMinute: 3, burst: 3 }))))

  it.effect("does not count a missing key, a store failure or a success", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 5; i++) {
        yield* Effect.flip(AuthFailureLimiter.guard(at, Effect.fail(new Unauthorized({ reason: "missing", message: "no" }))))
        yield* Effect.flip(AuthFailureLimiter.guard(at, Effect.fail(new StoreFailure({ operation: "x", message: "down" }))))
        assert.strictEqual(yield* AuthFailureLimiter.guard(at, Effect.succeed("account")), "account")
      }
      assert.strictEqual(yield* (yield* AuthFailureLimiter).size, 0)
    }).pipe(Effect.provide(limited)))

  it.effect("runs the authentication as it is without a limiter or without an address", () =>
    Effect.gen(function*() {
      const wrong = Effect.fail(new Unauthorized({ reason: "invalid", message: "no" }))
      for (let i = 0; i < 3; i++) assert.strictEqual((yield* Effect.flip(AuthFailureLimiter.guard(at, wrong)))._tag, "Unauthorized")
      const withLimiter = Effect.flip(AuthFailureLimiter.guard(Option.none(), wrong)).pipe(Effect.provide(limited), Effect.repeatN(2))
      assert.strictEqual((yield* withLimiter)._tag, "Unauthorized")
    }))
})
