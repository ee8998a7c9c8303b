/**
 * Failed authentications limited per client address, so that keys cannot be guessed at line rate.
 *
 * Each address has a token bucket of failures: `burst` failures at once, refilled at `perMinute`.
 * An address whose bucket is empty is refused (`RateLimited`, 429 with `Retry-After`) before any
 * key is looked up; a failed authentication (a wrong, revoked or malformed key, or a key of another
 * email) takes a token. Successful authentications take nothing, and one address's failures never
 * refuse another address.
 *
 * Concurrent attempts: admission reserves nothing (so that honest requests in flight at once from
 * one address are never refused, and a request costs nothing while no address has failed), but an
 * attempt's outcome is checked again when it is known (`guard`). A wrong key whose address had no
 * failure left by then is answered `RateLimited`, not `Unauthorized`, and so is a right key: of N
 * guesses sent at once from a new address, at most `burst` learn anything, the others are told to
 * wait (and still count, so the wait grows).
 *
 * Memory is bounded under hostile input: only addresses that failed are tracked, at most
 * `maxAddresses` of them, and an address is forgotten as soon as its bucket is full again. When
 * the table is full, the address with the most failures left is forgotten first (the oldest of
 * equals), so an address that spent its failures stays limited while others churn through the
 * table. IPv6 addresses are counted per /64 (one subscriber's network), since anyone holding a
 * /64 can change address at will. The in-memory implementation limits each process on its own.
 */
import { RateLimited } from "@decorum/domain"
import { Clock, Context, Effect, Either, Layer, Option } from "effect"
import { FailureTable } from "./internal/FailureTable.js"

/** The default sustained rate: failures per minute per address (with as many at once). */
const DEFAULT_PER_MINUTE = 30

/** The default number of addresses tracked at once. */
const DEFAULT_MAX_ADDRESSES = 100_000

export interface AuthFailureLimitOptions {
  /** Failed authentications per minute per address, sustained. */
  readonly perMinute: number
  /** Failures allowed at once before the sustained rate applies. Default: `perMinute`. */
  readonly burst?: number
  /** Addresses tracked at most; the one with the most failures left is forgotten first. Default 100,000. */
  readonly maxAddresses?: number
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
    // A bucket is kept as the time it is full again (`fullAt`): it holds
    // burst - max(0, fullAt - now) / msPerToken tokens at `now`, and a failure adds msPerToken.
    const msPerToken = 60_000 / options.perMinute
    const burst = Math.max(1, options.burst ?? options.perMinute)
    // Admitted while the bucket holds a token: fullAt is at most this far ahead.
    const slack = (burst - 1) * msPerToken
    const table = new FailureTable(Math.max(1, options.maxAddresses ?? DEFAULT_MAX_ADDRESSES))
    // The last address's key: `guard` admits the same address again once its outcome is known.
    let lastAddress = ""
    let lastKey = ""
    const keyOf = (address: string) => {
      if (address !== lastAddress) {
        lastKey = addressKey(address)
        lastAddress = address
      }
      return lastKey
    }
    const admitAt = (address: string, now: number): Either.Either<void, RateLimited> => {
      table.prune(now)
      const entry = table.size === 0 ? undefined : table.get(keyOf(address))
      if (entry === undefined || entry.fullAt - now <= slack) return Either.void
      const retryAfterSeconds = Math.max(1, Math.ceil((entry.fullAt - now - slack) / 1000))
      return Either.left(
        new RateLimited({
          retryAfterSeconds,
          message: `Too many failed authentications from this address; retry in ${retryAfterSeconds} s.`
        })
      )
    }
    return AuthFailureLimiter.of({
      admit: (address) =>
        // No address has failed lately (the normal case): nothing to look up, no clock, no key.
        table.size === 0 ? Effect.void : Effect.flatMap(Clock.currentTimeMillis, (now) => admitAt(address, now)),
      admitAt: (address, now) => (table.size === 0 ? Either.void : admitAt(address, now)),
      failed: (address) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          table.prune(now)
          const key = keyOf(address)
          const entry = table.get(key)
          table.set(key, Math.max(entry?.fullAt ?? now, now) + msPerToken)
        }),
      size: Effect.sync(() => table.size)
    })
  })

/**
 * Runs `authenticate` for a client at `address`, when the host provides an `AuthFailureLimiter`:
 * refused with `RateLimited` before it runs while the address has no failures left, and counted
 * against the address when it fails with an invalid credential. Its outcome is checked again once
 * known: if the address spent its failures meanwhile (attempts sent at once), the answer is
 * `RateLimited` whether the key was right or wrong, so concurrent guesses learn no more than
 * sequential ones. Without a limiter or an address, `authenticate` runs as it is.
 */
const guard = <A, E, R>(
  address: Option.Option<string>,
  authenticate: Effect.Effect<A, E, R>
): Effect.Effect<A, E | RateLimited, R> =>
  Effect.flatMap(Effect.serviceOption(AuthFailureLimiter), (limiter) => {
    if (Option.isNone(limiter) || Option.isNone(address)) return authenticate
    const { admit, failed } = limiter.value
    const at = address.value
    const attempt = Effect.matchEffect(authenticate, {
      onFailure: (error) =>
        isInvalidCredential(error)
          // Whether this failure was still within the address's allowance, then count it.
          ? Effect.flatMap(Effect.either(admit(at)), (verdict) =>
            Effect.zipRight(failed(at), Effect.fail(Either.isLeft(verdict) ? verdict.left : error)))
          : Effect.fail(error),
      onSuccess: (value) => {
        const check = admit(at)
        return check === Effect.void ? Effect.succeed(value) : Effect.as(check, value)
      }
    })
    // `Effect.void` itself is the limiter's answer when there is nothing to check (no address has
    // failed lately): then no step is added to the request for it.
    const admission = admit(at)
    return admission === Effect.void ? attempt : Effect.zipRight(admission, attempt)
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
    /**
     * `admit` as a plain function at the time `now` (milliseconds), for a caller that runs
     * without a fiber. Required: every limiter answers without I/O, so no configuration makes
     * such a caller start one.
     */
    readonly admitAt: (address: string, now: number) => Either.Either<void, RateLimited>
    /** Counts one failed authentication from `address`. */
    readonly failed: (address: string) => Effect.Effect<void>
    /** Addresses tracked now (for tests and metrics). */
    readonly size: Effect.Effect<number>
  }
>() {
  /** No limit: every attempt is admitted. */
  static readonly unlimited = Layer.succeed(AuthFailureLimiter, {
    admit: () => Effect.void,
    admitAt: () => Either.void,
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
