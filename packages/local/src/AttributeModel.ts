/**
 * The seam between the local evaluators and whatever scores text locally: first a cue
 * approximation, then the project's trained models. The evaluators (comment scoring, spam,
 * Perspective attributes) depend only on this tag, so a model set can be swapped without touching
 * them.
 */
import type { Perspective } from "@decorum/domain"
import { Context } from "effect"

/** What a local model set can score: the Perspective attributes plus two heads of its own. */
export type ModelLabel = Perspective.Attribute | "LOW_EFFORT" | "CONSTRUCTIVE"

/** A span of the scored text and how much it pushed a label up (positive) or down (negative). */
export interface Contribution {
  /** UTF-16 offsets into the text as given, `end` exclusive; `text.slice(begin, end)` is the quote. */
  readonly begin: number
  readonly end: number
  /** Contribution to the label's log-odds (or a comparable positive weight for the cue model). */
  readonly weight: number
}

/**
 * What a model set computed about one text, once: normalised tokens, features, raw head scores.
 * Immutable; `predict` and `explain` read it and never recompute it, in any order, any number of
 * times. Only the model set that made an analysis knows its contents: given another set's
 * analysis (or a plain `{ text }`), a model set analyses `text` itself.
 */
export interface TextAnalysis {
  /** The text as given. Every span an explanation returns is a slice of it. */
  readonly text: string
}

export interface AttributeModelService {
  /** The model set's version, e.g. `local-2026.11.1`; goes into `X-Model-Version`. */
  readonly version: string
  /** Labels this model set can score. */
  readonly labels: ReadonlyArray<ModelLabel>
  /** Analyse a text once; every prediction and explanation of that text reads the result. */
  readonly analyse: (text: string) => TextAnalysis
  /** Probabilities in [0, 1] for the requested labels. Synchronous and fast: this is the hot path. */
  readonly predict: (analysis: TextAnalysis, labels: ReadonlyArray<ModelLabel>) => Readonly<Partial<Record<ModelLabel, number>>>
  /**
   * The same probabilities as `predict(analyse(text), labels)`, bit for bit, when nothing else of
   * the analysis is needed (no explanation): a model set may skip the work explanations need.
   * Optional; callers fall back to `predict(analyse(text), labels)`.
   */
  readonly score?: (text: string, labels: ReadonlyArray<ModelLabel>) => Readonly<Partial<Record<ModelLabel, number>>>
  /**
   * The spans that drove a label's score, strongest first, at most `limit`. Every span is a
   * verbatim slice of `analysis.text`.
   */
  readonly explain: (analysis: TextAnalysis, label: ModelLabel, limit?: number) => ReadonlyArray<Contribution>
}

export class AttributeModel extends Context.Tag("@decorum/local/AttributeModel")<AttributeModel, AttributeModelService>() {}
