/** Limits of the contract (`interface.md`). */
export const Limits = {
  /** Longest comment, in UTF-16 code units (JavaScript string length), as Perspective clients check. */
  commentMaxLength: 20_480,
  /** Longest article text kept for an article context, in UTF-16 code units. */
  articleMaxLength: 2_000_000,
  /** Default request body limit in bytes. */
  defaultBodyLimitBytes: 1_048_576
} as const
