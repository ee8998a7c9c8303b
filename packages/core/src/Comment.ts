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
