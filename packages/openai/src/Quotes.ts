/**
 * Every phrase an evaluator quotes must be a verbatim substring of the comment. Models often
 * almost quote: they add quotation marks or an ellipsis, change the case, straighten curly quotes or
 * collapse spaces. `repairQuote` maps such a near-quote back onto the comment's own text; anything
 * it cannot find is dropped by the caller.
 */

const QUOTE_MARKS = /^["'“”‘’«»„‚`]+|["'“”‘’«»„‚`]+$/g
const ELLIPSES = /^(?:\.\.\.|…)+|(?:\.\.\.|…)+$/g

const foldChar = (c: string): string => {
  switch (c) {
    case "“":
    case "”":
    case "„":
    case "«":
    case "»":
      return "\""
    case "‘":
    case "’":
    case "‚":
    case "`":
      return "'"
    case "–":
    case "—":
      return "-"
    default: {
      const lower = c.toLowerCase()
      return lower.length === 1 ? lower : c
    }
  }
}

/** The text folded (case, quote styles, dashes, runs of whitespace), with each folded unit's origin. */
const fold = (text: string): { readonly folded: string; readonly origin: ReadonlyArray<number> } => {
  let folded = ""
  const origin: Array<number> = []
  let inSpace = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (/\s/.test(c)) {
      if (!inSpace) {
        folded += " "
        origin.push(i)
      }
      inSpace = true
      continue
    }
    inSpace = false
    folded += foldChar(c)
    origin.push(i)
  }
  return { folded, origin }
}

const clean = (quote: string): string => {
  let q = quote.trim()
  for (let i = 0; i < 3; i++) q = q.replace(QUOTE_MARKS, "").replace(ELLIPSES, "").trim()
  return q
}

/**
 * The comment's own text for `quote`, or `null` when it does not occur there in any recognisable
 * form. The result always satisfies `comment.includes(result)` and is non-blank.
 */
export const repairQuote = (comment: string, quote: string): string | null => {
  if (quote.trim() === "") return null
  if (comment.includes(quote)) return quote
  const cleaned = clean(quote)
  if (cleaned === "") return null
  if (comment.includes(cleaned)) return cleaned
  const c = fold(comment)
  const q = fold(cleaned).folded.trim()
  if (q === "") return null
  const at = c.folded.indexOf(q)
  if (at < 0) return null
  const begin = c.origin[at]!
  const last = c.origin[at + q.length - 1]!
  const found = comment.slice(begin, last + 1)
  return found.trim() === "" ? null : found
}

/**
 * Keeps the items whose quote (the string field `key`) can be found in the comment, with the quote
 * replaced by the comment's own text, and drops the others and duplicates.
 */
export const keepQuoted = <K extends string, A extends { readonly [P in K]: string }>(
  comment: string,
  items: ReadonlyArray<A>,
  key: K
): { readonly kept: ReadonlyArray<A>; readonly dropped: number } => {
  const kept: Array<A> = []
  const seen = new Set<string>()
  let dropped = 0
  for (const item of items) {
    const repaired = repairQuote(comment, item[key])
    if (repaired === null) {
      dropped++
      continue
    }
    const fixed: A = { ...item, [key]: repaired }
    const id = JSON.stringify(fixed)
    if (seen.has(id)) continue
    seen.add(id)
    kept.push(fixed)
  }
  return { kept, dropped }
}
