/** Limits of the contract (`interface.md`). */
export const Limits = {
  /** Longest comment, in UTF-16 code units (JavaScript string length), as Perspective clients check. */
  commentMaxLength: 20_480,
  /** Longest article text kept for an article context, in UTF-16 code units. */
  articleMaxLength: 2_000_000,
  /** Default request body limit in bytes. */
  defaultBodyLimitBytes: 1_048_576,
  /**
   * Deepest nesting of objects and arrays a request body may have. The deepest real request
   * (a Perspective analyze with context entries) nests 4 levels; the limit is checked before any
   * recursive walk of a body, so a deep body is a 400, never a stack overflow.
   */
  maxNestingDepth: 32,
  /**
   * Most entries of a list a native request sends (`banned_topics`, `sensitive_topics`,
   * `dogwhistle_examples`), and the longest entry in UTF-16 code units: the lists are read on the
   * serving thread for every request, so a body of 30,000 topics cost half a second there.
   */
  maxListEntries: 200,
  maxListEntryLength: 500,
  /** Most `context_comments` (the thread) a native request sends; each at most `commentMaxLength`. */
  maxContextComments: 50
} as const
