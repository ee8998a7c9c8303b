/**
 * The Comment Analyzer v1alpha1 discovery document, so that clients built from discovery (Google's
 * Python client, OSMod) work against Decorum by changing the discovery URL alone. `rootUrl` is the
 * configured public base URL, or derived from the request (honouring X-Forwarded-Proto/Host).
 */
import { NotFound } from "@decorum/domain"
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { HttpConfig } from "./HttpConfig.js"
import { json } from "./Respond.js"

const first = (v: string | ReadonlyArray<string> | undefined): string | undefined => (Array.isArray(v) ? v[0] : (v as string | undefined))

export const baseUrlOf = (request: HttpServerRequest.HttpServerRequest, configured: string | null): string => {
  if (configured) return configured.endsWith("/") ? configured : `${configured}/`
  const headers = request.headers
  const proto = first(headers["x-forwarded-proto"]?.split(",")[0]?.trim()) ?? "http"
  const host = headers["x-forwarded-host"]?.split(",")[0]?.trim() ?? headers["host"] ?? "localhost"
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
      dropUnsupportedAttributes: bool("Drop unknown attributes instead of failing.")
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
    properties: { clientToken: str("Echoed."), requestedLanguages: { type: "array", items: { type: "string" } } }
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
    const { publicBaseUrl } = yield* HttpConfig
    return json(makeDocument(baseUrlOf(request, publicBaseUrl)))
  })
