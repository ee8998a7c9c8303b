/**
 * Statuses raised before any handler runs (405, the parser's 400/431/417/408/413) come from the
 * one status table, `ErrorMapping`, like every other error (issue 10 item 8).
 */
import { MalformedHttp, MethodNotAllowed, NotFound } from "@decorum/domain"
import { DecorumApi, ErrorMapping, Families } from "@decorum/http"
import { HttpApi } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"

describe("ErrorMapping: errors raised before routing", () => {
  const wrongMethod = new MethodNotAllowed({ method: "GET", allow: ["POST", "DELETE"], message: "GET is not allowed on /x; allowed: POST, DELETE." })

  it("renders a wrong method as 405 with Allow in the native envelope", () => {
    const rendered = ErrorMapping.render("native", wrongMethod)
    assert.strictEqual(rendered.status, 405)
    assert.deepStrictEqual(rendered.headers, { allow: "POST, DELETE" })
    assert.deepStrictEqual(rendered.body, { error: "Method Not Allowed", message: wrongMethod.message, code: 405 })
  })

  it("renders a wrong method as 405 with Allow in the Google and compat envelopes", () => {
    for (const family of ["google", "compat"] as const) {
      const rendered = ErrorMapping.render(family, wrongMethod)
      assert.strictEqual(rendered.status, 405)
      assert.deepStrictEqual(rendered.headers, { allow: "POST, DELETE" })
      assert.deepStrictEqual(rendered.body, { error: { code: 405, message: wrongMethod.message, status: "METHOD_NOT_ALLOWED" } })
    }
  })

  it("renders an unknown route as 404 in each family", () => {
    const missing = new NotFound({ message: "No route for GET /nowhere." })
    assert.deepStrictEqual(ErrorMapping.render("native", missing), { status: 404, body: { error: "Not Found", message: missing.message, code: 404 }, headers: {} })
    assert.deepStrictEqual(ErrorMapping.render("google", missing), {
      status: 404,
      body: { error: { code: 404, message: missing.message, status: "NOT_FOUND" } },
      headers: {}
    })
  })

  it("gives each of Node's parser rejections its status", () => {
    const statuses = Object.fromEntries(
      (["malformed", "malformedBody", "headersTooLarge", "expectation", "timeout", "chunkExtensionsTooLarge"] as const).map((reason) => [
        reason,
        ErrorMapping.render("native", new MalformedHttp({ reason, message: reason })).status
      ])
    )
    assert.deepStrictEqual(statuses, { malformed: 400, malformedBody: 400, headersTooLarge: 431, expectation: 417, timeout: 408, chunkExtensionsTooLarge: 413 })
  })
})

describe("Families: the one path-to-family table", () => {
  /** The family each group of the API answers in. */
  const GROUP_FAMILY: Record<string, Families.PathFamily> = { native: "native", compat: "compat", perspectiveCompat: "compat", google: "google", ops: "ops" }

  it("agrees with the API definition: every endpoint's path is in its group's family", () => {
    const seen: Array<string> = []
    HttpApi.reflect(DecorumApi, {
      onGroup: () => {},
      onEndpoint: ({ endpoint, group }) => {
        assert.strictEqual(Families.pathFamilyOf(endpoint.path), GROUP_FAMILY[group.identifier], `${endpoint.method} ${endpoint.path}`)
        seen.push(group.identifier)
      }
    })
    assert.deepStrictEqual([...new Set(seen)].sort(), Object.keys(GROUP_FAMILY).sort())
  })

  it("answers the paths of no family (and unknown paths under a family's prefix) in the right envelope", () => {
    assert.strictEqual(Families.familyOfPath("/healthz"), "native")
    assert.strictEqual(Families.pathFamilyOf("/metrics"), "ops")
    assert.strictEqual(Families.familyOfPath("/v1alpha1/nowhere"), "google")
    assert.strictEqual(Families.familyOfPath("/v0.2/perspective-compat/nowhere"), "compat")
    assert.strictEqual(Families.familyOfPath("/v0.2/nowhere"), "native")
    assert.strictEqual(Families.familyOfPath("/batchx"), "native")
  })
})
