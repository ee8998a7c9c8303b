/**
 * Perspective's `comments:analyze`, shared by the compat family and the Google-shaped family.
 * Attribute names resolve through one table (`Perspective.resolveAttribute`); the scores come
 * from the `AttributeScorer` port.
 */
import {
  type Account,
  type AnalysedComment,
  type AttributeAnalysis,
  type AttributeAnalysisInput,
  type AttributeResult,
  type DecorumError,
  type Evaluated,
  InvalidComment,
  InvalidRequest,
  LanguageDetectionFailed,
  LanguageNotSupportedByAttribute,
  Limits,
  NoRequestedAttributes,
  Perspective,
  type TextSpan,
  UnsupportedAttribute
} from "@decorum/domain"
import { Effect, Either, Option } from "effect"
import * as Adaptation from "./Adaptation.js"
import { EngineInfo } from "./EngineInfo.js"
import { htmlToText } from "./Html.js"
import { AttributeScorer, LanguageIdentifier } from "./Providers.js"
import { splitSentences } from "./Sentences.js"
import * as Metrics from "./Metrics.js"

export type Family = "compat" | "google"

const ACCEPTED_SCORE_TYPES = new Set(["PROBABILITY", "SCORE_TYPE_UNSPECIFIED"])

/**
 * Reads `comment` (a `{text, type}` object or a plain string) as the text the offsets refer to.
 * A plain function returning an `Either` (which is also an effect): analyze's rules run the same
 * inside an effect and without a fiber (`analyzeNow`).
 */
export const commentText = (comment: Perspective.AnalyzeCommentRequest["comment"]): Either.Either<string, InvalidRequest | InvalidComment> => {
  const entry = typeof comment === "string" ? { text: comment, type: null } : comment ?? { text: null, type: null }
  const raw = entry.text ?? ""
  const type = (entry.type ?? "PLAIN_TEXT").toUpperCase()
  if (type !== "PLAIN_TEXT" && type !== "HTML" && type !== "TEXT_TYPE_UNSPECIFIED") {
    return Either.left(new InvalidRequest({ message: `Unsupported comment type: ${entry.type}. Use PLAIN_TEXT or HTML.` }))
  }
  if (raw.length > Limits.commentMaxLength) {
    return Either.left(new InvalidComment({ reason: "too_long", message: "Comment text too long." }))
  }
  const text = type === "HTML" ? htmlToText(raw) : raw
  if (text.trim().length === 0) {
    return Either.left(new InvalidComment({ reason: "empty", message: "Comment must be non-empty." }))
  }
  return Either.right(text)
}

const entryText = (e: Perspective.TextEntry | null | undefined): string | null => {
  if (!e || !e.text) return null
  return (e.type ?? "").toUpperCase() === "HTML" ? htmlToText(e.text) : e.text
}

export interface ReadContext {
  readonly article: string | null
  readonly parent: string | null
  readonly entries: ReadonlyArray<string>
}

const NO_CONTEXT: ReadContext = { article: null, parent: null, entries: [] }

export const readContext = (context: Perspective.Context | null | undefined): Either.Either<ReadContext, InvalidRequest> => {
  if (!context) return Either.right(NO_CONTEXT)
  if (context.entries && context.articleAndParentComment) {
    return Either.left(new InvalidRequest({ message: "context: send either entries or articleAndParentComment, not both." }))
  }
  const entries = (context.entries ?? []).map(entryText).filter((t): t is string => t !== null)
  const ap = context.articleAndParentComment
  return Either.right({ article: entryText(ap?.article), parent: entryText(ap?.parentComment), entries })
}

interface Requested {
  readonly name: string
  readonly attribute: Perspective.Attribute
  readonly threshold: number | null
}

const DEFAULT_REQUESTED: ReadonlyArray<Requested> = [{ name: "TOXICITY", attribute: "TOXICITY", threshold: null }]

const readAttributes = (
  request: Perspective.AnalyzeCommentRequest,
  family: Family
): Either.Either<ReadonlyArray<Requested>, NoRequestedAttributes | UnsupportedAttribute | InvalidRequest> => {
  const raw = request.requestedAttributes
  const names = raw ? Object.keys(raw) : []
  if (names.length === 0) {
    if (family === "google") return Either.left(new NoRequestedAttributes({ message: "Missing requested_attributes" }))
    return Either.right(DEFAULT_REQUESTED)
  }
  const out: Array<Requested> = []
  for (const name of names) {
    const attribute = Perspective.resolveAttribute(name)
    if (attribute === undefined) {
      if (request.dropUnsupportedAttributes) continue
      return Either.left(new UnsupportedAttribute({ attribute: name, message: `Unknown requested attribute: ${name}` }))
    }
    const params = raw![name] ?? {}
    if (params.scoreType !== undefined && params.scoreType !== null && !ACCEPTED_SCORE_TYPES.has(params.scoreType)) {
      return Either.left(
        new InvalidRequest({
          message: `Attribute ${name}: scoreType ${params.scoreType} is not supported; only PROBABILITY is served.`
        })
      )
    }
    const threshold = params.scoreThreshold ?? null
    if (threshold !== null && !(threshold >= 0 && threshold <= 1)) {
      return Either.left(new InvalidRequest({ message: `Attribute ${name}: scoreThreshold must be between 0 and 1.` }))
    }
    out.push({ name, attribute, threshold })
  }
  return Either.right(out)
}

const score = (value: number): Perspective.Score => ({ value, type: "PROBABILITY" })

/** A validated analyze request, ready to score. */
export interface PreparedAnalyze {
  readonly text: string
  readonly context: { readonly article: string | null; readonly parent: string | null; readonly entries: ReadonlyArray<string> }
  readonly requested: ReadonlyArray<Requested>
  readonly spans: ReadonlyArray<TextSpan>
  /** The request's `languages`, as sent (empty when not sent). */
  readonly requestedLanguages: ReadonlyArray<string>
  readonly dropUnsupported: boolean
  readonly clientToken: string | null
}

/** Validates a request: every request error of analyze surfaces here, before any scoring. */
export const prepareEither = (
  request: Perspective.AnalyzeCommentRequest,
  family: Family
): Either.Either<PreparedAnalyze, InvalidRequest | InvalidComment | NoRequestedAttributes | UnsupportedAttribute> => {
  const text = commentText(request.comment)
  if (Either.isLeft(text)) return Either.left(text.left)
  const context = readContext(request.context)
  if (Either.isLeft(context)) return Either.left(context.left)
  const requested = readAttributes(request, family)
  if (Either.isLeft(requested)) return Either.left(requested.left)
  const spans: ReadonlyArray<TextSpan> = request.spanAnnotations
    ? splitSentences(text.right)
    : family === "google"
    ? [{ begin: 0, end: text.right.length }]
    : []
  const requestedLanguages = (request.languages ?? []).filter((l) => l.trim() !== "")
  return Either.right({
    text: text.right,
    context: context.right,
    requested: requested.right,
    spans,
    requestedLanguages,
    dropUnsupported: request.dropUnsupportedAttributes === true,
    clientToken: request.clientToken ?? null
  })
}

/**
 * A language code as the scorers know it: Perspective's codes ("de", "hi-Latn"), from what a
 * client may send ("DE", "pt-BR", "zh-Hans", "hi-latn"): the primary subtag, lower-cased, and only
 * romanised Hindi keeps its script (it is a language of its own, as in Perspective).
 */
export const canonicalLanguage = (code: string): string => {
  const [primary = "", ...rest] = code.trim().replace(/_/g, "-").split("-")
  const base = primary.toLowerCase()
  return base === "hi" && rest.some((r) => r.toLowerCase() === "latn") ? "hi-Latn" : base
}

/** The languages of an analyze call: what it answers, in which language it scores, and what it scores. */
export interface LanguagePlan {
  /** The answer's `languages`: the request's when sent, else the top detected one. */
  readonly languages: ReadonlyArray<string>
  /** The answer's `detectedLanguages`; undefined when no identifier is configured. */
  readonly detected: ReadonlyArray<string> | undefined
  /** The language the scorer is asked to score in. */
  readonly scoring: string
  /** The requested attributes left once `dropUnsupportedAttributes` dropped those not served in `scoring`. */
  readonly requested: ReadonlyArray<Requested>
}

/**
 * Perspective's language rules, a plain function (`analyzeNow` calls it too): the comment's
 * languages are identified on every call (`detectedLanguages`, also when `languages` was sent);
 * the request's first language, else the top detected one, is the language scored; an attribute
 * the scorer does not serve in it fails the call with LANGUAGE_NOT_SUPPORTED_BY_ATTRIBUTE, or is
 * dropped with `dropUnsupportedAttributes`; nothing detected and nothing sent fails with
 * LANGUAGE_DETECTION_FAILED. Without an identifier (a host that configures none), English.
 */
export const planLanguages = (
  prepared: PreparedAnalyze,
  identifier: LanguageIdentifier["Type"] | undefined,
  scorer: AttributeScorer["Type"] | undefined,
  /** The text's languages when the caller identified them already (the combined call): not identified twice. */
  identified?: ReadonlyArray<string>
): Either.Either<LanguagePlan, LanguageNotSupportedByAttribute | LanguageDetectionFailed> => {
  const detected = identifier === undefined ? undefined : identified ?? identifier.detect(prepared.text)
  const sent = prepared.requestedLanguages
  let languages: ReadonlyArray<string>
  if (sent.length > 0) languages = sent
  else if (detected === undefined) languages = ["en"]
  else if (detected.length === 0) return Either.left(new LanguageDetectionFailed({ message: "Unable to detect language." }))
  else languages = [detected[0]!]
  const scoring = canonicalLanguage(languages[0]!)
  let requested = prepared.requested
  const served = scorer?.attributesIn?.(scoring)
  if (served !== undefined) {
    const unserved = requested.filter((r) => !served.has(r.attribute))
    if (unserved.length > 0) {
      if (!prepared.dropUnsupported) {
        const first = unserved[0]!
        const quoted = sent.length > 0 ? sent : detected ?? languages
        return Either.left(
          new LanguageNotSupportedByAttribute({
            attribute: first.name,
            languages: quoted,
            source: sent.length > 0 ? "requested" : "detected",
            message: `Attribute ${first.name} does not support request languages: ${quoted.join(",")}`
          })
        )
      }
      requested = requested.filter((r) => served.has(r.attribute))
    }
  }
  return Either.right({ languages, detected, scoring, requested })
}

/** `prepareEither` as an effect. */
export const prepare = (request: Perspective.AnalyzeCommentRequest, family: Family) => Effect.suspend(() => prepareEither(request, family))

/**
 * The account's adopted adapters (`Adaptation`), applied to the shipped scores; the provenance
 * says which: `<model>+site.<adapter id>`. With the comment's `embedding` (unit length, from the
 * `Embedder` whose encoder an adapter names), an encoder adapter adjusts the whole comment's score
 * and the provenance names it; spans keep the hashed adapter of the same fit (an embedding per span
 * would be an encoder call each). Without one, the hashed adapter (the fit's fallback) applies.
 */
const applyAdapters = (
  adapters: ReadonlyMap<Perspective.Attribute, Adaptation.InForce>,
  result: Evaluated<AttributeAnalysis>,
  prepared: PreparedAnalyze,
  embedder: Adaptation.Embedder["Type"] | undefined,
  embedding: Float32Array | undefined
): Evaluated<AttributeAnalysis> => {
  const value: Partial<Record<Perspective.Attribute, AttributeResult>> = { ...result.value }
  const used: Array<number> = []
  // The adapters' word features of the text and of each span, hashed once for every attribute.
  let whole: ReadonlyArray<number> | undefined
  let perSpan: ReadonlyArray<ReadonlyArray<number>> | undefined
  for (const [attribute, scored] of Object.entries(result.value)) {
    const inForce = adapters.get(attribute as Perspective.Attribute)
    if (!inForce || !scored) continue
    const dense = embedding !== undefined && Adaptation.denseApplies(inForce, embedder) ? inForce.dense : undefined
    const { hashed } = inForce
    if (dense === undefined && hashed === undefined) continue
    used.push((dense ?? hashed)!.id)
    whole ??= Adaptation.features(prepared.text)
    if (hashed !== undefined) perSpan ??= prepared.spans.map((span) => Adaptation.features(prepared.text.slice(span.begin, span.end)))
    value[attribute as Perspective.Attribute] = {
      ...scored,
      summary: dense !== undefined
        ? Adaptation.adaptScoreDense(dense, scored.summary, whole, embedding!)
        : Adaptation.applyParams(hashed!.params, scored.summary, whole),
      spans: hashed === undefined ? scored.spans : scored.spans.map((v, i) => {
        const features = perSpan![i]
        return features === undefined ? v : Adaptation.applyParams(hashed.params, v, features)
      })
    }
  }
  if (used.length === 0) return result
  return {
    value,
    provenance: { ...result.provenance, model: result.provenance.model + Adaptation.provenanceSuffix(used) }
  }
}

/** Whether adapting `attributes` for these adapters needs the comment's embedding (an encoder adapter applies with `embedder`). */
const needsEmbedding = (
  adapters: ReadonlyMap<Perspective.Attribute, Adaptation.InForce>,
  attributes: ReadonlyArray<string>,
  embedder: Adaptation.Embedder["Type"] | undefined
) => {
  if (embedder === undefined) return false
  for (const attribute of attributes) {
    const inForce = adapters.get(attribute as Perspective.Attribute)
    if (inForce !== undefined && Adaptation.denseApplies(inForce, embedder)) return true
  }
  return false
}

/**
 * `applyAdapters` for the account, getting the comment's embedding from the `Embedder` when an
 * encoder adapter applies; an encoder that fails leaves the hashed adapters in force.
 */
const withAdapters = (
  service: Option.Option<Adaptation.SiteAdapters["Type"]>,
  embedderOption: Option.Option<Adaptation.Embedder["Type"]>,
  result: Evaluated<AttributeAnalysis>,
  account: Account,
  prepared: PreparedAnalyze
): Effect.Effect<Evaluated<AttributeAnalysis>> => {
  if (Option.isNone(service)) return Effect.succeed(result)
  const adapters = service.value.forAccount(account.id)
  if (adapters.size === 0) return Effect.succeed(result)
  const embedder = Option.getOrUndefined(embedderOption)
  if (embedder === undefined || !needsEmbedding(adapters, Object.keys(result.value), embedder)) {
    return Effect.succeed(applyAdapters(adapters, result, prepared, embedder, undefined))
  }
  return embedder.embed([prepared.text]).pipe(
    Effect.filterOrFail(
      (rows) => rows.length === embedder.dimensions,
      () => new Adaptation.EmbedderFailure({ message: `the encoder did not answer one row of ${embedder.dimensions}` })
    ),
    Effect.catchAll((e) => Effect.as(Effect.logDebug("Analyze: the encoder failed; hashed site adapters apply", e.message), undefined)),
    Effect.map((embedding) => applyAdapters(adapters, result, prepared, embedder, embedding))
  )
}

/** The attributes to score, each once. */
const attributesOf = (plan: LanguagePlan) => [...new Set(plan.requested.map((r) => r.attribute))]

/**
 * Every requested attribute may have been dropped (`dropUnsupportedAttributes`): nothing is
 * scored, and the answer still names the configured model set.
 */
const nothingScored = (info: Option.Option<EngineInfo["Type"]>): Evaluated<AttributeAnalysis> => ({
  value: {},
  provenance: { model: Option.match(info, { onNone: () => "none", onSome: (i) => i.modelVersion }) }
})

/** The answer to a prepared request from its (adapted) scores. The response keys echo the names as requested. */
const respond = (prepared: PreparedAnalyze, plan: LanguagePlan, adapted: Evaluated<AttributeAnalysis>): Evaluated<Perspective.AnalyzeCommentResponse> => {
  const { spans } = prepared
  const { requested } = plan
  const attributeScores: Record<string, Perspective.AttributeScores> = {}
  for (const r of requested) {
    const scored = adapted.value[r.attribute]
    if (!scored) continue
    if (r.threshold !== null && scored.summary < r.threshold) continue
    const spanScores: Array<Perspective.SpanScore> = []
    spans.forEach((s, i) => {
      const v = scored.spans[i]
      if (v === undefined || (r.threshold !== null && v < r.threshold)) return
      spanScores.push({ begin: s.begin, end: s.end, score: score(v) })
    })
    attributeScores[r.name] = spans.length > 0
      ? { spanScores, summaryScore: score(scored.summary) }
      : { summaryScore: score(scored.summary) }
  }
  // Perspective leaves `attributeScores` out when every attribute fell below its threshold;
  // several clients crash on that, so it is only ever left out when thresholds were asked for.
  const omit = Object.keys(attributeScores).length === 0 && requested.some((r) => r.threshold !== null)
  const response: Perspective.AnalyzeCommentResponse = {
    ...(omit ? {} : { attributeScores }),
    languages: plan.languages,
    ...(plan.detected !== undefined ? { detectedLanguages: plan.detected } : {}),
    ...(prepared.clientToken ? { clientToken: prepared.clientToken } : {})
  }
  return { value: response, provenance: adapted.provenance }
}

/**
 * Whether an account's adapters apply: they are fitted on the English model's scores (the refits
 * score corrections with the shipped English set), so a score from another language's model is
 * answered as that model gave it.
 */
const adaptable = (plan: LanguagePlan, account: Account | undefined): account is Account => account !== undefined && plan.scoring === "en"

/**
 * The language plan of a prepared request, with the services it reads (a request error when it
 * fails); `identified`: the text's languages as `LanguageIdentifier` gave them, when the caller has them.
 */
export const plan = (prepared: PreparedAnalyze, identified?: ReadonlyArray<string>) =>
  Effect.flatMap(
    Effect.all([Effect.serviceOption(LanguageIdentifier), Effect.serviceOption(AttributeScorer)]),
    ([identifier, scorer]) => planLanguages(prepared, Option.getOrUndefined(identifier), Option.getOrUndefined(scorer), identified)
  )

/**
 * Scores a prepared request in its planned language. The response keys echo the names as requested.
 * `analysed`: the text analysed for the request's other evaluations (the combined call), when it has any.
 */
export const scorePlanned = Effect.fnUntraced(function*(prepared: PreparedAnalyze, plan: LanguagePlan, account?: Account, analysed?: AnalysedComment) {
  const attributes = attributesOf(plan)
  const result: Evaluated<AttributeAnalysis> = attributes.length === 0
    ? nothingScored(yield* Effect.serviceOption(EngineInfo))
    : yield* (yield* AttributeScorer).analyze(scoringInput(prepared, plan, attributes, analysed)).pipe(
      Effect.tap((r) => Metrics.countEvaluation("perspective", r.provenance))
    )
  const adapted = !adaptable(plan, account)
    ? result
    : yield* withAdapters(yield* Effect.serviceOption(Adaptation.SiteAdapters), yield* Effect.serviceOption(Adaptation.Embedder), result, account, prepared)
  return respond(prepared, plan, adapted)
})

/** Plans and scores a prepared request. */
export const run = (prepared: PreparedAnalyze, account?: Account) => Effect.flatMap(plan(prepared), (p) => scorePlanned(prepared, p, account))

const scoringInput = (
  prepared: PreparedAnalyze,
  plan: LanguagePlan,
  attributes: ReadonlyArray<Perspective.Attribute>,
  analysed?: AnalysedComment
): AttributeAnalysisInput => ({
  text: prepared.text,
  attributes,
  spans: prepared.spans,
  context: prepared.context,
  language: plan.scoring,
  ...(analysed !== undefined ? { analysed } : {})
})

/**
 * Validates and scores an analyze request. One span for the whole call, without a stack trace:
 * this runs on every request, and its two steps are too cheap to be worth spans of their own.
 */
export const analyze = (request: Perspective.AnalyzeCommentRequest, family: Family, account?: Account) =>
  Effect.flatMap(prepare(request, family), (prepared) => run(prepared, account)).pipe(Effect.withSpan("Analyze.analyze", { captureStackTrace: false }))

/** The services `analyzeNow` reads, taken once (each optional, as `analyze` reads them). */
export interface NowServices {
  readonly scorer: Option.Option<AttributeScorer["Type"]>
  readonly identifier: Option.Option<LanguageIdentifier["Type"]>
  readonly adapters: Option.Option<Adaptation.SiteAdapters["Type"]>
  readonly embedder: Option.Option<Adaptation.Embedder["Type"]>
  readonly info: Option.Option<EngineInfo["Type"]>
}

export const nowServices: Effect.Effect<NowServices> = Effect.all({
  scorer: Effect.serviceOption(AttributeScorer),
  identifier: Effect.serviceOption(LanguageIdentifier),
  adapters: Effect.serviceOption(Adaptation.SiteAdapters),
  embedder: Effect.serviceOption(Adaptation.Embedder),
  info: Effect.serviceOption(EngineInfo)
})

/**
 * `analyze` as a plain function, for a caller that runs without a fiber:
 * the same validation, scores, metrics, adapters and answer, when the scorer answers without I/O
 * (`AttributeScorer.analyzeNow`); undefined when it cannot (then run `analyze`): also for an account
 * whose encoder adapter applies to an attribute requested (the comment's embedding is an encoder
 * call). Nothing has been counted or changed when it returns undefined.
 */
export const analyzeNow = (
  services: NowServices,
  request: Perspective.AnalyzeCommentRequest,
  family: Family,
  account?: Account
): Either.Either<Evaluated<Perspective.AnalyzeCommentResponse>, DecorumError> | undefined => {
  const prepared = prepareEither(request, family)
  if (Either.isLeft(prepared)) return Either.left(prepared.left)
  const scorer = Option.getOrUndefined(services.scorer)
  const plan = planLanguages(prepared.right, Option.getOrUndefined(services.identifier), scorer)
  if (Either.isLeft(plan)) return Either.left(plan.left)
  const attributes = attributesOf(plan.right)
  const embedder = Option.getOrUndefined(services.embedder)
  const adapters = adaptable(plan.right, account) ? Option.map(services.adapters, (s) => s.forAccount(account.id)) : Option.none()
  if (Option.isSome(adapters) && needsEmbedding(adapters.value, attributes, embedder)) return undefined
  let result: Evaluated<AttributeAnalysis>
  if (attributes.length === 0) result = nothingScored(services.info)
  else {
    const scored = scorer?.analyzeNow(scoringInput(prepared.right, plan.right, attributes))
    if (scored === undefined) return undefined
    if (Either.isLeft(scored)) return Either.left(scored.left)
    Metrics.countEvaluationNow("perspective", scored.right.provenance)
    result = scored.right
  }
  const adapted = Option.isNone(adapters) || adapters.value.size === 0 ? result : applyAdapters(adapters.value, result, prepared.right, embedder, undefined)
  return Either.right(respond(prepared.right, plan.right, adapted))
}
