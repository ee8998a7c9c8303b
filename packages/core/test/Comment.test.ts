/**
 * The WordPress plugin's author header ("Author: NAME\nAuthor email: EMAIL\n\n", each line only
 * when known) is not what the commenter wrote: the native evaluations judge the text after it, and
 * since that text is a suffix of the comment as sent, every quote taken from it is also a verbatim
 * substring of what the client sent.
 */
import { judgedComment, stripAuthorHeader } from "@decorum/core"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"

const BODY = "The globalists want this, obviously.\nSecond line."

describe("stripAuthorHeader", () => {
  it("removes the header in each form the plugin sends it", () => {
    for (
      const header of [
        "Author: Jane Doe\nAuthor email: jane@example.com\n\n",
        "Author: Jane Doe\n\n",
        "Author email: jane@example.com\n\n",
        "Author: Jane Doe\r\nAuthor email: jane@example.com\r\n\r\n",
        "Author: \nAuthor email: \n\n"
      ]
    ) {
      const sent = header + BODY
      const judged = stripAuthorHeader(sent)
      assert.strictEqual(judged, BODY, JSON.stringify(header))
      assert.isTrue(sent.endsWith(judged))
    }
  })

  it("leaves every other comment as it is", () => {
    for (
      const comment of [
        BODY,
        "Author: Jane Doe wrote a fine piece.",
        "Author: Jane Doe\nno blank line after the header",
        "Author email: jane@example.com\nAuthor: Jane Doe\n\nlines in the wrong order",
        " Author: Jane\n\nleading space",
        "My author: Jane\n\ntext",
        "\n\ntext after blank lines"
      ]
    ) assert.strictEqual(stripAuthorHeader(comment), comment, JSON.stringify(comment))
  })

  it("removes only the first header: text that quotes one later stays", () => {
    const sent = `Author: A\n\nAuthor: B\n\n${BODY}`
    assert.strictEqual(stripAuthorHeader(sent), `Author: B\n\n${BODY}`)
  })
})

describe("judgedComment", () => {
  it.effect("is the comment after the header, and empty (400) when nothing follows it", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* judgedComment(`Author: Jane\n\n${BODY}`), BODY)
      const empty = yield* Effect.flip(judgedComment("Author: Jane\nAuthor email: j@example.com\n\n  \n"))
      assert.deepStrictEqual([empty._tag, empty._tag === "InvalidComment" ? empty.reason : null], ["InvalidComment", "empty"])
      const missing = yield* Effect.flip(judgedComment(undefined))
      assert.strictEqual(missing._tag, "MissingParameter")
    }))
})
