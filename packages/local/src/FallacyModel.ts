/**
 * The seam between the comment scorer and the trained fallacy detector (`models/FallacyDetector.ts`,
 * loading `packages/local/models/fallacy.json` + `fallacy.bin`). The comment scorer reads it when
 * it is provided; without it (the cue model, or a deployment that deleted the flagged files) the
 * scorer falls back to the fallacy patterns.
 */
import type { Fallacies } from "@decorum/domain"
import { Context } from "effect"
import type { Token } from "./internal/text/words.js"

/** A sentence (or a clause of a very long sentence) and what the detector made of it. */
export interface FallacyUnit {
  /** UTF-16 offsets into the text as given, `end` exclusive. */
  readonly begin: number
  readonly end: number
  /** The unit's share of the comment's detector log-odds: the unit that drives the decision has the largest. */
  readonly drive: number
  /** The detector's log-odds for the unit on its own. */
  readonly score: number
  /** The typer's best catalogue type for the unit on its own. */
  readonly type: Fallacies.FallacyType
}

export interface FallacyAnalysis {
  readonly text: string
  /** The detector's log-odds for the whole comment. */
  readonly score: number
  /** The log-odds from which a fallacy is reported (chosen on dev for F1). */
  readonly threshold: number
  /** The typer's best type for the whole comment (computed when the comment reaches the threshold, or when asked for). */
  readonly type: Fallacies.FallacyType
  readonly units: ReadonlyArray<FallacyUnit>
}

/** What the comment scorer already computed of the text, so the detector need not again. */
export interface FallacyInput {
  readonly sentences: ReadonlyArray<{ readonly begin: number; readonly end: number }>
  /** The shared tokenizer's words (`internal/text/words.ts`). */
  readonly words: ReadonlyArray<Token>
}

export interface FallacyModelService {
  /** The detector's version, e.g. `fallacy-2026.11.1`. */
  readonly version: string
  /**
   * Score a comment once: the whole and each sentence. Synchronous. `prepared` must be the
   * text's sentences (`splitSentences`) and words (the shared tokenizer) when given.
   */
  readonly analyse: (text: string, prepared?: FallacyInput) => FallacyAnalysis
}

export class FallacyModel extends Context.Tag("@decorum/local/FallacyModel")<FallacyModel, FallacyModelService>() {}
