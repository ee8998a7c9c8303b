/**
 * Authentication is declared on the API (`Authentication`'s middleware), so the OpenAPI document's
 * security comes from the definition: which endpoint takes which credentials is read here from the
 * endpoints' middleware, and the document says the same.
 */
import { Auth } from "@decorum/core"
import { DecorumApi, HttpApp } from "@decorum/http"
import { HttpApi, HttpApiBuilder, HttpServer, OpenApi } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { engineLayer, makeHook } from "./harness.js"

/** Each endpoint (`group.name`) with the keys of the security middleware it runs. */
const middlewareOf = (): Record<string, ReadonlyArray<string>> => {
  const out: Record<string, ReadonlyArray<string>> = {}
  HttpApi.reflect(DecorumApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, middleware }) => {
      out[`${group.identifier}.${endpoint.name}`] = [...middleware].map((m) => m.key).sort()
    }
  })
  return out
}

describe("Authentication as HttpApi middleware", () => {
  it("runs on every endpoint of the native and compat families, on Google's analyze and suggestscore, and nowhere else", () => {
    const header = ["@decorum/http/HeaderAuthentication"]
    const google = ["@decorum/http/GoogleKeyAuthentication"]
    for (const [endpoint, keys] of Object.entries(middlewareOf())) {
      const group = endpoint.split(".")[0]!
      const expected = group === "native" || group === "compat" || group === "perspectiveCompat"
        ? header
        : endpoint === "google.analyze" || endpoint === "google.suggestscore"
        ? google
        : []
      assert.deepStrictEqual(keys, expected, endpoint)
    }
  })

  it("gives the document its security schemes and each operation's requirement", () => {
    const spec = OpenApi.fromApi(DecorumApi) as any
    assert.deepStrictEqual(spec.components.securitySchemes, {
      userEmail: { type: "apiKey", name: "X-User-Email", in: "header" },
      apiKey: { type: "apiKey", name: "X-API-Key", in: "header" },
      googleKey: { type: "apiKey", name: "key", in: "query" },
      googleKeyHeader: { type: "apiKey", name: "X-Goog-Api-Key", in: "header" }
    })
    // The header family: both headers together; the Google key: either place; batch documented with the Google key.
    assert.deepStrictEqual(spec.paths["/v0.2/perspective-compat/analyse"].post.security, [{ userEmail: [], apiKey: [] }])
    assert.deepStrictEqual(spec.paths["/v0.2/article-contexts/{id}"].delete.security, [{ userEmail: [], apiKey: [] }])
    assert.deepStrictEqual(spec.paths["/v1alpha1/comments:suggestscore"].post.security, [{ googleKey: [] }, { googleKeyHeader: [] }])
    assert.deepStrictEqual(spec.paths["/batch"].post.security, [{ googleKey: [] }, { googleKeyHeader: [] }])
    assert.deepStrictEqual(spec.paths["/$discovery/rest"].get.security, [])
    assert.deepStrictEqual(spec.paths["/readyz"].get.security, [])
  })

  it.effect("reads the services of its layer when the request's context lacks them (served as the Lambda host serves)", () =>
    Effect.gen(function*() {
      // The engine (accounts, a rate limit of 2 per account) is given to the API's layer only, as
      // the Lambda host does: the web handler's requests carry none of it in their context.
      const engine = yield* Layer.build(engineLayer(yield* makeHook, { rateLimit: { perMinute: 1, burst: 2 } }))
      const { key } = yield* Effect.provide(Auth.createKey("layer@example.com"), engine)
      const web = HttpApiBuilder.toWebHandler(Layer.merge(HttpApp.layer.pipe(Layer.provide(Layer.succeedContext(engine))), HttpServer.layerContext))
      yield* Effect.addFinalizer(() => Effect.promise(() => web.dispose()))
      const analyze = (k: string) =>
        Effect.promise(() =>
          web.handler(
            new Request(`http://localhost/v1alpha1/comments:analyze?key=${k}`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ comment: { text: "hello" }, requestedAttributes: { TOXICITY: {} } })
            })
          )
        )
      assert.strictEqual((yield* analyze(key)).status, 200)
      assert.strictEqual((yield* analyze(key)).status, 200)
      // The account store and the limiter are the layer's: the third request is over the limit, a wrong key invalid (400, as Google answers).
      const limited = yield* analyze(key)
      assert.strictEqual(limited.status, 429)
      assert.isAtLeast(Number(limited.headers.get("retry-after")), 1)
      assert.strictEqual((yield* analyze(key.slice(0, -1) + (key.endsWith("a") ? "b" : "a"))).status, 400)
    }).pipe(Effect.scoped))
})
