/**
 * Spam checking: the spam signals of `spam.ts` (links, shorteners, promotion, contact details,
 * spam vocabulary, repetition, shouting) blended with the model's SPAM probability.
 *
 * Confidence convention: `confidence` is the probability that the verdict is correct, so
 * `is_spam: false, confidence: 0.95` is a confident "not spam", and `0.5` means "cannot tell"
 * either way. It is pulled towards 0.5 when there is little text to judge (a lone `https://www`
 * is not confidently anything), and never reaches 1.
 */
import { SpamChecker } from "@decorum/core"
import { analysedOf, type Evaluated, type Native, ProviderFailure, type SpamCheckInput } from "@decorum/domain"
import { Effect, Layer } from "effect"
import { AttributeModel, type AttributeModelService } from "../AttributeModel.js"
import { CUE_MODEL_VERSION } from "../internal/cues/cues.js"
import { detectSpam, SPAM_BIAS, type SpamSignal, type SpamSignalKind } from "../internal/cues/spam.js"
import { logit, sigmoid } from "../internal/calibration.js"
import { ModelAnalysis, Tokens } from "../internal/analyses.js"
import { clamp01, round4 } from "../internal/text/words.js"

/** The highest confidence a heuristic verdict may claim. */
const MAX_CONFIDENCE = 0.98

const ORDER: ReadonlyArray<SpamSignalKind> = [
  "promotion", "money offer", "shortened link", "contact details", "spam vocabulary", "incomplete link", "link",
  "link-only comment", "repeated sentence", "repeated words", "repeated characters", "all caps", "money emoji"
]

const quote = (text: string, s: SpamSignal) => {
  const q = text.slice(s.begin, s.end)
  return `"${q.length > 50 ? `${q.slice(0, 47)}...` : q}"`
}

const describeSignals = (text: string, signals: ReadonlyArray<SpamSignal>): string => {
  const parts: Array<string> = []
  const used = new Set<string>()
  for (const kind of ORDER) {
    const of = signals.filter((s) => s.kind === kind)
    if (of.length === 0) continue
    // Each quote is named once, under its most telling kind.
    const quotes = [...new Set(of.map((s) => quote(text, s)))].filter((q) => !used.has(q)).slice(0, 3)
    if (quotes.length === 0) continue
    quotes.forEach((q) => used.add(q))
    const name = kind === "link" && of.length > 1 ? `${of.length} links` : kind
    parts.push(`${name} (${quotes.join(", ")})`)
  }
  return parts.join("; ")
}

/**
 * How the signals' log-odds and the model's SPAM probability are blended:
 * `z = model * logit(p_model) + signals * (logit_signals - SPAM_BIAS) + bias`, spam when `z >= 0`.
 * The signals enter as evidence above their own prior (`SPAM_BIAS`, the log-odds when nothing
 * is found), so a comment without signals is judged by the model alone (plus `bias`).
 */
export interface SpamBlend {
  readonly model: number
  readonly signals: number
  readonly bias: number
}

/**
 * The blend for a trained model, chosen on the dev protocol of `training/spamdev.ts` (YouTube
 * videos Psy, Katy Perry and LMFAO held out in turn; the Eminem test video never looked at).
 */
export const SPAM_BLEND: SpamBlend = { model: 0.5, signals: 1.25, bias: -0.5 }

/**
 * The cue model's SPAM is these same signals: equal parts of both, as before (the two are
 * nearly identical, so this is the signals' own verdict).
 */
export const CUE_MODEL_SPAM_BLEND: SpamBlend = { model: 0.5, signals: 0.5, bias: 0.5 * SPAM_BIAS }

/** The blended spam probability; the signals alone when there is no model score. */
export const spamProbability = (signalLogit: number, modelP: number | undefined, blend: SpamBlend = SPAM_BLEND): number => {
  const z = modelP === undefined ? signalLogit : blend.model * logit(modelP) + blend.signals * (signalLogit - SPAM_BIAS) + blend.bias
  return clamp01(sigmoid(z))
}

/** Checks one comment. Synchronous; throws only if the model does. */
export const checkSpam = (model: AttributeModelService, input: SpamCheckInput): Native.SpamCheck => {
  const text = input.comment
  // the request's analysed comment: the tokens and the model set's analysis the comment scorer derived, when it ran
  const analysed = analysedOf(text, input.analysed)
  const evidence = detectSpam(text, analysed.get(Tokens))
  const modelP = model.labels.includes("SPAM") ? model.predict(analysed.get(ModelAnalysis, model), ["SPAM"]).SPAM : undefined
  const p = spamProbability(evidence.logit, modelP, model.version === CUE_MODEL_VERSION ? CUE_MODEL_SPAM_BLEND : SPAM_BLEND)
  const isSpam = p >= 0.5
  // Little text to judge: shrink the confidence towards "cannot tell".
  const certainty = Math.min(1, 0.4 + 0.15 * evidence.words)
  const confidence = Math.min(MAX_CONFIDENCE, 0.5 + (Math.max(p, 1 - p) - 0.5) * certainty)

  const strong = evidence.signals.filter((s) => s.weight >= 0.5 || s.kind === "incomplete link")
  const found = describeSignals(text, strong)
  const modelNote = modelP === undefined ? "" : ` Model spam probability ${modelP.toFixed(2)}.`
  let reasoning: string
  if (isSpam) reasoning = `Looks like spam: ${found || "the model's spam score is high"}.${modelNote}`
  else if (certainty < 0.7) {
    reasoning = `Too little text to judge${found ? `; only ${found}` : ""}, so the verdict is uncertain.${modelNote}`
  } else if (found) reasoning = `Probably not spam: ${found} ${strong.length === 1 ? "is" : "are"} weak on ${strong.length === 1 ? "its" : "their"} own.${modelNote}`
  else reasoning = `No spam signals found (no promotion, links, contact details or spam vocabulary); reads as an ordinary comment.${modelNote}`

  return { reasoning, confidence: round4(clamp01(confidence)), is_spam: isSpam }
}

/** What stays English-only in a spam verdict on a non-English comment: the verdict's text model (the SPAM head) and its reasoning's vocabulary cues. */
export const SPAM_ENGLISH_ONLY: ReadonlyArray<string> = ["is_spam", "confidence", "reasoning"]

/** The spam checker on whatever `AttributeModel` is provided. */
export const LocalSpamChecker: Layer.Layer<SpamChecker, never, AttributeModel> = Layer.effect(
  SpamChecker,
  Effect.map(AttributeModel, (model) =>
    SpamChecker.of({
      check: (input) =>
        Effect.try({
          try: (): Evaluated<Native.SpamCheck> => ({
            value: {
              ...checkSpam(model, input),
              // Issue 28: the spam head is English-trained; the link, contact and pattern signals read any language.
              english_only_fields: input.language === undefined || input.language === "en" ? [] : SPAM_ENGLISH_ONLY
            },
            provenance: { model: model.version }
          }),
          catch: (cause) => new ProviderFailure({ provider: model.version, evaluation: "spam_check", message: `Local spam check failed: ${String(cause)}` })
        })
    }))
)
