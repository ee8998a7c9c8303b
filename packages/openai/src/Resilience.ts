/**
 * The small resilience kit of the LLM path: a circuit breaker (Ref + Clock), a bounded LRU cache,
 * and the retry schedule for transient failures (jittered exponential backoff that honours
 * `Retry-After`).
 */
import { Clock, Duration, Effect, Exit, Ref, Schedule } from "effect"
import type { LlmError } from "./LlmClient.js"

// ---------------------------------------------------------------- circuit breaker

export type CircuitState =
  | { readonly _tag: "Closed"; readonly failures: number }
  | { readonly _tag: "Open"; readonly until: number }
  | { readonly _tag: "HalfOpen" }

export interface CircuitBreakerOptions {
  /** Consecutive failed calls that open the circuit. */
  readonly failureThreshold: number
  /** How long the circuit stays open before one trial call is let through. */
  readonly cooldownMs: number
}

export interface CircuitBreaker {
  readonly state: Effect.Effect<"closed" | "open" | "half-open">
  /**
   * Runs `effect` unless the circuit is open, in which case it fails at once with `rejected()`.
   * While half-open, exactly one trial call runs; the others are rejected until it ends: success
   * closes the circuit, failure opens it for another cooldown.
   */
  readonly protect: <A, E, R>(effect: Effect.Effect<A, E, R>, rejected: () => E) => Effect.Effect<A, E, R>
}

export const makeCircuitBreaker = (options: CircuitBreakerOptions): Effect.Effect<CircuitBreaker> =>
  Effect.map(Ref.make<CircuitState>({ _tag: "Closed", failures: 0 }), (ref) => {
    const state = Effect.map(Effect.zip(Ref.get(ref), Clock.currentTimeMillis), ([s, now]) =>
      s._tag === "Closed" ? "closed" as const : s._tag === "HalfOpen" || now >= s.until ? "half-open" as const : "open" as const)

    const protect = <A, E, R>(effect: Effect.Effect<A, E, R>, rejected: () => E): Effect.Effect<A, E, R> =>
      Effect.uninterruptibleMask((restore) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const decision = yield* Ref.modify(ref, (s): readonly ["run" | "trial" | "reject", CircuitState] => {
            switch (s._tag) {
              case "Closed":
                return ["run", s]
              case "Open":
                return now >= s.until ? ["trial", { _tag: "HalfOpen" }] : ["reject", s]
              case "HalfOpen":
                return ["reject", s]
            }
          })
          if (decision === "reject") return yield* Effect.fail(rejected())
          const exit = yield* Effect.exit(restore(effect))
          const end = yield* Clock.currentTimeMillis
          yield* Ref.update(ref, (s): CircuitState => {
            if (Exit.isSuccess(exit)) return { _tag: "Closed", failures: 0 }
            if (Exit.isInterrupted(exit)) {
              // Nobody learnt anything: let the next call try again.
              return decision === "trial" ? { _tag: "Open", until: end } : s
            }
            if (decision === "trial") return { _tag: "Open", until: end + options.cooldownMs }
            if (s._tag !== "Closed") return s
            const failures = s.failures + 1
            return failures >= options.failureThreshold ? { _tag: "Open", until: end + options.cooldownMs } : { _tag: "Closed", failures }
          })
          return yield* exit
        })
      )

    return { state, protect }
  })

// ---------------------------------------------------------------- LRU cache

export interface LruCache<A> {
  readonly get: (key: string) => Effect.Effect<A | undefined>
  readonly set: (key: string, value: A) => Effect.Effect<void>
  readonly size: Effect.Effect<number>
}

/** A cache holding at most `capacity` entries, evicting the least recently used. 0 disables it. */
export const makeLruCache = <A>(capacity: number): Effect.Effect<LruCache<A>> =>
  Effect.sync(() => {
    const entries = new Map<string, A>()
    return {
      get: (key) =>
        Effect.sync(() => {
          const value = entries.get(key)
          if (value !== undefined) {
            entries.delete(key)
            entries.set(key, value)
          }
          return value
        }),
      set: (key, value) =>
        Effect.sync(() => {
          if (capacity <= 0) return
          entries.delete(key)
          entries.set(key, value)
          while (entries.size > capacity) entries.delete(entries.keys().next().value!)
        }),
      size: Effect.sync(() => entries.size)
    }
  })

// ---------------------------------------------------------------- retries

export interface RetryOptions {
  /** Retries after the first attempt. */
  readonly maxRetries: number
  /** First backoff; doubled each time, jittered, capped at `maxBackoffMs`. */
  readonly baseBackoffMs: number
  readonly maxBackoffMs: number
  /** A `Retry-After` longer than this is not waited for: the call fails (and falls back) instead. */
  readonly maxRetryAfterMs: number
}

/**
 * Retries transient failures only (429, 5xx, dropped connections), waiting at least as long as
 * the provider's `Retry-After` asks.
 */
export const transientRetrySchedule = (options: RetryOptions): Schedule.Schedule<unknown, LlmError> =>
  Schedule.exponential(Duration.millis(options.baseBackoffMs), 2).pipe(
    Schedule.jittered,
    Schedule.modifyDelay((_, delay) => Duration.min(delay, Duration.millis(options.maxBackoffMs))),
    Schedule.intersect(Schedule.identity<LlmError>()),
    Schedule.modifyDelay(([, error], delay) =>
      error.retryAfterMs === undefined ? delay : Duration.max(delay, Duration.millis(error.retryAfterMs))),
    Schedule.intersect(Schedule.recurs(options.maxRetries)),
    Schedule.whileInput((error: LlmError) => error.transient && (error.retryAfterMs ?? 0) <= options.maxRetryAfterMs)
  )
