/**
 * `POST /batch` on the wire: multipart/mixed of application/http parts (CRLF and the bare LF that
 * Google's Python client writes), Content-ID echoing, credentials per part or inherited from the
 * batch, per-part errors, and limits. The real client is exercised in `python-client.test.ts`.
 */
import { Batch } from "@decorum/http"
import { Effect } from "effect"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHttpHost, type TestHost } from "./harness.js"

let host: TestHost
let key: string
const email = "batch@example.com"

beforeAll(async () => {
  host = await startHttpHost()
  key = await host.createKey(email)
})
afterAll(async () => {
  await host?.close()
})

interface Part {
  readonly id?: string
  readonly method?: string
  readonly target: string
  readonly headers?: Record<string, string>
  readonly body?: unknown
}

const analyzeBody = (text: string, extra: Record<string, unknown> = {}) => ({ comment: { text }, requestedAttributes: { TOXICITY: {} }, ...extra })

/** Writes a batch body the way Google's clients do; `eol` is "\r\n" or "\n". */
const batchBody = (boundary: string, parts: ReadonlyArray<Part>, eol = "\r\n") =>
  parts
    .map((p) => {
      const body = p.body === undefined ? "" : typeof p.body === "string" ? p.body : JSON.stringify(p.body)
      const inner = [
        `${p.method ?? "POST"} ${p.target} HTTP/1.1`,
        "Content-Type: application/json",
        ...Object.entries(p.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
        `content-length: ${Buffer.byteLength(body)}`,
        "",
        body
      ].join(eol)
      return [`--${boundary}`, "Content-Type: application/http", "Content-Transfer-Encoding: binary", ...(p.id ? [`Content-ID: <${p.id}>`] : []), "", inner].join(eol)
    })
    .join(eol) + `${eol}--${boundary}--${eol}`

interface Answer {
  readonly contentId: string | null
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: any
}

/** Reads a multipart/mixed batch answer, checking its framing strictly (CRLF, boundary, status lines). */
const readAnswer = async (res: Response): Promise<ReadonlyArray<Answer>> => {
  assert.strictEqual(res.status, 200)
  const type = res.headers.get("content-type") ?? ""
  const boundary = /^multipart\/mixed; boundary=([^;]+)$/.exec(type)?.[1]
  assert.isOk(boundary, type)
  const text = await res.text()
  assert.isTrue(text.endsWith(`\r\n--${boundary}--\r\n`))
  const chunks = text.slice(0, text.lastIndexOf(`--${boundary}--`)).split(`--${boundary}\r\n`).slice(1)
  return chunks.map((chunk) => {
    const [partHead, rest] = [chunk.slice(0, chunk.indexOf("\r\n\r\n")), chunk.slice(chunk.indexOf("\r\n\r\n") + 4)]
    const partHeaders = Object.fromEntries(partHead.split("\r\n").map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]))
    assert.strictEqual(partHeaders["content-type"], "application/http")
    const [head, body] = [rest.slice(0, rest.indexOf("\r\n\r\n")), rest.slice(rest.indexOf("\r\n\r\n") + 4).replace(/\r\n$/, "")]
    const [statusLine, ...headerLines] = head.split("\r\n")
    const m = /^HTTP\/1\.1 (\d{3}) \S/.exec(statusLine!)
    assert.isOk(m, statusLine)
    const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]))
    assert.strictEqual(Number(headers["content-length"]), Buffer.byteLength(body))
    return { contentId: partHeaders["content-id"] ?? null, status: Number(m![1]), headers, body: JSON.parse(body) }
  })
}

const sendBatch = (parts: ReadonlyArray<Part>, options: { eol?: string; headers?: Record<string, string>; path?: string; boundary?: string } = {}) => {
  const boundary = options.boundary ?? "===============7330845974216740156=="
  return fetch(host.url + (options.path ?? "/batch"), {
    method: "POST",
    headers: { "content-type": `multipart/mixed; boundary="${boundary}"`, ...options.headers },
    body: batchBody(boundary, parts, options.eol)
  })
}

describe("POST /batch", () => {
  it("answers every part in order with Content-ID <response-ID>, CRLF or bare LF alike", async () => {
    for (const eol of ["\r\n", "\n"]) {
      const res = await sendBatch(
        [
          { id: "b29c5de2 + 1", target: `/v1alpha1/comments:analyze?key=${key}&alt=json`, body: analyzeBody("What a nice day.", { clientToken: "one" }) },
          { id: "b29c5de2 + 2", target: `/v1alpha1/comments:analyze?key=${key}&alt=json`, body: analyzeBody("You stupid idiot.", { clientToken: "two" }) },
          { id: "b29c5de2 + 3", target: `/v1alpha1/comments:analyze?key=${key}`, body: analyzeBody("One. Two", { spanAnnotations: true, languages: ["de"] }) }
        ],
        { eol }
      )
      const answers = await readAnswer(res)
      assert.deepStrictEqual(answers.map((a) => a.contentId), ["<response-b29c5de2 + 1>", "<response-b29c5de2 + 2>", "<response-b29c5de2 + 3>"])
      assert.deepStrictEqual(answers.map((a) => a.status), [200, 200, 200])
      assert.strictEqual(answers[0]!.body.clientToken, "one")
      assert.strictEqual(answers[1]!.body.clientToken, "two")
      assert.isAbove(answers[1]!.body.attributeScores.TOXICITY.summaryScore.value, answers[0]!.body.attributeScores.TOXICITY.summaryScore.value)
      assert.deepStrictEqual(answers[2]!.body.attributeScores.TOXICITY.spanScores.map((s: any) => [s.begin, s.end]), [[0, 4], [5, 8]])
      assert.deepStrictEqual(answers[2]!.body.languages, ["de"])
      // Each part carries the headers of a direct answer, engine names included (the German part's
      // model is the German one: issue 28).
      answers.forEach((a, i) => {
        assert.include(a.headers["content-type"]!, "application/json")
        assert.strictEqual(a.headers["x-engine-version"], "0.1.0")
        assert.strictEqual(a.headers["x-model-version"], i === 2 ? "test-model-1-de" : "test-model-1")
      })
    }
  })

  it("answers a bad part with its own Google error and the others normally", async () => {
    const answers = await readAnswer(
      await sendBatch([
        { id: "a", target: `/v1alpha1/comments:analyze?key=${key}`, body: { comment: { text: "hi" }, requestedAttributes: { NOPE: {} } } },
        { id: "b", target: `/v1alpha1/comments:analyze?key=${key}`, body: analyzeBody("") },
        { id: "c", target: `/v1alpha1/comments:analyze?key=wrong`, body: analyzeBody("hi") },
        { id: "d", target: `/v1alpha1/comments:analyze`, body: analyzeBody("hi") },
        { id: "e", target: `/v1alpha1/comments:nope?key=${key}`, body: analyzeBody("hi") },
        { id: "f", target: `/v1alpha1/comments:analyze?key=${key}`, body: "{not json" },
        { id: "g", target: `/batch`, body: "" },
        { id: "t", method: "TRACE", target: `/v1alpha1/comments:analyze?key=${key}` },
        { id: "h", target: `/v1alpha1/comments:analyze?key=${key}`, body: analyzeBody("fine") }
      ])
    )
    assert.deepStrictEqual(answers.map((a) => [a.contentId, a.status]), [
      ["<response-a>", 400],
      ["<response-b>", 400],
      ["<response-c>", 400],
      ["<response-d>", 403],
      ["<response-e>", 404],
      ["<response-f>", 400],
      ["<response-g>", 400],
      ["<response-t>", 400],
      ["<response-h>", 200]
    ])
    expect(answers[0]!.body.error).toMatchObject({ message: "Unknown requested attribute: NOPE", details: [{ errorType: "INVALID_REQUEST" }] })
    assert.deepStrictEqual(answers[1]!.body.error.details, [{ "@type": "type.googleapis.com/google.commentanalyzer.v1alpha1.Error", errorType: "COMMENT_EMPTY" }])
    assert.strictEqual(answers[2]!.body.error.details[0].reason, "API_KEY_INVALID")
    assert.strictEqual(answers[3]!.body.error.status, "PERMISSION_DENIED")
    assert.strictEqual(answers[4]!.body.error.status, "NOT_FOUND")
    assert.include(answers[6]!.body.error.message, "cannot itself be a batch")
    assert.isDefined(answers[8]!.body.attributeScores.TOXICITY)
  })

  it("runs compat and suggestscore parts too; a part without credentials inherits the batch's headers", async () => {
    const answers = await readAnswer(
      await sendBatch(
        [
          { id: "1", target: "/v0.2/perspective-compat/analyse", body: analyzeBody("hi there") },
          { id: "2", target: "/v0.2/external-compat/analyse", headers: { "X-User-Email": email, "X-API-Key": "wrong" }, body: analyzeBody("hi") },
          { id: "3", target: "/v1alpha1/comments:suggestscore", body: { comment: { text: "batch suggest" }, attributeScores: { TOXICITY: { summaryScore: { value: 1 } } }, clientToken: "bs-1" } }
        ],
        { headers: { "x-user-email": email, "x-api-key": key, "x-goog-api-key": key } }
      )
    )
    assert.deepStrictEqual(answers.map((a) => a.status), [200, 401, 200])
    assert.isDefined(answers[0]!.body.attributeScores.TOXICITY)
    assert.strictEqual(answers[1]!.body.error.status, "UNAUTHENTICATED")
    assert.deepStrictEqual(answers[2]!.body, { clientToken: "bs-1", detectedLanguages: ["en"] })
    assert.isTrue((await host.listSuggestions(email)).some((s) => s.clientToken === "bs-1"))
  })

  it("takes ?key= on the batch URL for parts that carry no key of their own", async () => {
    const answers = await readAnswer(await sendBatch([{ id: "k", target: "/v1alpha1/comments:analyze", body: analyzeBody("hi") }], { path: `/batch?key=${key}` }))
    assert.strictEqual(answers[0]!.status, 200)
  })

  it("accepts absolute request targets and a part without Content-ID", async () => {
    const answers = await readAnswer(await sendBatch([{ target: `http://moderation.example/v1alpha1/comments:analyze?key=${key}`, body: analyzeBody("hi") }]))
    assert.lengthOf(answers, 1)
    assert.isNull(answers[0]!.contentId)
    assert.strictEqual(answers[0]!.status, 200)
  })

  it("rejects a batch that is not multipart/mixed, has no boundary, no parts, or too many parts, in Google's envelope", async () => {
    const expectError = async (res: Response, status: number) => {
      assert.strictEqual(res.status, status)
      const body = (await res.json()) as { error: { code: number; message: string } }
      assert.strictEqual(body.error.code, status)
      assert.strictEqual(res.headers.get("x-engine-version"), "0.1.0")
      return body
    }
    await expectError(await fetch(`${host.url}/batch`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }), 415)
    await expectError(await fetch(`${host.url}/batch`, { method: "POST", headers: { "content-type": "multipart/mixed" }, body: "x" }), 400)
    await expectError(await fetch(`${host.url}/batch`, { method: "POST", headers: { "content-type": "multipart/mixed; boundary=b" }, body: "--b--\r\n" }), 400)
    await expectError(await fetch(`${host.url}/batch`, { method: "POST", headers: { "content-type": "multipart/mixed; boundary=b" }, body: "no delimiter" }), 400)
    const tooMany = Array.from({ length: Batch.MAX_PARTS + 1 }, (_, i) => ({ id: String(i), target: `/v1alpha1/comments:analyze?key=${key}`, body: analyzeBody("hi") }))
    const body = await expectError(await sendBatch(tooMany), 400)
    assert.include(body.error.message, String(Batch.MAX_PARTS))
    const exactly = await readAnswer(await sendBatch(tooMany.slice(0, Batch.MAX_PARTS)))
    assert.lengthOf(exactly, Batch.MAX_PARTS)
    assert.deepStrictEqual(new Set(exactly.map((a) => a.status)), new Set([200]))
  })

  it("rejects a batch over the body limit with 413", async () => {
    const big = [{ id: "1", target: `/v1alpha1/comments:analyze?key=${key}`, body: analyzeBody("x", { padding: "y".repeat(300 * 1024) }) }]
    const res = await sendBatch(big)
    assert.strictEqual(res.status, 413)
    assert.strictEqual(((await res.json()) as { error: { code: number } }).error.code, 413)
  })
})

describe("POST /batch nesting and bounds (issue 10, item 2)", () => {
  const SPELLINGS = ["/batch", "/./batch", "/%62atch", "/%62%61%74%63%68", "/x/../batch", "/batch/", "//batch", "/%2e/batch", "/v1alpha1/%2e%2e/batch", "http://h.example/./batch"]

  /** A batch whose only part is a batch (at `target`) holding `inner`. */
  const nested = (target: string, inner: ReadonlyArray<Part>): Part => ({
    id: "outer",
    target,
    headers: { "Content-Type": "multipart/mixed; boundary=inner" },
    body: batchBody("inner", inner)
  })

  it("refuses a part that is itself a batch under every path spelling, with 400 in Google's envelope", async () => {
    for (const target of SPELLINGS) {
      const answers = await readAnswer(
        await sendBatch([nested(target, [{ id: "x", target: `/v1alpha1/comments:analyze?key=${key}`, body: analyzeBody("hi") }])])
      )
      assert.lengthOf(answers, 1, target)
      assert.strictEqual(answers[0]!.status, 400, target)
      assert.include(answers[0]!.body.error.message, "cannot itself be a batch", target)
    }
  })

  it("refuses nesting several levels deep at the first level, without running the inner parts", async () => {
    let body: Part = { id: "leaf", target: "/v1alpha1/comments:suggestscore", body: { comment: { text: "nested leaf" }, attributeScores: { TOXICITY: { summaryScore: { value: 1 } } }, clientToken: "nested-leaf" } }
    for (let i = 0; i < 5; i++) body = nested(SPELLINGS[i % SPELLINGS.length]!, [body])
    const answers = await readAnswer(await sendBatch([body], { headers: { "x-goog-api-key": key } }))
    assert.deepStrictEqual(answers.map((a) => a.status), [400])
    assert.isFalse((await host.listSuggestions(email)).some((s) => s.clientToken === "nested-leaf"))
  })

  it("routes a part by its normalised path", async () => {
    const answers = await readAnswer(
      await sendBatch([
        { id: "1", target: `/./v1alpha1/comments:analyze?key=${key}`, body: analyzeBody("hi") },
        { id: "2", target: `/x/../v1alpha1/comments%3Aanalyze?key=${key}`, body: analyzeBody("hi") },
        { id: "3", target: `//v1alpha1//comments:analyze/?key=${key}`, body: analyzeBody("hi") }
      ])
    )
    assert.deepStrictEqual(answers.map((a) => a.status), [200, 200, 200])
  })

  it("normalises paths as the router reads them", () => {
    assert.strictEqual(Batch.normalizePath("/x/../batch"), "/batch")
    assert.strictEqual(Batch.normalizePath("/%62atch/"), "/batch")
    assert.strictEqual(Batch.normalizePath("//batch"), "/batch")
    assert.strictEqual(Batch.normalizePath("/a%2fb/%C3%A9"), "/a%2Fb/é")
    assert.strictEqual(Batch.normalizePath("/%E0%A4%A"), "/%E0%A4%A")
    assert.strictEqual(Batch.normalizePath("/%ff"), "/%ff")
  })
})

describe("POST /batch time limit (issue 10, item 2)", () => {
  let timed: TestHost
  let timedKey: string
  beforeAll(async () => {
    timed = await startHttpHost({ batchTimeLimitMs: 1_500 })
    timedKey = await timed.createKey("timed@example.com")
  })
  afterAll(async () => {
    await timed?.close()
  })

  it("stops the parts still running at the batch's time limit: each answers 503, the others their result", async () => {
    const boundary = "t"
    const res = await fetch(`${timed.url}/batch`, {
      method: "POST",
      headers: { "content-type": `multipart/mixed; boundary=${boundary}`, "x-goog-api-key": timedKey },
      body: batchBody(boundary, [
        { id: "fast", target: "/v1alpha1/comments:analyze", body: analyzeBody("hello") },
        ...Array.from({ length: 6 }, (_, i) => ({ id: `slow${i}`, target: "/v1alpha1/comments:analyze", body: analyzeBody("stuck [hang]") }))
      ])
    })
    const answers = await readAnswer(res)
    assert.strictEqual(answers[0]!.status, 200)
    for (const a of answers.slice(1)) {
      assert.strictEqual(a.status, 503)
      assert.strictEqual(a.body.error.status, "UNAVAILABLE")
    }
    // The server is free again: a direct request is answered.
    assert.strictEqual((await fetch(`${timed.url}/healthz`)).status, 200)
  })
})

describe("Batch parsing", () => {
  const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.either(effect))

  it("reads the boundary, quoted or not, and refuses other media types", async () => {
    assert.deepInclude(await run(Batch.boundaryOf("multipart/mixed; boundary=\"=====x==\"")), { right: "=====x==" })
    assert.deepInclude(await run(Batch.boundaryOf("Multipart/Mixed;boundary=abc; charset=utf-8")), { right: "abc" })
    expect(await run(Batch.boundaryOf("multipart/form-data; boundary=abc"))).toMatchObject({ left: { _tag: "UnsupportedMediaType" } })
    expect(await run(Batch.boundaryOf("multipart/mixed"))).toMatchObject({ left: { _tag: "InvalidRequest" } })
  })

  it.effect("ignores a boundary string inside a part unless it starts a line, and keeps the body verbatim", () => Effect.gen(function*() {
    const body = "preamble\r\n--b\r\nContent-Type: application/http\r\n\r\nPOST /x HTTP/1.1\r\n\r\n{\"a\":\"--b inside\"}\r\n--b--\r\nepilogue"
    const parts = yield* Batch.parseMultipart(body, "b")
    assert.lengthOf(parts, 1)
    const inner = yield* Batch.parseInnerRequest(parts[0]!.content)
    assert.deepStrictEqual(inner, { method: "POST", target: "/x", headers: [], body: "{\"a\":\"--b inside\"}" })
  }))

  it("maps request targets to paths of this server, stripping a configured base path", () => {
    assert.strictEqual(Batch.innerTarget("/v1alpha1/comments:analyze?key=k", null), "/v1alpha1/comments:analyze?key=k")
    assert.strictEqual(Batch.innerTarget("https://h.example/v1alpha1/comments:analyze", null), "/v1alpha1/comments:analyze")
    assert.strictEqual(Batch.innerTarget("/decorum/v1alpha1/comments:analyze?alt=json", "https://h.example/decorum/"), "/v1alpha1/comments:analyze?alt=json")
    assert.isNull(Batch.innerTarget("comments:analyze", null))
  })

  it("answers <response-ID> for <ID>", () => {
    assert.strictEqual(Batch.responseContentId("<abc + 1>"), "<response-abc + 1>")
    assert.strictEqual(Batch.responseContentId("item1"), "<response-item1>")
    assert.isNull(Batch.responseContentId(undefined))
  })
})

describe("POST /batch behind a public base URL with a path", () => {
  let prefixed: TestHost
  let prefixedKey: string
  beforeAll(async () => {
    prefixed = await startHttpHost({ publicBaseUrl: "https://moderation.example/decorum/" })
    prefixedKey = await prefixed.createKey("prefix@example.com")
  })
  afterAll(async () => {
    await prefixed?.close()
  })

  it("serves discovery with the configured rootUrl, and resolves part paths under it", async () => {
    const doc = (await (await fetch(`${prefixed.url}/$discovery/rest?version=v1alpha1`, { headers: { host: "ignored.example" } })).json()) as { rootUrl: string }
    assert.strictEqual(doc.rootUrl, "https://moderation.example/decorum/")
    // A client built from this document writes part targets under /decorum/ (the proxy strips it
    // from the outer request only).
    const boundary = "p"
    const res = await fetch(`${prefixed.url}/batch`, {
      method: "POST",
      headers: { "content-type": `multipart/mixed; boundary=${boundary}` },
      body: batchBody(boundary, [{ id: "1", target: `/decorum/v1alpha1/comments:analyze?key=${prefixedKey}`, body: analyzeBody("hi") }])
    })
    const answers = await readAnswer(res)
    assert.strictEqual(answers[0]!.status, 200)
  })
})
