/**
 * Running a request's evaluations concurrently without paying a fiber fork for those that need
 * none (the combined call's sections).
 */
import { Cause, Effect, Either, Exit, Fiber, Option, Runtime } from "effect"

/**
 * Each effect's outcome (its value, or its typed failure), the effects run concurrently: as
 * `Effect.all(Record.map(effects, Effect.either), { concurrency: "unbounded" })` answers.
 *
 * Each effect starts at once on a fiber of its own that runs synchronously until it completes or
 * suspends (`Runtime.runSyncExit` on the calling fiber's runtime: its services, spans and log
 * annotations). One that completes (the local models) is settled without going through the
 * scheduler; one that suspends (an LLM call) keeps running while the next starts, and all those
 * are awaited together, so the time is the slowest one's, not the sum. A fork per effect, as
 * `Effect.all` makes, cost more than the three local models of a megacall together.
 *
 * A defect (or an interruption) of any effect is the call's own as soon as it happens, and stops
 * the others, as `Effect.all` does; interrupting the call interrupts every effect still running.
 */
export const settleAll = <K extends string, A, E, R>(
  effects: Readonly<Record<K, Effect.Effect<A, E, R>>>
): Effect.Effect<Record<K, Either.Either<A, E>>, never, R> =>
  Effect.flatMap(Effect.runtime<R>(), (runtime) => {
    const run = Runtime.runSyncExit(runtime)
    const settled = {} as Record<K, Either.Either<A, E>>
    const running: Array<readonly [K, Fiber.RuntimeFiber<A, E>]> = []
    const stopRunning = () => Fiber.interruptAll(running.map(([, fiber]) => fiber))
    /** The outcome of a finished effect, or the cause that is the call's own. */
    const outcome = (key: K, exit: Exit.Exit<A, E>): Cause.Cause<never> | undefined => {
      if (Exit.isSuccess(exit)) {
        settled[key] = Either.right(exit.value)
        return undefined
      }
      const failure = Cause.failureOrCause(exit.cause)
      if (Either.isRight(failure)) return failure.right
      settled[key] = Either.left(failure.left)
      return undefined
    }
    for (const key of Object.keys(effects) as Array<K>) {
      const exit = run(effects[key])
      if (Exit.isFailure(exit)) {
        const died = Cause.dieOption(exit.cause)
        if (Option.isSome(died) && Runtime.isAsyncFiberException(died.value)) {
          running.push([key, died.value.fiber as Fiber.RuntimeFiber<A, E>])
          continue
        }
      }
      const own = outcome(key, exit)
      if (own !== undefined) return Effect.zipRight(stopRunning(), Effect.failCause(own))
    }
    if (running.length === 0) return Effect.succeed(settled)
    // The rest are awaited together: the first defect ends the call at once.
    return Effect.async<Record<K, Either.Either<A, E>>>((resume) => {
      let left = running.length
      let done = false
      for (const [key, fiber] of running) {
        fiber.addObserver((exit) => {
          if (done) return
          const own = outcome(key, exit)
          if (own !== undefined) {
            done = true
            resume(Effect.zipRight(stopRunning(), Effect.failCause(own)))
          } else if (--left === 0) {
            done = true
            resume(Effect.succeed(settled))
          }
        })
      }
      return stopRunning()
    })
  })
