/**
 * The one authentication step of every route (and of every batch part): every request that
 * authenticates goes through `authenticated`, so it inherits both limits that apply to it.
 *
 * - Failed authentications per client address (`AuthFailureLimiter`, from
 *   `DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE`): an address over its failures is refused with 429
 *   before any key is looked up; a wrong key counts against it.
 * - Requests per account (`RateLimiter`, from `DECORUM_RATE_LIMIT_PER_MINUTE`), once the account
 *   is known.
 *
 * Either limit applies only when the host provides its service.
 */
import { AuthFailureLimiter, Auth, RateLimiter } from "@decorum/core"
import type { Account } from "@decorum/domain"
import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import * as ClientAddress from "./ClientAddress.js"

/**
 * Every authenticated request counts against its account's rate limit, when the host provides a
 * `RateLimiter` (the Node server does from `DECORUM_RATE_LIMIT_PER_MINUTE`); otherwise none applies.
 */
const limited = (caller: Auth.Caller) =>
  Effect.flatMap(Effect.serviceOption(RateLimiter), (limiter) =>
    limiter._tag === "Some" ? Effect.as(limiter.value.consume(caller.account.id), caller) : Effect.succeed(caller))

/** Runs `authenticate` for the current request's client address, then the account's rate limit. */
export const authenticated = <E, R>(authenticate: Effect.Effect<Auth.Caller, E, R>) =>
  Effect.flatMap(ClientAddress.current, (address) => AuthFailureLimiter.guard(address, authenticate)).pipe(Effect.flatMap(limited))

/** Native and compat families: `X-User-Email` + `X-API-Key`. The account and the key's id. */
export const headerCaller = authenticated(
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Auth.authenticateCaller(request.headers["x-user-email"], request.headers["x-api-key"]))
)

/** Google-shaped family: `?key=K` or `X-Goog-Api-Key`. The account and the key's id. */
export const googleCaller = authenticated(
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const params = yield* HttpServerRequest.ParsedSearchParams
    const fromQuery = params["key"]
    const key = (Array.isArray(fromQuery) ? fromQuery[0] : fromQuery) ?? request.headers["x-goog-api-key"]
    return yield* Auth.authenticateKeyCaller(key)
  })
)

/** `headerCaller`'s account. */
export const headerAccount: Effect.Effect<Account, Effect.Effect.Error<typeof headerCaller>, Effect.Effect.Context<typeof headerCaller>> =
  Effect.map(headerCaller, (caller) => caller.account)

/** `googleCaller`'s account. */
export const googleAccount: Effect.Effect<Account, Effect.Effect.Error<typeof googleCaller>, Effect.Effect.Context<typeof googleCaller>> =
  Effect.map(googleCaller, (caller) => caller.account)
