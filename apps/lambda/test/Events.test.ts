import { describe, expect, it } from "vitest"
import { fromResponse, isHttpEvent, isTextContentType, stripStage, toRequest } from "../src/Events.js"
import { fixtures } from "./aws.js"

describe("API Gateway REST (v1) events", () => {
  it("reads AWS's example event: method, path without stage, multi-value headers and query, base64 body", async () => {
    const request = toRequest(fixtures.v1())
    expect(request.method).toBe("POST")
    const url = new URL(request.url)
    expect(url.origin).toBe("https://1234567890.execute-api.us-east-1.amazonaws.com")
    expect(url.pathname).toBe("/path/to/resource")
    expect(url.searchParams.getAll("foo")).toEqual(["bar"])
    expect(request.headers.get("user-agent")).toBe("Custom User Agent String")
    expect(await request.text()).toBe(`{"test":"body"}`)
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
    expect(url.pathname).toBe("/v1alpha1/comments:analyze")
    expect(url.searchParams.getAll("fields")).toEqual(["a b", "c&d"])
    expect(url.searchParams.get("key")).toBe("dk_a")
    expect(request.headers.get("x-many")).toBe("one, two")
    // A header only in `headers` (not in `multiValueHeaders`) is kept too.
    expect(request.headers.get("content-type")).toBe("application/json")
    expect(await request.text()).toBe("{}")
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
    expect(new URL(request.url).pathname).toBe("/$discovery/rest")
    expect(new URL(request.url).search).toBe("?version=v1alpha1")
    expect(request.body).toBeNull()
  })

  it("answers statusCode, headers, multiValueHeaders (cookies apart) and a text body", async () => {
    const headers = new Headers({ "content-type": "application/json", "x-model-version": "m-1" })
    headers.append("set-cookie", "a=1; Path=/")
    headers.append("set-cookie", "b=2; Path=/")
    const result = await fromResponse(new Response(`{"ok":true}`, { status: 201, headers }), "v1")
    expect(result).toEqual({
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
    expect(request.method).toBe("POST")
    const url = new URL(request.url)
    expect(url.origin).toBe("https://id.execute-api.us-east-1.amazonaws.com")
    expect(url.pathname).toBe("/my/path")
    expect(url.searchParams.getAll("parameter1")).toEqual(["value1", "value2"])
    expect(request.headers.get("header2")).toBe("value1,value2")
    expect(request.headers.get("cookie")).toBe("cookie1=one; cookie2=two")
    expect(await request.json()).toEqual({ hello: "from Lambda" })
  })

  it("reads AWS's Function URL example: $default stage, base64 body kept byte for byte", async () => {
    const request = toRequest(fixtures.url())
    expect(new URL(request.url).pathname).toBe("/my/path")
    expect(new URL(request.url).host).toBe("abcdefg.lambda-url.us-east-1.on.aws")
    expect(request.headers.get("content-type")).toBe("application/octet-stream")
    expect(await request.text()).toBe("Hello from a function URL")
    const bytes = Uint8Array.from([0, 255, 1, 254, 10, 13])
    const binary = toRequest({ ...fixtures.url(), body: Buffer.from(bytes).toString("base64"), isBase64Encoded: true })
    expect(new Uint8Array(await binary.arrayBuffer())).toEqual(bytes)
  })

  it("sends a body without a content type as it came (no invented text/plain)", () => {
    const { headers, ...event } = fixtures.url()
    const request = toRequest({ ...event, headers: { host: headers!["host"] }, body: "x", isBase64Encoded: false })
    expect(request.headers.get("content-type")).toBeNull()
  })

  it("answers headers, cookies and base64 for binary content, text for JSON and HTML", async () => {
    const headers = new Headers({ "content-type": "image/png" })
    headers.append("set-cookie", "s=1")
    const bytes = Uint8Array.from([137, 80, 78, 71, 0, 1])
    const binary = await fromResponse(new Response(bytes, { status: 200, headers }), "v2")
    expect(binary).toEqual({
      statusCode: 200,
      headers: { "content-type": "image/png" },
      cookies: ["s=1"],
      body: Buffer.from(bytes).toString("base64"),
      isBase64Encoded: true
    })
    const html = await fromResponse(new Response("<p>é</p>", { headers: { "content-type": "text/html; charset=utf-8" } }), "v2")
    expect(html).toEqual({ statusCode: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: "<p>é</p>", isBase64Encoded: false })
    const empty = await fromResponse(new Response(null, { status: 204 }), "v2")
    expect(empty).toEqual({ statusCode: 204, headers: {}, body: "", isBase64Encoded: false })
  })
})

describe("helpers", () => {
  it("strips only a whole leading stage segment, never $default", () => {
    expect(stripStage("/prod/v0.2/megacall", "prod")).toBe("/v0.2/megacall")
    expect(stripStage("/prod", "prod")).toBe("/")
    expect(stripStage("/production/x", "prod")).toBe("/production/x")
    expect(stripStage("/v0.2/megacall", "prod")).toBe("/v0.2/megacall")
    expect(stripStage("/$default/x", "$default")).toBe("/$default/x")
    expect(stripStage("/x", undefined)).toBe("/x")
  })

  it("tells HTTP events from other Lambda events", () => {
    expect(isHttpEvent(fixtures.v1())).toBe(true)
    expect(isHttpEvent(fixtures.v2())).toBe(true)
    expect(isHttpEvent(fixtures.url())).toBe(true)
    expect(isHttpEvent({ Records: [{ eventSource: "aws:sqs" }] })).toBe(false)
    // a body that is not a string is no HTTP event of API Gateway's (it would fail deep inside)
    expect(isHttpEvent({ ...fixtures.url(), body: { comment: "hi" } })).toBe(false)
    expect(isHttpEvent({ ...fixtures.url(), body: null })).toBe(true)
    expect(isHttpEvent(null)).toBe(false)
  })

  it("classifies content types", () => {
    for (const t of ["application/json", "application/json; charset=utf-8", "text/html", "application/problem+json", "application/vnd.api+json", null]) {
      expect(isTextContentType(t)).toBe(true)
    }
    for (const t of ["image/png", "application/octet-stream", "application/pdf"]) expect(isTextContentType(t)).toBe(false)
  })
})
