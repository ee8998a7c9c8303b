/**
 * The SentencePiece (unigram) tokenizer of Universal Sentence Encoder Lite, in plain TypeScript:
 * the same pieces, ids and tie-breaking as the tokenizer of `@energetic-ai/embeddings` (and of
 * TF.js's universal-sentence-encoder), which produced the ids the encoder was trained and
 * converted with. `training/encoder` checks the two agree id for id on a thousand comments.
 *
 * The vocabulary is `[piece, score][]`; the first 6 entries are reserved (id 0 is the unknown
 * piece). The text is NFKC-normalised, prefixed with "▁" and every space becomes "▁"; the best
 * segmentation maximises the sum of piece scores (Viterbi; a later start wins a tie); a symbol no
 * piece starts with is the unknown id 0, and consecutive unknowns merge into one.
 */

const SEPARATOR = "\u2581"
const RESERVED = 6

interface TrieNode {
  readonly children: Map<string, TrieNode>
  /** The vocabulary id ending here, or -1. */
  id: number
  score: number
}

const newNode = (): TrieNode => ({ children: new Map(), id: -1, score: 0 })

export type Vocabulary = ReadonlyArray<readonly [string, number]>

export class SentencePiece {
  private readonly root = newNode()
  /** Each id's piece length in UTF-16 units (the reference tokenizer walks back by it). */
  private readonly lengths: Int32Array
  /** Whether every space is a boundary of the best segmentation (`encodeFirst`). */
  private readonly spaceSplits: boolean

  constructor(readonly vocabulary: Vocabulary) {
    this.lengths = Int32Array.from(vocabulary, ([piece]) => piece.length)
    this.spaceSplits = vocabulary.some(([piece], i) => i >= RESERVED && piece === SEPARATOR) &&
      vocabulary.every(([piece]) => piece.indexOf(SEPARATOR, 1) < 0)
    for (let i = RESERVED; i < vocabulary.length; i++) {
      const [piece, score] = vocabulary[i]!
      let node = this.root
      for (const symbol of piece) {
        let next = node.children.get(symbol)
        if (!next) {
          next = newNode()
          node.children.set(symbol, next)
        }
        node = next
      }
      node.id = i
      node.score = score
    }
  }

  /**
   * `encode(text).slice(0, count)`, without the work of encoding a long text whole (a 20,000-character
   * comment took 14 ms for the 128 tokens the encoder reads). When no piece holds the separator past
   * its first symbol and the separator is a piece of its own (true of the shipped vocabulary), every
   * space is a boundary of the best segmentation, and the Viterbi values before it do not depend on
   * what follows: the tokens of the text up to a space are the first tokens of the whole. So a
   * prefix that ends at a space and already gives `count` tokens gives the same first `count`.
   */
  encodeFirst(text: string, count: number): Array<number> {
    if (this.spaceSplits) {
      const normalized = text.normalize("NFKC")
      for (let at = count * 16; at < normalized.length; at *= 4) {
        const cut = normalized.indexOf(" ", at)
        if (cut < 0) break
        const tokens = this.encode(normalized.slice(0, cut))
        if (tokens.length >= count) return tokens.slice(0, count)
      }
    }
    return this.encode(text).slice(0, count)
  }

  encode(text: string): Array<number> {
    const normalized = text.normalize("NFKC")
    if (normalized.length === 0) return []
    const symbols = Array.from(SEPARATOR + normalized.replace(/ /g, SEPARATOR))
    const n = symbols.length
    // candidates ending at each position, in increasing start order (the reference's iteration order)
    const starts: Array<Array<number>> = Array.from({ length: n + 1 }, () => [])
    const ids: Array<Array<number>> = Array.from({ length: n + 1 }, () => [])
    const scores: Array<Array<number>> = Array.from({ length: n + 1 }, () => [])
    for (let i = 0; i < n; i++) {
      let node = this.root.children.get(symbols[i]!)
      let found = false
      for (let j = i; j < n && node; j++) {
        if (node.id >= 0) {
          starts[j + 1]!.push(i)
          ids[j + 1]!.push(node.id)
          scores[j + 1]!.push(node.score)
          found = true
        }
        node = node.children.get(symbols[j + 1]!)
      }
      if (!found) {
        starts[i + 1]!.push(i)
        ids[i + 1]!.push(0)
        scores[i + 1]!.push(0)
      }
    }
    const best = new Float64Array(n + 1)
    const word = new Int32Array(n + 1)
    for (let end = 1; end <= n; end++) {
      const s = starts[end]!
      for (let k = 0; k < s.length; k++) {
        const score = scores[end]![k]! + best[s[k]!]!
        if (best[end] === 0 || score >= best[end]!) {
          best[end] = score
          word[end] = ids[end]![k]!
        }
      }
    }
    const reversed: Array<number> = []
    for (let at = n; at > 0; at -= this.lengths[word[at]!]!) reversed.push(word[at]!)
    const out: Array<number> = []
    let previousUnknown = false
    for (const id of reversed) {
      if (!(previousUnknown && id === 0)) out.push(id)
      previousUnknown = id === 0
    }
    return out.reverse()
  }
}
