/**
 * Turns a fetch-style call into the event AWS would deliver for it, and the handler's result back
 * into a web `Response`, for the three integrations. Events are built on the fixtures (modelled on
 * AWS's documented examples), so every field AWS sends is there.
 */
import { readFileSync } from "node:fs"
import type { ApiGatewayV1Event, ApiGatewayV2Event, LambdaHttpEvent, LambdaHttpResult } from "../src/Events.js"

export type Integration = "v1" | "v2" | "url"

const fixture = <A>(name: string): A => {
  const { _comment, ...event } = JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"))
  return event as A
}

export const fixtures = {
  v1: () => fixture<ApiGatewayV1Event & Record<string, unknown>>("apigateway-v1-rest.json"),
  v2: () => fixture<ApiGatewayV2Event & Record<string, unknown>>("apigateway-v2-http.json"),
  url: () => fixture<ApiGatewayV2Event & Record<string, unknown>>("function-url.json")
}

/** Headers every real event carries, whatever the client sent. */
const gatewayHeaders = (host: string): Record<string, string> => ({
  host,
  "x-forwarded-for": "192.0.2.10",
  "x-forwarded-port": "443",
  "x-forwarded-proto": "https",
  "x-amzn-trace-id": "Root=1-5e7fe714-fee6909429159440eb352c40"
})

const bodyText = (init: RequestInit): string | undefined => {
  if (init.body === undefined || init.body === null) return undefined
  if (typeof init.body !== "string") throw new Error("test requests send string bodies")
  return init.body
}

/**
 * The event for `request(path, init)`:
 * - `v1`: a REST API on stage `prod` (path without the stage, multi-value headers and query).
 * - `v2`: an HTTP API on the named stage `prod`: rawPath starts with `/prod`, headers comma-joined,
 *   cookies apart.
 * - `url`: a Function URL; every body arrives base64-encoded.
 */
export const toEvent = (integration: Integration, path: string, init: RequestInit = {}): LambdaHttpEvent => {
  const [pathname = "/", query = ""] = path.split(/\?(.*)/s)
  const method = (init.method ?? "GET").toUpperCase()
  const sent = new Headers(init.headers)
  const body = bodyText(init)
  if (integration === "v1") {
    const base = fixtures.v1()
    const host = base.headers!["Host"]!
    const multiValueHeaders: Record<string, Array<string>> = {}
    for (const [name, value] of Object.entries(gatewayHeaders(host))) multiValueHeaders[name] = [value]
    sent.forEach((value, name) => (multiValueHeaders[name] = value.split(/,\s*/)))
    const headers = Object.fromEntries(Object.entries(multiValueHeaders).map(([k, v]) => [k, v[v.length - 1]!]))
    const params = new URLSearchParams(query)
    const multiQuery: Record<string, Array<string>> = {}
    for (const [k, v] of params) (multiQuery[k] ??= []).push(v)
    const hasQuery = Object.keys(multiQuery).length > 0
    return {
      ...base,
      httpMethod: method,
      path: decodeURI(pathname),
      headers,
      multiValueHeaders,
      queryStringParameters: hasQuery ? Object.fromEntries(Object.entries(multiQuery).map(([k, v]) => [k, v[v.length - 1]!])) : null,
      multiValueQueryStringParameters: hasQuery ? multiQuery : null,
      body: body ?? null,
      isBase64Encoded: false,
      requestContext: { ...base.requestContext, httpMethod: method, path: `/prod${pathname}` }
    }
  }
  const base = integration === "v2" ? fixtures.v2() : fixtures.url()
  const host = base.headers!["host"]!
  const headers: Record<string, string> = gatewayHeaders(host)
  const cookies: Array<string> = []
  sent.forEach((value, name) => {
    if (name === "cookie") cookies.push(...value.split(/;\s*/))
    else headers[name] = value
  })
  const rawPath = integration === "v2" ? `/prod${pathname}` : pathname
  const params = new URLSearchParams(query)
  const single: Record<string, string> = {}
  for (const [k, v] of params) single[k] = single[k] === undefined ? v : `${single[k]},${v}`
  const { cookies: _c, queryStringParameters: _q, body: _b, ...rest } = base
  return {
    ...rest,
    rawPath,
    rawQueryString: query,
    headers,
    ...(cookies.length > 0 ? { cookies } : {}),
    ...(Object.keys(single).length > 0 ? { queryStringParameters: single } : {}),
    ...(body === undefined
      ? { isBase64Encoded: false }
      : integration === "url"
      ? { body: Buffer.from(body, "utf8").toString("base64"), isBase64Encoded: true }
      : { body, isBase64Encoded: false }),
    requestContext: { ...base.requestContext, http: { ...base.requestContext.http, method, path: rawPath } }
  } as ApiGatewayV2Event
}

/** What API Gateway sends the client for a handler's result. */
export const toResponse = (result: LambdaHttpResult): Response => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(result.headers)) headers.set(name, value)
  if ("multiValueHeaders" in result) {
    for (const [name, values] of Object.entries(result.multiValueHeaders)) {
      headers.delete(name)
      for (const v of values) headers.append(name, v)
    }
  }
  if ("cookies" in result && result.cookies) for (const c of result.cookies) headers.append("set-cookie", c)
  const body = result.body === "" ? null : result.isBase64Encoded ? Buffer.from(result.body, "base64") : result.body
  return new Response(body, { status: result.statusCode, headers })
}
