import { decodeEntities, htmlToText } from "@decorum/core"
import { describe, expect, it } from "vitest"

describe("htmlToText (comment.type HTML)", () => {
  it("drops tags, scripts, styles and comments, and turns block elements into line breaks", () => {
    expect(htmlToText("<p>Hello <b>there</b>.</p><p>Bye</p>")).toBe("Hello there.\n\nBye")
    expect(htmlToText("a<br>b<br/>c")).toBe("a\nb\nc")
    expect(htmlToText("x<script>alert('<p>')</script><style>p{}</style><!-- <p>hidden</p> -->y")).toBe("xy")
  })

  it("decodes named and numeric entities after removing tags, so &lt;b&gt; stays text", () => {
    expect(htmlToText("Fish &amp; chips &lt;b&gt;3&lt;/b&gt; &#x1F600; &#233;")).toBe("Fish & chips <b>3</b> 😀 é")
  })

  it("collapses runs of spaces but keeps line structure", () => {
    expect(htmlToText("  a   b \t c  \n\n\n d ")).toBe("a b c\n\nd")
  })

  it("leaves unknown or invalid entities alone", () => {
    expect(decodeEntities("&bogus; &#99999999; &amp")).toBe("&bogus; &#99999999; &amp")
  })
})
