import { Auth, RateLimiter } from "@decorum/core"
import type { Account } from "@decorum/domain"
import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"

/**
 * Every authenticated request counts against its account's rate limit, when the host provides a
 * `RateLimiter` (the Node server does from `DECORUM_RATE_LIMIT_PER_MINUTE`); otherwise none applies.
 */
const limited = (account: Account) =>
  Effect.flatMap(Effect.serviceOption(RateLimiter), (limiter) =>
    limiter._tag === "Some" ? Effect.as(limiter.value.consume(account.id), account) : Effect.succeed(account))

/** Native and compat families: `X-User-Email` + `X-API-Key`. */
export const headerAccount = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  return yield* Auth.authenticate(request.headers["x-user-email"], request.headers["x-api-key"])
}).pipe(Effect.flatMap(limited))

/** Google-shaped family: `?key=K` or `X-Goog-Api-Key`. */
export const googleAccount = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const params = yield* HttpServerRequest.ParsedSearchParams
  const fromQuery = params["key"]
  const key = (Array.isArray(fromQuery) ? fromQuery[0] : fromQuery) ?? request.headers["x-goog-api-key"]
  return yield* Auth.authenticateKey(key)
}).pipe(Effect.flatMap(limited))
