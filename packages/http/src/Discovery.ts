/**
 * The Comment Analyzer v1alpha1 discovery document, so that clients built from discovery (Google's
 * Python client, OSMod) work against Decorum by changing the discovery URL alone. `rootUrl` is the
 * configured public base URL, or derived from the request: its `Host`, and `X-Forwarded-Proto`/`-Host`
 * only when the connection comes from a configured trusted proxy (anyone else could point a
 * discovery-built client, and its key, at a host of their choosing).
 */
import { NotFound } from "@decorum/domain"
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { isTrustedProxy } from "./ClientAddress.js"
import { HttpConfig } from "./HttpConfig.js"
import { json } from "./Respond.js"

const first = (v: string | ReadonlyArray<string> | undefined): string | undefined => (Array.isArray(v) ? v[0] : (v as string | undefined))

/** `host` or `host:port` (a name, an IPv4 address or a bracketed IPv6 address): nothing a URL could be bent with. */
const HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/

const header = (request: HttpServerRequest.HttpServerRequest, name: string): string | undefined => {
  const value = first(request.headers[name])
  const head = value?.split(",")[0]?.trim()
  return head === undefined || head === "" ? undefined : head
}

/** Whether the request's peer is one of the trusted proxies. */
const fromTrustedProxy = (request: HttpServerRequest.HttpServerRequest, trustProxy: ReadonlyArray<string>): boolean =>
  Option.match(request.remoteAddress, { onNone: () => false, onSome: (peer) => isTrustedProxy(peer, trustProxy) })

/**
 * The protocol the host adapter saw: a web-standard host (Lambda) builds an absolute URL from what
 * its platform reports; the Node server's requests are paths, served over plain HTTP.
 */
const ownProtocol = (request: HttpServerRequest.HttpServerRequest): "http" | "https" =>
  /^https:\/\//i.test(request.originalUrl) ? "https" : "http"

export const baseUrlOf = (
  request: HttpServerRequest.HttpServerRequest,
  configured: string | null,
  trustProxy: ReadonlyArray<string> = []
): string => {
  if (configured) return configured.endsWith("/") ? configured : `${configured}/`
  const trusted = fromTrustedProxy(request, trustProxy)
  const forwardedProto = trusted ? header(request, "x-forwarded-proto")?.toLowerCase() : undefined
  const proto = forwardedProto === "https" || forwardedProto === "http" ? forwardedProto : ownProtocol(request)
  const candidate = (trusted ? header(request, "x-forwarded-host") : undefined) ?? header(request, "host")
  const host = candidate !== undefined && HOST.test(candidate) ? candidate : "localhost"
  return `${proto}://${host}/`
}

const str = (description: string) => ({ type: "string", description })
const bool = (description: string) => ({ type: "boolean", description })
const ref = (name: string) => ({ $ref: name })

const standardParameters = {
  key: { type: "string", location: "query", description: "API key. Your API key identifies your account." },
  alt: { type: "string", location: "query", default: "json", enum: ["json", "media", "proto"], description: "Data format for response." },
  fields: { type: "string", location: "query", description: "Selector specifying which fields to include in a partial response." },
  prettyPrint: { type: "boolean", location: "query", default: "true", description: "Returns response with indentations and line breaks." },
  quotaUser: { type: "string", location: "query", description: "Ignored." },
  access_token: { type: "string", location: "query", description: "Ignored." },
  oauth_token: { type: "string", location: "query", description: "Ignored." },
  callback: { type: "string", location: "query", description: "Ignored." },
  upload_protocol: { type: "string", location: "query", description: "Ignored." },
  uploadType: { type: "string", location: "query", description: "Ignored." },
  "$.xgafv": { type: "string", location: "query", enum: ["1", "2"], description: "V1 error format." }
}

const schemas = {
  TextEntry: { id: "TextEntry", type: "object", properties: { text: str("UTF-8 text."), type: str("PLAIN_TEXT or HTML.") } },
  AttributeParameters: {
    id: "AttributeParameters",
    type: "object",
    properties: { scoreType: str("Only PROBABILITY is served."), scoreThreshold: { type: "number", format: "float" } }
  },
  ArticleAndParentComment: {
    id: "ArticleAndParentComment",
    type: "object",
    properties: { article: ref("TextEntry"), parentComment: ref("TextEntry") }
  },
  Context: {
    id: "Context",
    type: "object",
    properties: { entries: { type: "array", items: ref("TextEntry") }, articleAndParentComment: ref("ArticleAndParentComment") }
  },
  AnalyzeCommentRequest: {
    id: "AnalyzeCommentRequest",
    type: "object",
    properties: {
      comment: ref("TextEntry"),
      context: ref("Context"),
      requestedAttributes: { type: "object", additionalProperties: ref("AttributeParameters") },
      spanAnnotations: bool("One span per sentence."),
      languages: { type: "array", items: { type: "string" } },
      doNotStore: bool("Analyze traffic is never stored."),
      clientToken: str("Echoed."),
      sessionId: str("Session id."),
      communityId: str("Community id."),
      dropUnsupportedAttributes: bool("Drop unknown attributes, and attributes not served in the comment's language, instead of failing.")
    }
  },
  Score: { id: "Score", type: "object", properties: { value: { type: "number", format: "float" }, type: str("PROBABILITY") } },
  SpanScore: {
    id: "SpanScore",
    type: "object",
    properties: { begin: { type: "integer", format: "int32" }, end: { type: "integer", format: "int32" }, score: ref("Score") }
  },
  AttributeScores: {
    id: "AttributeScores",
    type: "object",
    properties: { summaryScore: ref("Score"), spanScores: { type: "array", items: ref("SpanScore") } }
  },
  AnalyzeCommentResponse: {
    id: "AnalyzeCommentResponse",
    type: "object",
    properties: {
      attributeScores: { type: "object", additionalProperties: ref("AttributeScores") },
      languages: { type: "array", items: { type: "string" } },
      detectedLanguages: { type: "array", items: { type: "string" } },
      clientToken: str("Echoed.")
    }
  },
  SuggestCommentScoreRequest: {
    id: "SuggestCommentScoreRequest",
    type: "object",
    properties: {
      comment: ref("TextEntry"),
      context: ref("Context"),
      attributeScores: { type: "object", additionalProperties: ref("AttributeScores") },
      languages: { type: "array", items: { type: "string" } },
      clientToken: str("Echoed."),
      sessionId: str("Session id."),
      communityId: str("Community id.")
    }
  },
  SuggestCommentScoreResponse: {
    id: "SuggestCommentScoreResponse",
    type: "object",
    properties: {
      clientToken: str("Echoed."),
      detectedLanguages: { type: "array", items: { type: "string" } },
      requestedLanguages: { type: "array", items: { type: "string" } }
    }
  }
}

const method = (name: "analyze" | "suggestscore", request: string, response: string, description: string) => ({
  id: `commentanalyzer.comments.${name}`,
  path: `v1alpha1/comments:${name}`,
  flatPath: `v1alpha1/comments:${name}`,
  httpMethod: "POST",
  parameters: {},
  parameterOrder: [],
  request: ref(request),
  response: ref(response),
  description
})

export const makeDocument = (rootUrl: string) => ({
  kind: "discovery#restDescription",
  discoveryVersion: "v1",
  id: "commentanalyzer:v1alpha1",
  name: "commentanalyzer",
  version: "v1alpha1",
  title: "Perspective Comment Analyzer API (served by Decorum)",
  description: "Decorum's self-hosted implementation of the Perspective Comment Analyzer API.",
  protocol: "rest",
  rootUrl,
  baseUrl: rootUrl,
  basePath: "",
  servicePath: "",
  batchPath: "batch",
  ownerDomain: "decorum.local",
  ownerName: "Decorum",
  parameters: standardParameters,
  resources: {
    comments: {
      methods: {
        analyze: method("analyze", "AnalyzeCommentRequest", "AnalyzeCommentResponse", "Analyzes the provided text and returns scores for requested attributes."),
        suggestscore: method("suggestscore", "SuggestCommentScoreRequest", "SuggestCommentScoreResponse", "Suggest comment scores as training data.")
      }
    }
  },
  schemas
})

export const discoveryDocument = (request: HttpServerRequest.HttpServerRequest, params: Readonly<Record<string, string | ReadonlyArray<string>>>) =>
  Effect.gen(function*() {
    const version = first(params["version"])
    if (version !== undefined && version !== "v1alpha1") {
      return yield* new NotFound({ message: `Discovery document not found for API service: commentanalyzer ${version}` })
    }
    const { publicBaseUrl, trustProxy } = yield* HttpConfig
    return json(makeDocument(baseUrlOf(request, publicBaseUrl, trustProxy)))
  })
