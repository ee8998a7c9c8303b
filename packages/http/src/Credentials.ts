import { Auth } from "@decorum/core"
import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"

/** Native and compat families: `X-User-Email` + `X-API-Key`. */
export const headerAccount = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  return yield* Auth.authenticate(request.headers["x-user-email"], request.headers["x-api-key"])
})

/** Google-shaped family: `?key=K` or `X-Goog-Api-Key`. */
export const googleAccount = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const params = yield* HttpServerRequest.ParsedSearchParams
  const fromQuery = params["key"]
  const key = (Array.isArray(fromQuery) ? fromQuery[0] : fromQuery) ?? request.headers["x-goog-api-key"]
  return yield* Auth.authenticateKey(key)
})
