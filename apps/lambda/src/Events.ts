/**
 * The three HTTP event shapes Lambda receives, and the pure conversions between them and the web
 * `Request` / `Response` the HTTP contract is served with:
 *
 * - API Gateway REST APIs (and HTTP APIs on payload format 1.0): `httpMethod`, `path`,
 *   `multiValueHeaders` / `headers`, `multiValueQueryStringParameters` / `queryStringParameters`.
 * - API Gateway HTTP APIs, payload format 2.0: `version: "2.0"`, `rawPath`, `rawQueryString`,
 *   comma-joined `headers`, `cookies`, `requestContext.http.method`.
 * - Lambda Function URLs: the same 2.0 payload (`requestContext.stage` is `$default`).
 *
 * Bodies are base64 in and out when `isBase64Encoded` says so (always for binary content types on
 * the way out). A stage name that API Gateway leaves at the start of the path (`/prod/v0.2/...` on
 * an HTTP API's named stage) is removed, so routes match whatever the stage is called.
 *
 * Only the fields read here are typed; AWS sends more (see the fixtures in `test/fixtures`).
 */

export interface ApiGatewayV1Event {
  readonly version?: string
  readonly httpMethod: string
  readonly path: string
  readonly headers?: Readonly<Record<string, string | undefined>> | null
  readonly multiValueHeaders?: Readonly<Record<string, ReadonlyArray<string> | undefined>> | null
  readonly queryStringParameters?: Readonly<Record<string, string | undefined>> | null
  readonly multiValueQueryStringParameters?: Readonly<Record<string, ReadonlyArray<string> | undefined>> | null
  readonly body?: string | null
  readonly isBase64Encoded?: boolean
  readonly requestContext?: {
    readonly stage?: string
    readonly domainName?: string
    readonly path?: string
    readonly [key: string]: unknown
  }
  readonly [key: string]: unknown
}

export interface ApiGatewayV2Event {
  readonly version: "2.0"
  readonly rawPath: string
  readonly rawQueryString?: string
  readonly cookies?: ReadonlyArray<string>
  readonly headers?: Readonly<Record<string, string | undefined>>
  readonly body?: string
  readonly isBase64Encoded?: boolean
  readonly requestContext: {
    readonly http: { readonly method: string; readonly path?: string; readonly [key: string]: unknown }
    readonly stage?: string
    readonly domainName?: string
    readonly [key: string]: unknown
  }
  readonly [key: string]: unknown
}

/** A Function URL event is a payload 2.0 event (with `stage: "$default"`). */
export type FunctionUrlEvent = ApiGatewayV2Event

export type LambdaHttpEvent = ApiGatewayV1Event | ApiGatewayV2Event

export interface ApiGatewayV1Result {
  readonly statusCode: number
  readonly headers: Record<string, string>
  readonly multiValueHeaders: Record<string, Array<string>>
  readonly body: string
  readonly isBase64Encoded: boolean
}

export interface ApiGatewayV2Result {
  readonly statusCode: number
  readonly headers: Record<string, string>
  readonly cookies?: Array<string>
  readonly body: string
  readonly isBase64Encoded: boolean
}

export type LambdaHttpResult = ApiGatewayV1Result | ApiGatewayV2Result

export const isV2 = (event: LambdaHttpEvent): event is ApiGatewayV2Event => event.version === "2.0"

/** Whether a value is one of the HTTP events this host serves (not an SQS message, a schedule...). */
export const isHttpEvent = (event: unknown): event is LambdaHttpEvent => {
  if (typeof event !== "object" || event === null) return false
  const e = event as Record<string, unknown>
  // API Gateway and function URLs send the body as a string (base64 or not), or none
  if (e["body"] !== undefined && e["body"] !== null && typeof e["body"] !== "string") return false
  if (e["version"] === "2.0") {
    const ctx = e["requestContext"] as Record<string, unknown> | undefined
    return typeof e["rawPath"] === "string" && typeof (ctx?.["http"] as Record<string, unknown> | undefined)?.["method"] === "string"
  }
  return typeof e["httpMethod"] === "string" && typeof e["path"] === "string"
}

/**
 * Removes a leading `/<stage>` that API Gateway left in the path. `$default` (HTTP APIs, Function
 * URLs) is never a prefix.
 */
export const stripStage = (path: string, stage: string | undefined): string => {
  if (!stage || stage === "$default") return path
  const prefix = `/${stage}`
  if (path === prefix) return "/"
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : path
}

/** Percent-encodes what a URL path may not hold raw, leaving `:`, `$`, `/` and existing escapes alone. */
const encodePath = (path: string): string =>
  path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g, (c) => encodeURIComponent(c)).replace(/%(?![0-9A-Fa-f]{2})/g, "%25")

const v1Query = (event: ApiGatewayV1Event): string => {
  const params = new URLSearchParams()
  const multi = event.multiValueQueryStringParameters
  if (multi) {
    for (const [name, values] of Object.entries(multi)) for (const v of values ?? []) params.append(name, v)
  } else if (event.queryStringParameters) {
    for (const [name, value] of Object.entries(event.queryStringParameters)) if (value !== undefined) params.append(name, value)
  }
  return params.toString()
}

const v1Headers = (event: ApiGatewayV1Event): Headers => {
  const headers = new Headers()
  if (event.multiValueHeaders) {
    for (const [name, values] of Object.entries(event.multiValueHeaders)) for (const v of values ?? []) headers.append(name, v)
  }
  if (event.headers) {
    // `headers` holds the last value of each; only used for names `multiValueHeaders` lacks.
    for (const [name, value] of Object.entries(event.headers)) if (value !== undefined && !headers.has(name)) headers.set(name, value)
  }
  return headers
}

const v2Headers = (event: ApiGatewayV2Event): Headers => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value)
  // Payload 2.0 moves the Cookie header into `cookies`.
  if (event.cookies && event.cookies.length > 0) headers.set("cookie", event.cookies.join("; "))
  return headers
}

/** The body as bytes (a string body would make `Request` invent a `text/plain` content type). */
const decodeBody = (body: string | null | undefined, base64: boolean | undefined): Uint8Array<ArrayBuffer> | undefined => {
  if (body === undefined || body === null) return undefined
  return new Uint8Array(Buffer.from(body, base64 ? "base64" : "utf8"))
}

/** The web `Request` an event stands for. */
export const toRequest = (event: LambdaHttpEvent): Request => {
  let method: string
  let path: string
  let query: string
  let headers: Headers
  let body: Uint8Array<ArrayBuffer> | undefined
  if (isV2(event)) {
    method = event.requestContext.http.method.toUpperCase()
    path = stripStage(event.rawPath || "/", event.requestContext.stage)
    query = event.rawQueryString ?? ""
    headers = v2Headers(event)
    body = decodeBody(event.body, event.isBase64Encoded)
  } else {
    method = event.httpMethod.toUpperCase()
    path = stripStage(event.path || "/", event.requestContext?.stage)
    query = v1Query(event)
    headers = v1Headers(event)
    body = decodeBody(event.body, event.isBase64Encoded)
  }
  const host = headers.get("host") ?? event.requestContext?.domainName ?? "localhost"
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "http" ? "http" : "https"
  const url = `${proto}://${host}${encodePath(path.startsWith("/") ? path : `/${path}`)}${query ? `?${query}` : ""}`
  return new Request(url, { method, headers, ...(method !== "GET" && method !== "HEAD" && body !== undefined ? { body } : {}) })
}

/**
 * The client's address as API Gateway saw it (`requestContext.http.sourceIp` on payload 2.0 and
 * Function URLs, `requestContext.identity.sourceIp` on 1.0), or undefined when the event has none.
 */
export const sourceIpOf = (event: LambdaHttpEvent): string | undefined => {
  const context = event.requestContext as Record<string, unknown> | undefined
  const holder = (isV2(event) ? context?.["http"] : context?.["identity"]) as Record<string, unknown> | undefined
  const ip = holder?.["sourceIp"]
  return typeof ip === "string" && ip.trim() !== "" ? ip.trim() : undefined
}

const TEXT_TYPE = /^(text\/|application\/(json|javascript|xml|x-www-form-urlencoded|problem\+json|[a-z0-9.+-]*\+(json|xml))|image\/svg\+xml|multipart\/mixed)/i

/** Whether a response body of this content type goes back as text (else base64). */
export const isTextContentType = (contentType: string | null): boolean =>
  contentType === null || contentType.trim() === "" || TEXT_TYPE.test(contentType.trim())

const readBody = async (response: Response) => {
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (bytes.length === 0) return { body: "", isBase64Encoded: false }
  return isTextContentType(response.headers.get("content-type"))
    ? { body: new TextDecoder().decode(bytes), isBase64Encoded: false }
    : { body: Buffer.from(bytes).toString("base64"), isBase64Encoded: true }
}

/** The result API Gateway (or the Function URL) expects for an event of this kind. */
export const fromResponse = async (response: Response, kind: "v1" | "v2"): Promise<LambdaHttpResult> => {
  const { body, isBase64Encoded } = await readBody(response)
  const cookies = response.headers.getSetCookie()
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value
  })
  if (kind === "v2") {
    return { statusCode: response.status, headers, ...(cookies.length > 0 ? { cookies } : {}), body, isBase64Encoded }
  }
  const multiValueHeaders: Record<string, Array<string>> = {}
  for (const [name, value] of Object.entries(headers)) multiValueHeaders[name] = [value]
  if (cookies.length > 0) multiValueHeaders["set-cookie"] = cookies
  return { statusCode: response.status, headers, multiValueHeaders, body, isBase64Encoded }
}
