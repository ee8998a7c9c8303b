/**
 * The HTTP contract as an HttpApi: every path of `interface.md`, with its request and response
 * schemas for the OpenAPI document. Handlers (`Handlers.ts`) read and decode bodies themselves so
 * that every bad input is answered in its family's envelope.
 */
import { ENGINE_VERSION } from "@decorum/core"
import { Native, Perspective } from "@decorum/domain"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"

const nativeError = (status: number, description: string) =>
  Native.NativeErrorBody.annotations({ ...HttpApiSchema.annotations({ status }), description })
const googleError = (status: number, description: string) =>
  Perspective.GoogleErrorBody.annotations({ ...HttpApiSchema.annotations({ status }), description })

const withNativeErrors = <E extends HttpApiEndpoint.HttpApiEndpoint.Any>(endpoint: E): E =>
  (endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps)
    .addError(nativeError(400, "Missing or invalid parameters"))
    .addError(nativeError(401, "Missing or wrong X-User-Email / X-API-Key"))
    .addError(nativeError(415, "Body is neither JSON nor form-urlencoded")) as unknown as E

const withGoogleErrors = <E extends HttpApiEndpoint.HttpApiEndpoint.Any>(endpoint: E): E =>
  (endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps)
    .addError(googleError(400, "Invalid request (COMMENT_EMPTY, COMMENT_TOO_LONG, INVALID_REQUEST, ...)"))
    .addError(googleError(401, "Missing or wrong credentials")) as unknown as E

export const MegacallResponse = Schema.Struct({
  comment_score: Schema.optional(Native.CommentScore),
  spam_check: Schema.optional(Native.SpamCheck),
  relevance_check: Schema.optional(Native.RelevanceCheck),
  perspective: Schema.optional(Perspective.AnalyzeCommentResponse),
  errors: Schema.optional(Schema.Record({ key: Schema.String, value: Native.NativeErrorBody }))
}).annotations({ identifier: "MegacallResponse" })

const ArticleContextIdParam = HttpApiSchema.param("id", Schema.String)

export class NativeGroup extends HttpApiGroup.make("native")
  .add(withNativeErrors(HttpApiEndpoint.post("inittopic", "/v0.2/inittopic").setPayload(Native.InitTopicRequest).addSuccess(Native.InitTopicResponse)))
  .add(withNativeErrors(HttpApiEndpoint.post("commentscore", "/v0.2/commentscore").setPayload(Native.CommentScoreRequest).addSuccess(Native.CommentScore)))
  .add(withNativeErrors(HttpApiEndpoint.post("antispam", "/v0.2/antispam").setPayload(Native.SpamCheckRequest).addSuccess(Native.SpamCheck)))
  .add(
    withNativeErrors(HttpApiEndpoint.post("commentrelevance", "/v0.2/commentrelevance").setPayload(Native.RelevanceRequest).addSuccess(Native.RelevanceCheck))
  )
  .add(withNativeErrors(HttpApiEndpoint.post("megacall", "/v0.2/megacall").setPayload(Native.MegacallRequest).addSuccess(MegacallResponse)))
  .add(withNativeErrors(HttpApiEndpoint.get("usercheck", "/v0.2/usercheck").addSuccess(Native.UserCheckResponse)))
  .add(withNativeErrors(HttpApiEndpoint.get("getArticleContext")`/v0.2/article-contexts/${ArticleContextIdParam}`.addSuccess(Native.ArticleContextView)))
  .add(
    withNativeErrors(
      HttpApiEndpoint.del("deleteArticleContext")`/v0.2/article-contexts/${ArticleContextIdParam}`.addSuccess(
        Schema.Struct({ deleted: Schema.Boolean, article_id: Schema.String })
      )
    )
  )
  .annotate(OpenApi.Description, "The native family: header authentication (X-User-Email + X-API-Key), JSON or form bodies.")
{}

const compatEndpoints = (prefix: "external-compat" | "perspective-compat") =>
  HttpApiGroup.make(prefix === "external-compat" ? "compat" : "perspectiveCompat")
    .add(
      withGoogleErrors(
        HttpApiEndpoint.post(`analyse`, `/v0.2/${prefix}/analyse`).setPayload(Perspective.AnalyzeCommentRequest).addSuccess(
          Perspective.AnalyzeCommentResponse
        )
      )
    )
    .add(
      withGoogleErrors(
        HttpApiEndpoint.post(`suggestscore`, `/v0.2/${prefix}/suggestscore`).setPayload(Perspective.SuggestCommentScoreRequest).addSuccess(
          Perspective.SuggestCommentScoreResponse
        )
      )
    )
    .annotate(OpenApi.Description, "Perspective request model with header authentication (X-User-Email + X-API-Key); Google-style errors.")

export class CompatGroup extends compatEndpoints("external-compat") {}
export class PerspectiveCompatGroup extends compatEndpoints("perspective-compat") {}

export class GoogleGroup extends HttpApiGroup.make("google")
  .add(
    withGoogleErrors(
      HttpApiEndpoint.post("analyze")`/v1alpha1/comments:analyze`.setPayload(Perspective.AnalyzeCommentRequest).addSuccess(
        Perspective.AnalyzeCommentResponse
      )
    )
  )
  .add(
    withGoogleErrors(
      HttpApiEndpoint.post("suggestscore")`/v1alpha1/comments:suggestscore`.setPayload(Perspective.SuggestCommentScoreRequest).addSuccess(
        Perspective.SuggestCommentScoreResponse
      )
    )
  )
  .add(HttpApiEndpoint.get("discovery", "/$discovery/rest").addSuccess(Schema.Unknown))
  .add(
    HttpApiEndpoint.post("batch", "/batch")
      .addSuccess(HttpApiSchema.Text({ contentType: "multipart/mixed" }))
      .addError(googleError(400, "Malformed batch (no boundary, no parts, more than 100 parts)"))
      .addError(googleError(415, "Not multipart/mixed"))
      .annotate(
        OpenApi.Description,
        "Google's batch format: a multipart/mixed body of application/http parts, each one request to this server " +
          "(as Google's Python client sends with new_batch_http_request()). Answers multipart/mixed, one application/http " +
          "part per request, in order, with Content-ID <response-ID>. Each part authenticates on its own; a part without " +
          "credentials inherits the batch's X-Goog-Api-Key, X-User-Email and X-API-Key headers."
      )
  )
  .annotate(
    OpenApi.Description,
    "Google-shaped Perspective paths (Comment Analyzer v1alpha1): the key in ?key= or X-Goog-Api-Key names the account."
  )
{}

export class OpsGroup extends HttpApiGroup.make("ops")
  .add(HttpApiEndpoint.get("healthz", "/healthz").addSuccess(Schema.Struct({ status: Schema.String })))
  .add(HttpApiEndpoint.get("readyz", "/readyz").addSuccess(Schema.Struct({ status: Schema.String, model: Schema.String })))
{}

/** Rewrites the escaped colon paths (`comments:{analyze}`) back to what clients call. */
/** Which credentials each path takes, for the operations' `security` in the OpenAPI document. */
const securityOf = (path: string): Array<Record<string, Array<string>>> | undefined =>
  path.startsWith("/v0.2/")
    ? [{ userEmail: [], apiKey: [] }]
    : path.startsWith("/v1alpha1/") || path === "/batch"
    ? [{ googleKey: [] }, { googleKeyHeader: [] }]
    : undefined

const fixColonPaths = (spec: Record<string, any>): Record<string, any> => {
  const paths: Record<string, unknown> = {}
  for (const [rawPath, item] of Object.entries(spec.paths ?? {})) {
    const path = rawPath.replace(/:\{(\w+)\}/g, ":$1")
    const security = securityOf(path)
    paths[path] = security === undefined
      ? item
      : Object.fromEntries(Object.entries(item as Record<string, any>).map(([method, op]) => [method, { ...op, security }]))
  }
  return {
    ...spec,
    paths,
    components: {
      ...spec.components,
      securitySchemes: {
        ...(spec.components?.securitySchemes ?? {}),
        userEmail: { type: "apiKey", in: "header", name: "X-User-Email" },
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
        googleKey: { type: "apiKey", in: "query", name: "key" },
        googleKeyHeader: { type: "apiKey", in: "header", name: "X-Goog-Api-Key" }
      }
    }
  }
}

export class DecorumApi extends HttpApi.make("decorum")
  .add(NativeGroup)
  .add(CompatGroup)
  .add(PerspectiveCompatGroup)
  .add(GoogleGroup)
  .add(OpsGroup)
  .annotate(OpenApi.Title, "Decorum")
  .annotate(OpenApi.Version, ENGINE_VERSION)
  .annotate(
    OpenApi.Description,
    "Self-hosted comment moderation: a Perspective API drop-in and a combined evaluation (comment score, spam, relevance)."
  )
  .annotate(OpenApi.Transform, fixColonPaths)
{}
