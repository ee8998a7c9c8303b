/**
 * The HTTP contract of `interface.md`, as a suite any host can run: the Node server through a real
 * socket, the Lambda handler through API Gateway events. `start` gives a client that speaks HTTP to
 * the host under test, plus key management on the host's store.
 */
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Respectify from "./respectify.js"

export interface ContractHost {
  /** Sends a request to the host (path includes the query string). */
  readonly request: (path: string, init?: RequestInit) => Promise<Response>
  readonly createKey: (email: string) => Promise<string>
  readonly revokeKey: (key: string) => Promise<void>
  readonly close: () => Promise<void>
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * Holds a 200 answer to the model the official Python client parses it with (`respectify.ts`);
 * answers on other paths pass through. Returns the path it checked, or null.
 */
export const expectOfficialClientParses = async (path: string, res: Response): Promise<string | null> => {
  const route = path.split("?")[0]!.replace(/\/+$/, "").replace("/external-compat/", "/perspective-compat/")
  const model = (Respectify.modelFor as Record<string, typeof Respectify.modelFor[keyof typeof Respectify.modelFor]>)[route]
  if (res.status !== 200 || model === undefined) return null
  const body = await res.clone().json()
  assert.isNull(Respectify.parseError(model, body), `${route} as the official client parses it`)
  const score = route === "/v0.2/commentscore" ? body : route === "/v0.2/megacall" ? body.comment_score : undefined
  if (score) assert.deepStrictEqual(Respectify.fallacyAliasErrors(score), [])
  return route
}

export const describeContract = (name: string, start: () => Promise<ContractHost>) =>
  describe(`HTTP contract (${name})`, () => {
    let host: ContractHost
    /** How many 200 answers of each native path were held to the official client's models. */
    const parsedByClient = new Map<string, number>()
    /** Every error the suite met: the OpenAPI document must declare each one. */
    const errorsSeen: Array<{ readonly method: string; readonly path: string; readonly status: number }> = []
    let key: string
    let otherKey: string
    const email = "alice@example.com"
    const otherEmail = "bob@example.com"
    let articleId: string

    const native = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      host.request(path, {
        method: "POST",
        headers: { "content-type": "application/json", "x-user-email": email, "x-api-key": key, ...headers },
        body: JSON.stringify(body)
      })

    const form = (path: string, body: string, auth = true) =>
      host.request(path, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...(auth ? { "x-user-email": email, "x-api-key": key } : {})
        },
        body
      })

    const google = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      host.request(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })

    const expectNativeError = async (res: Response, status: number) => {
      assert.strictEqual(res.status, status)
      const body = await res.json()
      expect(body).toEqual({ error: expect.any(String), message: expect.any(String), code: status })
      return body as { error: string; message: string; code: number }
    }

    const expectGoogleError = async (res: Response, status: number, errorType?: string) => {
      assert.strictEqual(res.status, status)
      const body = await res.json()
      assert.strictEqual(body.error.code, status)
      assert.strictEqual(typeof body.error.message, "string")
      assert.strictEqual(typeof body.error.status, "string")
      if (errorType) {
        assert.deepInclude(body.error.details, {
          "@type": "type.googleapis.com/google.commentanalyzer.v1alpha1.Error",
          errorType
        })
      }
      return body as { error: { code: number; message: string; status: string; details?: Array<Record<string, string>> } }
    }

    beforeAll(async () => {
      const started = await start()
      // Every answer of the suite goes through the official client's checks.
      host = {
        ...started,
        request: async (path, init) => {
          const res = await started.request(path, init)
          if (res.status >= 400) errorsSeen.push({ method: (init?.method ?? "GET").toLowerCase(), path: path.split("?")[0]!, status: res.status })
          const checked = await expectOfficialClientParses(path, res)
          if (checked) parsedByClient.set(checked, (parsedByClient.get(checked) ?? 0) + 1)
          return res
        }
      }
      key = await host.createKey(email)
      otherKey = await host.createKey(otherEmail)
      const res = await native("/v0.2/inittopic", {
        text: "The city council approved a new budget for public parks and libraries. Residents debated library hours.",
        title: "Council budget"
      })
      assert.strictEqual(res.status, 200)
      articleId = (await res.json()).article_id
    })
    afterAll(async () => {
      await host?.close()
    })

    describe("operational endpoints", () => {
      it("answers /healthz and /readyz", async () => {
        assert.deepStrictEqual(await (await host.request("/healthz")).json(), { status: "ok" })
        const ready = await host.request("/readyz")
        assert.strictEqual(ready.status, 200)
        assert.strictEqual((await ready.json()).status, "ready")
      })

      it("serves the OpenAPI document with the colon paths as clients call them", async () => {
        const spec = await (await host.request("/openapi.json")).json()
        assert.match(spec.openapi, /^3\./)
        expect(Object.keys(spec.paths)).toEqual(
          expect.arrayContaining(["/v0.2/megacall", "/v1alpha1/comments:analyze", "/v0.2/external-compat/analyse"])
        )
        assert.strictEqual(spec.info.version, "0.1.0")
        assert.deepStrictEqual(spec.paths["/v0.2/megacall"].post.security, [{ userEmail: [], apiKey: [] }])
        assert.deepStrictEqual(spec.paths["/v1alpha1/comments:analyze"].post.security, [{ googleKey: [] }, { googleKeyHeader: [] }])
        assert.deepStrictEqual(spec.paths["/healthz"].get.security, [])
      })

      it("serves the interactive reference at /docs, inline (offline), the same page twice", async () => {
        const res = await host.request("/docs")
        assert.strictEqual(res.status, 200)
        assert.include(res.headers.get("content-type")!, "text/html")
        const page = await res.text()
        // The spec, and the reference's script inline (not a <script src> to a CDN).
        assert.isTrue(page.includes("id=\"api-reference\"") && page.includes("/v1alpha1/comments:analyze"))
        assert.isFalse(/<script src=/.test(page))
        assert.isAbove(page.length, 1_000_000)
        assert.isTrue((await (await host.request("/docs")).text()) === page)
      })

      it("names the engine and the model on every response, errors included", async () => {
        for (const res of [await host.request("/healthz"), await native("/v0.2/antispam", { comment: "" })]) {
          assert.strictEqual(res.headers.get("x-engine-version"), "0.1.0")
          assert.isOk(res.headers.get("x-model-version"))
        }
      })

      it("answers unknown routes with 404 in the family's envelope", async () => {
        await expectNativeError(await native("/v0.2/nope", {}), 404)
        const res = await google("/v1alpha1/comments:nope?key=" + key, {})
        await expectGoogleError(res, 404)
      })
    })

    describe("authentication", () => {
      it("401s native calls with a missing, wrong or revoked credential, with one message", async () => {
        const messages = new Set<string>()
        const cases: Array<Record<string, string>> = [
          {},
          { "x-user-email": email },
          { "x-api-key": key },
          { "x-user-email": email, "x-api-key": key.slice(0, -1) + (key.endsWith("A") ? "B" : "A") },
          { "x-user-email": otherEmail, "x-api-key": key },
          { "x-user-email": email, "x-api-key": "" },
          { "x-user-email": email, "x-api-key": "not-a-key" }
        ]
        for (const headers of cases) {
          const res = await host.request("/v0.2/antispam", {
            method: "POST",
            headers: { "content-type": "application/json", ...headers },
            body: JSON.stringify({ comment: "hello" })
          })
          const body = await expectNativeError(res, 401)
          messages.add(body.message)
        }
        assert.strictEqual(messages.size, 1)
      })

      it("401s a revoked key", async () => {
        const revoked = await host.createKey("carol@example.com")
        const ok = await host.request("/v0.2/usercheck", { headers: { "x-user-email": "carol@example.com", "x-api-key": revoked } })
        assert.strictEqual(ok.status, 200)
        await host.revokeKey(revoked)
        const res = await host.request("/v0.2/usercheck", { headers: { "x-user-email": "carol@example.com", "x-api-key": revoked } })
        await expectNativeError(res, 401)
      })

      it("401s compat calls in Google's envelope", async () => {
        const res = await google("/v0.2/external-compat/analyse", { comment: { text: "hi" } }, { "x-user-email": email })
        const body = await expectGoogleError(res, 401)
        assert.strictEqual(body.error.status, "UNAUTHENTICATED")
      })

      it("answers 403 for a missing key and 400 API_KEY_INVALID for a wrong key on Google-shaped paths", async () => {
        const body = { comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} } }
        const missing = await expectGoogleError(await google("/v1alpha1/comments:analyze", body), 403)
        assert.strictEqual(missing.error.status, "PERMISSION_DENIED")
        const wrong = await expectGoogleError(await google("/v1alpha1/comments:analyze?key=dk_aaaaaaaaaa_bad", body), 400)
        assert.strictEqual(wrong.error.status, "INVALID_ARGUMENT")
        assert.deepInclude(wrong.error.details!, {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "API_KEY_INVALID",
          domain: "googleapis.com"
        })
      })

      it("accepts the key as ?key= or X-Goog-Api-Key", async () => {
        const body = { comment: { text: "hi there" }, requestedAttributes: { TOXICITY: {} } }
        assert.strictEqual((await google(`/v1alpha1/comments:analyze?key=${key}&alt=json&prettyPrint=false`, body)).status, 200)
        assert.strictEqual((await google("/v1alpha1/comments:analyze", body, { "x-goog-api-key": key })).status, 200)
      })

      it("reports the account on /v0.2/usercheck", async () => {
        const res = await host.request("/v0.2/usercheck", { headers: { "x-user-email": email, "x-api-key": key } })
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        assert.deepInclude(body, { active: true, status: "ACTIVE", error: null })
        assert.include(body.allowed_endpoints, "megacall")
      })
    })

    describe("article contexts", () => {
      it("creates a context from text and answers a UUID", async () => {
        expect(articleId).toMatch(UUID)
      })

      it("rejects text and url together, and neither", async () => {
        await expectNativeError(await native("/v0.2/inittopic", { text: "a", url: "https://example.com" }), 400)
        const body = await expectNativeError(await native("/v0.2/inittopic", {}), 400)
        assert.match(body.message, /text|url/)
      })

      it("reads and deletes a context for its owner only", async () => {
        const created = await (await native("/v0.2/inittopic", { text: "Tomatoes need sun and water every day." })).json()
        const id = created.article_id
        const asOther = { "x-user-email": otherEmail, "x-api-key": otherKey }
        await expectNativeError(await host.request(`/v0.2/article-contexts/${id}`, { headers: asOther }), 404)
        await expectNativeError(await host.request(`/v0.2/article-contexts/${id}`, { method: "DELETE", headers: asOther }), 404)
        const mine = { "x-user-email": email, "x-api-key": key }
        const read = await host.request(`/v0.2/article-contexts/${id}`, { headers: mine })
        assert.strictEqual(read.status, 200)
        assert.strictEqual((await read.json()).article_id, id)
        assert.strictEqual((await host.request(`/v0.2/article-contexts/${id}`, { method: "DELETE", headers: mine })).status, 200)
        await expectNativeError(await host.request(`/v0.2/article-contexts/${id}`, { headers: mine }), 404)
      })

      it("lists the caller's contexts only, oldest first, and 401s without credentials", async () => {
        const created = await (await native("/v0.2/inittopic", { text: "Bees pollinate the orchard in spring.", title: "Orchard" })).json()
        const mine = { "x-user-email": email, "x-api-key": key }
        const res = await host.request("/v0.2/article-contexts", { headers: mine })
        assert.strictEqual(res.status, 200)
        const { article_contexts } = await res.json()
        const ids = article_contexts.map((c: { article_id: string }) => c.article_id)
        assert.isAtLeast(ids.indexOf(articleId), 0)
        assert.isAbove(ids.indexOf(created.article_id), ids.indexOf(articleId))
        expect(article_contexts.find((c: { article_id: string }) => c.article_id === created.article_id)).toEqual({
          article_id: created.article_id,
          title: "Orchard",
          source_url: null,
          text_length: "Bees pollinate the orchard in spring.".length,
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/)
        })
        const theirs = await (await host.request("/v0.2/article-contexts", { headers: { "x-user-email": otherEmail, "x-api-key": otherKey } })).json()
        assert.notInclude(theirs.article_contexts.map((c: { article_id: string }) => c.article_id), created.article_id)
        await expectNativeError(await host.request("/v0.2/article-contexts"), 401)
        const spec = await (await host.request("/openapi.json")).json()
        assert.deepStrictEqual(spec.paths["/v0.2/article-contexts"].get.security, [{ userEmail: [], apiKey: [] }])
      })
    })

    describe("single evaluations", () => {
      it("scores a comment with the documented shape", async () => {
        const comment = "You are an idiot and this plan is stupid."
        const res = await native("/v0.2/commentscore", { article_context_id: articleId, comment })
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        assert.isTrue(Array.isArray(body.logical_fallacies))
        assert.isTrue(Array.isArray(body.negative_tone_phrases))
        assert.isAbove(body.objectionable_phrases.length, 0)
        for (const p of body.objectionable_phrases) assert.include(comment, p.quoted_objectionable_phrase)
        assert.isTrue(Number.isInteger(body.overall_score))
        assert.isAtLeast(body.overall_score, 1)
        assert.isAtMost(body.overall_score, 5)
        assert.isAtLeast(body.toxicity_score, 0)
        assert.isAtMost(body.toxicity_score, 1)
        assert.strictEqual(typeof body.toxicity_explanation, "string")
        assert.strictEqual(typeof body.appears_low_effort, "boolean")
        assert.strictEqual(body.detected_language, "en")
        assert.strictEqual(res.headers.get("x-model-version"), "test-model-1")
      })

      it("reports the language it judged a comment in, and megacall's sections too (issue 28)", async () => {
        const res = await native("/v0.2/commentscore", { article_context_id: articleId, comment: "[lang:fr] Tu es un idiot" })
        assert.strictEqual(res.status, 200)
        assert.strictEqual((await res.json()).detected_language, "fr")
        const mega = await native("/v0.2/megacall", { article_context_id: articleId, comment: "[lang:fr] Tu es un idiot", run_comment_score: true, run_spam_check: true })
        const body = await mega.json()
        assert.strictEqual(body.comment_score.detected_language, "fr")
        assert.strictEqual(body.spam_check.detected_language, "fr")
      })

      it("passes X-Decorum-Detail: full through to the evaluation", async () => {
        const res = await native("/v0.2/commentscore", { article_context_id: articleId, comment: "Library hours." }, { "x-decorum-detail": "full" })
        assert.strictEqual(res.status, 200)
        assert.strictEqual(res.headers.get("x-model-version"), "test-model-1+full")
      })

      it("checks spam without an article context", async () => {
        const res = await native("/v0.2/antispam", { comment: "Buy cheap watches at https://spam.example" })
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        // detected_language: the language judged (issue 28), a field the official client ignores.
        expect(body).toEqual({ reasoning: expect.any(String), confidence: expect.any(Number), is_spam: true, detected_language: "en" })
        assert.isAtLeast(body.confidence, 0)
        assert.isAtMost(body.confidence, 1)
        const german = await native("/v0.2/antispam", { comment: "[lang:de] Billige Uhren kaufen" })
        assert.strictEqual((await german.json()).detected_language, "de")
        const none = await native("/v0.2/antispam", { comment: "👍👍 123" })
        assert.strictEqual(none.status, 200)
        assert.isNull((await none.json()).detected_language)
      })

      it("checks relevance with banned topics", async () => {
        const res = await native("/v0.2/commentrelevance", {
          article_context_id: articleId,
          comment: "The library hours matter, but politics ruins everything.",
          banned_topics: ["politics", "sports"]
        })
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        expect(body.on_topic).toEqual({ reasoning: expect.any(String), on_topic: true, confidence: expect.any(Number) })
        assert.deepStrictEqual(body.banned_topics.banned_topics, ["politics"])
        assert.isAtLeast(body.banned_topics.quantity_on_banned_topics, 0)
        assert.isAtMost(body.banned_topics.quantity_on_banned_topics, 1)
      })

      it("400s a missing article context, naming the parameter and the evaluation", async () => {
        const body = await expectNativeError(await native("/v0.2/commentscore", { comment: "hello" }), 400)
        assert.include(body.message, "article_context_id")
        assert.include(body.message, "comment scoring")
        const rel = await expectNativeError(await native("/v0.2/commentrelevance", { comment: "hello" }), 400)
        assert.include(rel.message, "relevance")
      })

      it("400s a malformed and an unknown article context id", async () => {
        await expectNativeError(await native("/v0.2/commentscore", { comment: "hello", article_context_id: "not-a-uuid" }), 400)
        const unknown = await expectNativeError(
          await native("/v0.2/commentscore", { comment: "hello", article_context_id: "00000000-0000-4000-8000-000000000000" }),
          400
        )
        assert.include(unknown.message, "Unknown article_context_id")
      })

      it("treats another account's article context exactly like an unknown one", async () => {
        const res = await native(
          "/v0.2/commentscore",
          { comment: "hello", article_context_id: articleId },
          { "x-user-email": otherEmail, "x-api-key": otherKey }
        )
        const body = await expectNativeError(res, 400)
        assert.strictEqual(body.message, `Unknown article_context_id: ${articleId}`)
      })

      it("400s empty, whitespace-only and over-long comments; accepts exactly 20,480 UTF-16 units", async () => {
        await expectNativeError(await native("/v0.2/antispam", { comment: "" }), 400)
        await expectNativeError(await native("/v0.2/antispam", { comment: " \n\t " }), 400)
        await expectNativeError(await native("/v0.2/antispam", {}), 400)
        await expectNativeError(await native("/v0.2/antispam", { comment: "a".repeat(20_481) }), 400)
        // 10,240 astral characters are 20,480 UTF-16 code units.
        assert.strictEqual((await native("/v0.2/antispam", { comment: "😀".repeat(10_240) })).status, 200)
        await expectNativeError(await native("/v0.2/antispam", { comment: "😀".repeat(10_240) + "a" }), 400)
      })

      it("400s a field of the wrong type, and malformed JSON", async () => {
        const wrongType = await expectNativeError(await native("/v0.2/antispam", { comment: 42 }), 400)
        assert.include(wrongType.message, "comment")
        const res = await host.request("/v0.2/antispam", {
          method: "POST",
          headers: { "content-type": "application/json", "x-user-email": email, "x-api-key": key },
          body: "{\"comment\": "
        })
        await expectNativeError(res, 400)
        const arrayBody = await host.request("/v0.2/antispam", {
          method: "POST",
          headers: { "content-type": "application/json", "x-user-email": email, "x-api-key": key },
          body: "[1, 2]"
        })
        await expectNativeError(arrayBody, 400)
      })

      it("415s other content types", async () => {
        for (const type of ["text/plain", "multipart/form-data; boundary=x", "application/xml"]) {
          const res = await host.request("/v0.2/antispam", {
            method: "POST",
            headers: { "content-type": type, "x-user-email": email, "x-api-key": key },
            body: "comment=hello"
          })
          await expectNativeError(res, 415)
        }
        const compat = await host.request("/v0.2/external-compat/analyse", {
          method: "POST",
          headers: { "content-type": "text/plain", "x-user-email": email, "x-api-key": key },
          body: "hello"
        })
        await expectGoogleError(compat, 415)
      })

      it("413s a body over the limit", async () => {
        const res = await native("/v0.2/antispam", { comment: "x", padding: "y".repeat(300 * 1024) })
        await expectNativeError(res, 413)
      })
    })

    describe("form encoding", () => {
      it("accepts one banned_topics[] as an array of one", async () => {
        const res = await form(
          "/v0.2/commentrelevance",
          `article_context_id=${articleId}&comment=${encodeURIComponent("Politics again.")}&banned_topics[]=politics`
        )
        assert.strictEqual(res.status, 200)
        assert.deepStrictEqual((await res.json()).banned_topics.banned_topics, ["politics"])
      })

      it("accepts several banned_topics[] (encoded brackets too) and boolean strings", async () => {
        const res = await form(
          "/v0.2/megacall",
          `article_context_id=${articleId}&comment=${encodeURIComponent("Sports and politics, nothing else.")}` +
            `&banned_topics%5B%5D=politics&banned_topics[]=sports&run_relevance_check=true&run_spam_check=false&run_comment_score=false`
        )
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        assert.deepStrictEqual(body.relevance_check.banned_topics.banned_topics, ["politics", "sports"])
        assert.isUndefined(body.spam_check)
        assert.isUndefined(body.comment_score)
      })

      it("rejects a mix of plain and [] forms, a non-boolean flag, and a repeated scalar", async () => {
        await expectNativeError(
          await form("/v0.2/commentrelevance", `article_context_id=${articleId}&comment=hi&banned_topics=a&banned_topics[]=b`),
          400
        )
        await expectNativeError(await form("/v0.2/megacall", `comment=hi&run_spam_check=yes`), 400)
        await expectNativeError(await form("/v0.2/antispam", `comment=hi&comment=again`), 400)
      })

      it("still authenticates form requests", async () => {
        await expectNativeError(await form("/v0.2/antispam", "comment=hi", false), 401)
      })
    })

    describe("combined evaluation", () => {
      it("400s when no flag is true, naming the flags (flags default to false)", async () => {
        const body = await expectNativeError(await native("/v0.2/megacall", { comment: "hello", article_context_id: articleId }), 400)
        assert.include(body.message, "run_comment_score")
        assert.include(body.message, "run_spam_check")
        assert.include(body.message, "run_relevance_check")
        await expectNativeError(
          await native("/v0.2/megacall", { comment: "hello", run_spam_check: false, run_comment_score: false }),
          400
        )
      })

      it("400s a missing article context for scoring and for relevance, not for spam alone", async () => {
        const score = await expectNativeError(await native("/v0.2/megacall", { comment: "hello", run_comment_score: true }), 400)
        assert.include(score.message, "article_context_id")
        assert.include(score.message, "comment scoring")
        const rel = await expectNativeError(await native("/v0.2/megacall", { comment: "hello", run_relevance_check: true }), 400)
        assert.include(rel.message, "relevance")
        assert.strictEqual((await native("/v0.2/megacall", { comment: "hello", run_spam_check: true })).status, 200)
      })

      it("answers one section per requested evaluation", async () => {
        const res = await native("/v0.2/megacall", {
          comment: "Library hours are too short, you idiot.",
          article_context_id: articleId,
          banned_topics: ["politics"],
          run_comment_score: true,
          run_spam_check: true,
          run_relevance_check: true
        })
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        assert.deepStrictEqual(Object.keys(body).sort(), ["comment_score", "relevance_check", "spam_check"])
        assert.isAtLeast(body.comment_score.overall_score, 1)
        assert.isFalse(body.spam_check.is_spam)
        assert.isTrue(body.relevance_check.on_topic.on_topic)
      })

      it("runs the requested evaluations concurrently", async () => {
        // Each test provider waits until all three sections have started: if they ran one after
        // another, the first would give up and its section would be missing.
        const res = await native("/v0.2/megacall", {
          comment: "Library budget [overlap]",
          article_context_id: articleId,
          run_comment_score: true,
          run_spam_check: true,
          run_relevance_check: true
        })
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        assert.isUndefined(body.errors)
        assert.deepStrictEqual(Object.keys(body).sort(), ["comment_score", "relevance_check", "spam_check"])
      })

      it("keeps the other sections when one provider fails, and reports the failure", async () => {
        const res = await native("/v0.2/megacall", {
          comment: "Library budget [fail-spam]",
          article_context_id: articleId,
          run_comment_score: true,
          run_spam_check: true,
          run_relevance_check: true
        })
        assert.strictEqual(res.status, 200)
        assert.strictEqual(res.headers.get("x-decorum-partial"), "spam_check")
        const body = await res.json()
        assert.isUndefined(body.spam_check)
        assert.isDefined(body.comment_score)
        assert.isDefined(body.relevance_check)
        expect(body.errors.spam_check).toEqual({ error: "Bad Gateway", message: expect.any(String), code: 502 })
      })

      it("answers the failure itself when every requested section fails", async () => {
        await expectNativeError(await native("/v0.2/megacall", { comment: "x [fail-spam]", run_spam_check: true }), 502)
      })

      it("ignores unknown fields, and the dog-whistle and LLM flags when false", async () => {
        const res = await native("/v0.2/megacall", {
          comment: "hello",
          run_spam_check: true,
          run_dogwhistle_check: false,
          run_llm_detect: false,
          something_new: { nested: true }
        })
        assert.strictEqual(res.status, 200)
        assert.deepStrictEqual(Object.keys(await res.json()), ["spam_check"])
        const none = await expectNativeError(await native("/v0.2/megacall", { comment: "hello", run_dogwhistle_check: false, run_llm_detect: false }), 400)
        assert.include(none.message, "run_dogwhistle_check")
        assert.include(none.message, "run_llm_detect")
      })

      it("refuses over-long lists (topics, examples, thread) with a 400 naming the field, on every route that reads them", async () => {
        const many = Array.from({ length: 2_000 }, (_, i) => `term ${i}`)
        const long = ["x".repeat(501)]
        const cases: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
          ["/v0.2/dogwhistle", { comment: "hello", sensitive_topics: many }, "sensitive_topics"],
          ["/v0.2/dogwhistle", { comment: "hello", dogwhistle_examples: long }, "dogwhistle_examples"],
          ["/v0.2/dogwhistle", { comment: "hello", context_comments: Array.from({ length: 51 }, () => "a reply") }, "context_comments"],
          ["/v0.2/commentrelevance", { comment: "hello", article_context_id: articleId, banned_topics: many }, "banned_topics"],
          ["/v0.2/megacall", { comment: "hello", run_dogwhistle_check: true, dogwhistle_examples: many }, "dogwhistle_examples"],
          ["/v0.2/megacall", { comment: "hello", article_context_id: articleId, run_relevance_check: true, banned_topics: long }, "banned_topics"]
        ]
        for (const [path, body, field] of cases) {
          const error = await expectNativeError(await native(path, body), 400)
          assert.include(error.message, field)
        }
        // At the limits, the same requests are answered.
        const fits = Array.from({ length: 200 }, (_, i) => `term ${i}`)
        assert.strictEqual((await native("/v0.2/dogwhistle", { comment: "hello", sensitive_topics: fits, dogwhistle_examples: fits })).status, 200)
      })

      it("answers all six sections when the official client sets every flag", async () => {
        const comment = "Let us delve into the globalist budget for the library."
        const res = await native("/v0.2/megacall", {
          comment,
          article_context_id: articleId,
          run_spam_check: true,
          run_relevance_check: true,
          run_comment_score: true,
          run_dogwhistle_check: true,
          run_perspective: true,
          run_llm_detect: true,
          sensitive_topics: ["finance"],
          dogwhistle_examples: ["shadow money"],
          reply_to_comment: "What about the budget?",
          context_comments: ["First comment"]
        })
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        assert.deepStrictEqual(Object.keys(body).sort(), ["comment_score", "dogwhistle_check", "llm_detection", "perspective", "relevance_check", "spam_check"])
        assert.isTrue(body.dogwhistle_check.detection.dogwhistles_detected)
        assert.deepStrictEqual(body.dogwhistle_check.details.dogwhistle_terms, ["globalist"])
        assert.deepStrictEqual(body.llm_detection.signals_detected.map((s: { quoted_text: string }) => s.quoted_text), ["delve"])
        assert.isNull(res.headers.get("x-decorum-partial"))
      })

      it("keeps the other sections when the LLM-text section fails (X-Decorum-Partial)", async () => {
        const res = await native("/v0.2/megacall", { comment: "A globalist plot [fail-llmdetect]", run_dogwhistle_check: true, run_llm_detect: true })
        assert.strictEqual(res.status, 200)
        assert.strictEqual(res.headers.get("x-decorum-partial"), "llm_detection")
        const body = await res.json()
        assert.isUndefined(body.llm_detection)
        assert.deepStrictEqual(body.dogwhistle_check.details.dogwhistle_terms, ["globalist"])
        expect(body.errors.llm_detection).toEqual({ error: "Bad Gateway", message: expect.any(String), code: 502 })
      })

      it("answers the megacall the WordPress plugin sends with its defaults: every requested section, the author header not judged", async () => {
        // As the plugin builds it: the author header before the text, every flag sent (its default
        // services: spam, comment score, relevance, dog whistles), its lists or null.
        const text = "Another globalist scheme from the council, if you know what I mean."
        const comment = `Author: Jane Thug\nAuthor email: jane@thug.example\n\n${text}`
        const res = await native("/v0.2/megacall", {
          comment,
          article_context_id: articleId,
          banned_topics: null,
          reply_to_comment: "Do you support the library budget?",
          sensitive_topics: ["immigration", "religion"],
          dogwhistle_examples: ["scheme from the council"],
          run_spam_check: true,
          run_comment_score: true,
          run_relevance_check: true,
          run_dogwhistle_check: true,
          run_perspective: false,
          run_llm_detect: false
        })
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        assert.deepStrictEqual(Object.keys(body).sort(), ["comment_score", "dogwhistle_check", "relevance_check", "spam_check"])
        const terms: Array<string> = body.dogwhistle_check.details.dogwhistle_terms
        // "Thug" of the author's name is not the commenter's words; the site's example is watched for at once.
        assert.deepStrictEqual(terms.sort(), ["globalist", "scheme from the council"])
        for (const t of terms) {
          assert.include(text, t)
          assert.include(comment, t)
        }
        assert.deepStrictEqual(body.dogwhistle_check.details.categories.sort(), ["antisemitic", "site example"])
      })


      it("rejects non-boolean flags in JSON", async () => {
        await expectNativeError(await native("/v0.2/megacall", { comment: "hello", run_spam_check: "true" }), 400)
      })

      it("adds a perspective section on request", async () => {
        const res = await native("/v0.2/megacall", {
          comment: "what an idiot",
          run_perspective: true,
          requested_attributes: ["TOXICITY", "INSULT"]
        })
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        expect(body.perspective.attributeScores.TOXICITY.summaryScore).toEqual({ value: expect.any(Number), type: "PROBABILITY" })
        assert.isDefined(body.perspective.attributeScores.INSULT)
      })

      it("scores each sentence in the perspective section when span_annotations is true", async () => {
        const comment = "The budget looks fine. You are an idiot."
        const res = await native("/v0.2/megacall", { comment, run_perspective: true, requested_attributes: ["TOXICITY"], span_annotations: true })
        assert.strictEqual(res.status, 200)
        const spans = (await res.json()).perspective.attributeScores.TOXICITY.spanScores
        assert.deepStrictEqual(spans.map((s: { begin: number; end: number }) => comment.slice(s.begin, s.end)), ["The budget looks fine.", "You are an idiot."])
        for (const s of spans) expect(s.score).toEqual({ value: expect.any(Number), type: "PROBABILITY" })
        const without = await (await native("/v0.2/megacall", { comment, run_perspective: true, requested_attributes: ["TOXICITY"] })).json()
        assert.isUndefined(without.perspective.attributeScores.TOXICITY.spanScores)
      })
    })

    describe("dog whistles and machine-written text", () => {
      it("answers /v0.2/dogwhistle as the official client parses it, quoting the comment, with the site's examples", async () => {
        const comment = "The globalist elites and their shadow money again."
        const res = await native("/v0.2/dogwhistle", {
          comment,
          article_context_id: articleId,
          sensitive_topics: ["finance"],
          dogwhistle_examples: ["Shadow Money"]
        })
        assert.strictEqual(res.status, 200)
        assert.strictEqual(res.headers.get("x-model-version"), "test-model-1")
        const body = await res.json()
        expect(body.detection).toEqual({ reasoning: expect.any(String), dogwhistles_detected: true, confidence: expect.any(Number) })
        assert.deepStrictEqual(body.details.dogwhistle_terms, ["globalist", "shadow money"])
        for (const t of body.details.dogwhistle_terms) assert.include(comment, t)
        assert.deepStrictEqual(body.details.categories, ["antisemitic", "site example"])
      })

      it("answers details: null for a clean comment, with or without an article context", async () => {
        for (const extra of [{ article_context_id: articleId }, {}]) {
          const res = await native("/v0.2/dogwhistle", { comment: "The library should open on Sundays.", ...extra })
          assert.strictEqual(res.status, 200)
          const body = await res.json()
          assert.isNull(body.details)
          assert.isFalse(body.detection.dogwhistles_detected)
        }
      })

      it("does not judge the WordPress plugin's author header", async () => {
        const res = await native("/v0.2/dogwhistle", { comment: "Author: Sam\nAuthor email: sam@globalist.example\n\nThe library should open on Sundays." })
        assert.strictEqual(res.status, 200)
        assert.isNull((await res.json()).details)
        // Without the header's shape, the same words are the comment's own and are judged.
        const judged = await native("/v0.2/dogwhistle", { comment: "Author email: sam@globalist.example\nThe library should open on Sundays." })
        assert.isTrue((await judged.json()).detection.dogwhistles_detected)
        // Nothing but a header is an empty comment.
        await expectNativeError(await native("/v0.2/llmdetect", { comment: "Author: Sam\n\n   " }), 400)
      })

      it("answers /v0.2/llmdetect with verbatim quotes and an honest confidence", async () => {
        const comment = "Furthermore, we must delve into the budget. Moreover, the tapestry of library hours matters to every resident here."
        const res = await native("/v0.2/llmdetect", { comment })
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        assert.strictEqual(body.signals_detected.length, 4)
        for (const s of body.signals_detected) {
          assert.include(comment, s.quoted_text)
          assert.include(["word_frequency", "structural", "stylistic", "epistemic"], s.signal_type)
        }
        assert.isAbove(body.llm_likelihood, 0.5)
        const short = await (await native("/v0.2/llmdetect", { comment: "me too" })).json()
        assert.isBelow(short.confidence, 0.5)
      })

      it("takes form encoding with list fields as name[]", async () => {
        const res = await form(
          "/v0.2/dogwhistle",
          `comment=${encodeURIComponent("Those thugs and their shadow money.")}&sensitive_topics[]=crime&dogwhistle_examples[]=shadow%20money`
        )
        assert.strictEqual(res.status, 200)
        assert.deepStrictEqual((await res.json()).details.dogwhistle_terms, ["shadow money"])
        const llm = await form("/v0.2/llmdetect", `comment=${encodeURIComponent("We delve.")}`)
        assert.strictEqual(llm.status, 200)
        const mega = await form("/v0.2/megacall", `comment=${encodeURIComponent("A globalist, moreover.")}&run_dogwhistle_check=true&run_llm_detect=true`)
        assert.deepStrictEqual(Object.keys(await mega.json()).sort(), ["dogwhistle_check", "llm_detection"])
      })

      it("answers bad input in the native envelope", async () => {
        assert.strictEqual((await expectNativeError(await native("/v0.2/dogwhistle", { article_context_id: articleId }), 400)).error, "Missing Parameter")
        await expectNativeError(await native("/v0.2/llmdetect", { comment: "   " }), 400)
        await expectNativeError(await native("/v0.2/llmdetect", { comment: 42 }), 400)
        await expectNativeError(await native("/v0.2/dogwhistle", { comment: "hi", dogwhistle_examples: "not a list" }), 400)
        await expectNativeError(await native("/v0.2/dogwhistle", { comment: "hi", article_context_id: "nope" }), 400)
        const unknown = await expectNativeError(await native("/v0.2/dogwhistle", { comment: "hi", article_context_id: "00000000-0000-4000-8000-000000000000" }), 400)
        assert.include(unknown.message, "article_context_id")
        await expectNativeError(await native("/v0.2/llmdetect", { comment: "x".repeat(20_481) }), 400)
        await expectNativeError(
          await host.request("/v0.2/dogwhistle", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ comment: "hi" }) }),
          401
        )
        await expectNativeError(
          await host.request("/v0.2/llmdetect", { method: "POST", headers: { "content-type": "text/plain", "x-user-email": email, "x-api-key": key }, body: "hi" }),
          415
        )
      })

      it("lists both in usercheck's allowed endpoints", async () => {
        const body = await (await host.request("/v0.2/usercheck", { headers: { "x-user-email": email, "x-api-key": key } })).json()
        expect(body.allowed_endpoints).toEqual(expect.arrayContaining(["dogwhistle", "llmdetect"]))
      })
    })

    describe("the official Python client (respectify-python)", () => {
      it("rejects the dog-whistle and LLM answers the client rejects (the checks can fail)", () => {
        const dog = { detection: { reasoning: "r", dogwhistles_detected: false, confidence: 0.9 }, details: null }
        assert.isNull(Respectify.parseError(Respectify.DogwhistleResult, dog))
        assert.isNull(Respectify.parseError(Respectify.DogwhistleResult, { ...dog, details: undefined }))
        assert.isNotNull(Respectify.parseError(Respectify.DogwhistleResult, { detection: { ...dog.detection, confidence: 1.5 }, details: null }))
        assert.isNotNull(Respectify.parseError(Respectify.DogwhistleResult, { ...dog, details: { dogwhistle_terms: [], categories: [], subtlety_level: 0.5 } }))
        const llm = { llm_likelihood: 0.2, confidence: 0.5, signals_detected: [{ signal_type: "stylistic", description: "d", quoted_text: "q" }], reasoning: "r" }
        assert.isNull(Respectify.parseError(Respectify.LlmDetectionResult, llm))
        assert.isNotNull(Respectify.parseError(Respectify.LlmDetectionResult, { ...llm, llm_likelihood: -0.1 }))
        assert.isNotNull(Respectify.parseError(Respectify.LlmDetectionResult, { ...llm, reasoning: undefined }))
        assert.isNotNull(Respectify.parseError(Respectify.MegaCallResult, { llm_detection: { ...llm, confidence: 2 } }))
      })

      it("parses a comment score whose every item carries explanation and suggested_rewrite", async () => {
        const comment = "You always say this, you idiot."
        const res = await native("/v0.2/commentscore", { article_context_id: articleId, comment })
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        // The test providers find one item of each kind here, so none of the checks is vacuous.
        assert.lengthOf(body.logical_fallacies, 1)
        assert.lengthOf(body.objectionable_phrases, 1)
        assert.lengthOf(body.negative_tone_phrases, 1)
        const [fallacy] = body.logical_fallacies
        expect(fallacy).toEqual({
          fallacy_name: expect.any(String),
          quoted_logical_fallacy_example: "always",
          explanation_and_suggestions: fallacy.explanation,
          explanation: expect.stringMatching(/\S/),
          suggested_rewrite: ""
        })
        for (const item of [...body.objectionable_phrases, ...body.negative_tone_phrases]) {
          assert.strictEqual(typeof item.explanation, "string")
          assert.strictEqual(item.suggested_rewrite, "")
        }
        const combined = await native("/v0.2/megacall", { comment, article_context_id: articleId, run_comment_score: true })
        assert.deepStrictEqual((await combined.json()).comment_score, body)
      })

      it("parses the compat service's analyse and suggestscore answers", async () => {
        const auth = { "x-user-email": email, "x-api-key": key }
        const analysed = await google("/v0.2/perspective-compat/analyse", { comment: { text: "you idiot" }, requestedAttributes: { TOXICITY: {} }, spanAnnotations: true }, auth)
        assert.strictEqual(analysed.status, 200)
        const suggested = await google(
          "/v0.2/perspective-compat/suggestscore",
          { comment: { text: "fine" }, attributeScores: { TOXICITY: { summaryScore: { value: 0 } } }, clientToken: "r-1" },
          auth
        )
        assert.strictEqual(suggested.status, 200)
        assert.strictEqual((await suggested.json()).clientToken, "r-1")
      })

      it("rejects what the client rejects (the checks can fail)", () => {
        const good = {
          logical_fallacies: [],
          objectionable_phrases: [{ quoted_objectionable_phrase: "idiot", explanation: "insult", suggested_rewrite: "" }],
          negative_tone_phrases: [],
          appears_low_effort: false,
          overall_score: 3,
          toxicity_score: 0.5,
          toxicity_explanation: "x"
        }
        assert.isNull(Respectify.parseError(Respectify.CommentScore, good))
        const bad: Array<Record<string, unknown>> = [
          { ...good, objectionable_phrases: [{ quoted_objectionable_phrase: "idiot", explanation: "insult" }] },
          { ...good, objectionable_phrases: [{ quoted_objectionable_phrase: "idiot", suggested_rewrite: "" }] },
          { ...good, overall_score: 0 },
          { ...good, overall_score: 2.5 },
          { ...good, toxicity_score: 1.2 },
          { ...good, toxicity_explanation: undefined },
          { ...good, appears_low_effort: "no" }
        ]
        for (const body of bad) assert.isNotNull(Respectify.parseError(Respectify.CommentScore, body))
        assert.isNotNull(Respectify.parseError(Respectify.MegaCallResult, { spam_check: { reasoning: "r", is_spam: true, confidence: -0.1 } }))
        assert.isNotNull(Respectify.parseError(Respectify.InitTopicResponse, { article_id: "not-a-uuid" }))
        assert.lengthOf(Respectify.fallacyAliasErrors({ logical_fallacies: [{ explanation: "a", explanation_and_suggestions: "b" }] }), 1)
      })
    })

    describe("Perspective families", () => {
      it("analyses through the compat path with header auth", async () => {
        for (const prefix of ["external-compat", "perspective-compat"]) {
          const res = await google(
            `/v0.2/${prefix}/analyse`,
            { comment: { text: "what kind of idiot name is foo?" }, requestedAttributes: { TOXICITY: {} }, clientToken: "t-1" },
            { "x-user-email": email, "x-api-key": key }
          )
          assert.strictEqual(res.status, 200)
          const body = await res.json()
          assert.strictEqual(body.attributeScores.TOXICITY.summaryScore.type, "PROBABILITY")
          assert.isUndefined(body.attributeScores.TOXICITY.spanScores)
          assert.deepStrictEqual(body.languages, ["en"])
          assert.deepStrictEqual(body.detectedLanguages, ["en"])
          assert.strictEqual(body.clientToken, "t-1")
        }
      })

      it("answers Perspective's real example shape on the Google-shaped path", async () => {
        const text = "what kind of idiot name is foo?"
        const res = await google(`/v1alpha1/comments:analyze?key=${key}`, {
          comment: { text },
          languages: ["en"],
          requestedAttributes: { TOXICITY: {} }
        })
        assert.strictEqual(res.status, 200)
        const body = await res.json()
        const tox = body.attributeScores.TOXICITY
        assert.deepStrictEqual(tox.spanScores, [{ begin: 0, end: 31, score: { value: tox.summaryScore.value, type: "PROBABILITY" } }])
        assert.deepStrictEqual(body.languages, ["en"])
      })

      it("uses Google's errors for empty comments, missing and unknown attributes", async () => {
        await expectGoogleError(await google(`/v1alpha1/comments:analyze?key=${key}`, { comment: { text: "" }, requestedAttributes: { TOXICITY: {} } }), 400, "COMMENT_EMPTY")
        await expectGoogleError(await google(`/v1alpha1/comments:analyze?key=${key}`, { comment: { text: "hi" } }), 400, "NO_REQUESTED_ATTRIBUTES")
        const unknown = await expectGoogleError(
          await google(`/v1alpha1/comments:analyze?key=${key}`, { comment: { text: "hi" }, requestedAttributes: { NOPE: {} } }),
          400,
          "INVALID_REQUEST"
        )
        assert.strictEqual(unknown.error.message, "Unknown requested attribute: NOPE")
        await expectGoogleError(
          await google(`/v1alpha1/comments:analyze?key=${key}`, { comment: { text: "x".repeat(20_481) }, requestedAttributes: { TOXICITY: {} } }),
          400,
          "COMMENT_TOO_LONG"
        )
      })

      it("stores a score suggestion and echoes the client token", async () => {
        const res = await google(`/v1alpha1/comments:suggestscore?key=${key}`, {
          comment: { text: "you are wonderful" },
          attributeScores: { TOXICITY: { summaryScore: { value: 0 } } },
          clientToken: "c-9",
          languages: ["en"]
        })
        assert.strictEqual(res.status, 200)
        assert.deepStrictEqual(await res.json(), { clientToken: "c-9", detectedLanguages: ["en"], requestedLanguages: ["en"] })
        await expectGoogleError(
          await google(`/v1alpha1/comments:suggestscore?key=${key}`, { comment: { text: "x" }, attributeScores: { TOXICITY: { summaryScore: { value: 2 } } } }),
          400
        )
      })

      it("answers POST /batch (multipart/mixed of application/http parts) part by part, with Content-ID <response-ID>", async () => {
        const part = (id: string, text: string) =>
          [
            "--B",
            "Content-Type: application/http",
            `Content-ID: <${id}>`,
            "",
            `POST /v1alpha1/comments:analyze?key=${key}&alt=json HTTP/1.1`,
            "Content-Type: application/json",
            "",
            JSON.stringify({ comment: { text }, requestedAttributes: { TOXICITY: {} } })
          ].join("\r\n")
        const res = await host.request("/batch", {
          method: "POST",
          headers: { "content-type": "multipart/mixed; boundary=B" },
          body: `${part("x + 1", "hello there")}\r\n${part("x + 2", "")}\r\n--B--\r\n`
        })
        assert.strictEqual(res.status, 200)
        const boundary = /boundary=(\S+)/.exec(res.headers.get("content-type") ?? "")?.[1]
        assert.isOk(boundary)
        const text = await res.text()
        const parts = text.split(`--${boundary}`).slice(1, -1)
        assert.lengthOf(parts, 2)
        assert.include(parts[0]!, "Content-ID: <response-x + 1>")
        assert.match(parts[0]!, /\r\n\r\nHTTP\/1\.1 200 OK\r\n/)
        assert.include(parts[0]!, "\"summaryScore\"")
        assert.include(parts[1]!, "Content-ID: <response-x + 2>")
        assert.match(parts[1]!, /HTTP\/1\.1 400 Bad Request/)
        assert.include(parts[1]!, "COMMENT_EMPTY")
      })

      it("serves the discovery document with rootUrl from the request, ignoring forwarded headers of an untrusted peer", async () => {
        const res = await host.request("/$discovery/rest?version=v1alpha1", { headers: { "x-forwarded-host": "attacker.example:8443", "x-forwarded-proto": "https" } })
        assert.strictEqual(res.status, 200)
        const doc = await res.json()
        assert.deepInclude(doc, { id: "commentanalyzer:v1alpha1", name: "commentanalyzer", version: "v1alpha1", servicePath: "", batchPath: "batch" })
        assert.match(doc.rootUrl, /^https?:\/\/[^/]+\/$/)
        assert.notInclude(doc.rootUrl, "attacker.example")
        assert.deepInclude(doc.resources.comments.methods.analyze, { path: "v1alpha1/comments:analyze", httpMethod: "POST" })
        await expectGoogleError(await host.request("/$discovery/rest?version=v9"), 404)
      })
    })

    describe("the OpenAPI document", () => {
      it("declares every error status the suite met, on its operation, in the family's envelope", async () => {
        const spec = await (await host.request("/openapi.json")).json()
        const operations = Object.entries(spec.paths as Record<string, Record<string, any>>).map(([template, item]) => ({
          match: new RegExp(`^${template.replace(/[.$]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}$`),
          item
        }))
        const undeclared: Array<string> = []
        const unrouted = new Set<number>()
        for (const seen of errorsSeen) {
          const op = operations.find((o) => o.match.test(seen.path))?.item[seen.method]
          if (op === undefined) {
            unrouted.add(seen.status)
            continue
          }
          const response = op.responses[String(seen.status)]
          const ref = response?.content?.["application/json"]?.schema?.$ref
          const envelope = seen.path.startsWith("/v0.2/") && !seen.path.includes("-compat/") ? "NativeError" : "GoogleError"
          if (ref !== `#/components/schemas/${envelope}`) undeclared.push(`${seen.method} ${seen.path} ${seen.status}: ${JSON.stringify(response)}`)
        }
        assert.deepStrictEqual(undeclared, [])
        // Only unknown routes have no operation to declare them on.
        assert.deepStrictEqual([...unrouted], [404])
        // The suite met the statuses beyond 400/401/415 that the document once left out.
        assert.deepStrictEqual(new Set(errorsSeen.map((e) => e.status)), new Set([400, 401, 403, 404, 413, 415, 502]))
      })

      it("declares nothing the handlers cannot answer: no platform decode error, and every declared status in the table", async () => {
        const spec = await (await host.request("/openapi.json")).json()
        const text = JSON.stringify(spec.paths)
        assert.notInclude(text, "HttpApiDecodeError")
        const usercheck = Object.keys(spec.paths["/v0.2/usercheck"].get.responses).sort()
        assert.deepStrictEqual(usercheck, ["200", "401", "429", "500", "503"])
        const megacall = spec.paths["/v0.2/megacall"].post.responses
        assert.deepStrictEqual(Object.keys(megacall).sort(), ["200", "400", "401", "413", "415", "429", "500", "502", "503"])
        assert.strictEqual(megacall["502"].description, "Bad Gateway")
        const analyze = spec.paths["/v1alpha1/comments:analyze"].post.responses
        assert.deepStrictEqual(Object.keys(analyze).sort(), ["200", "400", "403", "413", "415", "429", "500", "502", "503"])
        assert.include(analyze["400"].description, "API_KEY_INVALID")
        assert.include(analyze["403"].description, "PERMISSION_DENIED")
        // The two evaluations of issue 29, with their own request and answer schemas.
        for (const path of ["/v0.2/dogwhistle", "/v0.2/llmdetect"]) {
          const op = spec.paths[path].post
          expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "502"]))
          assert.deepStrictEqual(op.security, [{ userEmail: [], apiKey: [] }])
        }
        assert.strictEqual(spec.paths["/v0.2/dogwhistle"].post.responses["200"].content["application/json"].schema.$ref, "#/components/schemas/DogwhistleCheck")
        assert.strictEqual(spec.paths["/v0.2/llmdetect"].post.responses["200"].content["application/json"].schema.$ref, "#/components/schemas/LlmDetection")
        expect(Object.keys(spec.components.schemas.MegacallResponse.properties)).toEqual(
          expect.arrayContaining(["dogwhistle_check", "llm_detection"])
        )
      })
    })

    describe("coverage of the official client's checks", () => {
      it("held a 200 answer of every path the client parses to its model", () => {
        assert.deepStrictEqual([...parsedByClient.keys()].sort(), Object.keys(Respectify.modelFor).sort())
      })
    })
  })
