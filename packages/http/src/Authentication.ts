/**
 * Authentication as HttpApi middleware: one security middleware per kind of credentials, declared
 * on the groups and endpoints that take them (`Api.ts`), so the OpenAPI document's security
 * schemes and requirements come from the API definition.
 *
 * - `HeaderAuthentication`: `X-User-Email` + `X-API-Key` (the native and compat families).
 * - `GoogleKeyAuthentication`: `?key=` or `X-Goog-Api-Key` (the Google-shaped family).
 *
 * The middleware runs the one authentication step (`Credentials.headerCaller` /
 * `Credentials.googleCaller`: failed-authentication limit, key lookup, per-account rate limit)
 * before the handler, and provides its outcome as `Authenticated`; the handler reads the caller
 * with `caller`. A refusal is not failed out of the middleware: it is raised by `caller` inside the
 * handler's `Respond.inFamily`, so it answers in the family's envelope with the status and headers
 * of the mapping table (`Retry-After` of a 429, Google's 403/400 for a missing/wrong key), which an
 * error schema encoded by HttpApi could not carry. The fast path (`FastPath.ts`) authenticates with
 * the same `Credentials` step, synchronously.
 *
 * Each security record names the schemes for the document and the client; the implementation
 * reads the credentials of its family together rather than one scheme at a time (Effect tries the
 * schemes of a record as alternatives): Google's rule is the query key, else the header, counted as
 * one attempt; the header family needs both headers (`allSchemesRequired`).
 */
import type { Auth } from "@decorum/core"
import type { DecorumError } from "@decorum/domain"
import { HttpApiMiddleware, HttpApiSecurity, type HttpRouter } from "@effect/platform"
import { Context, Effect, type Exit, Layer } from "effect"
import { googleCaller, headerCaller, servicesRead } from "./Credentials.js"

/** The outcome of the request's authentication: its caller (the account and key id), or why it was refused. */
export class Authenticated extends Context.Tag("@decorum/http/Authenticated")<Authenticated, Exit.Exit<Auth.Caller, DecorumError>>() {}

/** The authenticated caller of the current request, or the refusal (to answer in the handler's family). */
export const caller: Effect.Effect<Auth.Caller, DecorumError, Authenticated> = Effect.flatten(Authenticated)

/** `caller`'s account. */
export const account = Effect.map(caller, (c) => c.account)

/** `X-User-Email` + `X-API-Key`: the native and compat families. */
export class HeaderAuthentication extends HttpApiMiddleware.Tag<HeaderAuthentication>()("@decorum/http/HeaderAuthentication", {
  provides: Authenticated,
  security: {
    userEmail: HttpApiSecurity.apiKey({ key: "X-User-Email", in: "header" }),
    apiKey: HttpApiSecurity.apiKey({ key: "X-API-Key", in: "header" })
  }
}) {}

/** `?key=K` or `X-Goog-Api-Key`: the Google-shaped family. */
export class GoogleKeyAuthentication extends HttpApiMiddleware.Tag<GoogleKeyAuthentication>()("@decorum/http/GoogleKeyAuthentication", {
  provides: Authenticated,
  security: {
    googleKey: HttpApiSecurity.apiKey({ key: "key", in: "query" }),
    googleKeyHeader: HttpApiSecurity.apiKey({ key: "X-Goog-Api-Key", in: "header" })
  }
}) {}

/**
 * The middleware's step for every scheme of its record: `authenticate` run to its outcome, with the
 * services it reads (`Credentials.servicesRead`) taken from the layer's context when the request's
 * lacks them (the request's own win, as `HttpApiBuilder.group` gives its handlers theirs). They are
 * picked once, when the layer is built. A request whose context holds them all (the Node server
 * serves with the engine's context) runs `authenticate` as it is; otherwise (the Lambda host gives
 * the engine to the API's layer only) the few picked are merged under the request's context, not
 * the layer's whole context.
 */
const outcome = <R>(authenticate: Effect.Effect<Auth.Caller, DecorumError, R>) =>
  Effect.map(Effect.context<Exclude<R, HttpRouter.HttpRouter.Provided>>(), (layer) => {
    const services = Context.pick(...servicesRead)(layer as Context.Context<unknown>)
    const keys = Array.from(services.unsafeMap.keys())
    const run = Effect.exit(authenticate)
    const merged: Effect.Effect<Exit.Exit<Auth.Caller, DecorumError>, never, HttpRouter.HttpRouter.Provided> = run.pipe(
      Effect.mapInputContext((request: Context.Context<HttpRouter.HttpRouter.Provided>) => Context.merge(services, request) as Context.Context<R>)
    )
    const step = Effect.contextWithEffect((request: Context.Context<HttpRouter.HttpRouter.Provided>) =>
      keys.every((key) => request.unsafeMap.has(key)) ? (run as typeof merged) : merged
    )
    return () => step
  })

/** Requires what the authentication reads (the account store; the limiters and `HttpConfig` when provided). */
export const layerHeader = Layer.effect(
  HeaderAuthentication,
  Effect.map(outcome(headerCaller), (authenticate) => ({ userEmail: authenticate, apiKey: authenticate }))
)

/** Requires what the authentication reads (the account store; the limiters and `HttpConfig` when provided). */
export const layerGoogleKey = Layer.effect(
  GoogleKeyAuthentication,
  Effect.map(outcome(googleCaller), (authenticate) => ({ googleKey: authenticate, googleKeyHeader: authenticate }))
)

/** Both middlewares. */
export const layer = Layer.merge(layerHeader, layerGoogleKey)

// ---------------------------------------------------------------- the document

/** The requirements of a security middleware as OpenAPI lists them: each scheme an alternative. */
const alternatives = (middleware: { readonly security: Record<string, HttpApiSecurity.HttpApiSecurity> }) =>
  Object.keys(middleware.security).map((name) => ({ [name]: [] as Array<string> }))

/**
 * The operation's security as `GoogleKeyAuthentication` documents it, for `POST /batch`: it takes
 * the Google key too, but authenticates nothing itself (each part does, and a part inherits the
 * batch's credentials), so it is documented with the middleware's schemes without running it.
 */
export const googleKeyDocumented = { security: alternatives(GoogleKeyAuthentication) }

/**
 * OpenAPI (as Effect writes it) lists the schemes of a security middleware as alternatives; the
 * header family needs all of them together (`X-User-Email` and `X-API-Key`): one requirement
 * naming every scheme. On each endpoint of a group with `HeaderAuthentication`.
 */
export const allSchemesRequired = (op: Record<string, any>): Record<string, any> =>
  Array.isArray(op.security) && op.security.length > 1 ? { ...op, security: [Object.assign({}, ...op.security)] } : op
