/**
 * The HTTP contract as an HttpApi: every path of `interface.md`, with its request and response
 * schemas for the OpenAPI document. Handlers (`Handlers.ts`) read and decode bodies themselves so
 * that every bad input is answered in its family's envelope.
 */
import { ENGINE_VERSION } from "@decorum/core"
import { type DecorumError, Native, Perspective } from "@decorum/domain"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { Schema } from "effect"
import { type DeclaredError, declaredErrors } from "./ErrorMapping.js"
import { allSchemesRequired, GoogleKeyAuthentication, googleKeyDocumented, HeaderAuthentication } from "./Authentication.js"
import type { CompatPrefix, Family } from "./Families.js"

type Tag = DecorumError["_tag"]

/**
 * Adds to an endpoint one error response per status it can answer: the statuses, and what each
 * means, come from the mapping table (`ErrorMapping.declaredErrors`) for the errors the handler can
 * raise (`tags`), in the family's envelope (`body`).
 */
const withErrors = <Body extends Schema.Schema.Any>(family: Family, tags: ReadonlyArray<Tag>, schema: (e: DeclaredError) => Body) =>
<Name extends string, Method extends HttpMethod, Path, UrlParams, Payload, Headers, Success, Error, R, RE>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>
) => {
  const errors = declaredErrors(family, tags)
  declared.set(operationKey(endpoint.method, endpoint.path), errors)
  const [first, ...rest] = errors
  let out = endpoint.addError(schema(first!), { status: first!.status })
  for (const e of rest) out = out.addError(schema(e), { status: e.status })
  return out
}

/**
 * The family's envelope (still `$ref`-ed in the document), refined to carry the status as its
 * code, and described by what the status means (the response's description).
 */
const nativeBody = (e: DeclaredError) => Native.NativeErrorBody.pipe(Schema.filter((b) => b.code === e.status, { description: e.description }))
const googleBody = (e: DeclaredError) => Perspective.GoogleErrorBody.pipe(Schema.filter((b) => b.error.code === e.status, { description: e.description }))

/** The declared errors of each operation, for the document's response descriptions (see `honestErrors`). */
const declared = new Map<string, ReadonlyArray<DeclaredError>>()
const operationKey = (method: string, path: string) => `${method.toLowerCase()} ${path.replace(/[:{}]/g, "")}`
const nativeErrors = (tags: ReadonlyArray<Tag>) => withErrors("native", tags, nativeBody)
const compatErrors = (tags: ReadonlyArray<Tag>) => withErrors("compat", tags, googleBody)
const googleErrors = (tags: ReadonlyArray<Tag>) => withErrors("google", tags, googleBody)

// What each handler can fail with (`Handlers.ts`), in groups.
/** Header or key authentication, then the per-account rate limit. */
const AUTH: ReadonlyArray<Tag> = ["Unauthorized", "RateLimited", "StoreFailure"]
/** Reading and decoding a body (`Body.ts`). */
const BODY: ReadonlyArray<Tag> = ["InvalidRequest", "UnsupportedMediaType", "PayloadTooLarge"]
/** A native evaluation's request rules and its provider. */
const EVALUATION: ReadonlyArray<Tag> = ["MissingParameter", "InvalidComment", "InvalidArticleContextId", "UnknownArticleContext", "ProviderFailure"]
/** Perspective's request rules (`Analyze.ts`, `Suggest.ts`) and the provider. */
const PERSPECTIVE: ReadonlyArray<Tag> = ["InvalidComment", "NoRequestedAttributes", "UnsupportedAttribute", "LanguageNotSupportedByAttribute", "LanguageDetectionFailed", "ProviderFailure"]

const INITTOPIC: ReadonlyArray<Tag> = [...AUTH, ...BODY, "MissingParameter", "FetchFailed", "UnsupportedContent"]
const EVALUATE: ReadonlyArray<Tag> = [...AUTH, ...BODY, ...EVALUATION]
const MEGACALL: ReadonlyArray<Tag> = [...EVALUATE, ...PERSPECTIVE, "NoEvaluationRequested"]
/** `llmdetect` takes no article context. */
const LLMDETECT: ReadonlyArray<Tag> = [...AUTH, ...BODY, "MissingParameter", "InvalidComment", "ProviderFailure"]
const ARTICLE_CONTEXT: ReadonlyArray<Tag> = [...AUTH, "InvalidArticleContextId", "NotFound"]
const ANALYSE: ReadonlyArray<Tag> = [...AUTH, ...BODY, ...PERSPECTIVE]
const SUGGEST: ReadonlyArray<Tag> = [...AUTH, ...BODY, "InvalidComment", "UnsupportedAttribute"]
const BATCH: ReadonlyArray<Tag> = ["InvalidRequest", "UnsupportedMediaType", "PayloadTooLarge"]

/** `/readyz` when the store does not answer or cannot write, or the server is shutting down: not an error envelope, the readiness body with a reason. */
/** The neural judge behind the local attribute models (issue 27): never a reason for 503; unavailable, the server serves the linear models. */
const JudgeReadiness = Schema.Struct({
  mode: Schema.String,
  state: Schema.Literal("ready", "unavailable", "off"),
  model: Schema.optional(Schema.String),
  reason: Schema.optional(Schema.String),
  backend: Schema.optional(Schema.Literal("built-in", "operator")),
  fallback: Schema.optional(Schema.String)
}).annotations({
  identifier: "JudgeReadiness",
  description: "The judge's mode (DECORUM_JUDGE), whether it started, its model, and why not; whose model serves (built-in, or the operator's DECORUM_JUDGE_MODEL) and why the operator's does not"
})

const NotReady = Schema.Struct({ status: Schema.Literal("unavailable"), model: Schema.String, reason: Schema.String, judge: Schema.optional(JudgeReadiness) }).annotations({
  identifier: "NotReady",
  description: "The store does not answer, or the server is shutting down"
})

export const MegacallResponse = Schema.Struct({
  comment_score: Schema.optional(Native.CommentScore),
  spam_check: Schema.optional(Native.SpamCheck),
  relevance_check: Schema.optional(Native.RelevanceCheck),
  dogwhistle_check: Schema.optional(Native.DogwhistleCheck),
  perspective: Schema.optional(Perspective.AnalyzeCommentResponse),
  llm_detection: Schema.optional(Native.LlmDetection),
  errors: Schema.optional(Schema.Record({ key: Schema.String, value: Native.NativeErrorBody }))
}).annotations({ identifier: "MegacallResponse" })

const ArticleContextIdParam = HttpApiSchema.param("id", Schema.String)

export class NativeGroup extends HttpApiGroup.make("native")
  .add(nativeErrors(INITTOPIC)(HttpApiEndpoint.post("inittopic", "/v0.2/inittopic").setPayload(Native.InitTopicRequest).addSuccess(Native.InitTopicResponse)))
  .add(nativeErrors(EVALUATE)(HttpApiEndpoint.post("commentscore", "/v0.2/commentscore").setPayload(Native.CommentScoreRequest).addSuccess(Native.CommentScore)))
  .add(nativeErrors(EVALUATE)(HttpApiEndpoint.post("antispam", "/v0.2/antispam").setPayload(Native.SpamCheckRequest).addSuccess(Native.SpamCheck)))
  .add(
    nativeErrors(EVALUATE)(HttpApiEndpoint.post("commentrelevance", "/v0.2/commentrelevance").setPayload(Native.RelevanceRequest).addSuccess(Native.RelevanceCheck))
  )
  .add(
    nativeErrors(EVALUATE)(
      HttpApiEndpoint.post("dogwhistle", "/v0.2/dogwhistle").setPayload(Native.DogwhistleRequest).addSuccess(Native.DogwhistleCheck).annotate(
        OpenApi.Description,
        "Coded language (dog whistles): the terms of the comment used in a covert sense, quoted verbatim, their categories, " +
          "how subtle and how harmful. `sensitive_topics` and `dogwhistle_examples` (terms this site has seen used as coded " +
          "language) take effect for this request. `details` is null when nothing is detected. A leading WordPress-plugin " +
          "author header (\"Author: NAME\\nAuthor email: EMAIL\\n\\n\") is not judged."
      )
    )
  )
  .add(
    nativeErrors(LLMDETECT)(
      HttpApiEndpoint.post("llmdetect", "/v0.2/llmdetect").setPayload(Native.LlmDetectRequest).addSuccess(Native.LlmDetection).annotate(
        OpenApi.Description,
        "Machine-written text: the likelihood that an LLM wrote the comment, a confidence that is low for short comments, " +
          "and the signals seen (word_frequency, structural, stylistic, epistemic), each quoting the comment verbatim."
      )
    )
  )
  .add(nativeErrors(MEGACALL)(HttpApiEndpoint.post("megacall", "/v0.2/megacall").setPayload(Native.MegacallRequest).addSuccess(MegacallResponse)))
  .add(nativeErrors(AUTH)(HttpApiEndpoint.get("usercheck", "/v0.2/usercheck").addSuccess(Native.UserCheckResponse)))
  .add(
    nativeErrors(AUTH)(
      HttpApiEndpoint.get("listArticleContexts", "/v0.2/article-contexts").addSuccess(Native.ArticleContextList).annotate(
        OpenApi.Description,
        "The calling account's article contexts, oldest first (id, title, source URL, text length, creation time)."
      )
    )
  )
  .add(nativeErrors(ARTICLE_CONTEXT)(HttpApiEndpoint.get("getArticleContext")`/v0.2/article-contexts/${ArticleContextIdParam}`.addSuccess(Native.ArticleContextView)))
  .add(
    nativeErrors(ARTICLE_CONTEXT)(
      HttpApiEndpoint.del("deleteArticleContext")`/v0.2/article-contexts/${ArticleContextIdParam}`.addSuccess(
        Schema.Struct({ deleted: Schema.Boolean, article_id: Schema.String })
      )
    )
  )
  .middleware(HeaderAuthentication)
  .annotateEndpoints(OpenApi.Transform, allSchemesRequired)
  .annotate(OpenApi.Description, "The native family: header authentication (X-User-Email + X-API-Key), JSON or form bodies.")
{}

const compatEndpoints = (prefix: CompatPrefix) =>
  HttpApiGroup.make(prefix === "external-compat" ? "compat" : "perspectiveCompat")
    .add(
      compatErrors(ANALYSE)(
        HttpApiEndpoint.post(`analyse`, `/v0.2/${prefix}/analyse`).setPayload(Perspective.AnalyzeCommentRequest).addSuccess(
          Perspective.AnalyzeCommentResponse
        )
      )
    )
    .add(
      compatErrors(SUGGEST)(
        HttpApiEndpoint.post(`suggestscore`, `/v0.2/${prefix}/suggestscore`).setPayload(Perspective.SuggestCommentScoreRequest).addSuccess(
          Perspective.SuggestCommentScoreResponse
        )
      )
    )
    .middleware(HeaderAuthentication)
    .annotateEndpoints(OpenApi.Transform, allSchemesRequired)
    .annotate(OpenApi.Description, "Perspective request model with header authentication (X-User-Email + X-API-Key); Google-style errors.")

export class CompatGroup extends compatEndpoints("external-compat") {}
export class PerspectiveCompatGroup extends compatEndpoints("perspective-compat") {}

export class GoogleGroup extends HttpApiGroup.make("google")
  .add(
    googleErrors(ANALYSE)(
      HttpApiEndpoint.post("analyze")`/v1alpha1/comments:analyze`.setPayload(Perspective.AnalyzeCommentRequest).addSuccess(
        Perspective.AnalyzeCommentResponse
      ).middleware(GoogleKeyAuthentication)
    )
  )
  .add(
    googleErrors(SUGGEST)(
      HttpApiEndpoint.post("suggestscore")`/v1alpha1/comments:suggestscore`.setPayload(Perspective.SuggestCommentScoreRequest).addSuccess(
        Perspective.SuggestCommentScoreResponse
      ).middleware(GoogleKeyAuthentication)
    )
  )
  .add(googleErrors(["NotFound"])(HttpApiEndpoint.get("discovery", "/$discovery/rest").addSuccess(Schema.Unknown)))
  .add(
    googleErrors(BATCH)(HttpApiEndpoint.post("batch", "/batch").addSuccess(HttpApiSchema.Text({ contentType: "multipart/mixed" })))
      .annotate(OpenApi.Override, googleKeyDocumented)
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
  .add(
    HttpApiEndpoint.get("readyz", "/readyz")
      .addSuccess(Schema.Struct({ status: Schema.String, model: Schema.String, judge: Schema.optional(JudgeReadiness) }))
      .addError(NotReady, { status: 503 })
  )
{}

const DECODE_ERROR = "#/components/schemas/HttpApiDecodeError"

/**
 * Every handler reads its own body (`handleRaw`), so the platform's `HttpApiDecodeError` (which the
 * API declares for every endpoint) is never answered: it leaves the document, and each declared
 * status is described by what it means in the mapping table.
 */
const honestErrors = (method: string, path: string, op: Record<string, any>): Record<string, any> => {
  const responses: Record<string, any> = {}
  for (const [status, response] of Object.entries(op.responses ?? {}) as Array<[string, any]>) {
    const content = response.content?.["application/json"]
    const schema = content?.schema
    if (schema?.$ref === DECODE_ERROR) continue
    const members = Array.isArray(schema?.anyOf) ? schema.anyOf.filter((m: any) => m.$ref !== DECODE_ERROR) : undefined
    const meaning = declared.get(operationKey(method, path))?.find((e) => String(e.status) === status)?.description
    responses[status] = {
      ...response,
      ...(meaning ? { description: meaning } : {}),
      ...(members
        ? { content: { ...response.content, "application/json": { ...content, schema: members.length === 1 ? members[0] : { ...schema, anyOf: members } } } }
        : {})
    }
  }
  return { ...op, responses }
}

/** Rewrites the escaped colon paths (`comments:{analyze}`) back to what clients call, and describes each declared status (`honestErrors`). */
const fixColonPaths = (spec: Record<string, any>): Record<string, any> => {
  const paths: Record<string, unknown> = {}
  for (const [rawPath, item] of Object.entries(spec.paths ?? {})) {
    const path = rawPath.replace(/:\{(\w+)\}/g, ":$1")
    paths[path] = Object.fromEntries(Object.entries(item as Record<string, any>).map(([method, op]) => [method, honestErrors(method, path, op)]))
  }
  return { ...spec, paths }
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
    "Self-hosted comment moderation: a Perspective API drop-in and a combined evaluation (comment score, spam, relevance, " +
      "dog whistles, machine-written text). " +
      "Try every evaluation in a browser on the [playground](/playground)."
  )
  .annotate(OpenApi.Transform, fixColonPaths)
{}
