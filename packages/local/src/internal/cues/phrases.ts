/**
 * Token-sequence phrase matching: a phrase list is compiled once into a map from first word to
 * candidate phrases; matching walks the tokens once. Case and punctuation between words are
 * ignored; spans run from the first word's start to the last word's end, so they are verbatim.
 */
import { tokenize, type Token } from "../text/words.js"

export interface PhraseMatch {
  readonly begin: number
  readonly end: number
  /** Index of the phrase in the list given to the matcher. */
  readonly phrase: number
  readonly firstToken: number
  readonly lastToken: number
}

interface Candidate {
  readonly words: ReadonlyArray<string>
  readonly id: number
}

export class PhraseMatcher {
  private readonly byFirst = new Map<string, Array<Candidate>>()

  constructor(readonly phrases: ReadonlyArray<string>) {
    phrases.forEach((phrase, id) => {
      const words = tokenize(phrase).map((t) => t.lower)
      const first = words[0]
      if (first === undefined) return
      const list = this.byFirst.get(first) ?? []
      list.push({ words, id })
      // Longest first, so the most specific phrase wins at a position.
      list.sort((a, b) => b.words.length - a.words.length)
      this.byFirst.set(first, list)
    })
  }

  /** Non-overlapping matches, left to right, longest phrase first at each position. */
  match(tokens: ReadonlyArray<Token>): Array<PhraseMatch> {
    const out: Array<PhraseMatch> = []
    for (let i = 0; i < tokens.length; i++) {
      const candidates = this.byFirst.get(tokens[i]!.lower)
      if (candidates === undefined) continue
      for (const c of candidates) {
        const last = i + c.words.length - 1
        if (last >= tokens.length) continue
        let ok = true
        for (let k = 1; k < c.words.length; k++) {
          if (tokens[i + k]!.lower !== c.words[k]) {
            ok = false
            break
          }
        }
        if (!ok) continue
        out.push({ begin: tokens[i]!.begin, end: tokens[last]!.end, phrase: c.id, firstToken: i, lastToken: last })
        i = last
        break
      }
    }
    return out
  }
}
