import { decodeEntities, htmlToText } from "@decorum/core"
import { assert, describe, it } from "@effect/vitest"

describe("htmlToText (comment.type HTML)", () => {
  it("drops tags, scripts, styles and comments, and turns block elements into line breaks", () => {
    assert.strictEqual(htmlToText("<p>Hello <b>there</b>.</p><p>Bye</p>"), "Hello there.\n\nBye")
    assert.strictEqual(htmlToText("a<br>b<br/>c"), "a\nb\nc")
    assert.strictEqual(htmlToText("x<script>alert('<p>')</script><style>p{}</style><!-- <p>hidden</p> -->y"), "xy")
  })

  it("decodes named and numeric entities after removing tags, so &lt;b&gt; stays text", () => {
    assert.strictEqual(htmlToText("Fish &amp; chips &lt;b&gt;3&lt;/b&gt; &#x1F600; &#233;"), "Fish & chips <b>3</b> 😀 é")
  })

  it("collapses runs of spaces but keeps line structure", () => {
    assert.strictEqual(htmlToText("  a   b \t c  \n\n\n d "), "a b c\n\nd")
  })

  it("leaves unknown or invalid entities alone", () => {
    assert.strictEqual(decodeEntities("&bogus; &#99999999; &amp"), "&bogus; &#99999999; &amp")
  })
})
