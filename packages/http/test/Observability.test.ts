/**
 * What an operator sees, through a real socket: `X-Request-Id` on every response and on every log
 * line of its request, the access log (no keys), `GET /metrics` in the Prometheus text format, and
 * OTLP/HTTP export of spans and metrics to a receiver on loopback.
 */
import { Auth, Metrics } from "@decorum/core"
import { HttpApp, Observability, Prometheus, Telemetry } from "@decorum/http"
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Layer, Logger, Metric } from "effect"
import { createServer, type IncomingMessage } from "node:http"
import { engineLayer, ENGINE_INFO } from "./harness.js"

const EMAIL = "ops@example.com"

interface Host {
  readonly url: string
  readonly key: string
  /** Every log line the server wrote, with its annotations. */
  readonly logs: ReadonlyArray<{ readonly message: string; readonly annotations: Record<string, unknown> }>
}

/** The HTTP app on a loopback socket with test providers, whose evaluations log a line of their own. */
const startHost = (options: { readonly observability?: Partial<Observability.ObservabilityConfig["Type"]>; readonly telemetry?: Telemetry.TelemetryOptions }) =>
  Effect.gen(function*() {
    const logs: Array<Host["logs"][number]> = []
    const capture = Logger.make(({ annotations, message }) => {
      logs.push({
        message: Array.isArray(message) ? message.map(String).join(" ") : String(message),
        annotations: Object.fromEntries([...annotations].map(([k, v]) => [k, v]))
      })
    })
    const hook = (_section: string, comment: string) => Effect.logInfo(`evaluating ${comment.length} characters`)
    const engine = engineLayer(hook)
    const server = HttpApiBuilder.serve().pipe(
      Layer.provide(HttpApp.layer),
      Layer.provideMerge(Layer.merge(engine, Observability.layer(options.observability ?? {}))),
      Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
      Layer.provide(Logger.replace(Logger.defaultLogger, capture)),
      Layer.provide(options.telemetry ? Telemetry.layer(options.telemetry) : Layer.empty)
    )
    const context = yield* Layer.build(server)
    const address = (yield* Effect.provide(HttpServer.HttpServer, context)).address
    if (address._tag !== "TcpAddress") return yield* Effect.die("expected a TCP address")
    const { key } = yield* Effect.provide(Auth.createKey(EMAIL), context)
    return { url: `http://127.0.0.1:${address.port}`, key, logs } satisfies Host
  })

const call = (host: Host, path: string, init: RequestInit = {}) =>
  Effect.promise(() =>
    fetch(host.url + path, {
      ...init,
      headers: { "content-type": "application/json", "x-user-email": EMAIL, "x-api-key": host.key, ...(init.headers as Record<string, string> | undefined) }
    })
  )

/** Prometheus text, parsed strictly: every sample belongs to a family declared by `# TYPE`, every line is well-formed. */
const parseExposition = (text: string): Map<string, number> => {
  const samples = new Map<string, number>()
  const types = new Map<string, string>()
  for (const line of text.split("\n")) {
    if (line === "") continue
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line)
    if (type) {
      assert.isFalse(types.has(type[1]!), `one TYPE line per family: ${type[1]}`)
      types.set(type[1]!, type[2]!)
      continue
    }
    if (line.startsWith("# HELP ")) continue
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|\+Inf|-Inf|NaN)$/.exec(line)
    assert.isNotNull(sample, `a well-formed sample line: ${line}`)
    const name = sample![1]!
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, "")
    assert.isTrue(types.has(family), `${name} has a # TYPE line`)
    samples.set(`${name}${sample![2] ?? ""}`, Number(sample![3]))
  }
  return samples
}

const scrape = (host: Host) =>
  Effect.gen(function*() {
    const res = yield* call(host, "/metrics")
    assert.strictEqual(res.status, 200)
    assert.strictEqual(res.headers.get("content-type"), Prometheus.CONTENT_TYPE)
    return parseExposition(yield* Effect.promise(() => res.text()))
  })

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe("request ids", () => {
  it.scopedLive("answers every response with X-Request-Id: the client's when well-formed, else a new one", () =>
    Effect.gen(function*() {
      const host = yield* startHost({})
      const mine = yield* call(host, "/v0.2/usercheck", { headers: { "x-request-id": "client-abc.1:2_3-4" } })
      assert.strictEqual(mine.headers.get("x-request-id"), "client-abc.1:2_3-4")
      for (const bad of ["has space", "x".repeat(129), "semi;colon", ""]) {
        const res = yield* call(host, "/v0.2/usercheck", { headers: { "x-request-id": bad } })
        assert.match(res.headers.get("x-request-id") ?? "", UUID, JSON.stringify(bad))
      }
      // Errors, unknown routes and operational endpoints too.
      for (const path of ["/healthz", "/v0.2/nope", "/v1alpha1/comments:analyze"]) {
        const res = yield* call(host, path, path.startsWith("/v1") ? { method: "POST", body: "{}" } : {})
        assert.match(res.headers.get("x-request-id") ?? "", UUID, path)
      }
      const a = (yield* call(host, "/healthz")).headers.get("x-request-id")
      const b = (yield* call(host, "/healthz")).headers.get("x-request-id")
      assert.notStrictEqual(a, b)
    }))

  it.scopedLive("names the request on every log line it writes, and logs one access line per request without keys", () =>
    Effect.gen(function*() {
      const host = yield* startHost({ observability: { accessLog: true } })
      const res = yield* call(host, `/v0.2/antispam?key=${host.key}`, {
        method: "POST",
        headers: { "x-request-id": "req-42" },
        body: JSON.stringify({ comment: "hello there" })
      })
      assert.strictEqual(res.status, 200)
      const logs = host.logs
      const own = logs.filter((l) => l.message.startsWith("evaluating"))
      assert.strictEqual(own.length, 1)
      assert.strictEqual(own[0]!.annotations["request_id"], "req-42")
      const access = logs.filter((l) => l.message === "access")
      assert.strictEqual(access.length, 1)
      assert.deepInclude(access[0]!.annotations, {
        request_id: "req-42",
        method: "POST",
        path: "/v0.2/antispam",
        route: "/v0.2/antispam",
        status: 200
      })
      assert.isNumber(access[0]!.annotations["duration_ms"])
      assert.notInclude(JSON.stringify(logs), host.key)
      // The secret is the 32 characters after `dk_<10-char id>_`; it may itself contain "_".
      const secret = host.key.slice("dk_".length + 10 + 1)
      assert.strictEqual(secret.length, 32)
      assert.notInclude(JSON.stringify(logs), secret)
    }))

  it.scopedLive("writes no access log unless asked to", () =>
    Effect.gen(function*() {
      const host = yield* startHost({})
      yield* call(host, "/v0.2/usercheck")
      assert.deepStrictEqual((host.logs).filter((l) => l.message === "access"), [])
    }))
})

describe("GET /metrics", () => {
  it.scopedLive("is not served unless metrics are on", () =>
    Effect.gen(function*() {
      const host = yield* startHost({})
      assert.strictEqual((yield* call(host, "/metrics")).status, 404)
    }))

  it.scopedLive("counts requests by route, family and status, times them, and counts evaluations and suggestions", () =>
    Effect.gen(function*() {
      const host = yield* startHost({ observability: { metrics: true } })
      const before = yield* scrape(host)
      const at = (samples: Map<string, number>, series: string) => samples.get(series) ?? 0
      for (let i = 0; i < 3; i++) yield* call(host, "/v0.2/antispam", { method: "POST", body: JSON.stringify({ comment: "hello there" }) })
      yield* call(host, "/v0.2/antispam", { method: "POST", body: JSON.stringify({ comment: "" }) })
      yield* call(host, `/v0.2/article-contexts/00000000-0000-4000-8000-000000000000`)
      yield* call(host, "/v0.2/nope")
      yield* call(host, `/v1alpha1/comments:suggestscore?key=${host.key}`, {
        method: "POST",
        body: JSON.stringify({ comment: { text: "fine" }, attributeScores: { TOXICITY: { summaryScore: { value: 0 } } } })
      })
      const after = yield* scrape(host)
      const delta = (series: string) => at(after, series) - at(before, series)

      assert.strictEqual(delta(`decorum_http_requests_total{route="/v0.2/antispam",family="native",status="200"}`), 3)
      assert.strictEqual(delta(`decorum_http_requests_total{route="/v0.2/antispam",family="native",status="400"}`), 1)
      // Templates, never raw paths: the id is not a label value.
      assert.strictEqual(delta(`decorum_http_requests_total{route="/v0.2/article-contexts/:id",family="native",status="404"}`), 1)
      assert.strictEqual(delta(`decorum_http_requests_total{route="unmatched",family="native",status="404"}`), 1)
      assert.strictEqual(delta(`decorum_http_requests_total{route="/v1alpha1/comments:suggestscore",family="google",status="200"}`), 1)
      const count = `decorum_http_request_duration_seconds_count{route="/v0.2/antispam",family="native"}`
      assert.strictEqual(delta(count), 4)
      assert.strictEqual(at(after, `decorum_http_request_duration_seconds_bucket{route="/v0.2/antispam",family="native",le="+Inf"}`), at(after, count))
      assert.isAbove(at(after, `decorum_http_request_duration_seconds_sum{route="/v0.2/antispam",family="native"}`), 0)
      assert.strictEqual(delta(`decorum_evaluations_total{section="spam_check",engine="local"}`), 3)
      assert.strictEqual(delta(`decorum_suggestions_stored_total`), 1)
      assert.strictEqual(at(after, `decorum_model_info{engine_version="${ENGINE_INFO.engineVersion}",model_version="${ENGINE_INFO.modelVersion}"}`), 1)
    }))

  it.scopedLive("renders every kind of Effect metric in the exposition format", () =>
    Effect.gen(function*() {
      yield* Metric.increment(Metric.tagged(Metric.counter("ops_test_counter_total"), "quote", "a \"b\" \\ c"))
      yield* Metric.set(Metric.gauge("ops_test_gauge"), 2.5)
      yield* Metric.update(Metric.tagged(Metrics.httpDuration, "route", "ops-test"), 0.003)
      yield* Metric.update(Metric.summary({ name: "ops_test_summary", maxAge: "1 minute", maxSize: 10, error: 0.01, quantiles: [0.5] }), 1)
      yield* Metric.update(Metric.frequency("ops_test_frequency"), "x")
      const samples = parseExposition(Prometheus.render(yield* Metric.snapshot))
      assert.strictEqual(samples.get(`ops_test_counter_total{quote="a \\"b\\" \\\\ c"}`), 1)
      assert.strictEqual(samples.get("ops_test_gauge"), 2.5)
      assert.strictEqual(samples.get(`decorum_http_request_duration_seconds_bucket{route="ops-test",le="0.0025"}`), 0)
      assert.strictEqual(samples.get(`decorum_http_request_duration_seconds_bucket{route="ops-test",le="0.005"}`), 1)
      assert.strictEqual(samples.get(`ops_test_summary{quantile="0.5"}`), 1)
      assert.strictEqual(samples.get(`ops_test_frequency{value="x"}`), 1)
    }))
})

describe("Prometheus.merge (the figures of several processes)", () => {
  it.scopedLive("adds counters, histogram buckets and frequencies, takes the largest gauge, and survives JSON", () =>
    Effect.gen(function*() {
      const counter = Metric.tagged(Metric.counter("merge_test_total", { incremental: true }), "route", "/x")
      const histogram = Metric.tagged(Metrics.httpDuration, "route", "merge-test")
      const gauge = Metric.gauge("merge_test_gauge")
      const frequency = Metric.frequency("merge_test_frequency")
      const only = (all: ReadonlyArray<Prometheus.Series>) => all.filter((s) => s.name.startsWith("merge_test") || s.tags.some(([, v]) => v === "merge-test"))
      // Two processes' snapshots, taken one after the other from this one, sent as JSON as over IPC.
      yield* Metric.incrementBy(counter, 2)
      yield* Metric.update(histogram, 0.003)
      yield* Metric.set(gauge, 1)
      yield* Metric.update(frequency, "a")
      const first = JSON.parse(JSON.stringify(only(yield* Prometheus.snapshot))) as Array<Prometheus.Series>
      yield* Metric.incrementBy(counter, 3)
      yield* Metric.update(histogram, 7)
      yield* Metric.set(gauge, 0)
      yield* Metric.update(frequency, "b")
      const second = JSON.parse(JSON.stringify(only(yield* Prometheus.snapshot))) as Array<Prometheus.Series>
      const samples = parseExposition(Prometheus.renderSeries(Prometheus.merge([first, second])))
      assert.strictEqual(samples.get(`merge_test_total{route="/x"}`), 2 + 5)
      assert.strictEqual(samples.get(`decorum_http_request_duration_seconds_bucket{route="merge-test",le="0.005"}`), 1 + 1)
      assert.strictEqual(samples.get(`decorum_http_request_duration_seconds_bucket{route="merge-test",le="10"}`), 1 + 2)
      assert.strictEqual(samples.get(`decorum_http_request_duration_seconds_bucket{route="merge-test",le="+Inf"}`), 1 + 2)
      assert.strictEqual(samples.get(`decorum_http_request_duration_seconds_count{route="merge-test"}`), 3)
      assert.closeTo(samples.get(`decorum_http_request_duration_seconds_sum{route="merge-test"}`)!, 0.003 + 7.003, 1e-9)
      assert.strictEqual(samples.get("merge_test_gauge"), 1)
      assert.strictEqual(samples.get(`merge_test_frequency{value="a"}`), 2)
      assert.strictEqual(samples.get(`merge_test_frequency{value="b"}`), 1)
      // One process's snapshot renders as it always did.
      assert.strictEqual(Prometheus.renderSeries(Prometheus.merge([first])), Prometheus.renderSeries(first))
    }))
})

// ---------------------------------------------------------------- OTLP

interface Received {
  readonly path: string
  readonly body: any
}

/** An OTLP/HTTP (JSON) receiver on loopback; `seen` completes when `until` holds for what it received. */
const receiver = (until: (all: ReadonlyArray<Received>) => boolean) =>
  Effect.gen(function*() {
    const done = yield* Deferred.make<ReadonlyArray<Received>>()
    const all: Array<Received> = []
    const server = createServer((req: IncomingMessage, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        all.push({ path: req.url ?? "", body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") })
        res.writeHead(200, { "content-type": "application/json" }).end("{}")
        if (until(all)) Deferred.unsafeDone(done, Effect.succeed([...all]))
      })
    })
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () => Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
    )
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    return { endpoint: `http://127.0.0.1:${port}`, seen: Deferred.await(done) }
  })

const spansOf = (all: ReadonlyArray<Received>) =>
  all.filter((r) => r.path === "/v1/traces").flatMap((r) =>
    (r.body.resourceSpans ?? []).flatMap((rs: any) =>
      (rs.scopeSpans ?? []).flatMap((ss: any) => (ss.spans ?? []).map((s: any) => ({ ...s, resource: rs.resource })))
    )
  )

const metricNamesOf = (all: ReadonlyArray<Received>): Array<string> =>
  all.filter((r) => r.path === "/v1/metrics").flatMap((r) =>
    (r.body.resourceMetrics ?? []).flatMap((rm: any) => (rm.scopeMetrics ?? []).flatMap((sm: any) => (sm.metrics ?? []).map((m: any) => m.name)))
  )

describe("OpenTelemetry export (OTLP/HTTP)", () => {
  it.scopedLive("sends the request's spans, named after real modules, and the metrics to the endpoint", () =>
    Effect.gen(function*() {
      const otlp = yield* receiver((all) =>
        spansOf(all).some((s) => s.name === "Evaluations.checkSpam") && metricNamesOf(all).includes("decorum_evaluations_total")
      )
      const host = yield* startHost({ telemetry: { endpoint: otlp.endpoint, serviceName: "decorum-test", exportInterval: "50 millis" } })
      const res = yield* call(host, "/v0.2/antispam", { method: "POST", body: JSON.stringify({ comment: "hello there" }) })
      assert.strictEqual(res.status, 200)
      const all = yield* otlp.seen.pipe(Effect.timeoutFail({ duration: "20 seconds", onTimeout: () => new Error("the receiver got no span") }))
      const spans = spansOf(all)
      const check = spans.find((s) => s.name === "Evaluations.checkSpam")!
      const server = spans.find((s) => s.name === "http.server POST" && s.traceId === check.traceId)
      assert.isDefined(server, "the module span is inside the request's span")
      assert.deepInclude(check.resource.attributes, { key: "service.name", value: { stringValue: "decorum-test" } })
      // Only span names of modules that exist (no "CommentScoring.score", "SpamCheck.check").
      for (const s of spans) assert.notMatch(s.name, /^(CommentScoring|SpamCheck|RelevanceCheck)\./)
    }))
})
