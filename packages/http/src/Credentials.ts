import { Auth, RateLimiter } from "@decorum/core"
import type { Account } from "@decorum/domain"
import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"

/**
 * Every authenticated request counts against its account's rate limit, when the host provides a
 * `RateLimiter` (the Node server does from `DECORUM_RATE_LIMIT_PER_MINUTE`); otherwise none applies.
 */
const limited = (caller: Auth.Caller) =>
  Effect.flatMap(Effect.serviceOption(RateLimiter), (limiter) =>
    limiter._tag === "Some" ? Effect.as(limiter.value.consume(caller.account.id), caller) : Effect.succeed(caller))

/** Native and compat families: `X-User-Email` + `X-API-Key`. The account and the key's id. */
export const headerCaller = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  return yield* Auth.authenticateCaller(request.headers["x-user-email"], request.headers["x-api-key"])
}).pipe(Effect.flatMap(limited))

/** Google-shaped family: `?key=K` or `X-Goog-Api-Key`. The account and the key's id. */
export const googleCaller = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const params = yield* HttpServerRequest.ParsedSearchParams
  const fromQuery = params["key"]
  const key = (Array.isArray(fromQuery) ? fromQuery[0] : fromQuery) ?? request.headers["x-goog-api-key"]
  return yield* Auth.authenticateKeyCaller(key)
}).pipe(Effect.flatMap(limited))

/** `headerCaller`'s account. */
export const headerAccount: Effect.Effect<Account, Effect.Effect.Error<typeof headerCaller>, Effect.Effect.Context<typeof headerCaller>> =
  Effect.map(headerCaller, (caller) => caller.account)

/** `googleCaller`'s account. */
export const googleAccount: Effect.Effect<Account, Effect.Effect.Error<typeof googleCaller>, Effect.Effect.Context<typeof googleCaller>> =
  Effect.map(googleCaller, (caller) => caller.account)
