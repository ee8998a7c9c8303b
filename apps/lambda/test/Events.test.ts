import { assert, describe, it } from "@effect/vitest"
import { fromResponse, isHttpEvent, isTextContentType, stripStage, toRequest } from "../src/Events.js"
import { fixtures } from "./aws.js"

describe("API Gateway REST (v1) events", () => {
  it("reads AWS's example event: method, path without stage, multi-value headers and query, base64 body", async () => {
    const request = toRequest(fixtures.v1())
    assert.strictEqual(request.method, "POST")
    const url = new URL(request.url)
    assert.strictEqual(url.origin, "https://1234567890.execute-api.us-east-1.amazonaws.com")
    assert.strictEqual(url.pathname, "/path/to/resource")
    assert.deepStrictEqual(url.searchParams.getAll("foo"), ["bar"])
    assert.strictEqual(request.headers.get("user-agent"), "Custom User Agent String")
    assert.strictEqual(await request.text(), `{"test":"body"}`)
  })

  it("keeps every value of a multi-value query parameter and header, and the Google-shaped colon", async () => {
    const event = {
      ...fixtures.v1(),
      httpMethod: "POST",
      path: "/v1alpha1/comments:analyze",
      multiValueQueryStringParameters: { key: ["dk_a"], fields: ["a b", "c&d"] },
      queryStringParameters: { key: "dk_a", fields: "c&d" },
      multiValueHeaders: { "X-Many": ["one", "two"], Host: ["api.example"] },
      headers: { "X-Many": "two", Host: "api.example", "Content-Type": "application/json" },
      body: "{}",
      isBase64Encoded: false
    }
    const request = toRequest(event)
    const url = new URL(request.url)
    assert.strictEqual(url.pathname, "/v1alpha1/comments:analyze")
    assert.deepStrictEqual(url.searchParams.getAll("fields"), ["a b", "c&d"])
    assert.strictEqual(url.searchParams.get("key"), "dk_a")
    assert.strictEqual(request.headers.get("x-many"), "one, two")
    // A header only in `headers` (not in `multiValueHeaders`) is kept too.
    assert.strictEqual(request.headers.get("content-type"), "application/json")
    assert.strictEqual(await request.text(), "{}")
  })

  it("falls back to queryStringParameters, strips a stage prefix, and sends no body on GET", async () => {
    const event = {
      ...fixtures.v1(),
      httpMethod: "GET",
      path: "/prod/$discovery/rest",
      multiValueQueryStringParameters: null,
      queryStringParameters: { version: "v1alpha1" },
      body: "ignored",
      isBase64Encoded: false
    }
    const request = toRequest(event)
    assert.strictEqual(new URL(request.url).pathname, "/$discovery/rest")
    assert.strictEqual(new URL(request.url).search, "?version=v1alpha1")
    assert.isNull(request.body)
  })

  it("answers statusCode, headers, multiValueHeaders (cookies apart) and a text body", async () => {
    const headers = new Headers({ "content-type": "application/json", "x-model-version": "m-1" })
    headers.append("set-cookie", "a=1; Path=/")
    headers.append("set-cookie", "b=2; Path=/")
    const result = await fromResponse(new Response(`{"ok":true}`, { status: 201, headers }), "v1")
    assert.deepStrictEqual(result, {
      statusCode: 201,
      headers: { "content-type": "application/json", "x-model-version": "m-1" },
      multiValueHeaders: { "content-type": ["application/json"], "x-model-version": ["m-1"], "set-cookie": ["a=1; Path=/", "b=2; Path=/"] },
      body: `{"ok":true}`,
      isBase64Encoded: false
    })
  })
})

describe("HTTP API (v2) and Function URL events", () => {
  it("reads AWS's HTTP API example: method, stage stripped from rawPath, raw query, cookies, headers", async () => {
    const request = toRequest(fixtures.v2())
    assert.strictEqual(request.method, "POST")
    const url = new URL(request.url)
    assert.strictEqual(url.origin, "https://id.execute-api.us-east-1.amazonaws.com")
    assert.strictEqual(url.pathname, "/my/path")
    assert.deepStrictEqual(url.searchParams.getAll("parameter1"), ["value1", "value2"])
    assert.strictEqual(request.headers.get("header2"), "value1,value2")
    assert.strictEqual(request.headers.get("cookie"), "cookie1=one; cookie2=two")
    assert.deepStrictEqual(await request.json(), { hello: "from Lambda" })
  })

  it("reads AWS's Function URL example: $default stage, base64 body kept byte for byte", async () => {
    const request = toRequest(fixtures.url())
    assert.strictEqual(new URL(request.url).pathname, "/my/path")
    assert.strictEqual(new URL(request.url).host, "abcdefg.lambda-url.us-east-1.on.aws")
    assert.strictEqual(request.headers.get("content-type"), "application/octet-stream")
    assert.strictEqual(await request.text(), "Hello from a function URL")
    const bytes = Uint8Array.from([0, 255, 1, 254, 10, 13])
    const binary = toRequest({ ...fixtures.url(), body: Buffer.from(bytes).toString("base64"), isBase64Encoded: true })
    assert.deepStrictEqual(new Uint8Array(await binary.arrayBuffer()), bytes)
  })

  it("sends a body without a content type as it came (no invented text/plain)", () => {
    const { headers, ...event } = fixtures.url()
    const request = toRequest({ ...event, headers: { host: headers!["host"] }, body: "x", isBase64Encoded: false })
    assert.isNull(request.headers.get("content-type"))
  })

  it("answers headers, cookies and base64 for binary content, text for JSON and HTML", async () => {
    const headers = new Headers({ "content-type": "image/png" })
    headers.append("set-cookie", "s=1")
    const bytes = Uint8Array.from([137, 80, 78, 71, 0, 1])
    const binary = await fromResponse(new Response(bytes, { status: 200, headers }), "v2")
    assert.deepStrictEqual(binary, {
      statusCode: 200,
      headers: { "content-type": "image/png" },
      cookies: ["s=1"],
      body: Buffer.from(bytes).toString("base64"),
      isBase64Encoded: true
    })
    const html = await fromResponse(new Response("<p>é</p>", { headers: { "content-type": "text/html; charset=utf-8" } }), "v2")
    assert.deepStrictEqual(html, { statusCode: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: "<p>é</p>", isBase64Encoded: false })
    const empty = await fromResponse(new Response(null, { status: 204 }), "v2")
    assert.deepStrictEqual(empty, { statusCode: 204, headers: {}, body: "", isBase64Encoded: false })
  })
})

describe("helpers", () => {
  it("strips only a whole leading stage segment, never $default", () => {
    assert.strictEqual(stripStage("/prod/v0.2/megacall", "prod"), "/v0.2/megacall")
    assert.strictEqual(stripStage("/prod", "prod"), "/")
    assert.strictEqual(stripStage("/production/x", "prod"), "/production/x")
    assert.strictEqual(stripStage("/v0.2/megacall", "prod"), "/v0.2/megacall")
    assert.strictEqual(stripStage("/$default/x", "$default"), "/$default/x")
    assert.strictEqual(stripStage("/x", undefined), "/x")
  })

  it("tells HTTP events from other Lambda events", () => {
    assert.isTrue(isHttpEvent(fixtures.v1()))
    assert.isTrue(isHttpEvent(fixtures.v2()))
    assert.isTrue(isHttpEvent(fixtures.url()))
    assert.isFalse(isHttpEvent({ Records: [{ eventSource: "aws:sqs" }] }))
    // a body that is not a string is no HTTP event of API Gateway's (it would fail deep inside)
    assert.isFalse(isHttpEvent({ ...fixtures.url(), body: { comment: "hi" } }))
    assert.isTrue(isHttpEvent({ ...fixtures.url(), body: null }))
    assert.isFalse(isHttpEvent(null))
  })

  it("classifies content types", () => {
    for (const t of ["application/json", "application/json; charset=utf-8", "text/html", "application/problem+json", "application/vnd.api+json", null]) {
      assert.isTrue(isTextContentType(t))
    }
    for (const t of ["image/png", "application/octet-stream", "application/pdf"]) assert.isFalse(isTextContentType(t))
  })
})
