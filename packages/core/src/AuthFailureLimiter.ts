/**
 * Failed authentications limited per client address, so that keys cannot be guessed at line rate.
 *
 * Each address has a token bucket of failures: `burst` failures at once, refilled at `perMinute`.
 * An address whose bucket is empty is refused (`RateLimited`, 429 with `Retry-After`) before any
 * key is looked up; a failed authentication (a wrong, revoked or malformed key, or a key of another
 * email) takes a token. Successful authentications take nothing, and one address's failures never
 * refuse another address.
 *
 * Admission does not reserve a token, so that many honest requests in flight at once from one
 * address are never refused; failures that land after their concurrent siblings were admitted push
 * the bucket below zero, which makes the wait longer (a burst of concurrent guesses buys no more
 * guesses per minute than sequential ones).
 *
 * Memory is bounded under hostile input: only addresses that failed are tracked, at most
 * `maxAddresses` of them; the one whose last failure is oldest is forgotten first. IPv6 addresses
 * are counted per /64 (one subscriber's network), since anyone holding a /64 can change address at
 * will. The in-memory implementation limits each process on its own.
 */
import { RateLimited } from "@decorum/domain"
import { Clock, Context, Effect, Layer, Option } from "effect"

/** The default sustained rate: failures per minute per address (with as many at once). */
const DEFAULT_PER_MINUTE = 30

/** The default number of addresses tracked at once. */
const DEFAULT_MAX_ADDRESSES = 100_000

export interface AuthFailureLimitOptions {
  /** Failed authentications per minute per address, sustained. */
  readonly perMinute: number
  /** Failures allowed at once before the sustained rate applies. Default: `perMinute`. */
  readonly burst?: number
  /** Addresses tracked at most; the one whose last failure is oldest is forgotten first. Default 100,000. */
  readonly maxAddresses?: number
}

interface Bucket {
  tokens: number
  updated: number
}

const IPV4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i

/** The 8 groups of an IPv6 address (an embedded IPv4 tail included), or undefined when it is not one. */
const ipv6Groups = (address: string): ReadonlyArray<number> | undefined => {
  let text = address
  const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text)
  if (tail) {
    const octets = tail[1]!.split(".").map(Number)
    if (octets.some((o) => o > 255)) return undefined
    text = `${text.slice(0, tail.index)}${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`
  }
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const parse = (part: string) => (part === "" ? [] : part.split(":"))
  const head = parse(halves[0]!)
  const rest = halves.length === 2 ? parse(halves[1]!) : []
  const missing = 8 - head.length - rest.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest]
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined
  return groups.map((g) => parseInt(g, 16))
}

/**
 * The key an address is counted under: an IPv4 address (also written IPv4-mapped) as itself, an
 * IPv6 address as its /64 (`2001:db8:1:2::/64`), anything else as sent (cut to 64 characters).
 */
const addressKey = (address: string): string => {
  const trimmed = address.trim().toLowerCase()
  const v4 = IPV4.exec(trimmed)
  if (v4) return v4[1]!
  const groups = trimmed.includes(":") ? ipv6Groups(trimmed.replace(/%.*$/, "")) : undefined
  if (groups) return `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`
  return trimmed.slice(0, 64)
}

const makeMemory = (options: AuthFailureLimitOptions) =>
  Effect.sync(() => {
    const ratePerMs = options.perMinute / 60_000
    const burst = Math.max(1, options.burst ?? options.perMinute)
    const maxAddresses = Math.max(1, options.maxAddresses ?? DEFAULT_MAX_ADDRESSES)
    // Map order is the order of last failure: the first entry is the one to forget.
    const buckets = new Map<string, Bucket>()
    const refill = (bucket: Bucket, now: number) => {
      bucket.tokens = Math.min(burst, bucket.tokens + Math.max(0, now - bucket.updated) * ratePerMs)
      bucket.updated = now
    }
    return AuthFailureLimiter.of({
      admit: (address) =>
        // No address has failed lately (the normal case): nothing to look up, no clock, no key.
        buckets.size === 0 ? Effect.void : Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const key = addressKey(address)
          const bucket = buckets.get(key)
          if (bucket === undefined) return Effect.void
          refill(bucket, now)
          if (bucket.tokens >= 1) {
            // Refilled completely: nothing to remember about this address.
            if (bucket.tokens >= burst) buckets.delete(key)
            return Effect.void
          }
          const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000))
          return Effect.fail(
            new RateLimited({
              retryAfterSeconds,
              message: `Too many failed authentications from this address; retry in ${retryAfterSeconds} s.`
            })
          )
        }),
      failed: (address) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const key = addressKey(address)
          let bucket = buckets.get(key)
          if (bucket === undefined) {
            bucket = { tokens: burst, updated: now }
            if (buckets.size >= maxAddresses) buckets.delete(buckets.keys().next().value!)
          } else {
            buckets.delete(key) // re-inserted below, as the most recent
            refill(bucket, now)
          }
          bucket.tokens -= 1
          buckets.set(key, bucket)
        }),
      size: Effect.sync(() => buckets.size)
    })
  })

/**
 * Runs `authenticate` for a client at `address`, when the host provides an `AuthFailureLimiter`:
 * refused with `RateLimited` before it runs while the address has no failures left, and counted
 * against the address when it fails with an invalid credential. Without a limiter or an address,
 * `authenticate` runs as it is.
 */
const guard = <A, E, R>(
  address: Option.Option<string>,
  authenticate: Effect.Effect<A, E, R>
): Effect.Effect<A, E | RateLimited, R> =>
  Effect.flatMap(Effect.serviceOption(AuthFailureLimiter), (limiter) => {
    if (Option.isNone(limiter) || Option.isNone(address)) return authenticate
    const { admit, failed } = limiter.value
    return Effect.zipRight(
      admit(address.value),
      Effect.tapError(authenticate, (error) => (isInvalidCredential(error) ? failed(address.value) : Effect.void))
    )
  })

/** A wrong key (not a missing one, not a store failure): what guessing produces. */
const isInvalidCredential = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "Unauthorized" &&
  (error as { reason?: unknown }).reason === "invalid"

export class AuthFailureLimiter extends Context.Tag("@decorum/core/AuthFailureLimiter")<
  AuthFailureLimiter,
  {
    /** Fails with `RateLimited` while `address` has no failures left; nothing is counted. */
    readonly admit: (address: string) => Effect.Effect<void, RateLimited>
    /** Counts one failed authentication from `address`. */
    readonly failed: (address: string) => Effect.Effect<void>
    /** Addresses tracked now (for tests and metrics). */
    readonly size: Effect.Effect<number>
  }
>() {
  /** No limit: every attempt is admitted. */
  static readonly unlimited = Layer.succeed(AuthFailureLimiter, {
    admit: () => Effect.void,
    failed: () => Effect.void,
    size: Effect.succeed(0)
  })
  /** Token buckets in this process's memory. */
  static readonly memory = (options: AuthFailureLimitOptions) => Layer.effect(AuthFailureLimiter, makeMemory(options))
  /** Runs an authentication for a client address under the limiter in context (see `guard`). */
  static readonly guard = guard
  /** The key an address is counted under (IPv6 per /64). */
  static readonly addressKey = addressKey
  /** The default sustained rate of failures per minute per address. */
  static readonly DEFAULT_PER_MINUTE = DEFAULT_PER_MINUTE
  /** The default number of addresses tracked at once. */
  static readonly DEFAULT_MAX_ADDRESSES = DEFAULT_MAX_ADDRESSES
}
