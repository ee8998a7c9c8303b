/**
 * Reduces HTML to its text, for Perspective requests with `comment.type: "HTML"`. Offsets of the
 * answer are offsets into this reduced text. Block elements become line breaks, scripts and styles
 * are dropped, entities are decoded, runs of spaces collapse.
 */
const NAMED: Readonly<Record<string, string>> = {
  amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " ", ndash: "–", mdash: "—", hellip: "…",
  lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”", copy: "©", reg: "®", trade: "™", laquo: "«", raquo: "»"
}

export const decodeEntities = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m
    }
    return NAMED[body.toLowerCase()] ?? m
  })

const BLOCK = /^(p|div|br|li|ul|ol|h[1-6]|blockquote|pre|tr|table|section|article|header|footer|hr)$/i

export const htmlToText = (html: string): string => {
  let s = html.replace(/<!--[\s\S]*?-->/g, "")
  s = s.replace(/<(script|style|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "")
  s = s.replace(/<\/?([a-z][a-z0-9-]*)\b[^>]*>/gi, (_m, tag: string) => (BLOCK.test(tag) ? "\n" : ""))
  s = decodeEntities(s)
  return s
    .split("\n")
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, " ").trim())
    .filter((line, i, all) => line.length > 0 || (i > 0 && all[i - 1]!.length > 0))
    .join("\n")
    .trim()
}
