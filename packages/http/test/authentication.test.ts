/**
 * Authentication is declared on the API (`Authentication`'s middleware), so the OpenAPI document's
 * security comes from the definition: which endpoint takes which credentials is read here from the
 * endpoints' middleware, and the document says the same.
 */
import { DecorumApi } from "@decorum/http"
import { HttpApi, OpenApi } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"

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
})
