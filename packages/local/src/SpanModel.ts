/**
 * The seam between the comment scorer and the trained toxic-span tagger (`models/SpanTagger.ts`,
 * loading `packages/local/models/spans.json` + `spans.bin`). The comment scorer quotes the
 * tagger's spans as objectionable phrases when it is provided; without it (the cue model, or a
 * models directory without `spans.json`) it cuts them from the toxicity heads' explanations.
 */
import { Context } from "effect"

/** A word of the shared tokenizer (the comment scorer's tokens), UTF-16 offsets into the text. */
export interface SpanWord {
  readonly begin: number
  readonly end: number
  /** Lowercase, curly apostrophes folded. */
  readonly lower: string
  /** Lookup key with simple obfuscation undone. */
  readonly key: string
}

export interface SpanModelService {
  /** The tagger's version, e.g. `spans-2026.11.1`. */
  readonly version: string
  /**
   * The smallest spans that carry the offence, as UTF-16 ranges of `text` in text order; none when
   * the comment has nothing to quote. `words` must be the text's words (the shared tokenizer).
   * Synchronous.
   */
  readonly spans: (text: string, words: ReadonlyArray<SpanWord>) => ReadonlyArray<{ readonly begin: number; readonly end: number }>
  /**
   * For a comment the toxicity heads do not find objectionable: only the words the tagger is
   * confident about, each alone (usually none).
   */
  readonly confidentSpans: (text: string, words: ReadonlyArray<SpanWord>) => ReadonlyArray<{ readonly begin: number; readonly end: number }>
}

export class SpanModel extends Context.Tag("@decorum/local/SpanModel")<SpanModel, SpanModelService>() {}
