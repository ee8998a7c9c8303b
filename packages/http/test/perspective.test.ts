/**
 * Sections 4 to 6 of `interface.md`, row by row, on every Perspective family: the compat family
 * under both prefixes (header auth) and the Google-shaped family (`?key=`). Through a real socket,
 * with the deterministic test providers (a comment's score rises with the words idiot, stupid,
 * moron, hate: 0.05 with none, 0.5 with one, 0.95 with two).
 */
import { RateLimited } from "@decorum/domain"
import { Perspective } from "@decorum/domain"
import { ErrorMapping } from "@decorum/http"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHttpHost, type TestHost } from "./harness.js"

const PERSPECTIVE_ERROR = "type.googleapis.com/google.commentanalyzer.v1alpha1.Error"

type FamilyName = "external-compat" | "perspective-compat" | "google"
const FAMILIES: ReadonlyArray<FamilyName> = ["external-compat", "perspective-compat", "google"]

interface GoogleError {
  error: { code: number; message: string; status: string; details?: Array<Record<string, string>> }
}

let host: TestHost
let key: string
const email = "perspective@example.com"
let otherKey: string
const otherEmail = "other-perspective@example.com"

beforeAll(async () => {
  host = await startHttpHost()
  key = await host.createKey(email)
  otherKey = await host.createKey(otherEmail)
})
afterAll(async () => {
  await host?.close()
})

const pathOf = (family: FamilyName, op: "analyze" | "suggestscore") =>
  family === "google" ? `/v1alpha1/comments:${op}?key=${key}` : `/v0.2/${family}/${op === "analyze" ? "analyse" : "suggestscore"}`

const authOf = (family: FamilyName): Record<string, string> => (family === "google" ? {} : { "x-user-email": email, "x-api-key": key })

/** Posts a body (an object is sent as JSON, a string as is) to one family's operation. */
const post = (family: FamilyName, op: "analyze" | "suggestscore", body: unknown, headers: Record<string, string> = {}) =>
  fetch(host.url + pathOf(family, op), {
    method: "POST",
    headers: { "content-type": "application/json", ...authOf(family), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

const analyze = async (family: FamilyName, body: unknown) => {
  const res = await post(family, "analyze", body)
  const json = await res.json()
  if (res.status !== 200) throw new Error(`${family}: ${res.status} ${JSON.stringify(json)}`)
  return json as Perspective.AnalyzeCommentResponse & Record<string, unknown>
}

const expectGoogleError = async (res: Response, status: number, errorType?: string) => {
  assert.strictEqual(res.status, status)
  assert.include(res.headers.get("content-type")!, "application/json")
  const body = (await res.json()) as GoogleError
  assert.deepStrictEqual(Object.keys(body), ["error"])
  assert.strictEqual(body.error.code, status)
  assert.strictEqual(typeof body.error.message, "string")
  assert.isAbove(body.error.message.length, 0)
  if (errorType) assert.deepStrictEqual(body.error.details, [{ "@type": PERSPECTIVE_ERROR, errorType }])
  return body
}

/** Every UTF-16 unit outside the spans is whitespace; no span starts or ends with whitespace. */
const expectSentenceSpans = (text: string, spans: ReadonlyArray<{ begin: number; end: number }>) => {
  let covered = 0
  for (const s of spans) {
    assert.isAtLeast(s.begin, covered)
    assert.strictEqual(text.slice(covered, s.begin).trim(), "")
    const slice = text.slice(s.begin, s.end)
    assert.isAbove(slice.length, 0)
    assert.strictEqual(slice.trim(), slice)
    covered = s.end
  }
  assert.strictEqual(text.slice(covered).trim(), "")
}

describe.each(FAMILIES)("Perspective analyze on %s", (family) => {
  const google = family === "google"

  describe("request", () => {
    it("accepts comment as {text, type} and as a plain string", async () => {
      for (const comment of [{ text: "what an idiot" }, { text: "what an idiot", type: "PLAIN_TEXT" }, "what an idiot"]) {
        const body = await analyze(family, { comment, requestedAttributes: { TOXICITY: {} } })
        assert.closeTo(body.attributeScores!["TOXICITY"]!.summaryScore.value, 0.5, 0.005)
      }
    })

    it("rejects a comment type other than PLAIN_TEXT or HTML", async () => {
      await expectGoogleError(await post(family, "analyze", { comment: { text: "hi", type: "MARKDOWN" }, requestedAttributes: { TOXICITY: {} } }), 400, "INVALID_REQUEST")
    })

    it("accepts every attribute name of interface.md, and echoes each key as requested", async () => {
      const requested = Object.fromEntries(Perspective.AcceptedAttributeNames.map((n) => [n, {}]))
      const body = await analyze(family, { comment: { text: "You are an idiot." }, requestedAttributes: requested })
      assert.deepStrictEqual(Object.keys(body.attributeScores!).sort(), [...Perspective.AcceptedAttributeNames].sort())
      for (const scores of Object.values(body.attributeScores!)) {
        assert.strictEqual(scores.summaryScore.type, "PROBABILITY")
        assert.isAtLeast(scores.summaryScore.value, 0)
        assert.isAtMost(scores.summaryScore.value, 1)
      }
      // The names of interface.md §4, spelled out, so a change of the table shows here.
      const names = [
        "TOXICITY", "SEVERE_TOXICITY", "IDENTITY_ATTACK", "INSULT", "PROFANITY", "THREAT", "SEXUALLY_EXPLICIT", "FLIRTATION",
        "ATTACK_ON_AUTHOR", "ATTACK_ON_COMMENTER", "INCOHERENT", "INFLAMMATORY", "LIKELY_TO_REJECT", "OBSCENE", "SPAM", "UNSUBSTANTIAL",
        "AFFINITY_EXPERIMENTAL", "COMPASSION_EXPERIMENTAL", "CURIOSITY_EXPERIMENTAL", "NUANCE_EXPERIMENTAL",
        "PERSONAL_STORY_EXPERIMENTAL", "REASONING_EXPERIMENTAL", "RESPECT_EXPERIMENTAL"
      ]
      const all = [...names, ...names.slice(0, 8).map((n) => `${n}_EXPERIMENTAL`)]
      assert.deepStrictEqual([...Perspective.AcceptedAttributeNames].sort(), all.sort())
    })

    it("echoes NAME@VERSION suffixes, lower-case and _EXPERIMENTAL aliases as requested", async () => {
      const requested = { "TOXICITY@6": {}, "insult": {}, "THREAT_EXPERIMENTAL@2": {}, "SEVERE_TOXICITY": {} }
      const body = await analyze(family, { comment: { text: "You are an idiot." }, requestedAttributes: requested })
      assert.deepStrictEqual(Object.keys(body.attributeScores!).sort(), Object.keys(requested).sort())
      await expectGoogleError(
        await post(family, "analyze", { comment: { text: "hi" }, requestedAttributes: { "TOXICITY@latest": {} } }),
        400,
        "INVALID_REQUEST"
      )
    })

    it("accepts snake_case field names (Jigsaw's sample server) and answers lowerCamelCase", async () => {
      const body = await analyze(family, {
        comment: { text: "You idiot. Nice park." },
        requested_attributes: { TOXICITY: { score_threshold: 0.3, score_type: "PROBABILITY" }, NOPE: {} },
        span_annotations: true,
        client_token: "snake-1",
        session_id: "s-1",
        community_id: "c-1",
        do_not_store: true,
        drop_unsupported_attributes: true,
        context: { article_and_parent_comment: { article: { text: "Parks." }, parent_comment: { text: "I like parks." } } }
      })
      assert.strictEqual(body.clientToken, "snake-1")
      assert.deepStrictEqual(Object.keys(body.attributeScores!), ["TOXICITY"])
      // The threshold (0.3) drops the clean sentence's span; span annotations gave sentence spans.
      expect(body.attributeScores!["TOXICITY"]!.spanScores).toEqual([{ begin: 0, end: 10, score: { value: expect.any(Number), type: "PROBABILITY" } }])
      assert.notMatch(JSON.stringify(body), /_[a-z]/)
    })

    it("accepts context.entries or context.articleAndParentComment, and 400s both at once", async () => {
      const comment = { text: "I agree." }
      const requestedAttributes = { TOXICITY: {} }
      await analyze(family, { comment, requestedAttributes, context: { entries: [{ text: "An article." }, { text: "<b>A</b> parent", type: "HTML" }] } })
      await analyze(family, { comment, requestedAttributes, context: { articleAndParentComment: { article: { text: "An article." }, parentComment: { text: "Hm." } } } })
      const both = await expectGoogleError(
        await post(family, "analyze", {
          comment,
          requestedAttributes,
          context: { entries: [{ text: "x" }], articleAndParentComment: { article: { text: "y" } } }
        }),
        400,
        "INVALID_REQUEST"
      )
      assert.include(both.error.message, "not both")
    })

    it("echoes clientToken when sent and leaves it out otherwise", async () => {
      assert.strictEqual((await analyze(family, { comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} }, clientToken: "tok-42" })).clientToken, "tok-42")
      expect(await analyze(family, { comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} } })).not.toHaveProperty("clientToken")
    })

    it("never stores analyze traffic, whatever doNotStore says", async () => {
      const before = { suggestions: (await host.listSuggestions()).length, contexts: await host.countArticleContexts(email) }
      for (const doNotStore of [false, true, undefined]) {
        await analyze(family, {
          comment: { text: `store me? ${String(doNotStore)}` },
          requestedAttributes: { TOXICITY: {} },
          context: { entries: [{ text: "an article" }] },
          ...(doNotStore === undefined ? {} : { doNotStore })
        })
      }
      assert.strictEqual((await host.listSuggestions()).length, before.suggestions)
      assert.strictEqual(await host.countArticleContexts(email), before.contexts)
    })

    it("drops unknown attributes with dropUnsupportedAttributes, and 400s them without", async () => {
      const body = await analyze(family, { comment: { text: "hi" }, requestedAttributes: { TOXICITY: {}, NOPE: {} }, dropUnsupportedAttributes: true })
      assert.deepStrictEqual(Object.keys(body.attributeScores!), ["TOXICITY"])
      const none = await post(family, "analyze", { comment: { text: "hi" }, requestedAttributes: { NOPE: {} }, dropUnsupportedAttributes: true })
      assert.strictEqual(none.status, 200)
      assert.strictEqual(none.headers.get("x-model-version"), "test-model-1")
      assert.deepStrictEqual(await none.json(), { attributeScores: {}, languages: ["en"], detectedLanguages: ["en"] })
      const err = await expectGoogleError(await post(family, "analyze", { comment: { text: "hi" }, requestedAttributes: { TOXICITY: {}, NOPE: {} } }), 400, "INVALID_REQUEST")
      assert.strictEqual(err.error.message, "Unknown requested attribute: NOPE")
    })

    it(google ? "400s missing requestedAttributes with NO_REQUESTED_ATTRIBUTES" : "scores TOXICITY when requestedAttributes is missing", async () => {
      for (const extra of [{}, { requestedAttributes: {} }, { requestedAttributes: null }]) {
        const res = await post(family, "analyze", { comment: { text: "you idiot" }, ...extra })
        if (google) {
          const body = await expectGoogleError(res, 400, "NO_REQUESTED_ATTRIBUTES")
          assert.strictEqual(body.error.message, "Missing requested_attributes")
        } else {
          assert.strictEqual(res.status, 200)
          const body = (await res.json()) as Perspective.AnalyzeCommentResponse
          assert.deepStrictEqual(Object.keys(body.attributeScores!), ["TOXICITY"])
        }
      }
    })
  })

  describe("response", () => {
    it("has the documented shape and nothing else", async () => {
      const body = await analyze(family, { comment: { text: "what kind of idiot name is foo?" }, requestedAttributes: { TOXICITY: {} }, languages: ["en"] })
      assert.deepStrictEqual(Object.keys(body).sort(), ["attributeScores", "detectedLanguages", "languages"])
      const tox = body.attributeScores!["TOXICITY"]!
      expect(tox.summaryScore).toEqual({ value: expect.any(Number), type: "PROBABILITY" })
      if (google) assert.deepStrictEqual(tox.spanScores, [{ begin: 0, end: 31, score: { value: tox.summaryScore.value, type: "PROBABILITY" } }])
      else assert.deepStrictEqual(Object.keys(tox), ["summaryScore"])
    })

    it("accepts scoreType PROBABILITY (or unset) and 400s every other score type", async () => {
      for (const scoreType of ["PROBABILITY", "SCORE_TYPE_UNSPECIFIED", null]) {
        await analyze(family, { comment: { text: "hi" }, requestedAttributes: { TOXICITY: { scoreType } } })
      }
      for (const scoreType of ["STD_DEV_SCORE", "PERCENTILE", "RAW", "BOGUS"]) {
        const body = await expectGoogleError(await post(family, "analyze", { comment: { text: "hi" }, requestedAttributes: { TOXICITY: { scoreType } } }), 400, "INVALID_REQUEST")
        assert.include(body.error.message, scoreType)
      }
    })

    it("leaves out attributes and spans below their scoreThreshold", async () => {
      const body = await analyze(family, {
        comment: { text: "You idiot. What a nice park." },
        requestedAttributes: { TOXICITY: { scoreThreshold: 0.3 }, INSULT: { scoreThreshold: 0.9 }, THREAT: {} },
        spanAnnotations: true
      })
      assert.deepStrictEqual(Object.keys(body.attributeScores!).sort(), ["THREAT", "TOXICITY"])
      assert.deepStrictEqual(body.attributeScores!["TOXICITY"]!.spanScores!.map((s) => [s.begin, s.end]), [[0, 10]])
      assert.deepStrictEqual(body.attributeScores!["THREAT"]!.spanScores!.map((s) => [s.begin, s.end]), [[0, 10], [11, 28]])
      // A score equal to the threshold is kept.
      const equal = await analyze(family, { comment: { text: "You idiot" }, requestedAttributes: { TOXICITY: { scoreThreshold: 0.5 } } })
      assert.strictEqual(equal.attributeScores!["TOXICITY"]!.summaryScore.value, 0.5)
    })

    it("leaves out attributeScores itself when every attribute is below its threshold, but only then", async () => {
      const below = await analyze(family, {
        comment: { text: "What a nice park." },
        requestedAttributes: { TOXICITY: { scoreThreshold: 0.5 }, INSULT: { scoreThreshold: 0.9 } },
        clientToken: "t"
      })
      assert.deepStrictEqual(below, { languages: ["en"], detectedLanguages: ["en"], clientToken: "t" })
      // Low scores without any threshold are still answered (clients crash on a missing key).
      const noThreshold = await analyze(family, { comment: { text: "What a nice park." }, requestedAttributes: { TOXICITY: {} } })
      assert.isBelow(noThreshold.attributeScores!["TOXICITY"]!.summaryScore.value, 0.5)
    })

    it("400s a scoreThreshold outside [0, 1]", async () => {
      for (const scoreThreshold of [1.5, -0.1]) {
        await expectGoogleError(await post(family, "analyze", { comment: { text: "hi" }, requestedAttributes: { TOXICITY: { scoreThreshold } } }), 400, "INVALID_REQUEST")
      }
    })

    it("preserves languages when sent, answers the top detected language when not, and detectedLanguages always (issue 28)", async () => {
      const sent = await analyze(family, { comment: { text: "Hallo zusammen" }, requestedAttributes: { TOXICITY: {} }, languages: ["de", "fr"] })
      assert.deepStrictEqual(sent.languages, ["de", "fr"])
      assert.deepStrictEqual(sent.detectedLanguages, ["en"])
      for (const extra of [{}, { languages: [] }, { languages: null }]) {
        const body = await analyze(family, { comment: { text: "hello" }, requestedAttributes: { TOXICITY: {} }, ...extra })
        assert.deepStrictEqual(body.languages, ["en"])
        assert.deepStrictEqual(body.detectedLanguages, ["en"])
      }
      const french = await analyze(family, { comment: { text: "[lang:fr] [lang:de] tu es un idiot" }, requestedAttributes: { TOXICITY: {} } })
      assert.deepStrictEqual(french.languages, ["fr"])
      assert.deepStrictEqual(french.detectedLanguages, ["fr", "de"])
    })
  })

  describe("spans", () => {
    it(google ? "answers one whole-text span per attribute without spanAnnotations" : "answers no spans unless spanAnnotations is true", async () => {
      const text = "First sentence.  Second one!"
      for (const extra of [{}, { spanAnnotations: false }]) {
        const body = await analyze(family, { comment: { text }, requestedAttributes: { TOXICITY: {}, INSULT: {} }, ...extra })
        for (const name of ["TOXICITY", "INSULT"]) {
          const scores = body.attributeScores![name]!
          if (google) assert.deepStrictEqual(scores.spanScores, [{ begin: 0, end: text.length, score: scores.summaryScore }])
          else assert.isUndefined(scores.spanScores)
        }
      }
    })

    it("answers one span per sentence, in UTF-16 offsets, across emoji, combining marks, quotes, & and <", async () => {
      const sentences = [
        "Cafe\u0301 owners say \"wow\" & 3 < 4.",
        "I love it 😀🎉!",
        "You idiot 👩‍👩‍👧?",
        "‘Quoted,’ she said.",
        "no final punctuation here"
      ]
      const text = `${sentences[0]}   ${sentences[1]}\n\n${sentences[2]}\t \n  ${sentences[3]}  ${sentences[4]}`
      const body = await analyze(family, { comment: { text }, requestedAttributes: { TOXICITY: {} }, spanAnnotations: true })
      const spans = body.attributeScores!["TOXICITY"]!.spanScores!
      assert.deepStrictEqual(spans.map((s) => text.slice(s.begin, s.end)), sentences)
      expectSentenceSpans(text, spans)
      // Offsets are UTF-16 code units (JavaScript indices), not code points or bytes.
      assert.strictEqual(spans[1]!.begin, text.indexOf("I love"))
      assert.strictEqual(spans[2]!.end, text.indexOf("👧?") + 3)
      // Each sentence is scored on its own: only the third has an insult.
      assert.isAbove(spans[2]!.score.value, spans[0]!.score.value)
      assert.strictEqual(spans[4]!.end, text.length)
    })

    it("keeps leading and trailing whitespace of the comment out of every span", async () => {
      const text = "  \n Hello there.   Bye  \n"
      const body = await analyze(family, { comment: { text }, requestedAttributes: { TOXICITY: {} }, spanAnnotations: true })
      const spans = body.attributeScores!["TOXICITY"]!.spanScores!
      assert.deepStrictEqual(spans.map((s) => text.slice(s.begin, s.end)), ["Hello there.", "Bye"])
    })

    it("reduces HTML (type: HTML) to text and gives offsets into the reduced text", async () => {
      const html = "<p>Tom &amp; Jerry &lt;3 fish.</p><p>You <b>idiot</b>!<br>Bye<script>var x = '<p>';</script></p>"
      const reduced = "Tom & Jerry <3 fish.\n\nYou idiot!\nBye"
      const body = await analyze(family, { comment: { text: html, type: "HTML" }, requestedAttributes: { TOXICITY: {} }, spanAnnotations: true })
      const spans = body.attributeScores!["TOXICITY"]!.spanScores!
      assert.deepStrictEqual(spans.map((s) => reduced.slice(s.begin, s.end)), ["Tom & Jerry <3 fish.", "You idiot!", "Bye"])
      assert.isAbove(spans[1]!.score.value, spans[0]!.score.value)
      // As PLAIN_TEXT the same characters are text, offsets count every one of them.
      const plain = await analyze(family, { comment: { text: "a &amp; b. <b>c</b>" }, requestedAttributes: { TOXICITY: {} }, spanAnnotations: true })
      assert.deepStrictEqual(plain.attributeScores!["TOXICITY"]!.spanScores!.map((s) => [s.begin, s.end]), [[0, 10], [11, 19]])
    })

    it("400s HTML that reduces to nothing as an empty comment", async () => {
      await expectGoogleError(await post(family, "analyze", { comment: { text: "<p> </p><br>", type: "HTML" }, requestedAttributes: { TOXICITY: {} } }), 400, "COMMENT_EMPTY")
    })
  })

  describe("languages (issue 28)", () => {
    // The test providers (TestProviders): `[lang:xx]` markers are what is detected, else English;
    // English, German and French serve every attribute, Japanese TOXICITY only, the rest nothing.
    const languageError = async (res: Response) => {
      assert.strictEqual(res.status, 400)
      return (await res.json()) as { error: { code: number; message: string; status: string; details: Array<Record<string, unknown>> } }
    }

    it("scores a comment in its language with that language's model, and says which in languages and X-Model-Version", async () => {
      const res = await post(family, "analyze", { comment: { text: "[lang:de] Du bist ein Idiot" }, requestedAttributes: { TOXICITY: {}, INSULT: {} } })
      assert.strictEqual(res.status, 200)
      assert.strictEqual(res.headers.get("x-model-version"), "test-model-1-de")
      const body = (await res.json()) as Perspective.AnalyzeCommentResponse
      assert.deepStrictEqual(body.languages, ["de"])
      assert.deepStrictEqual(body.detectedLanguages, ["de"])
      assert.strictEqual(body.attributeScores!["TOXICITY"]!.summaryScore.value, 0.5)
      // Sent languages win over detection (region subtags and case as clients send them).
      const sent = await post(family, "analyze", { comment: { text: "you idiot" }, requestedAttributes: { TOXICITY: {} }, languages: ["FR-ca"] })
      assert.strictEqual(sent.headers.get("x-model-version"), "test-model-1-fr")
      expect(await sent.json()).toMatchObject({ languages: ["FR-ca"], detectedLanguages: ["en"] })
    })

    it("answers Perspective's LANGUAGE_NOT_SUPPORTED_BY_ATTRIBUTE for a detected language without a model", async () => {
      const body = await languageError(await post(family, "analyze", { comment: { text: "[lang:sv] Du är en idiot" }, requestedAttributes: { TOXICITY: {} } }))
      assert.deepStrictEqual(body, {
        error: {
          code: 400,
          message: "Attribute TOXICITY does not support request languages: sv",
          status: "INVALID_ARGUMENT",
          details: [{
            "@type": PERSPECTIVE_ERROR,
            errorType: "LANGUAGE_NOT_SUPPORTED_BY_ATTRIBUTE",
            languageNotSupportedByAttributeError: { detectedLanguages: ["sv"], attribute: "TOXICITY" }
          }]
        }
      })
    })

    it("names the requested languages when they were sent, and the attribute as requested", async () => {
      const body = await languageError(await post(family, "analyze", { comment: { text: "hello" }, requestedAttributes: { toxicity: {} }, languages: ["cs", "nl"] }))
      assert.strictEqual(body.error.message, "Attribute toxicity does not support request languages: cs,nl")
      assert.deepStrictEqual(body.error.details, [{
        "@type": PERSPECTIVE_ERROR,
        errorType: "LANGUAGE_NOT_SUPPORTED_BY_ATTRIBUTE",
        languageNotSupportedByAttributeError: { requestedLanguages: ["cs", "nl"], attribute: "toxicity" }
      }])
    })

    it("fails per attribute, or drops the attributes a language does not serve with dropUnsupportedAttributes", async () => {
      const text = "[lang:ja] バカ"
      const err = await languageError(await post(family, "analyze", { comment: { text }, requestedAttributes: { TOXICITY: {}, INSULT: {} } }))
      assert.strictEqual(err.error.message, "Attribute INSULT does not support request languages: ja")
      const dropped = await analyze(family, { comment: { text }, requestedAttributes: { TOXICITY: {}, INSULT: {} }, dropUnsupportedAttributes: true })
      assert.deepStrictEqual(Object.keys(dropped.attributeScores!), ["TOXICITY"])
      assert.deepStrictEqual(dropped.languages, ["ja"])
      const none = await analyze(family, { comment: { text: "[lang:sv] hej" }, requestedAttributes: { TOXICITY: {} }, dropUnsupportedAttributes: true })
      assert.deepStrictEqual(none, { attributeScores: {}, languages: ["sv"], detectedLanguages: ["sv"] })
    })

    it("answers LANGUAGE_DETECTION_FAILED when nothing can be detected and no language was sent", async () => {
      const body = await expectGoogleError(await post(family, "analyze", { comment: { text: "👍 123 !!" }, requestedAttributes: { TOXICITY: {} } }), 400, "LANGUAGE_DETECTION_FAILED")
      assert.deepInclude(body.error, { message: "Unable to detect language.", status: "INVALID_ARGUMENT" })
      const sent = await analyze(family, { comment: { text: "👍 123 !!" }, requestedAttributes: { TOXICITY: {} }, languages: ["en"] })
      expect(sent).toMatchObject({ languages: ["en"], detectedLanguages: [] })
    })
  })

  describe("errors (§5)", () => {
    it("answers Google's messages and errorTypes for empty and over-long comments", async () => {
      for (const text of ["", "   \n\t", null]) {
        const body = await expectGoogleError(await post(family, "analyze", { comment: { text }, requestedAttributes: { TOXICITY: {} } }), 400, "COMMENT_EMPTY")
        assert.deepInclude(body.error, { message: "Comment must be non-empty.", status: "INVALID_ARGUMENT" })
      }
      await expectGoogleError(await post(family, "analyze", { requestedAttributes: { TOXICITY: {} } }), 400, "COMMENT_EMPTY")
      const long = await expectGoogleError(
        await post(family, "analyze", { comment: { text: "😀".repeat(10_240) + "a" }, requestedAttributes: { TOXICITY: {} } }),
        400,
        "COMMENT_TOO_LONG"
      )
      assert.deepInclude(long.error, { message: "Comment text too long.", status: "INVALID_ARGUMENT" })
      // Exactly 20,480 UTF-16 units is accepted (clients check text.length <= 20480).
      // (sent with `languages`: emoji alone have no language to detect)
      assert.strictEqual((await post(family, "analyze", { comment: { text: "😀".repeat(10_240) }, requestedAttributes: { TOXICITY: {} }, languages: ["en"] })).status, 200)
    })

    it("answers INVALID_REQUEST for malformed bodies and wrongly typed fields, never a 500", async () => {
      const bodies: Array<unknown> = [
        "{\"comment\": ",
        "[1, 2]",
        "null",
        "42",
        { comment: 42, requestedAttributes: { TOXICITY: {} } },
        { comment: { text: 42 }, requestedAttributes: { TOXICITY: {} } },
        { comment: { text: "hi" }, requestedAttributes: ["TOXICITY"] },
        { comment: { text: "hi" }, requestedAttributes: { TOXICITY: 5 } },
        { comment: { text: "hi" }, requestedAttributes: { TOXICITY: { scoreThreshold: "high" } } },
        { comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} }, languages: "en" },
        { comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} }, spanAnnotations: "yes" },
        { comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} }, context: "an article" },
        { comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} }, context: { entries: [{ text: 1 }] } },
        { comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} }, clientToken: 7 }
      ]
      for (const body of bodies) await expectGoogleError(await post(family, "analyze", body), 400, "INVALID_REQUEST")
    })

    if (!google) {
      it("401s missing or wrong header credentials with UNAUTHENTICATED, never saying which header", async () => {
        const messages = new Set<string>()
        for (const headers of [{}, { "x-user-email": email }, { "x-api-key": key }, { "x-user-email": email, "x-api-key": otherKey }, { "x-user-email": otherEmail, "x-api-key": key }]) {
          const res = await fetch(host.url + pathOf(family, "analyze"), {
            method: "POST",
            headers: { "content-type": "application/json", ...headers },
            body: JSON.stringify({ comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} } })
          })
          const body = await expectGoogleError(res, 401)
          assert.strictEqual(body.error.status, "UNAUTHENTICATED")
          assert.isUndefined(body.error.details)
          messages.add(body.error.message)
        }
        assert.strictEqual(messages.size, 1)
        // A Google-style ?key= does not authenticate the compat family.
        const viaQuery = await fetch(`${host.url}${pathOf(family, "analyze")}?key=${key}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ comment: { text: "hi" } })
        })
        await expectGoogleError(viaQuery, 401)
      })
    } else {
      it("answers 403 PERMISSION_DENIED without a key and 400 API_KEY_INVALID with a wrong one, in header or query", async () => {
        const body = JSON.stringify({ comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} } })
        const missing = await expectGoogleError(await fetch(`${host.url}/v1alpha1/comments:analyze`, { method: "POST", body }), 403)
        assert.strictEqual(missing.error.status, "PERMISSION_DENIED")
        for (const res of [
          await fetch(`${host.url}/v1alpha1/comments:analyze?key=dk_aaaaaaaaaa_x`, { method: "POST", body }),
          await fetch(`${host.url}/v1alpha1/comments:suggestscore`, { method: "POST", body, headers: { "x-goog-api-key": "nope" } })
        ]) {
          const wrong = await expectGoogleError(res, 400)
          assert.deepStrictEqual(wrong.error, {
            code: 400,
            message: "API key not valid. Please pass a valid API key.",
            status: "INVALID_ARGUMENT",
            details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }]
          })
        }
      })

      it("ignores the standard Google query parameters", async () => {
        const res = await fetch(
          `${host.url}/v1alpha1/comments:analyze?alt=json&key=${key}&prettyPrint=false&fields=attributeScores&quotaUser=u1&%24.xgafv=2&callback=cb`,
          { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} } }) }
        )
        assert.strictEqual(res.status, 200)
        expect(await res.json()).toMatchObject({ attributeScores: { TOXICITY: {} }, languages: ["en"] })
      })
    }
  })
})

describe.each(FAMILIES)("Perspective suggestscore on %s", (family) => {
  it("stores the suggestion durably with its account, its key's id, communityId, sessionId, clientToken, languages and time", async () => {
    const before = Date.now()
    const token = `suggest-${family}`
    const res = await post(family, "suggestscore", {
      comment: { text: `A moderator corrected this (${family}).` },
      context: { entries: [{ text: "{\"url\":\"https://example.com/story#c1\"}" }] },
      attributeScores: { TOXICITY: { summaryScore: { value: 1 } }, "INSULT@3": { summaryScore: { value: 0.25 } } },
      languages: ["en"],
      communityId: "Coral:https://example.com",
      sessionId: "sess-9",
      clientToken: token
    })
    assert.strictEqual(res.status, 200)
    assert.deepStrictEqual(await res.json(), { clientToken: token, detectedLanguages: ["en"], requestedLanguages: ["en"] })
    const stored = (await host.listSuggestions(email)).filter((s) => s.clientToken === token)
    assert.lengthOf(stored, 1)
    expect(stored[0]).toMatchObject({
      email,
      commentText: `A moderator corrected this (${family}).`,
      attributeScores: { TOXICITY: 1, "INSULT@3": 0.25 },
      languages: ["en"],
      communityId: "Coral:https://example.com",
      sessionId: "sess-9",
      // The key that sent it (its public id, the part after `dk_`), so a revocation can discount it.
      keyId: key.split("_")[1]
    })
    assert.deepStrictEqual(JSON.parse(stored[0]!.contextJson!), { entries: [{ text: "{\"url\":\"https://example.com/story#c1\"}" }] })
    assert.isAtLeast(stored[0]!.createdAt.getTime(), before - 1000)
    assert.isAtMost(stored[0]!.createdAt.getTime(), Date.now() + 1000)
    // It belongs to this account only.
    assert.isFalse((await host.listSuggestions(otherEmail)).some((s) => s.clientToken === token))
  })

  it("answers requestedLanguages only when languages were sent, and detectedLanguages always (issue 28)", async () => {
    const one = await post(family, "suggestscore", { comment: { text: "ok" }, attributeScores: { TOXICITY: { summaryScore: { value: 0 } } }, clientToken: "only-token" })
    assert.deepStrictEqual(await one.json(), { clientToken: "only-token", detectedLanguages: ["en"] })
    const none = await post(family, "suggestscore", { comment: "[lang:de] gut", attributeScores: { TOXICITY: { summaryScore: { value: 0 } } } })
    assert.deepStrictEqual(await none.json(), { detectedLanguages: ["de"] })
    // Nothing to detect is no error here: the correction is stored all the same.
    const emoji = await post(family, "suggestscore", { comment: "👍👍", attributeScores: { TOXICITY: { summaryScore: { value: 0 } } } })
    assert.deepStrictEqual(await emoji.json(), { detectedLanguages: [] })
  })

  it("accepts snake_case fields", async () => {
    const res = await post(family, "suggestscore", {
      comment: { text: "snake" },
      attribute_scores: { TOXICITY: { summary_score: { value: 0.5 } } },
      client_token: "snake-suggest",
      community_id: "snake-community",
      session_id: "snake-session"
    })
    assert.deepStrictEqual(await res.json(), { clientToken: "snake-suggest", detectedLanguages: ["en"] })
    const stored = (await host.listSuggestions(email)).find((s) => s.clientToken === "snake-suggest")
    expect(stored).toMatchObject({ attributeScores: { TOXICITY: 0.5 }, communityId: "snake-community", sessionId: "snake-session" })
  })

  it("400s invalid suggestions, and stores none of them", async () => {
    const count = (await host.listSuggestions()).length
    const cases: Array<[unknown, string]> = [
      [{ comment: { text: "x" } }, "INVALID_REQUEST"],
      [{ comment: { text: "x" }, attributeScores: {} }, "INVALID_REQUEST"],
      [{ comment: { text: "x" }, attributeScores: { TOXICITY: { summaryScore: { value: 1.5 } } } }, "INVALID_REQUEST"],
      [{ comment: { text: "x" }, attributeScores: { TOXICITY: { summaryScore: { value: -0.1 } } } }, "INVALID_REQUEST"],
      [{ comment: { text: "x" }, attributeScores: { TOXICITY: {} } }, "INVALID_REQUEST"],
      [{ comment: { text: "x" }, attributeScores: { NOPE: { summaryScore: { value: 1 } } } }, "INVALID_REQUEST"],
      [{ comment: { text: "" }, attributeScores: { TOXICITY: { summaryScore: { value: 1 } } } }, "COMMENT_EMPTY"],
      [{ comment: { text: "x".repeat(20_481) }, attributeScores: { TOXICITY: { summaryScore: { value: 1 } } } }, "COMMENT_TOO_LONG"],
      [
        { comment: { text: "x" }, attributeScores: { TOXICITY: { summaryScore: { value: 1 } } }, context: { entries: [], articleAndParentComment: {} } },
        "INVALID_REQUEST"
      ],
      ["{not json", "INVALID_REQUEST"]
    ]
    for (const [body, errorType] of cases) await expectGoogleError(await post(family, "suggestscore", body), 400, errorType)
    assert.strictEqual((await host.listSuggestions()).length, count)
  })
})

describe("Perspective families: every response (§6)", () => {
  it("names the engine and the model set on successes and errors of every family, discovery and batch", async () => {
    const responses = [
      ...(await Promise.all(FAMILIES.map((f) => post(f, "analyze", { comment: { text: "hi" }, requestedAttributes: { TOXICITY: {} } })))),
      ...(await Promise.all(FAMILIES.map((f) => post(f, "analyze", { comment: { text: "" }, requestedAttributes: { TOXICITY: {} } })))),
      ...(await Promise.all(FAMILIES.map((f) => post(f, "suggestscore", { comment: { text: "hi" }, attributeScores: { TOXICITY: { summaryScore: { value: 0 } } } })))),
      await fetch(`${host.url}/v1alpha1/comments:analyze`, { method: "POST", body: "{}" }),
      await fetch(`${host.url}/$discovery/rest?version=v1alpha1`),
      await fetch(`${host.url}/batch`, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }),
      await fetch(`${host.url}/v1alpha1/comments:nope`, { method: "POST", body: "{}" })
    ]
    for (const res of responses) {
      assert.strictEqual(res.headers.get("x-engine-version"), "0.1.0")
      assert.strictEqual(res.headers.get("x-model-version"), "test-model-1")
      assert.isBelow(res.status, 500)
    }
  })

  it("maps a rate limit to 429 RESOURCE_EXHAUSTED with Retry-After in Google's envelope (the one table)", () => {
    for (const family of ["compat", "google"] as const) {
      const rendered = ErrorMapping.render(family, new RateLimited({ retryAfterSeconds: 2.2, message: "Quota exceeded." }))
      assert.strictEqual(rendered.status, 429)
      assert.deepStrictEqual(rendered.headers, { "retry-after": "3" })
      assert.deepStrictEqual(rendered.body, { error: { code: 429, message: "Quota exceeded.", status: "RESOURCE_EXHAUSTED" } })
    }
  })
})
