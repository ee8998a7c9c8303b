/**
 * What the fallacy detector reads: per sentence, hashed word 1-2-grams and (optionally)
 * character n-grams of its words (on the shared word tokenizer, `../text/words.ts`), plus one
 * feature per fallacy pattern that fires in the sentence (`../cues/fallacies.ts`: the patterns
 * are evidence the model weighs, not the decision).
 *
 * A text is featurised unit by unit (its sentences; a very long sentence cut into clauses), once.
 * The comment's vector is the union of its units' features; a unit's own vector is its features
 * alone. Both are binary with the word and character blocks each L2-normalised on their own and
 * the pattern block at 1, so a linear model scores the comment and each unit with the same
 * weights. A feature's contribution to the comment's score is shared evenly by the units that
 * hold it: that is how the unit that drives a decision is found.
 *
 * Training (`training/fallacy.ts`) uses the same code, so what the shipped weights were fitted on
 * is exactly what the runtime computes. Each distinct (block, slot) of a text gets a small id,
 * in order of first occurrence, from an open-addressing table sized to the text (it stays in
 * cache, where arrays indexed by slot, `2^bits` long per block, were read at random for every
 * feature); the scorer counts and dedupes by id. The featuriser reuses its buffers, so it is not
 * shared across threads.
 */
import { Hashing } from "@decorum/core"
import { findFallacies } from "../cues/fallacies.js"
import { type Range, type Token, tokenize } from "../text/words.js"

const WORD_SEED = 0x3c6ef372
const BIGRAM_SEED = 0xa54ff53a
const CHAR_SEED = 0x510e527f
const PATTERN_SEED = 0x9b05688c

export interface FeatureSpec {
  /** log2 of the hashed space. */
  readonly bits: number
  /** Character n-gram lengths of each word (padded with a space each side), or null for none. */
  readonly chars: readonly [number, number] | null
}

/** Block numbers. */
export const WORD = 0
export const CHAR = 1
export const PATTERN = 2

/** One unit's distinct features, as offsets into the featuriser's run buffers. */
export interface Unit {
  readonly range: Range
  /** `slots[start[b] .. end[b])` are block b's distinct slots in this unit. */
  readonly start: readonly [number, number, number]
  readonly end: readonly [number, number, number]
}

/** A featurised text: units, and the slots they hold (views of the featuriser's buffers until the next run). */
export interface Featurised {
  readonly units: ReadonlyArray<Unit>
  readonly slots: Int32Array
  /** Beside each of `slots`, the id of its (block, slot): ids are `0 .. distinct - 1`, in order of first occurrence. */
  readonly ids: Int32Array
  readonly distinct: number
  /** The slot of each id. */
  readonly slotOf: Int32Array
}

// The one hashing of every featuriser (`Hashing` of `@decorum/core`): FNV-1a, finalised with the
// first half of murmur3's finaliser (these features were trained with it).
const { fmixHalf: finish, fnvBasis: START, fnvStep: fnv, fnvString: hashString } = Hashing

/** Sentences longer than this are cut into clauses (at , ; : and dashes) to be quoted and scored. */
export const MAX_UNIT = 240

/**
 * The units a text is scored in: its sentences, a sentence longer than `MAX_UNIT` cut into
 * clauses at `,` `;` `:` and spaced dashes (each at least 40 characters; a short tail joins the
 * clause before it).
 */
export const units = (text: string, sentences: ReadonlyArray<Range>): Array<Range> => {
  const out: Array<Range> = []
  for (const s of sentences) {
    if (s.end - s.begin <= MAX_UNIT) {
      out.push(s)
      continue
    }
    const first = out.length
    let start = s.begin
    const cut = /[,;:]\s|\s[–—-]\s/gu
    cut.lastIndex = s.begin
    const body = text.slice(0, s.end)
    for (let m = cut.exec(body); m !== null; m = cut.exec(body)) {
      const at = m.index + 1
      if (at - start >= 40) {
        out.push(trim(text, start, at))
        start = at
      }
    }
    if (s.end - start < 40 && out.length > first) out[out.length - 1] = trim(text, out[out.length - 1]!.begin, s.end)
    else out.push(trim(text, start, s.end))
  }
  return out.filter((r) => r.end > r.begin)
}

const trim = (text: string, begin: number, end: number): Range => {
  let b = begin
  let e = end
  while (b < e && /[\s,;:–—-]/u.test(text[b]!)) b++
  while (e > b && /[\s,;:–—-]/u.test(text[e - 1]!)) e--
  return { begin: b, end: e }
}

export class FallacyFeaturizer {
  readonly mask: number
  private buffer = new Int32Array(4096)
  private idBuffer = new Int32Array(4096)
  /** The current text's (block, slot) -> id table: stamp (the run that wrote the entry), key, id. */
  private stamps = new Int32Array(1024)
  private keys = new Int32Array(1024)
  private idAt = new Int32Array(1024)
  private capacity = 1024
  private stamp = 0
  /** Per id: its slot, and the last unit (of the current text) that held it. */
  private slotOf = new Int32Array(1024)
  private lastUnit = new Int32Array(1024)
  private distinct = 0
  private unit = 0

  constructor(readonly spec: FeatureSpec) {
    this.mask = (1 << spec.bits) - 1
  }

  private n = 0
  private push(block: number, slot: number): void {
    const key = block * (this.mask + 1) + slot
    const cap = this.capacity - 1
    let h = (Math.imul(key, 0x9e3779b1) >>> 0) & cap
    let id = -1
    while (this.stamps[h] === this.stamp) {
      if (this.keys[h] === key) {
        id = this.idAt[h]!
        break
      }
      h = (h + 1) & cap
    }
    if (id < 0) {
      id = this.distinct++
      if (id === this.slotOf.length) {
        this.slotOf = grow(this.slotOf)
        this.lastUnit = grow(this.lastUnit)
      }
      this.stamps[h] = this.stamp
      this.keys[h] = key
      this.idAt[h] = id
      this.slotOf[id] = slot
      if (this.distinct * 2 > this.capacity) this.growTable()
    } else if (this.lastUnit[id] === this.unit) return
    this.lastUnit[id] = this.unit
    if (this.n === this.buffer.length) {
      this.buffer = grow(this.buffer)
      this.idBuffer = grow(this.idBuffer)
    }
    this.idBuffer[this.n] = id
    this.buffer[this.n++] = slot
  }

  /** Doubles the id table, re-inserting the current text's entries. */
  private growTable(): void {
    const capacity = this.capacity * 2
    const stamps = new Int32Array(capacity)
    const keys = new Int32Array(capacity)
    const idAt = new Int32Array(capacity)
    for (let h = 0; h < this.capacity; h++) {
      if (this.stamps[h] !== this.stamp) continue
      let k = (Math.imul(this.keys[h]!, 0x9e3779b1) >>> 0) & (capacity - 1)
      while (stamps[k] === this.stamp) k = (k + 1) & (capacity - 1)
      stamps[k] = this.stamp
      keys[k] = this.keys[h]!
      idAt[k] = this.idAt[h]!
    }
    this.stamps = stamps
    this.keys = keys
    this.idAt = idAt
    this.capacity = capacity
  }

  /** Featurise every unit of `text` (see `units`). The result's `slots` is valid until the next run. */
  run(text: string, sentences: ReadonlyArray<Range>, tokens: ReadonlyArray<Token> = tokenize(text)): Featurised {
    const mask = this.mask
    const chars = this.spec.chars
    const parts = units(text, sentences)
    const hits = findFallacies(text, tokens, sentences)
    const out: Array<Unit> = []
    this.n = 0
    this.distinct = 0
    this.stamp++
    if (this.stamp === 0x7fffffff) {
      this.stamps.fill(0)
      this.stamp = 1
    }
    this.unit = -1
    let t = 0
    for (const r of parts) {
      this.unit++
      while (t < tokens.length && tokens[t]!.begin < r.begin) t++
      const start: [number, number, number] = [this.n, 0, 0]
      const end: [number, number, number] = [0, 0, 0]
      let prev = 0
      for (let u = t; u < tokens.length && tokens[u]!.end <= r.end; u++) {
        const w = tokens[u]!.lower
        const h = hashString(START(WORD_SEED), w)
        this.push(WORD, finish(h) & mask)
        if (u > t) this.push(WORD, finish(hashString(fnv(fnv(START(BIGRAM_SEED), prev), 32), w)) & mask)
        prev = finish(h)
      }
      end[WORD] = this.n
      start[CHAR] = this.n
      if (chars !== null) {
        for (let u = t; u < tokens.length && tokens[u]!.end <= r.end; u++) {
          const w = tokens[u]!.lower
          const len = w.length + 2
          for (let n = chars[0]; n <= chars[1] && n <= len; n++) {
            for (let i = 0; i + n <= len; i++) {
              let h = START(CHAR_SEED + n)
              for (let k = i; k < i + n; k++) h = fnv(h, k === 0 || k === len - 1 ? 32 : w.charCodeAt(k - 1))
              this.push(CHAR, finish(h) & mask)
            }
          }
        }
      }
      end[CHAR] = this.n
      start[PATTERN] = this.n
      for (const h of hits) {
        if (h.begin < r.end && h.end > r.begin) this.push(PATTERN, finish(hashString(START(PATTERN_SEED), h.name)) & mask)
      }
      end[PATTERN] = this.n
      out.push({ range: r, start, end })
    }
    return { units: out, slots: this.buffer.subarray(0, this.n), ids: this.idBuffer.subarray(0, this.n), distinct: this.distinct, slotOf: this.slotOf }
  }
}

const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
  const b = new Int32Array(a.length * 2)
  b.set(a)
  return b
}

/** A sparse vector: distinct slots and their values. */
export interface SparseVector {
  readonly slots: Int32Array
  readonly values: Float32Array
}

/**
 * The comment's vector (all units), for training: each block's distinct slots over all units at
 * the block's value (1 / sqrt(distinct slots) for words and characters, 1 for patterns); a slot
 * in two blocks (a hash collision) carries both values.
 */
export const commentVector = (f: Featurised): SparseVector => {
  const acc = new Map<number, number>()
  for (let b = 0; b < 3; b++) {
    const distinct = new Set<number>()
    for (const u of f.units) for (let k = u.start[b]!; k < u.end[b]!; k++) distinct.add(f.slots[k]!)
    const v = b === PATTERN ? 1 : distinct.size > 0 ? 1 / Math.sqrt(distinct.size) : 0
    for (const s of distinct) acc.set(s, (acc.get(s) ?? 0) + v)
  }
  const sorted = [...acc].sort((a, b) => a[0] - b[0])
  return { slots: Int32Array.from(sorted, (e) => e[0]), values: Float32Array.from(sorted, (e) => e[1]) }
}
