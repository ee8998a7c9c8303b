/**
 * The seam between the local dog-whistle evaluator and the trained coded-language detector
 * (models/DogWhistleDetector.ts, loading packages/local/models/dogwhistle.*).
 */
import { Context } from "effect"
import type { DogWhistleHit } from "./internal/dogwhistle/model.js"

export interface DogWhistleInput {
  /** The text to judge (any WordPress author header already removed by the caller). */
  readonly comment: string
  /** Site-supplied sensitive topics for this request (may be empty). */
  readonly sensitiveTopics: ReadonlyArray<string>
  /** Site-supplied terms or phrases seen used as coded language (may be empty); watched for at once. */
  readonly examples: ReadonlyArray<string>
  /** What the comment replies to / the thread (reply_to_comment, context_comments), most relevant first. */
  readonly context: ReadonlyArray<string>
}

export type { DogWhistleHit } from "./internal/dogwhistle/model.js"

export interface DogWhistleAnalysis {
  readonly detected: boolean
  /** Confidence in the verdict `detected` (0-1), honest for short or ambiguous text. */
  readonly confidence: number
  /** Hits judged coded, strongest first (empty when not detected). */
  readonly hits: ReadonlyArray<DogWhistleHit>
  /** 0-1: how covert the coded language is (glossary register/type prior); 0 when nothing detected. */
  readonly subtlety: number
  /** 0-1: potential for harm; 0 when nothing detected. */
  readonly harm: number
  /** Plain-language reasoning naming each term found and its covert meaning, or why nothing was flagged. */
  readonly reasoning: string
}

export interface DogWhistleModelService {
  /** e.g. `dogwhistle-2026.11.1`; goes into X-Model-Version. */
  readonly version: string
  /** Synchronous and fast (microseconds to a millisecond). */
  readonly analyse: (input: DogWhistleInput) => DogWhistleAnalysis
}

export class DogWhistleModel extends Context.Tag("@decorum/local/DogWhistleModel")<DogWhistleModel, DogWhistleModelService>() {}
