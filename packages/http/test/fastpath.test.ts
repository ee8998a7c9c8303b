/**
 * The fast path (`FastPath`) answers exactly as the HttpApi app does. Two servers share one engine
 * (the same stores, keys and rate limiter), one with the fast path and one without; every request
 * of a corpus (valid, invalid, every error of the hot routes, spans, languages, thresholds, key
 * spellings, chunked, oversize, compressed, wrong, missing and revoked keys, rate limited, client
 * request ids, route spellings that fall through) is sent to both, and the status, the headers
 * (all but `Date`, and `X-Request-Id` unless the client sent one) and the body bytes must be the
 * same. The test also requires that the fast path served the requests it should, so it cannot pass
 * by routing everything to HttpApi.
 */
import { AccountStore, Auth, AuthFailureLimiter, type RateLimitOptions, RateLimiter } from "@decorum/core"
import { Perspective } from "@decorum/domain"
import { DecorumApi, HttpApp } from "@decorum/http"
import { FastPath } from "@decorum/http/node"
import { HttpApi, HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Option, Scope, Supervisor } from "effect"
import { createServer, type IncomingMessage, request as httpRequest } from "node:http"
import { gzipSync } from "node:zlib"
import { engineLayer, makeHook } from "./harness.js"

const BODY_LIMIT = 8 * 1024
const RATE: RateLimitOptions = { perMinute: 1, burst: 120 }

interface Sent {
  readonly method?: string
  readonly path: string
  readonly headers?: Record<string, string>
  /** One string: sent with Content-Length. An array: sent chunked, one chunk each. */
  readonly body?: string | Buffer | ReadonlyArray<string>
}

interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: Buffer
}

const send = (base: string, sent: Sent) =>
  new Promise<Answer>((resolve, reject) => {
    const url = new URL(sent.path, base)
    const chunked = Array.isArray(sent.body)
    const single = chunked ? undefined : (sent.body as string | Buffer | undefined)
    const headers: Record<string, string> = {
      ...(single !== undefined ? { "content-length": String(Buffer.byteLength(single)) } : {}),
      ...sent.headers
    }
    const req = httpRequest({ host: url.hostname, port: url.port, path: sent.path, method: sent.method ?? "POST", headers, agent: false }, (res: IncomingMessage) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on("error", reject)
    })
    req.on("error", reject)
    if (chunked) for (const chunk of sent.body as ReadonlyArray<string>) req.write(chunk)
    else if (single !== undefined) req.write(single)
    req.end()
  })

/** What must match: every header but the date and a generated request id, and the body bytes. */
const comparable = (answer: Answer, sentRequestId: boolean) => {
  const headers = { ...answer.headers }
  delete headers["date"]
  if (!sentRequestId) {
    assert.match(String(headers["x-request-id"]), /^[0-9a-f-]{36}$/)
    delete headers["x-request-id"]
  }
  return { status: answer.status, headers, body: answer.body.toString("utf8") }
}

const json = { "content-type": "application/json" }
const analyzeBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ comment: { text: "You are an idiot, frankly." }, requestedAttributes: { TOXICITY: {} }, ...extra })

/** A server on `engine`, with or without the fast path; resolves to its base URL. */
const startServer = async (
  scope: Scope.Scope,
  engine: Context.Context<any>,
  enabled: boolean,
  onServed?: (request: IncomingMessage) => void,
  /** Fiber-level settings for the server (a supervisor). */
  settings: Layer.Layer<never> = Layer.empty
) => {
  const node = createServer()
  const layer = HttpApiBuilder.serve().pipe(
    Layer.provide(HttpApp.layer),
    Layer.provide(FastPath.layer(node, { enabled, ...(onServed ? { onServed } : {}) })),
    Layer.provide(Layer.succeedContext(engine)),
    Layer.provideMerge(NodeHttpServer.layer(() => node, { port: 0, host: "127.0.0.1" })),
    Layer.provide(Layer.setTracerEnabled(false)),
    Layer.provide(settings)
  )
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return `http://127.0.0.1:${address.port}`
}

describe("the fast routes are the API's Perspective endpoints", () => {
  it("serves exactly the endpoints of DecorumApi whose body is a Perspective request, at their paths as clients write them", () => {
    // Found here from the API alone (an endpoint's payload), not from the table the fast path
    // derives: an endpoint added to the API without a route in `Handlers.perspectiveRoutes`, or
    // a route for an endpoint that takes no Perspective request, fails this.
    const requests: ReadonlyArray<unknown> = [Perspective.AnalyzeCommentRequest, Perspective.SuggestCommentScoreRequest]
    const endpoints: Array<string> = []
    HttpApi.reflect(DecorumApi, {
      onGroup: () => {},
      onEndpoint: ({ endpoint }) => {
        if (Option.isSome(endpoint.payloadSchema) && requests.includes(endpoint.payloadSchema.value)) endpoints.push(`${endpoint.method} ${endpoint.path}`)
      }
    })
    // Each a `POST` to a fixed path, `::` being the router's escaped colon (`comments:analyze` on the wire).
    assert.deepStrictEqual(
      FastPath.paths.map((path) => `POST ${path.replace(":", "::")}`).sort(),
      endpoints.sort()
    )
    assert.include(FastPath.paths, "/v1alpha1/comments:analyze")
  })
})

describe("the fast path answers as the HttpApi app does", () => {
  const scope = Effect.runSync(Scope.make())
  const served: Array<string> = []
  let fast = ""
  let slow = ""
  let run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>

  const start = (engine: Context.Context<any>, enabled: boolean) =>
    startServer(scope, engine, enabled, (request) => served.push(request.url ?? ""))

  beforeAll(async () => {
    const hook = await Effect.runPromise(makeHook)
    const engine = await Effect.runPromise(
      Layer.buildWithScope(Layer.merge(engineLayer(hook, { bodyLimitBytes: BODY_LIMIT }), RateLimiter.memory(RATE)), scope)
    )
    run = (effect) => Effect.runPromise(Effect.provide(effect, engine) as Effect.Effect<any, any>)
    fast = await start(engine, true)
    slow = await start(engine, false)
  })
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  /** A key of a fresh account (each case has its own, so the rate limit only bites where it should). */
  let accounts = 0
  const newKey = async () => {
    const email = `fast-${++accounts}@example.com`
    const { key } = await run(Auth.createKey(email))
    return { email, key }
  }

  const google = (key: string, body: NonNullable<Sent["body"]>, headers: Record<string, string> = json): Sent => ({
    path: `/v1alpha1/comments:analyze?key=${key}`,
    headers,
    body
  })

  /** Requests the fast path should have taken (sent to the fast server on a hot route as written). */
  let expectedFast = 0

  /** Sends `sent` to both servers (fast first) and requires the same answer. */
  const same = async (sent: Sent, takesFastPath = true) => {
    if (takesFastPath) expectedFast++
    const a = await send(fast, sent)
    const b = await send(slow, sent)
    const withId = /^[A-Za-z0-9._:-]{1,128}$/.test(sent.headers?.["x-request-id"] ?? "")
    assert.deepStrictEqual(comparable(a, withId), comparable(b, withId), `${sent.method ?? "POST"} ${sent.path}`)
    return a
  }

  it("valid analyze requests: attributes, spans, languages, thresholds, aliases, client tokens, HTML", async () => {
    const { key } = await newKey()
    const cases: Array<NonNullable<Sent["body"]>> = [
      analyzeBody(),
      JSON.stringify({
        comment: { text: "I disagree with the council. You are all idiots and I will find you." },
        requestedAttributes: { TOXICITY: {}, INSULT: {}, PROFANITY: {}, THREAT: {}, IDENTITY_ATTACK: {}, SEVERE_TOXICITY: {} },
        languages: ["en"],
        spanAnnotations: true,
        clientToken: "token-1"
      }),
      analyzeBody({ requestedAttributes: { TOXICITY: { scoreThreshold: 0.99 }, INSULT: { scoreThreshold: 0.01, scoreType: "PROBABILITY" } } }),
      analyzeBody({ requestedAttributes: { TOXICITY: { scoreThreshold: 0.999 } } }),
      JSON.stringify({ comment: { text: "<p>You <b>idiot</b></p>", type: "HTML" }, requested_attributes: { toxicity: {} }, span_annotations: true }),
      JSON.stringify({ comment: "a plain string comment", requestedAttributes: { TOXICITY: {} } }),
      analyzeBody({ requestedAttributes: { TOXICITY: {}, NOT_AN_ATTRIBUTE: {} }, dropUnsupportedAttributes: true }),
      analyzeBody({ requestedAttributes: { NOT_AN_ATTRIBUTE: {} }, dropUnsupportedAttributes: true }),
      analyzeBody({ languages: ["de", "fr"], context: { entries: [{ text: "an article" }] }, doNotStore: true, unknownField: 1 }),
      ["{\"comment\":{\"text\":\"chunked ", "body, you idiot\"},", "\"requestedAttributes\":{\"INSULT\":{}}}"],
      // Issue 28: the detected languages, a language's own model, attributes it does not serve dropped.
      JSON.stringify({ comment: { text: "[lang:de] [lang:fr] Du Idiot" }, requestedAttributes: { TOXICITY: {}, INSULT: {} } }),
      JSON.stringify({ comment: { text: "[lang:ja] バカ" }, requestedAttributes: { TOXICITY: {}, INSULT: {} }, dropUnsupportedAttributes: true })
    ]
    for (const body of cases) {
      const answer = await same(google(key, body))
      assert.strictEqual(answer.status, 200)
      assert.isArray(JSON.parse(answer.body.toString("utf8")).detectedLanguages)
    }
  })

  it("every error of the route: body, validation, media type, size, encoding", async () => {
    const { key } = await newKey()
    const long = "x".repeat(20_481)
    const cases: Array<Sent> = [
      google(key, "{not json"),
      google(key, "[1,2]"),
      google(key, ""),
      google(key, "   "),
      google(key, `{"a":${"[".repeat(200)}${"]".repeat(200)}}`),
      google(key, JSON.stringify({ requestedAttributes: { TOXICITY: {} } })),
      google(key, JSON.stringify({ comment: { text: "   " }, requestedAttributes: { TOXICITY: {} } })),
      google(key, JSON.stringify({ comment: { text: long }, requestedAttributes: { TOXICITY: {} } })),
      google(key, JSON.stringify({ comment: { text: "hi", type: "MARKDOWN" }, requestedAttributes: { TOXICITY: {} } })),
      google(key, JSON.stringify({ comment: { text: "hi" } })),
      google(key, analyzeBody({ requestedAttributes: { NOT_AN_ATTRIBUTE: {} } })),
      google(key, analyzeBody({ requestedAttributes: { TOXICITY: { scoreThreshold: 1.5 } } })),
      google(key, analyzeBody({ requestedAttributes: { TOXICITY: { scoreType: "STD_DEV_SCORE" } } })),
      google(key, analyzeBody({ context: { entries: [], articleAndParentComment: {} } })),
      google(key, JSON.stringify({ comment: { text: 5 }, requestedAttributes: { TOXICITY: {} } })),
      google(key, analyzeBody({ languages: "en" })),
      // Issue 28: a language without a model (detected, requested), one attribute it lacks, nothing to detect.
      google(key, JSON.stringify({ comment: { text: "[lang:sv] Du är en idiot" }, requestedAttributes: { TOXICITY: {} } })),
      google(key, analyzeBody({ languages: ["cs"] })),
      google(key, JSON.stringify({ comment: { text: "[lang:ja] バカ" }, requestedAttributes: { TOXICITY: {}, INSULT: {} } })),
      google(key, JSON.stringify({ comment: { text: "👍 123" }, requestedAttributes: { TOXICITY: {} } })),
      google(key, analyzeBody(), { "content-type": "text/plain" }),
      google(key, analyzeBody(), { "content-type": "application/x-www-form-urlencoded" }),
      google(key, analyzeBody(), {}),
      google(key, analyzeBody(), { "content-type": "application/vnd.api+json" }),
      google(key, gzipSync(analyzeBody()), { ...json, "content-encoding": "gzip" }),
      google(key, analyzeBody({ padding: "y".repeat(BODY_LIMIT) })),
      google(key, ["{\"comment\":{\"text\":\"", "z".repeat(BODY_LIMIT), "\"}}"]),
      { path: `/v1alpha1/comments:analyze?key=${key}`, headers: { ...json, "content-length": String(BODY_LIMIT * 10) }, body: analyzeBody() }
    ]
    const statuses: Array<number> = []
    for (const sent of cases) statuses.push((await same(sent)).status)
    assert.deepStrictEqual(statuses, [400, 400, 400, 400, 400, 400, 400, 413, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 415, 415, 200, 200, 415, 413, 413, 413])
  })

  it("authentication: missing, malformed, wrong and revoked keys, the key header, rate limits", async () => {
    const { key } = await newKey()
    const revoked = await newKey()
    await run(Effect.flatMap(AccountStore, (store) => store.revokeKey(Auth.parseKeyId(revoked.key)!)))
    const limited = await newKey()
    for (let i = 0; i < RATE.burst!; i++) await send(slow, google(limited.key, analyzeBody()))
    const cases: Array<Sent> = [
      { path: "/v1alpha1/comments:analyze", headers: json, body: analyzeBody() },
      google("dk_notakey", analyzeBody()),
      google(`${key.slice(0, -4)}AAAA`, analyzeBody()),
      google(revoked.key, analyzeBody()),
      { path: "/v1alpha1/comments:analyze", headers: { ...json, "x-goog-api-key": key }, body: analyzeBody() },
      { path: "/v1alpha1/comments:analyze", headers: { ...json, "x-goog-api-key": "wrong" }, body: analyzeBody() },
      // A wrong key with a bad body: authentication answers first.
      google("dk_notakey", "{not json"),
      google(limited.key, analyzeBody())
    ]
    const statuses: Array<number> = []
    for (const sent of cases) statuses.push((await same(sent)).status)
    assert.deepStrictEqual(statuses, [403, 400, 400, 400, 200, 400, 400, 429])
  })

  it("the compat families and suggestscore", async () => {
    const { email, key } = await newKey()
    const auth = { ...json, "x-user-email": email, "x-api-key": key }
    const suggest = JSON.stringify({ comment: { text: "a fine comment" }, attributeScores: { TOXICITY: { summaryScore: { value: 0.1 } } } })
    const cases: Array<Sent> = []
    for (const prefix of ["external-compat", "perspective-compat"]) {
      cases.push(
        { path: `/v0.2/${prefix}/analyse`, headers: auth, body: analyzeBody() },
        { path: `/v0.2/${prefix}/analyse`, headers: auth, body: JSON.stringify({ comment: { text: "no attributes asked" } }) },
        { path: `/v0.2/${prefix}/analyse`, headers: auth, body: "{bad" },
        { path: `/v0.2/${prefix}/analyse`, headers: { ...json, "x-api-key": key }, body: analyzeBody() },
        { path: `/v0.2/${prefix}/analyse`, headers: { ...auth, "x-user-email": "someone@else.example" }, body: analyzeBody() },
        { path: `/v0.2/${prefix}/suggestscore`, headers: auth, body: suggest },
        { path: `/v0.2/${prefix}/suggestscore`, headers: auth, body: JSON.stringify({ comment: { text: "x" } }) },
        { path: `/v0.2/${prefix}/analyse`, headers: auth, body: JSON.stringify({ comment: { text: "[lang:fr] tu es un idiot" } }) },
        { path: `/v0.2/${prefix}/analyse`, headers: auth, body: JSON.stringify({ comment: { text: "[lang:nl] jij idioot" } }) }
      )
    }
    cases.push(
      { path: `/v1alpha1/comments:suggestscore?key=${key}`, headers: json, body: suggest },
      { path: `/v1alpha1/comments:suggestscore?key=${key}`, headers: json, body: JSON.stringify({ attributeScores: {} }) }
    )
    for (const sent of cases) await same(sent)
  })

  it("request ids, and the spellings and methods that fall through to the router", async () => {
    const { key } = await newKey()
    const before = served.length
    const fallThrough: Array<Sent> = [
      { path: `/v1alpha1/comments:analyze?key=${key}&alt=json`, headers: json, body: analyzeBody() },
      { path: `/v1alpha1/comments:analyze/?key=${key}`, headers: json, body: analyzeBody() },
      { path: `/V1ALPHA1/comments:analyze?key=${key}`, headers: json, body: analyzeBody() },
      { path: `/v1alpha1/comments%3Aanalyze?key=${key}`, headers: json, body: analyzeBody() },
      { method: "GET", path: `/v1alpha1/comments:analyze?key=${key}` },
      { method: "PUT", path: `/v1alpha1/comments:analyze?key=${key}`, headers: json, body: analyzeBody() }
    ]
    for (const sent of fallThrough) await same(sent, false)
    assert.strictEqual(served.length - before, 0, "spellings the fast path does not take")
    await same(google(key, analyzeBody(), { ...json, "x-request-id": "client-chosen.id:1" }))
    await same(google(key, analyzeBody(), { ...json, "x-request-id": "not a well-formed id!" }))
    assert.strictEqual(served.length - before, 2)
  })

  it("served the hot routes through the fast path, and nothing through the server without it", () => {
    // Every case above sent to the fast server first; the HttpApi server never reports a request.
    assert.isAbove(expectedFast, 50)
    assert.strictEqual(served.length, expectedFast)
    assert.isTrue(served.every((url) => /^\/(v1alpha1\/comments:(analyze|suggestscore)|v0\.2\/(external|perspective)-compat\/(analyse|suggestscore))(\?key=[\w-]+)?$/.test(url)))
  })
})

describe("the fast path and the failed-authentication limit per address (issue 10)", () => {
  const scope = Effect.runSync(Scope.make())
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  it("inherits the limit: once an address has spent its failures, both paths answer the same 429, valid key or not", async () => {
    const hook = await Effect.runPromise(makeHook)
    // One engine, so one limiter: failures on either server count against 127.0.0.1 on both.
    const engine = await Effect.runPromise(
      Layer.buildWithScope(engineLayer(hook, { authFailureLimit: { perMinute: 1, burst: 3 } }), scope)
    )
    const served: Array<string> = []
    const fast = await startServer(scope, engine, true, (request) => served.push(request.url ?? ""))
    const slow = await startServer(scope, engine, false)
    const { key } = await Effect.runPromise(Effect.provide(Auth.createKey("limited@example.com"), engine) as Effect.Effect<{ key: string }, unknown>)
    const wrong = `dk_${"a".repeat(10)}_${"b".repeat(32)}`
    const analyze = (k: string): Sent => ({ path: `/v1alpha1/comments:analyze?key=${k}`, headers: json, body: analyzeBody() })
    const compat = (k: string): Sent => ({
      path: "/v0.2/external-compat/analyse",
      headers: { ...json, "x-user-email": "limited@example.com", "x-api-key": k },
      body: analyzeBody()
    })

    // Three failures spend the burst, sent through both paths.
    for (const base of [fast, slow, fast]) {
      const answer = await send(base, analyze(wrong))
      assert.notStrictEqual(answer.status, 429)
      assert.isAtLeast(answer.status, 400)
    }
    // From now on every request from this address is refused before its key is looked up, the
    // same way on both paths, in each family's envelope.
    for (const sent of [analyze(wrong), analyze(key), compat(key)]) {
      const a = await send(fast, sent)
      const b = await send(slow, sent)
      assert.strictEqual(a.status, 429, sent.path)
      assert.match(String(a.headers["retry-after"]), /^\d+$/)
      assert.deepStrictEqual(comparable(a, false), comparable(b, false))
    }
    // The fast path took its hot routes (it answered the 429s itself, not by falling through).
    assert.strictEqual(served.length, 5)
  })
})

/** Counts the fibers started under it. */
class FiberStarts extends Supervisor.AbstractSupervisor<number> {
  started = 0
  get value() {
    return Effect.sync(() => this.started)
  }
  override onStart() {
    this.started++
  }
}

describe("the fast path without fibers (issue 13)", () => {
  const scope = Effect.runSync(Scope.make())
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  it("answers analyze with a known key and a synchronous scorer without starting a fiber, and falls back to one when a step needs it", async () => {
    const hook = await Effect.runPromise(makeHook)
    // With the failed-authentication limiter the server runs by default.
    const engine = await Effect.runPromise(
      Layer.buildWithScope(Layer.merge(engineLayer(hook, { authFailureLimit: { perMinute: 30 } }), RateLimiter.memory(RATE)), scope)
    )
    const fibers = new FiberStarts()
    const served: Array<string> = []
    const fast = await startServer(scope, engine, true, (request) => served.push(request.url ?? ""), Supervisor.addSupervisor(fibers))
    const slow = await startServer(scope, engine, false)
    const { email, key } = await Effect.runPromise(
      Effect.provide(Effect.map(Auth.createKey("fibers@example.com"), (k) => ({ email: "fibers@example.com", key: k.key })), engine) as Effect.Effect<{ email: string; key: string }>
    )
    const counted = async (sent: Sent) => {
      const before = fibers.started
      const answer = await send(fast, sent)
      assert.deepStrictEqual(comparable(answer, false), comparable(await send(slow, sent), false), sent.path)
      return { status: answer.status, fibers: fibers.started - before }
    }
    const six = JSON.stringify({
      comment: { text: "You are an idiot, frankly." },
      requestedAttributes: { TOXICITY: {}, INSULT: {}, PROFANITY: {}, THREAT: {}, IDENTITY_ATTACK: {}, SEVERE_TOXICITY: {} }
    })
    // Both families, valid and invalid bodies, a rejected attribute: all without a fiber.
    assert.deepStrictEqual(await counted({ path: `/v1alpha1/comments:analyze?key=${key}`, headers: json, body: six }), { status: 200, fibers: 0 })
    assert.deepStrictEqual(await counted({ path: "/v1alpha1/comments:analyze", headers: { ...json, "x-goog-api-key": key }, body: analyzeBody() }), { status: 200, fibers: 0 })
    assert.deepStrictEqual(await counted({ path: "/v0.2/external-compat/analyse", headers: { ...json, "x-user-email": email, "x-api-key": key }, body: analyzeBody() }), { status: 200, fibers: 0 })
    assert.deepStrictEqual(await counted({ path: `/v1alpha1/comments:analyze?key=${key}`, headers: json, body: "{bad" }), { status: 400, fibers: 0 })
    assert.deepStrictEqual(await counted({ path: `/v1alpha1/comments:analyze?key=${key}`, headers: json, body: analyzeBody({ requestedAttributes: { NOPE: {} } }) }), { status: 400, fibers: 0 })
    // A step that needs an effect still runs as one, with the same answer: a wrong key (the
    // failed-authentication rule counts it) and a store write (suggestscore).
    assert.isAbove((await counted({ path: `/v1alpha1/comments:analyze?key=${key.slice(0, -4)}AAAA`, headers: json, body: analyzeBody() })).fibers, 0)
    // A failure on record (a public endpoint always has some) leaves the good requests without one.
    assert.deepStrictEqual(await counted({ path: `/v1alpha1/comments:analyze?key=${key}`, headers: json, body: six }), { status: 200, fibers: 0 })
    const suggest = JSON.stringify({ comment: { text: "fine" }, attributeScores: { TOXICITY: { summaryScore: { value: 0.1 } } } })
    const suggested = await counted({ path: `/v1alpha1/comments:suggestscore?key=${key}`, headers: json, body: suggest })
    assert.strictEqual(suggested.status, 200)
    assert.isAbove(suggested.fibers, 0)
    assert.strictEqual(served.length, 8)
  })

  it("keeps analyze off fibers with both limiters switched off (DECORUM_AUTH_FAILURE_LIMIT_PER_MINUTE=0, no rate limit)", async () => {
    // What the engine provides for those settings: the `unlimited` limiters. They used to lack the
    // optional plain members, which sent every request of such a server through a fiber.
    const hook = await Effect.runPromise(makeHook)
    const engine = await Effect.runPromise(
      Layer.buildWithScope(Layer.mergeAll(engineLayer(hook), AuthFailureLimiter.unlimited, RateLimiter.unlimited), scope)
    )
    const fibers = new FiberStarts()
    const served: Array<string> = []
    const fast = await startServer(scope, engine, true, (request) => served.push(request.url ?? ""), Supervisor.addSupervisor(fibers))
    const slow = await startServer(scope, engine, false)
    const { key } = await Effect.runPromise(Effect.provide(Auth.createKey("unlimited@example.com"), engine) as Effect.Effect<{ key: string }, unknown>)
    const sent: Sent = { path: `/v1alpha1/comments:analyze?key=${key}`, headers: json, body: analyzeBody() }
    const before = fibers.started
    const answer = await send(fast, sent)
    assert.strictEqual(fibers.started - before, 0)
    assert.strictEqual(answer.status, 200)
    assert.deepStrictEqual(comparable(answer, false), comparable(await send(slow, sent), false))
    assert.strictEqual(served.length, 1)
  })
})
