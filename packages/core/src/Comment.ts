import { InvalidComment, Limits, MissingParameter } from "@decorum/domain"
import { Effect } from "effect"

/**
 * The comment rules shared by every evaluation: present, not blank, at most 20,480 UTF-16 code
 * units. The comment is returned unchanged (quotes are offsets into it).
 */
export const validateComment = (comment: string | null | undefined): Effect.Effect<string, InvalidComment | MissingParameter> => {
  if (comment === undefined || comment === null) {
    return Effect.fail(
      new MissingParameter({ parameter: "comment", message: "A comment to evaluate is required, but was missing or empty." })
    )
  }
  if (comment.trim().length === 0) {
    return Effect.fail(new InvalidComment({ reason: "empty", message: "A comment to evaluate is required, but was missing or empty." }))
  }
  if (comment.length > Limits.commentMaxLength) {
    return Effect.fail(
      new InvalidComment({
        reason: "too_long",
        message: `The comment is ${comment.length} characters long; the limit is ${Limits.commentMaxLength} (UTF-16 code units).`
      })
    )
  }
  return Effect.succeed(comment)
}

/**
 * The header the hosted original's WordPress plugin puts before every comment it sends:
 * `"Author: NAME\n"` and/or `"Author email: EMAIL\n"` (each line only when known), then a blank
 * line. It is not what the commenter wrote (an e-mail address would read as contact-details spam),
 * so the native evaluations judge the text after it.
 */
const AUTHOR_HEADER = /^(?=Author)(?:Author: [^\r\n]*\r?\n)?(?:Author email: [^\r\n]*\r?\n)?\r?\n/

/**
 * The comment without a leading WordPress-plugin author header (unchanged when it has none).
 * Always a suffix of `comment`, so every quote taken from the result is also a verbatim substring
 * of the comment as sent.
 */
export const stripAuthorHeader = (comment: string): string => {
  const header = AUTHOR_HEADER.exec(comment)
  return header === null ? comment : comment.slice(header[0].length)
}

/**
 * What a native evaluation judges: the comment validated as sent (present, within the limit), then
 * without its author header; a comment that is nothing but a header is empty.
 */
export const judgedComment = (comment: string | null | undefined): Effect.Effect<string, InvalidComment | MissingParameter> =>
  Effect.flatMap(validateComment(comment), (sent) => {
    const text = stripAuthorHeader(sent)
    return text.trim().length === 0
      ? Effect.fail(new InvalidComment({ reason: "empty", message: "The comment is empty after its author header; there is nothing to evaluate." }))
      : Effect.succeed(text)
  })
