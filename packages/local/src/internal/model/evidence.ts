/**
 * High-precision pattern evidence for the two thinnest heads, THREAT and IDENTITY_ATTACK.
 *
 * A bag-of-n-grams head trained on a few hundred positives ranks "I am going to kill you" or
 * "Jews are greedy rats." above harmless text, but not by enough to reach Perspective-like scores
 * once calibrated. These detectors add one number per comment (the strength, 0..1, of the
 * strongest match) that the calibration combines with the head's log-odds:
 * `p = sigmoid(a * (raw + weight * strength) + b)`, with `a`, `b` and `weight` fitted together on
 * held-out labelled rows (see `fitPlatt2` and training/train.ts). The weight is learnt, not set.
 *
 * - threat: the cue model's threat patterns (`internal/cues/patterns.ts`: "I will kill you",
 *   "you're going to regret this", "kill yourself", "should all be shot", ...), which already
 *   drop negated matches ("I would never hurt you").
 * - identity: a group term ("muslims", "gay people", "black people") followed within five tokens
 *   of the same clause by a dehumanising or attacking word ("vermin", "rats", "filthy",
 *   "perverts", "freaks"), or "hate (all|the|those|these) GROUP", or "deport / exterminate ...
 *   GROUP"; no match when a negator comes earlier in the clause ("I don't think Muslims are
 *   terrorists", "Women are not inferior"). Political labels (liberals, conservatives) are not
 *   protected groups and do not count. Runs on the normaliser's tokens, so obfuscated spellings
 *   count too.
 */
import { COLOUR_TERMS, GROUP_ATTACK_WORDS, IDENTITY_TERMS, PEOPLE_NOUNS, POLITICAL_GROUPS } from "../cues/wordLists.js"
import { findThreats } from "../cues/patterns.js"
import { FLAG_BREAK, type NormalizedTokens } from "./normalize.js"

export type EvidenceKind = "threat" | "identity"

/** A match: its strength (0..1) and its UTF-16 range in the original text. */
export interface Evidence {
  readonly strength: number
  readonly begin: number
  readonly end: number
}

const NONE: Evidence = { strength: 0, begin: 0, end: 0 }

/**
 * Words that deny a claim earlier in its clause ("I don't think...", "it is a myth that..."):
 * negators plus denials, normalised (the normaliser drops apostrophes: "don't" is "dont").
 */
const DENIALS: ReadonlySet<string> = new Set([
  "not", "no", "never", "nobody", "none", "nor", "neither", "hardly", "without", "dont", "doesnt", "didnt", "isnt", "arent",
  "wasnt", "werent", "wont", "wouldnt", "cant", "cannot", "shouldnt", "stop", "myth", "false", "untrue"
])
/** Attack words that come before the group ("deport all muslims", "exterminate the jews"). */
const LEADING_ATTACKS: ReadonlySet<string> = new Set(["deport", "exterminate", "eradicate", "gas", "kill", "hang", "lynch", "ban"])
const DETERMINERS: ReadonlySet<string> = new Set(["all", "the", "those", "these", "every", "them"])

/** The strongest threat pattern in the original text. */
export const threatEvidence = (text: string): Evidence => {
  let best = NONE
  for (const t of findThreats(text)) if (t.strength > best.strength) best = t
  return best
}

const groupAt = (norm: NormalizedTokens, i: number): number => {
  const t = norm.tokens[i]!
  if (IDENTITY_TERMS.has(t) && !POLITICAL_GROUPS.has(t)) return i
  if (COLOUR_TERMS.has(t) && i + 1 < norm.count && PEOPLE_NOUNS.has(norm.tokens[i + 1]!)) return i + 1
  return -1
}

/** Whether a negator occurs in the clause of token `i` up to token `i` itself. */
const negatedUpTo = (norm: NormalizedTokens, i: number): boolean => {
  for (let k = i; k >= 0; k--) {
    if (DENIALS.has(norm.tokens[k]!)) return true
    if ((norm.flags[k]! & FLAG_BREAK) !== 0) return false
  }
  return false
}

/** Whether tokens `from..to` lie in one clause (no boundary before any token after `from`). */
const oneClause = (norm: NormalizedTokens, from: number, to: number): boolean => {
  for (let k = from + 1; k <= to; k++) if ((norm.flags[k]! & FLAG_BREAK) !== 0) return false
  return true
}

/** The strongest identity-attack pattern over a text's normalised tokens. */
export const identityEvidence = (norm: NormalizedTokens): Evidence => {
  const n = norm.count
  const tokens = norm.tokens
  for (let i = 0; i < n; i++) {
    const g = groupAt(norm, i)
    if (g < 0) continue
    // GROUP ... ATTACK within five tokens
    for (let a = g + 1; a < n && a <= g + 5; a++) {
      if ((norm.flags[a]! & FLAG_BREAK) !== 0) break
      if (GROUP_ATTACK_WORDS.has(tokens[a]!) && !negatedUpTo(norm, a)) return { strength: 1, begin: norm.begins[i]!, end: norm.ends[a]! }
    }
    // hate / deport / exterminate (all|the|those|these) GROUP
    for (let a = i - 1; a >= 0 && a >= i - 3; a--) {
      const w = tokens[a]!
      if (w === "hate" || LEADING_ATTACKS.has(w)) {
        let ok = oneClause(norm, a, i)
        for (let k = a + 1; k < i && ok; k++) if (!DETERMINERS.has(tokens[k]!)) ok = false
        if (ok && !negatedUpTo(norm, a)) return { strength: 1, begin: norm.begins[a]!, end: norm.ends[g]! }
      }
    }
  }
  return NONE
}
