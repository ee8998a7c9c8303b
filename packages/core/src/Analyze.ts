/**
 * Perspective's `comments:analyze`, shared by the compat family and the Google-shaped family.
 * Attribute names resolve through one table (`Perspective.resolveAttribute`); the scores come
 * from the `AttributeScorer` port.
 */
import {
  type Account,
  type AttributeAnalysis,
  type AttributeResult,
  type Evaluated,
  InvalidComment,
  InvalidRequest,
  Limits,
  NoRequestedAttributes,
  Perspective,
  type TextSpan,
  UnsupportedAttribute
} from "@decorum/domain"
import { Effect, Option } from "effect"
import * as Adaptation from "./Adaptation.js"
import { EngineInfo } from "./EngineInfo.js"
import { htmlToText } from "./Html.js"
import { AttributeScorer } from "./Providers.js"
import { splitSentences } from "./Sentences.js"
import * as Metrics from "./Metrics.js"

export type Family = "compat" | "google"

const ACCEPTED_SCORE_TYPES = new Set(["PROBABILITY", "SCORE_TYPE_UNSPECIFIED"])

/** Reads `comment` (a `{text, type}` object or a plain string) as the text the offsets refer to. */
export const commentText = (comment: Perspective.AnalyzeCommentRequest["comment"]) =>
  Effect.gen(function*() {
    const entry = typeof comment === "string" ? { text: comment, type: null } : comment ?? { text: null, type: null }
    const raw = entry.text ?? ""
    const type = (entry.type ?? "PLAIN_TEXT").toUpperCase()
    if (type !== "PLAIN_TEXT" && type !== "HTML" && type !== "TEXT_TYPE_UNSPECIFIED") {
      return yield* new InvalidRequest({ message: `Unsupported comment type: ${entry.type}. Use PLAIN_TEXT or HTML.` })
    }
    if (raw.length > Limits.commentMaxLength) {
      return yield* new InvalidComment({ reason: "too_long", message: "Comment text too long." })
    }
    const text = type === "HTML" ? htmlToText(raw) : raw
    if (text.trim().length === 0) {
      return yield* new InvalidComment({ reason: "empty", message: "Comment must be non-empty." })
    }
    return text
  })

const entryText = (e: Perspective.TextEntry | null | undefined): string | null => {
  if (!e || !e.text) return null
  return (e.type ?? "").toUpperCase() === "HTML" ? htmlToText(e.text) : e.text
}

export const readContext = (context: Perspective.Context | null | undefined) => {
  if (!context) return Effect.succeed({ article: null, parent: null, entries: [] as ReadonlyArray<string> })
  if (context.entries && context.articleAndParentComment) {
    return Effect.fail(new InvalidRequest({ message: "context: send either entries or articleAndParentComment, not both." }))
  }
  const entries = (context.entries ?? []).map(entryText).filter((t): t is string => t !== null)
  const ap = context.articleAndParentComment
  return Effect.succeed({ article: entryText(ap?.article), parent: entryText(ap?.parentComment), entries })
}

interface Requested {
  readonly name: string
  readonly attribute: Perspective.Attribute
  readonly threshold: number | null
}

const readAttributes = (request: Perspective.AnalyzeCommentRequest, family: Family) =>
  Effect.gen(function*() {
    const raw = request.requestedAttributes
    const names = raw ? Object.keys(raw) : []
    if (names.length === 0) {
      if (family === "google") return yield* new NoRequestedAttributes({ message: "Missing requested_attributes" })
      return [{ name: "TOXICITY", attribute: "TOXICITY", threshold: null }] as ReadonlyArray<Requested>
    }
    const out: Array<Requested> = []
    for (const name of names) {
      const attribute = Perspective.resolveAttribute(name)
      if (attribute === undefined) {
        if (request.dropUnsupportedAttributes) continue
        return yield* new UnsupportedAttribute({ attribute: name, message: `Unknown requested attribute: ${name}` })
      }
      const params = raw![name] ?? {}
      if (params.scoreType !== undefined && params.scoreType !== null && !ACCEPTED_SCORE_TYPES.has(params.scoreType)) {
        return yield* new InvalidRequest({
          message: `Attribute ${name}: scoreType ${params.scoreType} is not supported; only PROBABILITY is served.`
        })
      }
      const threshold = params.scoreThreshold ?? null
      if (threshold !== null && !(threshold >= 0 && threshold <= 1)) {
        return yield* new InvalidRequest({ message: `Attribute ${name}: scoreThreshold must be between 0 and 1.` })
      }
      out.push({ name, attribute, threshold })
    }
    return out as ReadonlyArray<Requested>
  })

const score = (value: number): Perspective.Score => ({ value, type: "PROBABILITY" })

/** A validated analyze request, ready to score. */
export interface PreparedAnalyze {
  readonly text: string
  readonly context: { readonly article: string | null; readonly parent: string | null; readonly entries: ReadonlyArray<string> }
  readonly requested: ReadonlyArray<Requested>
  readonly spans: ReadonlyArray<TextSpan>
  readonly languages: ReadonlyArray<string>
  readonly clientToken: string | null
}

/** Validates a request: every request error of analyze surfaces here, before any scoring. */
export const prepare = Effect.fnUntraced(function*(request: Perspective.AnalyzeCommentRequest, family: Family) {
  const text = yield* commentText(request.comment)
  const context = yield* readContext(request.context)
  const requested = yield* readAttributes(request, family)
  const spans: ReadonlyArray<TextSpan> = request.spanAnnotations
    ? splitSentences(text)
    : family === "google"
    ? [{ begin: 0, end: text.length }]
    : []
  const languages = request.languages && request.languages.length > 0 ? request.languages : ["en"]
  return { text, context, requested, spans, languages, clientToken: request.clientToken ?? null } satisfies PreparedAnalyze
})

/**
 * The account's adopted adapters (`Adaptation`), applied to the shipped scores; the provenance
 * says which: `<model>+site.<adapter id>`. Without a `SiteAdapters` service, the scores as they are.
 */
const withAdapters = (result: Evaluated<AttributeAnalysis>, account: Account, prepared: PreparedAnalyze) =>
  Effect.map(Effect.serviceOption(Adaptation.SiteAdapters), (service): Evaluated<AttributeAnalysis> => {
    if (Option.isNone(service)) return result
    const adapters = service.value.forAccount(account.id)
    if (adapters.size === 0) return result
    const value: Partial<Record<Perspective.Attribute, AttributeResult>> = { ...result.value }
    const used: Array<number> = []
    for (const [attribute, scored] of Object.entries(result.value)) {
      const adapter = adapters.get(attribute as Perspective.Attribute)
      if (!adapter || !scored) continue
      used.push(adapter.id)
      value[attribute as Perspective.Attribute] = {
        ...scored,
        summary: Adaptation.adaptScore(adapter, scored.summary, prepared.text),
        spans: scored.spans.map((v, i) => {
          const span = prepared.spans[i]
          return span === undefined ? v : Adaptation.adaptScore(adapter, v, prepared.text.slice(span.begin, span.end))
        })
      }
    }
    if (used.length === 0) return result
    return {
      value,
      provenance: { ...result.provenance, model: result.provenance.model + Adaptation.provenanceSuffix(used) }
    }
  })

/** Scores a prepared request. The response keys echo the names as requested. */
export const run = Effect.fnUntraced(function*(prepared: PreparedAnalyze, account?: Account) {
  const { requested, spans } = prepared
  const attributes = [...new Set(requested.map((r) => r.attribute))]
  // Every requested attribute may have been dropped (`dropUnsupportedAttributes`): nothing is
  // scored, and the answer still names the configured model set.
  const result: Evaluated<AttributeAnalysis> = attributes.length === 0
    ? { value: {}, provenance: { model: Option.match(yield* Effect.serviceOption(EngineInfo), { onNone: () => "none", onSome: (i) => i.modelVersion }) } }
    : yield* (yield* AttributeScorer).analyze({ text: prepared.text, attributes, spans, context: prepared.context }).pipe(
      Effect.tap((r) => Metrics.countEvaluation("perspective", r.provenance))
    )
  const adapted = account === undefined ? result : yield* withAdapters(result, account, prepared)
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
    languages: prepared.languages,
    ...(prepared.clientToken ? { clientToken: prepared.clientToken } : {})
  }
  return { value: response, provenance: adapted.provenance } satisfies Evaluated<Perspective.AnalyzeCommentResponse>
})

/**
 * Validates and scores an analyze request. One span for the whole call, without a stack trace:
 * this runs on every request, and its two steps are too cheap to be worth spans of their own.
 */
export const analyze = (request: Perspective.AnalyzeCommentRequest, family: Family, account?: Account) =>
  Effect.flatMap(prepare(request, family), (prepared) => run(prepared, account)).pipe(Effect.withSpan("Analyze.analyze", { captureStackTrace: false }))
