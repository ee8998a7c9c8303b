/**
 * Structural patterns that need more than a word list: threats, sweeping generalisations,
 * low-effort forms. Compiled once at module load.
 */
import { IDENTITY_TERMS, LOW_EFFORT_COMMENTS } from "./wordLists.js"
import type { Range, Token } from "../text/words.js"

const ci = (source: string) => new RegExp(source, "giu")

// ---------------------------------------------------------------- threats

const OBJECT = String.raw`(?:you|u|ya|y'all|him|her|them|your\s+(?:family|kids|children|wife|husband|mother|mom|mum|dad|house|face|head|ass|dog|life)|every\s*one\s+of\s+(?:you|them)|all\s+of\s+(?:you|them))`
const WILL = String.raw`(?:'ll|’ll|\s+will|\s+shall|\s+would|\s+could|\s+am\s+going\s+to|\s*['’]m\s+going\s+to|\s*['’]m\s+gonna|\s+am\s+gonna|\s+gonna|\s+are\s+going\s+to|\s*['’]re\s+going\s+to|\s+are\s+gonna|\s+want\s+to|\s+wanna|\s+swear\s+i['’]?ll)`
const VERB = String.raw`(kill|murder|hurt|beat|shoot|stab|strangle|choke|punch|slap|smash|torture|rape|burn|bury|gut|skin|hang|lynch|kick|cut|end|find|hunt|come\s+for|come\s+after|track|get|break)`

export interface ThreatPattern {
  readonly re: RegExp
  /** Strength of the pattern, 0..1. */
  readonly strength: (match: RegExpExecArray) => number
}

const VERB_STRENGTH: Readonly<Record<string, number>> = {
  kill: 1, murder: 1, shoot: 1, stab: 1, strangle: 1, rape: 1, lynch: 1, hang: 0.9, torture: 1, bury: 0.9, gut: 0.9,
  skin: 0.8, burn: 0.8, beat: 0.85, hurt: 0.85, choke: 0.85, punch: 0.8, slap: 0.7, smash: 0.7, kick: 0.7, cut: 0.7,
  end: 0.65, find: 0.7, hunt: 0.85, track: 0.7, get: 0.45, break: 0.6
}

export const THREAT_PATTERNS: ReadonlyArray<ThreatPattern> = [
  {
    re: ci(String.raw`\b(?:i|we)${WILL}\s+(?:[a-z]+\s+){0,2}?${VERB}(?:\s+(?:up|down|out))?\s+${OBJECT}(?![a-z])`),
    strength: (m) => {
      const verb = (m[1] ?? "").toLowerCase().replace(/\s+.*/u, "")
      const base = VERB_STRENGTH[verb] ?? 0.8
      return /\bcould\b/iu.test(m[0]) ? base * 0.7 : base
    }
  },
  {
    re: ci(String.raw`\byou(?:['’]re|\s+are|r)?\s+(?:going\s+to|gonna|will|['’]ll)\s+(?:[a-z]+\s+)?(?:die|pay|regret\s+(?:this|it)|bleed|suffer|be\s+sorry|get\s+what['’]?s?\s+coming|get\s+hurt|be\s+dead|disappear)\b`),
    strength: () => 0.85
  },
  {
    re: ci(String.raw`\b(?:watch\s+your\s+back|(?:i|we)\s+know\s+where\s+you\s+live|sleep\s+with\s+one\s+eye\s+open|you(?:['’]ll|\s+will)\s+never\s+see\s+it\s+coming|you['’]?re\s+(?:a\s+)?dead\s+(?:man|woman|meat)|your\s+days\s+are\s+numbered)\b`),
    strength: () => 0.95
  },
  {
    re: ci(String.raw`\b(?:should|deserves?\s+to|ought\s+to|needs?\s+to|must)\s+(?:all\s+)?(?:be\s+)?(?:die|shot|hanged|hung|killed|executed|lynched|beaten|raped|burned|gassed|put\s+down|strung\s+up|exterminated|wiped\s+out)\b`),
    strength: () => 0.8
  },
  { re: ci(String.raw`\b(?:kill|hang|shoot)\s+(?:yourself|urself|your\s+self)\b|\bkys\b`), strength: () => 1 },
  {
    re: ci(String.raw`\b(?:i|we)\s+hope\s+(?:you|he|she|they)\s+(?:die|dies|get\s+(?:shot|killed|hit|cancer|raped)|gets\s+(?:shot|killed|hit|cancer|raped)|burn|burns|rot|rots|suffer|suffers)\b`),
    strength: () => 0.85
  }
]

/** Threat spans with their strength; negated ones ("I would never hurt you") are dropped. */
export const findThreats = (text: string): Array<{ begin: number; end: number; strength: number }> => {
  const out: Array<{ begin: number; end: number; strength: number }> = []
  for (const p of THREAT_PATTERNS) {
    p.re.lastIndex = 0
    for (let m = p.re.exec(text); m !== null; m = p.re.exec(text)) {
      if (/\b(?:not|never|n['’]t|wouldn['’]t|won['’]t)\b/iu.test(m[0])) continue
      out.push({ begin: m.index, end: m.index + m[0].length, strength: p.strength(m) })
    }
  }
  return out
}

// ---------------------------------------------------------------- generalisations

const GROUP_WORDS = [
  ...IDENTITY_TERMS,
  "people", "men", "politicians", "cops", "police", "teachers", "doctors", "scientists", "journalists", "reporters",
  "millennials", "boomers", "zoomers", "americans", "british", "brits", "europeans", "russians", "germans", "french",
  "teenagers", "students", "lawyers", "drivers", "cyclists", "voters", "landlords", "tenants", "billionaires", "vegans",
  "gamers", "liberals", "lefties", "leftists", "conservatives", "democrats", "republicans", "progressives", "socialists",
  "capitalists", "christians", "rich", "poor", "elites", "experts", "academics", "bankers", "celebrities", "activists",
  "protesters", "unions", "bureaucrats", "officials", "environmentalists", "feminists", "religious", "atheists",
  "foreigners", "tourists", "farmers", "men", "guys", "girls", "kids", "parents", "programmers", "economists"
].filter((w, i, all) => all.indexOf(w) === i && !w.includes(" "))

const GROUPS: ReadonlySet<string> = new Set(GROUP_WORDS)
const GENERAL_VERBS: ReadonlySet<string> = new Set(["are", "were", "is", "do", "have", "want", "think", "always", "never", "just", "should", "will"])
const DETERMINERS: ReadonlySet<string> = new Set(["these", "those", "the"])

/**
 * Sweeping generalisations, token by token: "all (of) (these|those|the) (adjective) GROUP are",
 * "GROUP are all / always / never", "these|those|you people", "they are all the same",
 * "every (single) GROUP is". Spans run over the matched words.
 */
export const findGeneralisations = (tokens: ReadonlyArray<Token>): Array<Range> => {
  const out: Array<Range> = []
  const at = (i: number) => tokens[i]?.lower ?? ""
  for (let i = 0; i < tokens.length; i++) {
    const w = at(i)
    let last = -1
    if (w === "all") {
      let j = i + 1
      if (at(j) === "of") j++
      if (DETERMINERS.has(at(j))) j++
      if (GROUPS.has(at(j)) && GENERAL_VERBS.has(at(j + 1))) last = j + 1
      else if (GROUPS.has(at(j + 1)) && GENERAL_VERBS.has(at(j + 2))) last = j + 2
    } else if (w === "every") {
      let j = i + 1
      if (at(j) === "single") j++
      if (at(j) === "one" && at(j + 1) === "of" && (at(j + 2) === "them" || DETERMINERS.has(at(j + 2)))) {
        const g = at(j + 2) === "them" ? j + 2 : j + 3
        if (at(g) === "them" || GROUPS.has(at(g))) last = GENERAL_VERBS.has(at(g + 1)) ? g + 1 : -1
      } else if (GROUPS.has(at(j)) && (at(j + 1) === "is" || at(j + 1) === "are")) last = j + 1
    } else if ((w === "these" || w === "those" || w === "you") && at(i + 1) === "people") {
      last = i + 1
    } else if (w === "they" || w === "they're") {
      const j = w === "they" ? (at(i + 1) === "are" ? i + 2 : -1) : i + 1
      if (j > 0 && at(j) === "all" && (at(j + 1) === "alike" || (at(j + 1) === "the" && at(j + 2) === "same") || (at(j + 1) === "like" && at(j + 2) === "that"))) {
        last = at(j + 1) === "alike" ? j + 1 : j + 2
      }
    } else if (GROUPS.has(w)) {
      if (at(i + 1) === "are" && at(i + 2) === "all") last = i + 2
      else if (at(i + 1) === "always" || at(i + 1) === "never") last = i + 1
    }
    if (last > i && last < tokens.length) {
      out.push({ begin: tokens[i]!.begin, end: tokens[last]!.end })
      i = last
    }
  }
  return out
}

// ---------------------------------------------------------------- low effort

const STRIP_EDGES = /^[\s\p{P}\p{S}\p{Extended_Pictographic}\ufe0f\u200d]+|[\s\p{P}\p{S}\p{Extended_Pictographic}\ufe0f\u200d]+$/gu

/**
 * Whether the whole comment is a low-effort form: a bare agreement or reaction from the list,
 * emoji or punctuation only. Returns the kind, or null.
 */
export const lowEffortForm = (text: string): "phrase" | "emoji" | null => {
  const trimmed = text.trim()
  if (trimmed.length === 0) return "emoji"
  if (!/[\p{L}\p{N}]/u.test(trimmed)) return "emoji"
  // Every listed form is short; longer text is never one of them.
  if (trimmed.length > 40) return null
  const lower = trimmed.toLowerCase().replace(/\u2019/gu, "'")
  if (LOW_EFFORT_COMMENTS.has(lower)) return "phrase"
  const core = lower.replace(STRIP_EDGES, "").replace(/\s+/gu, " ").replace(/[!.?]+$/u, "")
  if (LOW_EFFORT_COMMENTS.has(core)) return "phrase"
  // "+1", "+100", "100%" keep their symbols.
  if (/^\+\d+$|^\d+%$/u.test(lower)) return "phrase"
  // A repeated reaction: "lol lol", "haha haha", "this this".
  const words = core.split(" ")
  if (words.length > 1 && words.length <= 4 && words.every((w) => w === words[0]) && LOW_EFFORT_COMMENTS.has(words[0] ?? "")) return "phrase"
  if (/^(?:ha){2,}h?$|^(?:lo)+l$|^l+o+l+$|^a+h+a+h+a+$/u.test(core)) return "phrase"
  return null
}
