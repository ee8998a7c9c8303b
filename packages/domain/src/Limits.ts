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
  maxNestingDepth: 32
} as const
