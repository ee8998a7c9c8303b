/**
 * A modest set of logical-fallacy patterns. Phrase patterns find only the textbook wordings
 * ("everyone knows", "what about", "all politicians are"); a fallacy argued in other words is
 * missed. Each hit quotes its sentence (or, in a very long sentence, the matched words).
 */
import { INSULTS, SECOND_PERSON } from "./wordLists.js"
import { findGeneralisations } from "./patterns.js"
import { type Range, sentenceAt, type Token, trimRange } from "../text/words.js"

export interface FallacyHit {
  readonly name: string
  readonly begin: number
  readonly end: number
  readonly explanation: string
}

interface FallacyPattern {
  readonly name: string
  readonly re: RegExp
  /**
   * Words every match contains (each alternative of `re` has one of them as a literal word, not
   * optional): a text without any of them is not searched with `re`. Matched with `re`'s own
   * flags, so case folding cannot tell the two apart.
   */
  readonly anchors: ReadonlyArray<string>
  readonly explanation: string
}

const ci = (source: string) => new RegExp(source, "giu")

const PATTERNS: ReadonlyArray<FallacyPattern> = [
  {
    name: "Ad hominem",
    anchors: ["coming", "says", "would", "consider", "course", "only", "expert", "scientist", "doctor", "economist", "lawyer", "typical"],
    re: ci(String.raw`\b(?:coming\s+from\s+(?:someone|somebody|a\s+(?:guy|person|man|woman))\s+who|says\s+the\s+(?:guy|person|man|woman|one|idiot|clown)\s+who|what\s+would\s+(?:you|a\s+\w+\s+like\s+you)\s+know|consider\s+the\s+source|of\s+course\s+(?:you|a\s+\w+)\s+(?:would|['’]d)\s+(?:say|think)\s+that|you\s+only\s+(?:say|think|believe)\s+that\s+because\s+you|you(?:['’]re|\s+are)\s+(?:not|no)\s+(?:a\s+|an\s+)?(?:expert|scientist|doctor|economist|lawyer)\b|typical\s+(?:liberal|leftist|lefty|conservative|right-winger|democrat|republican|boomer|millennial|snowflake))`),
    explanation: "This targets the person rather than what they said; who makes a claim does not decide whether it is true. Respond to the argument itself: say which part is wrong and why."
  },
  {
    name: "Slippery slope",
    anchors: ["next", "where", "slippery", "before", "lead", "let", "allow"],
    re: ci(String.raw`\b(?:next\s+(?:thing\s+)?(?:they['’]ll|you\s+know|we['’]ll|they\s+will)|where\s+does\s+it\s+(?:end|stop)|(?:it['’]s|this\s+is)\s+a\s+slippery\s+slope|slippery\s+slope|before\s+you\s+know\s+it|(?:will|would)\s+(?:inevitably|eventually)\s+lead\s+to|if\s+we\s+(?:let|allow)\b[^.!?\n]{1,80}?\b(?:next|soon|eventually|then\s+(?:we|they)))`),
    explanation: "This assumes one step will set off a chain of worse ones without showing why each step would follow. Argue the likely consequences of this step on its own, with evidence for any chain you expect."
  },
  {
    name: "Whataboutism",
    anchors: ["about", "problems", "issues"],
    re: ci(String.raw`\b(?:(?:but|and|yet|so)\s+what\s+about|what\s+about\s+(?:when|the\s+time)|(?:bigger|worse|more\s+important|more\s+serious|real)\s+(?:problems|issues|things\s+to\s+worry\s+about)|why\s+(?:isn['’]t|aren['’]t|don['’]t|doesn['’]t)\s+(?:anyone|anybody|the\s+media|you|they)\s+(?:talk(?:ing)?|care|caring|complain(?:ing)?|report(?:ing)?)\s+about)`),
    explanation: "Pointing to another problem or another side's faults does not answer the point being discussed. If the comparison matters, explain how it bears on this issue; otherwise address the issue at hand."
  },
  {
    name: "Appeal to popularity",
    anchors: ["every", "people", "majority", "common", "believe", "think", "agree"],
    re: ci(String.raw`\b(?:every(?:one|body)\s+(?:knows|agrees|thinks|says|can\s+see)|most\s+people\s+(?:agree|think|know|believe)|the\s+majority\s+(?:agrees|thinks|believes|wants|of\s+people\s+(?:agree|think))|millions\s+of\s+people\s+can['’]?t\s+be\s+wrong|it['’]s\s+common\s+knowledge|(?:nobody|no\s+one)\s+(?:believes|thinks|agrees\s+with)\s+(?:that|this|you))`),
    explanation: "How many people believe something does not make it true. Give the reasons or evidence that would convince someone on their own."
  },
  {
    name: "False dilemma",
    anchors: ["either", "against", "only", "leave", "not"],
    re: ci(String.raw`\beither\s+[^.!?\n]{1,80}?\s+or\s+[^.!?\n]{1,80}|\byou(?:['’]re|\s+are)\s+(?:either\s+)?with\s+us\s+or\s+against\s+us|\bthere\s+are\s+only\s+two\s+(?:options|choices|ways|sides)|\bthe\s+only\s+(?:option|choice|alternative|solution)\s+is|\blove\s+it\s+or\s+leave\s+it|\bif\s+you['’]?re\s+not\s+[^.!?\n,]{1,40},\s*(?:then\s+)?you['’]?re`),
    explanation: "This presents two options as the only ones when others may exist. Consider whether a middle ground or a third option is possible, and say why the alternatives are ruled out."
  },
  {
    name: "Appeal to authority",
    anchors: ["expert", "scientist", "doctor", "said", "says", "told", "trust"],
    re: ci(String.raw`\b(?:(?:the\s+)?experts\s+(?:say|agree|claim|know|have\s+said)|scientists\s+(?:say|agree|claim)|doctors\s+(?:say|agree|claim)|(?:my|a)\s+(?:professor|doctor|teacher|pastor|friend\s+who\s+is\s+a\s+\w+)\s+(?:said|says|told\s+me)|because\s+(?:i|the\s+(?:experts?|government|church|president))\s+said\s+so|trust\s+me,?\s+i['’]?m\s+an?\s+\w+)`),
    explanation: "Citing an authority is not itself a reason: name the evidence or argument the authority relies on, and check that they are an authority on this particular question."
  },
  {
    name: "Appeal to tradition",
    anchors: ["always", "broke", "years"],
    re: ci(String.raw`\b(?:(?:it['’]s|it\s+has|that['’]s\s+how\s+it['’]s|this\s+is\s+how\s+it['’]s|we['’]ve|we\s+have|it['’]s\s+always)\s+always\s+been\s+(?:done|this\s+way|like\s+(?:this|that)|that\s+way)|(?:that['’]s|this\s+is)\s+(?:just\s+)?the\s+way\s+(?:it['’]s|it\s+has|things\s+have)\s+always\s+been|we['’]ve\s+always\s+done\s+it|(?:it|this)\s+has\s+always\s+been\s+done|if\s+it\s+ain['’]?t\s+broke|for\s+(?:hundreds|thousands)\s+of\s+years)`),
    explanation: "That something has long been done a certain way does not show it is the best way. Give the reasons the practice still works today."
  },
  {
    name: "Straw man",
    anchors: ["saying", "telling", "think", "believe", "want"],
    re: ci(String.raw`\bso\s+(?:what\s+)?you['’]?re\s+(?:saying|telling\s+(?:me|us))\b|\bso\s+you\s+(?:think|believe|want)\s+(?:that\s+)?(?:we|all|every|everyone|nobody|no\s+one)\b`),
    explanation: "This restates the other person's view in a more extreme form than they gave. Quote what they actually said, or ask whether your reading is what they meant."
  },
  {
    name: "Appeal to emotion",
    anchors: ["children", "think"],
    re: ci(String.raw`\bthink\s+(?:of|about)\s+the\s+children\b|\bwon['’]t\s+(?:somebody|someone|anyone)\s+(?:please\s+)?think\b`),
    explanation: "This leans on feelings in place of reasons. Say concretely who would be affected and how, with evidence."
  }
]

const HASTY = {
  name: "Hasty generalization",
  explanation: "This judges a whole group by some of its members. Speak about the people or cases you actually mean, or show evidence that the pattern holds broadly."
} as const

/** Words that mark a sentence as being about an argument (for ad hominem by insult). */
const ARGUMENT_WORDS: ReadonlySet<string> = new Set([
  "argument", "arguments", "point", "points", "opinion", "opinions", "claim", "claims", "comment", "logic", "view", "views",
  "take", "idea", "ideas", "position", "wrong", "right", "says", "said", "think", "believe"
])

const MAX_SENTENCE_QUOTE = 240

/** The quote of a hit: its sentence when short enough, otherwise the matched words. */
const quoteRange = (text: string, sentences: ReadonlyArray<Range>, begin: number, end: number): Range => {
  const s = sentenceAt(sentences, begin, text)
  if (s.end - s.begin <= MAX_SENTENCE_QUOTE && end <= s.end) return trimRange(text, s.begin, s.end)
  return trimRange(text, begin, end)
}

/** The index of the first token that begins at or after `at` (tokens are in text order). */
const firstAtOrAfter = (tokens: ReadonlyArray<Token>, at: number): number => {
  let lo = 0
  let hi = tokens.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (tokens[mid]!.begin < at) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Every pattern's anchor words, each once. No anchor is a prefix of another ("expert" stands for
 * "experts" too), so at most one matches at any position, and `patternsIn` finds them all.
 */
const ANCHOR_WORDS: ReadonlyArray<string> = [...new Set(PATTERNS.flatMap((p) => p.anchors))]
const ANCHORS = new RegExp(ANCHOR_WORDS.map((w) => `(${w})`).join("|"), "giu")
const ANCHORED_PATTERNS: ReadonlyArray<ReadonlyArray<number>> = ANCHOR_WORDS.map((w) =>
  PATTERNS.flatMap((p, k) => (p.anchors.includes(w) ? [k] : []))
)

/**
 * Which patterns a text may match: those whose anchors it holds, found in one scan (a capture
 * group per anchor; each match is retried one position on, so overlapping anchors are all seen).
 * Most comments hold the anchors of a few patterns only, and the scan costs less than the
 * patterns it spares.
 */
const patternsIn = (text: string): Array<boolean> => {
  const found = PATTERNS.map(() => false)
  ANCHORS.lastIndex = 0
  for (let m = ANCHORS.exec(text); m !== null; m = ANCHORS.exec(text)) {
    for (let a = 0; a < ANCHOR_WORDS.length; a++) {
      if (m[a + 1] !== undefined) {
        for (const k of ANCHORED_PATTERNS[a]!) found[k] = true
        break
      }
    }
    ANCHORS.lastIndex = m.index + 1
  }
  return found
}

/** Fallacies found in `text`, at most one per fallacy name and sentence. */
export const findFallacies = (text: string, tokens: ReadonlyArray<Token>, sentences: ReadonlyArray<Range>): Array<FallacyHit> => {
  const hits: Array<FallacyHit> = []
  const seen = new Set<string>()
  const add = (name: string, explanation: string, begin: number, end: number) => {
    const r = quoteRange(text, sentences, begin, end)
    const key = `${name}:${r.begin}`
    if (r.end <= r.begin || seen.has(key)) return
    seen.add(key)
    hits.push({ name, begin: r.begin, end: r.end, explanation })
  }
  const present = patternsIn(text)
  for (const [k, p] of PATTERNS.entries()) {
    if (!present[k]) continue
    p.re.lastIndex = 0
    for (let m = p.re.exec(text); m !== null; m = p.re.exec(text)) {
      if (m[0].length === 0) {
        p.re.lastIndex++
        continue
      }
      add(p.name, p.explanation, m.index, m.index + m[0].length)
    }
  }
  for (const g of findGeneralisations(tokens)) add(HASTY.name, HASTY.explanation, g.begin, g.end)
  // Ad hominem by insult: a sentence that insults "you" while talking about an argument.
  const adHominem = PATTERNS[0]!
  for (const s of sentences) {
    let insult = false
    let you = false
    let argument = false
    // the sentence's words: from the first that starts in it (tokens are in text order) to the
    // first that ends after it
    for (let k = firstAtOrAfter(tokens, s.begin); k < tokens.length; k++) {
      const t = tokens[k]!
      if (t.end > s.end) break
      // each word list is read until it is found in the sentence
      if (!insult) {
        const term = INSULTS.get(t.key)
        if (term !== undefined && !term.contextual) insult = true
      }
      if (!you && SECOND_PERSON.has(t.lower)) you = true
      if (!argument && ARGUMENT_WORDS.has(t.lower)) argument = true
    }
    if (insult && you && argument) add(adHominem.name, adHominem.explanation, s.begin, s.end)
  }
  return hits.sort((a, b) => a.begin - b.begin)
}
