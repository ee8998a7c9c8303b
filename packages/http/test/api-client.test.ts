/**
 * A typed client derived from the API definition (`HttpApiClient.make(DecorumApi)`) against the
 * real server (the fast path on, as `decorum serve` runs): the requests it encodes from the
 * endpoints' payload schemas are served, and the answers decode with the endpoints' success and
 * error schemas, so the contract `DecorumApi` declares is the one the server keeps.
 */
import { DecorumApi } from "@decorum/http"
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { startHttpHost } from "./harness.js"

/** The server for one test, closed with its scope. */
const host = Effect.acquireRelease(Effect.promise(() => startHttpHost()), (h) => Effect.promise(() => h.close()))

/**
 * A client of `DecorumApi` on `url` that sends `headers` with every request. The router writes
 * Google's literal colon (`comments:analyze`) as `::` in the endpoint's path, and the derived
 * client sends the path as the router writes it: the colon is put back here.
 */
const clientOf = (url: string, headers: Record<string, string>) =>
  HttpApiClient.make(DecorumApi, {
    baseUrl: url,
    transformClient: HttpClient.mapRequest((request) =>
      HttpClientRequest.setHeaders(HttpClientRequest.setUrl(request, request.url.replaceAll("::", ":")), headers)
    )
  }).pipe(Effect.provide(FetchHttpClient.layer))

describe("HttpApiClient over DecorumApi", () => {
  it.scoped("analyzes and suggests through the Google-shaped and compat families, decoded with the declared schemas", () =>
    Effect.gen(function*() {
      const server = yield* host
      const key = yield* Effect.promise(() => server.createKey("client@example.com"))
      const google = yield* clientOf(server.url, { "x-goog-api-key": key })
      const analyzed = yield* google.google.analyze({
        payload: { comment: { text: "You are an idiot, frankly." }, requestedAttributes: { TOXICITY: {}, INSULT: {} }, languages: ["en"] }
      })
      assert.deepStrictEqual(Object.keys(analyzed.attributeScores ?? {}).sort(), ["INSULT", "TOXICITY"])
      const toxicity = analyzed.attributeScores?.["TOXICITY"]?.summaryScore.value
      assert.isTrue(toxicity !== undefined && toxicity > 0 && toxicity <= 1)
      assert.deepStrictEqual(analyzed.languages, ["en"])

      const suggested = yield* google.google.suggestscore({
        payload: { comment: { text: "fine" }, attributeScores: { TOXICITY: { summaryScore: { value: 0.1 } } }, clientToken: "t-1" }
      })
      assert.strictEqual(suggested.clientToken, "t-1")
      const stored = yield* Effect.promise(() => server.listSuggestions("client@example.com"))
      assert.strictEqual(stored.length, 1)

      const compat = yield* clientOf(server.url, { "x-user-email": "client@example.com", "x-api-key": key })
      const analysed = yield* compat.compat.analyse({ payload: { comment: { text: "Thanks for the careful write-up." } } })
      // The compat family scores TOXICITY when no attribute is requested.
      assert.deepStrictEqual(Object.keys(analysed.attributeScores ?? {}), ["TOXICITY"])
      const usercheck = yield* compat.native.usercheck()
      assert.strictEqual(usercheck.status, "ACTIVE")
      const health = yield* compat.ops.healthz()
      assert.deepStrictEqual(health, { status: "ok" })
    }))

  it.scoped("fails with the declared error of the family: a wrong key is the Google error body with code 400", () =>
    Effect.gen(function*() {
      const server = yield* host
      const key = yield* Effect.promise(() => server.createKey("wrong@example.com"))
      const client = yield* clientOf(server.url, { "x-goog-api-key": `${key.slice(0, -4)}AAAA` })
      const answer = yield* Effect.either(client.google.analyze({ payload: { comment: { text: "hello" }, requestedAttributes: { TOXICITY: {} } } }))
      assert.isTrue(Either.isLeft(answer))
      if (Either.isRight(answer)) return
      const error = answer.left as { readonly error?: { readonly code?: number; readonly status?: string } }
      assert.strictEqual(error.error?.code, 400)
      assert.strictEqual(error.error?.status, "INVALID_ARGUMENT")
    }))
})
