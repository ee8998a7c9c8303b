/**
 * Reduces an HTML page to its main text: the article, without navigation, headers, footers,
 * sidebars, scripts, styles, forms controls and the usual boilerplate blocks (share bars, cookie
 * banners, related links, comment threads). Prefers `<article>`, then `<main>`, then `<body>`.
 * A forgiving tag scanner, not a full HTML parser: unclosed elements are closed by their parent's
 * end tag, and stray end tags are ignored.
 */
import { decodeEntities, htmlToText } from "@decorum/core"

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"])
/** Elements dropped with everything inside them. */
const DROP = new Set([
  "script", "style", "noscript", "template", "svg", "iframe", "object", "canvas", "nav", "header", "footer", "aside",
  "button", "select", "textarea", "dialog", "menu", "figure"
])
const DROP_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alert", "menu", "menubar"])
const BOILERPLATE_TOKEN =
  /^(nav|navbar|navigation|menu|main-menu|sidebar|side-bar|footer|site-footer|header|site-header|masthead|breadcrumbs?|cookies?|cookie-banner|consent|banner|ads?|advert|adverts|advertisement|sponsored|share|sharing|share-bar|social|social-links|related|related-posts|related-articles|newsletter|subscribe|promo|comments?|comment-list|popup|modal|skip-link|toolbar|pagination)$/i
/** Structural elements never dropped for their class names. */
const KEEP_STRUCTURE = new Set(["html", "body", "main", "article"])

const TAG = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<!?\/?([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g
/** Raw-text elements: their content is not markup, skip straight to the end tag. */
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp", "noscript", "template"])

const attr = (attrs: string, name: string): string | null => {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(attrs)
  return m === null ? null : (m[1] ?? m[2] ?? m[3] ?? "")
}

const isBoilerplate = (tag: string, attrs: string): boolean => {
  if (DROP.has(tag)) return true
  if (/(?:^|\s)(hidden|aria-hidden\s*=\s*["']?true)/i.test(attrs)) return true
  const role = attr(attrs, "role")
  if (role !== null && DROP_ROLES.has(role.toLowerCase())) return true
  if (KEEP_STRUCTURE.has(tag)) return false
  const names = `${attr(attrs, "class") ?? ""} ${attr(attrs, "id") ?? ""}`.split(/\s+/).filter((s) => s.length > 0)
  return names.some((n) => BOILERPLATE_TOKEN.test(n))
}

interface Element {
  readonly tag: string
  readonly attrs: string
  /** Offset of the first character after the start tag, in the cleaned output. */
  readonly contentStart: number
}

interface Scan {
  readonly cleaned: string
  /** Content ranges (in `cleaned`) of `article`, `main` and role=main elements. */
  readonly candidates: ReadonlyArray<{ readonly tag: string; readonly start: number; readonly end: number }>
  readonly body: { readonly start: number; readonly end: number } | null
}

const scan = (html: string): Scan => {
  const out: Array<string> = []
  let outLength = 0
  const emit = (s: string) => {
    out.push(s)
    outLength += s.length
  }
  const stack: Array<Element & { readonly dropped: boolean }> = []
  let dropDepth = 0
  const candidates: Array<{ tag: string; start: number; end: number }> = []
  let body: { start: number; end: number } | null = null
  let last = 0
  TAG.lastIndex = 0
  let m: RegExpExecArray | null
  while ((m = TAG.exec(html)) !== null) {
    if (dropDepth === 0) emit(html.slice(last, m.index))
    last = m.index + m[0].length
    const tagName = m[1]?.toLowerCase()
    if (tagName === undefined || m[0].startsWith("<!")) continue // comment, doctype, CDATA
    const closing = m[0][1] === "/"
    const attrs = m[2] ?? ""
    if (!closing) {
      const selfClosing = VOID.has(tagName) || /\/\s*$/.test(attrs)
      if (RAW_TEXT.has(tagName) && !selfClosing) {
        const end = html.toLowerCase().indexOf(`</${tagName}`, last)
        const stop = end < 0 ? html.length : end
        // Raw text is never main text (a <title> is read separately).
        last = stop
        TAG.lastIndex = stop
        continue
      }
      if (selfClosing) {
        if (dropDepth === 0) emit(tagName === "br" || tagName === "hr" ? "\n" : tagName === "img" ? " " : "")
        continue
      }
      const dropped = dropDepth > 0 || isBoilerplate(tagName, attrs)
      if (dropped) dropDepth++
      else emit(m[0])
      stack.push({ tag: tagName, attrs, contentStart: outLength, dropped })
      continue
    }
    // An end tag closes the nearest open element of its name, and everything opened inside it.
    let k = stack.length - 1
    while (k >= 0 && stack[k]!.tag !== tagName) k--
    if (k < 0) continue
    while (stack.length > k) {
      const el = stack.pop()!
      if (el.dropped) {
        dropDepth--
        continue
      }
      const role = attr(el.attrs, "role")?.toLowerCase()
      if (el.tag === "article" || el.tag === "main" || role === "main") candidates.push({ tag: role === "main" ? "main" : el.tag, start: el.contentStart, end: outLength })
      if (el.tag === "body") body = { start: el.contentStart, end: outLength }
      emit(`</${el.tag}>`)
    }
  }
  if (dropDepth === 0) emit(html.slice(last))
  return { cleaned: out.join(""), candidates, body }
}

const extractTitle = (html: string): string | null => {
  const og = /<meta\b[^>]*property\s*=\s*["']og:title["'][^>]*>/i.exec(html)
  if (og !== null) {
    const content = attr(og[0].replace(/^<meta|\/?>$/gi, " "), "content")
    if (content !== null && content.trim().length > 0) return clean(decodeEntities(content))
  }
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)
  if (title !== null && title[1]!.trim().length > 0) return clean(decodeEntities(title[1]!.replace(/<[^>]*>/g, "")))
  const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1\s*>/i.exec(html)
  if (h1 !== null) {
    const text = clean(htmlToText(h1[1]!))
    if (text.length > 0) return text
  }
  return null
}

const clean = (s: string) => s.replace(/\s+/g, " ").trim()

export interface MainText {
  readonly title: string | null
  readonly text: string
}

/** The main text and title of an HTML page. */
export const htmlMainText = (html: string): MainText => {
  const title = extractTitle(html)
  const { cleaned, candidates, body } = scan(html)
  const textOf = (r: { start: number; end: number }) =>
    htmlToText(cleaned.slice(r.start, r.end).replace(/<\/?(td|th|dd|dt|main|figcaption|caption|label)\b[^>]*>/gi, " "))
  const pick = (tag: string) =>
    candidates
      .filter((c) => c.tag === tag)
      .map((c) => textOf(c))
      .sort((a, b) => b.length - a.length)[0]
  const whole = textOf(body ?? { start: 0, end: cleaned.length })
  const article = pick("article")
  const main = pick("main")
  // An <article> that holds a real share of the page's text is the article; a tiny one is a teaser.
  let text = whole
  if (main !== undefined && main.length >= Math.min(200, whole.length * 0.3)) text = main
  if (article !== undefined && article.length >= Math.min(200, whole.length * 0.3)) text = article
  return { title, text }
}
