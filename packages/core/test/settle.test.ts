import { assert, describe, it } from "@effect/vitest"
import { Cause, Deferred, Effect, Either, Exit, Fiber, Ref, TestClock } from "effect"
import { settleAll } from "../src/internal/settle.js"

describe("settleAll", () => {
  it.effect("settles synchronous effects with their values and typed failures", () =>
    Effect.gen(function*() {
      const settled = yield* settleAll({
        a: Effect.succeed(1),
        b: Effect.fail("no"),
        c: Effect.sync(() => 3)
      })
      assert.deepStrictEqual(settled, { a: Either.right(1), b: Either.left("no"), c: Either.right(3) })
    }))

  it.effect("runs effects that suspend concurrently: the time is the slowest one's, not the sum", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.fork(settleAll({
        slow: Effect.as(Effect.sleep("2 seconds"), "slow"),
        slower: Effect.as(Effect.sleep("3 seconds"), "slower"),
        failing: Effect.zipRight(Effect.sleep("1 second"), Effect.fail("down")),
        now: Effect.succeed("now")
      }))
      yield* TestClock.adjust("3 seconds")
      const settled = yield* Fiber.join(fiber)
      assert.deepStrictEqual(settled, {
        now: Either.right("now"),
        slow: Either.right("slow"),
        slower: Either.right("slower"),
        failing: Either.left("down")
      })
    }))

  it.effect("a defect is the call's own, and the effects still running are interrupted", () =>
    Effect.gen(function*() {
      const interrupted = yield* Ref.make(false)
      const exit = yield* Effect.exit(settleAll({
        waiting: Effect.onInterrupt(Effect.never, () => Ref.set(interrupted, true)),
        broken: Effect.zipRight(Effect.sleep("1 second"), Effect.die(new Error("boom")))
      }).pipe(Effect.fork, Effect.tap(() => TestClock.adjust("1 second")), Effect.flatMap(Fiber.join)))
      assert.isTrue(Exit.isFailure(exit) && Cause.isDie(exit.cause))
      assert.isTrue(yield* Ref.get(interrupted))
    }))

  it.effect("interrupting the call interrupts every effect still running", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const interrupted = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(settleAll({
        waiting: Effect.zipRight(Deferred.succeed(started, undefined), Effect.onInterrupt(Effect.never, () => Deferred.succeed(interrupted, undefined)))
      }))
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      yield* Deferred.await(interrupted)
    }))

  it.effect("the effects see the caller's services", () =>
    Effect.gen(function*() {
      class Site extends Effect.Tag("Site")<Site, { readonly site: string }>() {}
      const settled = yield* settleAll({ a: Effect.map(Site, (n) => n.site), b: Effect.zipRight(Effect.sleep("1 second"), Effect.map(Site, (n) => n.site)) }).pipe(
        Effect.provideService(Site, { site: "decorum" }),
        Effect.fork,
        Effect.tap(() => TestClock.adjust("1 second")),
        Effect.flatMap(Fiber.join)
      )
      assert.deepStrictEqual(settled, { a: Either.right("decorum"), b: Either.right("decorum") })
    }))
})
