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
 * Either limit applies only when the host provides its service. HttpApi runs these steps as the
 * routes' middleware (`Authentication`); the fast path runs their synchronous forms (`...Now`).
 */
import { AccountStore, AuthFailureLimiter, Auth, RateLimiter } from "@decorum/core"
import type { DecorumError } from "@decorum/domain"
import { HttpServerRequest } from "@effect/platform"
import { type Clock, Effect, Either, Exit, Option } from "effect"
import * as ClientAddress from "./ClientAddress.js"
import { HttpConfig } from "./HttpConfig.js"

/**
 * Every authenticated request counts against its account's rate limit, when the host provides a
 * `RateLimiter` (the Node server does from `DECORUM_RATE_LIMIT_PER_MINUTE`); otherwise none applies.
 */
const limited = (caller: Auth.Caller) =>
  Effect.flatMap(Effect.serviceOption(RateLimiter), (limiter) =>
    limiter._tag === "Some" ? Effect.as(limiter.value.consume(caller.account.id), caller) : Effect.succeed(caller))

/**
 * Every service `authenticated` (with `headerCaller` or `googleCaller`) reads from its context
 * besides the request's own: the account store, and the limiters, `HttpConfig` and `PeerAddress`
 * when the host provides them.
 */
export const servicesRead = [AccountStore, AuthFailureLimiter, RateLimiter, HttpConfig, ClientAddress.PeerAddress] as const

/** Runs `authenticate` for the current request's client address, then the account's rate limit. */
export const authenticated = <E, R>(authenticate: Effect.Effect<Auth.Caller, E, R>) =>
  Effect.flatMap(ClientAddress.current, (address) => AuthFailureLimiter.guard(address, authenticate)).pipe(Effect.flatMap(limited))

/** The key of a Google-shaped request: `?key=K`, else `X-Goog-Api-Key`. */
const googleKey = (headers: RequestView["headers"], params: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>) => {
  const fromQuery = params["key"]
  return ((Array.isArray(fromQuery) ? fromQuery[0] : fromQuery) as string | undefined) ?? (headers["x-goog-api-key"] as string | undefined)
}

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
    return yield* Auth.authenticateKeyCaller(googleKey(request.headers, params))
  })
)

// ---------------------------------------------------------------- without a fiber

/**
 * The services the synchronous authentication (`headerCallerNow`, `googleCallerNow`) reads: those
 * `authenticated` reads from its context, taken once at start-up (the Node fast path).
 */
export interface NowServices {
  readonly accounts: Option.Option<AccountStore["Type"]>
  readonly failures: Option.Option<AuthFailureLimiter["Type"]>
  readonly limiter: Option.Option<RateLimiter["Type"]>
  readonly trustProxy: ReadonlyArray<string>
  readonly peer: Option.Option<string>
  readonly clock: Clock.Clock
}

export const nowServices: Effect.Effect<NowServices> = Effect.all({
  accounts: Effect.serviceOption(AccountStore),
  failures: Effect.serviceOption(AuthFailureLimiter),
  limiter: Effect.serviceOption(RateLimiter),
  trustProxy: Effect.map(Effect.serviceOption(HttpConfig), Option.match({ onNone: () => [], onSome: (c) => c.trustProxy })),
  peer: Effect.serviceOption(ClientAddress.PeerAddress),
  clock: Effect.clock
})

/** What the synchronous authentication reads of a request. */
export interface RequestView {
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  /** The socket's peer, when there is one. */
  readonly remoteAddress: string | undefined
  readonly params: Readonly<Record<string, string>>
}

/**
 * `authenticated` as a plain function, for the common case only: when the failed-authentication
 * limiter admits at once, the key authenticates from memory and the rate limiter counts without
 * an effect, it answers what `authenticated` would (the caller, or `RateLimited`). Otherwise it
 * returns undefined having counted nothing, and `authenticated` must run: a failed authentication
 * (which the limiter counts), an uncached key. The same steps in
 * the same order, each calling the same rule (`AuthFailureLimiter.admit`, `Auth`'s `...Now`,
 * `RateLimiter.consumeAt`).
 */
const authenticatedNow = (
  services: NowServices,
  request: RequestView,
  authenticate: (accounts: AccountStore["Type"]) => Either.Either<Auth.Caller, DecorumError> | undefined
): Exit.Exit<Auth.Caller, DecorumError> | undefined => {
  if (Option.isNone(services.accounts)) return undefined
  if (Option.isSome(services.failures)) {
    const peer = request.remoteAddress !== undefined ? Option.some(request.remoteAddress) : services.peer
    const address = ClientAddress.resolve(peer, request.headers["x-forwarded-for"], services.trustProxy)
    if (Option.isSome(address)) {
      // Refused: `authenticated` answers, as the effect (which counts and logs it).
      const admitted = services.failures.value.admitAt(address.value, services.clock.unsafeCurrentTimeMillis())
      if (Either.isLeft(admitted)) return undefined
    }
  }
  const caller = authenticate(services.accounts.value)
  if (caller === undefined || Either.isLeft(caller)) return undefined
  if (Option.isNone(services.limiter)) return Exit.succeed(caller.right)
  const consumed = services.limiter.value.consumeAt(caller.right.account.id, services.clock.unsafeCurrentTimeMillis())
  return Either.isLeft(consumed) ? Exit.fail(consumed.left) : Exit.succeed(caller.right)
}

/** `headerCaller` without a fiber, or undefined when it needs one (see `authenticatedNow`). */
export const headerCallerNow = (services: NowServices, request: RequestView) =>
  authenticatedNow(services, request, (accounts) =>
    Auth.authenticateCallerNow(accounts, request.headers["x-user-email"] as string | undefined, request.headers["x-api-key"] as string | undefined))

/** `googleCaller` without a fiber, or undefined when it needs one (see `authenticatedNow`). */
export const googleCallerNow = (services: NowServices, request: RequestView) =>
  authenticatedNow(services, request, (accounts) => Auth.authenticateKeyCallerNow(accounts, googleKey(request.headers, request.params)))
