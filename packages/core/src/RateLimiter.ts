/**
 * Per-account request limits: a token bucket per account, refilled continuously. The in-memory
 * implementation limits each process on its own (several instances behind a load balancer each
 * allow the configured rate). `unlimited` is the default.
 */
import { type AccountId, RateLimited } from "@decorum/domain"
import { Clock, Context, Effect, Either, Layer } from "effect"

export class RateLimiter extends Context.Tag("@decorum/core/RateLimiter")<
  RateLimiter,
  {
    readonly consume: (account: AccountId) => Effect.Effect<void, RateLimited>
    /**
     * `consume` as a plain function at the time `nowMillis` (what `consume` reads from the `Clock`).
     * Required (every limiter answers without I/O), for a caller that runs without a fiber and
     * counts its request with it.
     */
    readonly consumeAt: (account: AccountId, nowMillis: number) => Either.Either<void, RateLimited>
  }
>() {
  static readonly unlimited = Layer.succeed(RateLimiter, { consume: () => Effect.void, consumeAt: () => Either.void })
  /** Token buckets in this process's memory. */
  static readonly memory = (options: RateLimitOptions) => Layer.effect(RateLimiter, makeMemory(options))
}

export interface RateLimitOptions {
  /** Sustained requests per minute per account. */
  readonly perMinute: number
  /** Requests allowed at once before the sustained rate applies. Default: `perMinute`. */
  readonly burst?: number
  /** Accounts tracked at most; the least recently seen are forgotten first. Default 100,000. */
  readonly maxAccounts?: number
}

interface Bucket {
  tokens: number
  updated: number
}

export const makeMemory = (options: RateLimitOptions) =>
  Effect.sync(() => {
    const ratePerMs = options.perMinute / 60_000
    const burst = Math.max(1, options.burst ?? options.perMinute)
    const maxAccounts = options.maxAccounts ?? 100_000
    const buckets = new Map<AccountId, Bucket>()
    const consumeAt = (account: AccountId, now: number): Either.Either<void, RateLimited> => {
      let bucket = buckets.get(account)
      if (bucket) {
        buckets.delete(account) // re-inserted below: Map order is then least recently seen first
        bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.updated) * ratePerMs)
        bucket.updated = now
      } else {
        bucket = { tokens: burst, updated: now }
        if (buckets.size >= maxAccounts) buckets.delete(buckets.keys().next().value!)
      }
      buckets.set(account, bucket)
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1
        return Either.void
      }
      const retryAfterSeconds = Math.ceil((1 - bucket.tokens) / ratePerMs / 1000)
      return Either.left(
        new RateLimited({
          retryAfterSeconds,
          message: `Rate limit of ${options.perMinute} requests per minute exceeded; retry in ${retryAfterSeconds} s.`
        })
      )
    }
    return RateLimiter.of({
      consume: (account) => Effect.flatMap(Clock.currentTimeMillis, (now) => consumeAt(account, now)),
      consumeAt
    })
  })
