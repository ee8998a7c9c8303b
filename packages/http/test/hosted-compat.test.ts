/**
 * Clients of the hosted compat service: the base URL plus `/v0.2/perspective-compat/analyse` (or
 * `/v0.2/external-compat/...`, the seed's name), authenticated by `X-User-Email` and `X-API-Key`
 * headers, with the Perspective request body unchanged (the seed's migration checklist).
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { startHttpHost, type TestHost } from "./harness.js"

describe("the hosted compat service's URL shape with header auth", () => {
  let host: TestHost
  let key: string
  const email = "Hosted@Example.com"

  beforeAll(async () => {
    host = await startHttpHost()
    key = await host.createKey(email.toLowerCase())
  })
  afterAll(async () => {
    await host?.close()
  })

  /** How such a client joins its configured base URL (with or without a trailing slash) and path. */
  const call = (base: string, prefix: string, op: "analyse" | "suggestscore", body: unknown) =>
    fetch(`${base.replace(/\/+$/, "")}/v0.2/${prefix}/${op}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-User-Email": email, "X-API-Key": key },
      body: JSON.stringify(body)
    })

  // The body a Perspective user already sends, kept unchanged.
  const perspectiveBody = {
    comment: { text: "You are an idiot. Otherwise fine." },
    requestedAttributes: { TOXICITY: {}, INSULT: {}, PROFANITY: {}, LIKELY_TO_REJECT: {}, UNSUBSTANTIAL: {} },
    spanAnnotations: true,
    languages: ["en"],
    doNotStore: true
  }

  it("analyses the unchanged Perspective body under both prefixes, with or without a trailing slash", async () => {
    for (const prefix of ["perspective-compat", "external-compat"]) {
      for (const base of [host.url, `${host.url}/`]) {
        const res = await call(base, prefix, "analyse", perspectiveBody)
        assert.strictEqual(res.status, 200)
        const body = (await res.json()) as any
        assert.deepStrictEqual(Object.keys(body.attributeScores).sort(), ["INSULT", "LIKELY_TO_REJECT", "PROFANITY", "TOXICITY", "UNSUBSTANTIAL"])
        assert.deepStrictEqual(body.attributeScores.TOXICITY.spanScores.map((s: any) => [s.begin, s.end]), [[0, 17], [18, 33]])
        assert.deepStrictEqual(body.languages, ["en"])
      }
    }
  })

  it("takes the email in any case, and sends score corrections the same way", async () => {
    const res = await call(host.url, "perspective-compat", "suggestscore", {
      comment: { text: "You are an idiot." },
      attributeScores: { TOXICITY: { summaryScore: { value: 0.9 } } }
    })
    assert.strictEqual(res.status, 200)
    assert.deepStrictEqual(await res.json(), { detectedLanguages: ["en"] })
    assert.deepInclude((await host.listSuggestions(email.toLowerCase())).map((s) => s.attributeScores), { TOXICITY: 0.9 })
  })
})
