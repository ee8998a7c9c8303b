/**
 * The seam between the local llmdetect evaluator and the trained AI-written-text detector
 * (models/AiTextDetector.ts, loading packages/local/models/aitext.*).
 */
import { Context } from "effect"

export type AiSignalType = "word_frequency" | "structural" | "stylistic" | "epistemic"

export interface AiTextSignal {
  readonly type: AiSignalType
  /** One sentence: what was seen and why it suggests machine-written text. */
  readonly description: string
  /** Verbatim slice of the text: text.slice(begin, end) === quote. */
  readonly quote: string
  readonly begin: number
  readonly end: number
}

export interface AiTextAnalysis {
  /** Probability the text was written by an LLM (0-1). */
  readonly likelihood: number
  /** Confidence in that likelihood (0-1): low for short texts. */
  readonly confidence: number
  /** Strongest first. */
  readonly signals: ReadonlyArray<AiTextSignal>
  readonly reasoning: string
}

export interface AiTextModelService {
  /** e.g. `aitext-2026.11.1`; goes into X-Model-Version. */
  readonly version: string
  /** Synchronous and fast. */
  readonly analyse: (text: string) => AiTextAnalysis
}

export class AiTextModel extends Context.Tag("@decorum/local/AiTextModel")<AiTextModel, AiTextModelService>() {}
