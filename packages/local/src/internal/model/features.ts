/**
 * Hashed word and character n-gram features over normalised tokens.
 *
 * Blocks (each L2-normalised on its own, with sublinear term frequency `1 + ln tf`):
 * - words: unigrams and bigrams (bigrams do not cross clause breaks);
 * - characters: 3- to 5-grams of each token wrapped in boundary marks (`<idiot>`), which carry
 *   misspellings, inflections and obfuscations the normaliser did not undo;
 * - globals (value 1 each): length bucket, shouting, exclamation marks, links.
 *
 * Tokens inside a negation scope (up to three tokens after `not`, `don't`, `never`, ... and before
 * a clause break or `but`) are hashed into a separate namespace, so "not an idiot" does not share
 * features with "an idiot"; the model learns what a negated word means from the data.
 *
 * A language model set (`script`, issue 28) with `ideographs` (zh, ja) has one token per Han or
 * kana character: its word unigrams and bigrams are character unigrams and bigrams, and in place
 * of the `<token>` n-grams each such character carries the character 3- to `charMax`-grams that
 * end on it, over the run of ideograph tokens directly before it (no space or break between), so
 * an explanation still gives every feature to a token and quotes characters.
 *
 * A language set with `plain` (issue 28, round 3) also emits the plain baseline's own tokens
 * (`baseline.ts` in training): scikit-learn's lower-cased `\w\w+` words as word 1-2-grams, and the
 * `char_wb` n-grams (`plain.charMin`..`plain.charMax`) of the lower-cased whitespace-separated
 * chunks of the raw text, in two blocks of their own. They go to the odd slots and the
 * normaliser's features to the even ones, so a weight column can hold a model of either set or of
 * both, and folding the slots to fewer bits keeps the two apart. Each plain unit is emitted after
 * the normaliser token it starts in (the last token beginning at or before its first character;
 * a bigram, its second word), so that an explanation gives its weight to that token.
 *
 * All features are hashed into `2^bits` slots with FNV-1a and a murmur finaliser. The featuriser
 * reuses its buffers: read `idx`/`val` (`nnz` entries) before the next call.
 */
import { Hashing } from "@decorum/core"
import { IDF_SCALE } from "./format.js"
import { FLAG_BREAK, FLAG_CAPS, FLAG_IDEOGRAPH, Normalizer, type ScriptOptions } from "./normalize.js"

export interface FeatureConfig {
  /** log2 of the hashed feature space. */
  readonly bits: number
  readonly charMin: number
  readonly charMax: number
  /** Tokens after a negator that are marked negated. */
  readonly negationScope: number
  /** A language model set's script handling (the normaliser's `script`); absent for English. */
  readonly script?: ScriptOptions
  /**
   * `false`: no global features (length, shouting, exclamation marks, links). The per-language sets
   * leave them out: with the baseline's solver they cost 0.01 of Spanish dev AUC. Absent: English's.
   */
  readonly globals?: boolean
  /**
   * Also the plain baseline's tokens (see the module comment), on the odd slots: `\w\w+` word
   * 1-2-grams and `char_wb` `charMin`..`charMax`-grams. Absent: none (English, round-2 sets).
   */
  readonly plain?: { readonly charMin: number; readonly charMax: number }
}

export const DEFAULT_FEATURES: FeatureConfig = { bits: 20, charMin: 3, charMax: 5, negationScope: 3 }

const SEED_WORD = 0x1234567
const SEED_NEG_WORD = 0x2badbee
const SEED_BIGRAM = 0x3c0ffee
const SEED_CHAR = 0x4f00d42
const SEED_NEG_CHAR = 0x5eed5ed
const SEED_GLOBAL = 0x6a11a11
const SEED_PLAIN_WORD = 0x7b1a1e5
const SEED_PLAIN_CHAR = 0x8c4a25

// The one hashing of every featuriser (`Hashing` of `@decorum/core`); re-exported for this module's importers.
const { fmix, fnvBasis, fnvStep, fnvString, hashString } = Hashing
export { fmix, hashString }

/**
 * Words that open a negation scope for the next few tokens (normalised: apostrophes removed).
 * Part of the feature definition: the shipped weights were trained with this exact list.
 */
const NEGATION_OPENERS: ReadonlyArray<string> = [
  "not", "never", "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "cant", "cannot",
  "wont", "wouldnt", "shouldnt", "couldnt", "aint", "hasnt", "havent", "hadnt", "nobody", "nothing",
  "neither", "nor", "without", "no"
]

/** Words that end a negation scope early. */
const NEGATION_CLOSERS: ReadonlyArray<string> = ["but", "however", "although", "though", "because", "yet", "except"]

const negators = new Set(NEGATION_OPENERS)
const scopeEnders = new Set(NEGATION_CLOSERS)

const lengthBucket = (n: number): number =>
  n <= 3 ? n : n <= 5 ? 4 : n <= 8 ? 5 : n <= 12 ? 6 : n <= 20 ? 7 : n <= 35 ? 8 : n <= 60 ? 9 : n <= 100 ? 10 : n <= 200 ? 11 : 12

/** Whether token `i` forms a bigram with token `i - 1`: bigrams do not cross clause breaks. */
export const hasBigram = (flags: ArrayLike<number>, i: number): boolean => i > 0 && (flags[i]! & FLAG_BREAK) === 0

/** Block ids, for explanation and tests. */
export const BLOCK_WORD = 0
export const BLOCK_CHAR = 1
export const BLOCK_GLOBAL = 2
export const BLOCK_PLAIN_WORD = 3
export const BLOCK_PLAIN_CHAR = 4

/** `a` twice as long, its contents kept. */
const grown = (a: Int32Array): Int32Array => {
  const b = new Int32Array(a.length * 2)
  b.set(a)
  return b
}

/** Python's `\w` (scikit-learn's token pattern): letters, marks, digits, underscore. */
const PLAIN_WORD = /[\p{L}\p{M}\p{N}_]+/gu
const PLAIN_CHUNK = /\S+/gu

export class Featurizer {
  readonly config: FeatureConfig
  readonly normalizer: Normalizer
  /** Feature slots and values of the last text, `nnz` of them. */
  idx: Int32Array = new Int32Array(1024)
  val: Float32Array = new Float32Array(1024)
  nnz = 0
  /**
   * With `track`, the position in `idx` of every feature occurrence, in emission order, and where
   * each token's occurrences start (`tokenStart[i]`, `tokenStart[count]` = the first global). A
   * token's occurrences are its word, then its bigram with the previous token when there is one
   * (`hasBigram`), then its character n-grams: the token range of an occurrence follows from its
   * place, so one number per occurrence is recorded.
   */
  occSlot: Int32Array = new Int32Array(1024)
  tokenStart: Int32Array = new Int32Array(257)
  occ = 0

  private readonly mask: number
  // small open-addressing table (slot -> position), cleared by generation stamps; sized to the
  // text so that it stays in cache. Entry h is `table[3h]` (stamp), `table[3h + 1]` (slot),
  // `table[3h + 2]` (position): one probe reads one cache line.
  private table: Int32Array = new Int32Array(3 * 1024)
  private tableSize = 1024
  /** Tables by size (a short text gets a small one, which stays in the L1 cache). */
  private tables = new Map<number, Int32Array>([[1024, this.table]])
  /** The largest table size so far (at least 4,096), for long texts. */
  private largest = 4096
  private generation = 0
  private blockOf: Uint8Array = new Uint8Array(1024)
  private count: Float32Array = new Float32Array(1024)
  private negated: Uint8Array = new Uint8Array(256)
  private wordHash: Uint32Array = new Uint32Array(256)
  private codes: Int32Array = new Int32Array(256)
  private tracking = false
  /** A language model set's per-slot idf (`useIdf`), or none (English); each value times `idfScale`. */
  private idf: Float32Array | Uint16Array | undefined = undefined
  private idfScale = 1
  private idfMask = 0
  /** `plain`'s units of the last text (`plainCount`), in emission order: hash, block and the normaliser token they belong to. */
  private plainHash: Int32Array = new Int32Array(256)
  private plainBlock: Uint8Array = new Uint8Array(256)
  private plainOwner: Int32Array = new Int32Array(256)
  private plainCount = 0
  /** `plainUnits`' scratch: [hash, owner] pairs of the words and of the chunks' n-grams. */
  private plainWords: Int32Array = new Int32Array(256)
  private plainChunks: Int32Array = new Int32Array(1024)

  constructor(config: FeatureConfig = DEFAULT_FEATURES, normalizer: Normalizer = new Normalizer({ script: config.script })) {
    this.config = config
    this.normalizer = normalizer
    // with plain tokens the normaliser's features take the even slots
    this.mask = ((1 << config.bits) - 1) & (config.plain === undefined ? -1 : -2)
  }

  /** Adds a feature; `odd` 1 puts it on an odd slot (a plain unit). */
  private add(hash: number, block: number, odd = 0) {
    const slot = (hash & this.mask) | odd
    const tmask = this.tableSize - 1
    const table = this.table
    const generation = this.generation
    let h = Math.imul(slot, 0x9e3779b1) >>> 0
    let p = -1
    for (;;) {
      h &= tmask
      const e = 3 * h
      if (table[e] !== generation) break
      if (table[e + 1] === slot) {
        p = table[e + 2]!
        break
      }
      h++
    }
    if (p >= 0) {
      this.count[p]! += 1
    } else {
      p = this.nnz++
      if (p >= this.idx.length) this.growSlots()
      const e = 3 * h
      table[e] = generation
      table[e + 1] = slot
      table[e + 2] = p
      this.idx[p] = slot
      this.count[p] = 1
      this.blockOf[p] = block
      if (this.nnz * 2 > this.tableSize) this.growTable()
    }
    if (this.tracking) {
      const o = this.occ++
      if (o >= this.occSlot.length) this.growOcc()
      this.occSlot[o] = p
    }
  }

  private growSlots() {
    const size = this.idx.length * 2
    const grow = <T extends Int32Array | Float32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size)
      b.set(a)
      return b
    }
    this.idx = grow(this.idx, (n) => new Int32Array(n))
    this.val = grow(this.val, (n) => new Float32Array(n))
    this.count = grow(this.count, (n) => new Float32Array(n))
    this.blockOf = grow(this.blockOf, (n) => new Uint8Array(n))
  }

  private growTable() {
    const size = this.tableSize * 2
    const table = new Int32Array(3 * size)
    const mask = size - 1
    for (let p = 0; p < this.nnz; p++) {
      let h = Math.imul(this.idx[p]!, 0x9e3779b1) >>> 0
      for (;;) {
        h &= mask
        if (table[3 * h] !== this.generation) break
        h++
      }
      table[3 * h] = this.generation
      table[3 * h + 1] = this.idx[p]!
      table[3 * h + 2] = p
    }
    this.table = table
    this.tableSize = size
    this.tables.set(size, table)
    this.largest = Math.max(this.largest, size)
  }

  /**
   * Picks the table for a text of `length` UTF-16 units: five slots per character (English text
   * has about two distinct features per character, and the table grows when half full) for a
   * short text; for a long one (over 800 characters), the largest table so far, as a text's
   * distinct features grow more slowly than its length. Which table is used changes nothing but
   * speed: positions are given in order of first occurrence.
   */
  private pickTable(length: number) {
    let size = 1024
    while (size < 5 * length && size < 4096) size *= 2
    if (size === 4096) size = this.largest
    if (size === this.tableSize) return
    let table = this.tables.get(size)
    if (table === undefined) {
      table = new Int32Array(3 * size)
      this.tables.set(size, table)
    }
    this.table = table
    this.tableSize = size
  }

  private growOcc() {
    const b = new Int32Array(this.occSlot.length * 2)
    b.set(this.occSlot)
    this.occSlot = b
  }

  /**
   * Weight each slot's sublinear tf by `idf[slot & (idf.length - 1)]` before the block norms (the
   * plain baseline's TF-IDF; a per-language set ships the table, `Manifest.idf`). `idf.length` is
   * a power of two; an idf of 0 drops a slot never seen in training from the norm.
   */
  useIdf(idf: Float32Array | Uint16Array | undefined) {
    if (idf !== undefined && (idf.length & (idf.length - 1)) !== 0) throw new Error("idf table size is not a power of two")
    this.idf = idf
    // a Uint16Array is the idf file's units (`decodeIdfUnits`): the same values, exactly, as the
    // file's floats (`decodeIdf`), for half the memory
    this.idfScale = idf instanceof Uint16Array ? 1 / IDF_SCALE : 1
    this.idfMask = idf === undefined ? 0 : idf.length - 1
  }

  /** Featurise `text`; returns `nnz`. With `track`, also records occurrences for explanations. */
  run(text: string, track = false): number {
    this.tracking = track
    this.occ = 0
    this.nnz = 0
    this.generation = (this.generation + 1) | 0
    if (this.generation === 0) {
      // stamps start over: no table may hold a stamp of the generations to come
      for (const table of this.tables.values()) table.fill(0)
      this.generation = 1
    }
    this.pickTable(text.length)
    const norm = this.normalizer
    const n = norm.run(text)
    const tokens = norm.tokens
    const flags = norm.flags
    if (this.negated.length < n) {
      this.negated = new Uint8Array(n * 2)
      this.wordHash = new Uint32Array(n * 2)
    }
    if (track && this.tokenStart.length < n + 1) this.tokenStart = new Int32Array(n * 2 + 1)
    // negation scopes
    let scope = 0
    for (let i = 0; i < n; i++) {
      const t = tokens[i]!
      if ((flags[i]! & FLAG_BREAK) !== 0 || scopeEnders.has(t)) scope = 0
      this.negated[i] = scope > 0 ? 1 : 0
      if (scope > 0) scope--
      if (negators.has(t)) scope = this.config.negationScope
    }
    // words and characters
    const { charMin, charMax } = this.config
    const plain = this.config.plain !== undefined
    let pu = 0
    if (plain) {
      this.plainUnits(text, n)
      // units before the first token (no token): with the globals
      if (n === 0) pu = this.emitPlain(pu, 0)
    }
    for (let i = 0; i < n; i++) {
      const t = tokens[i]!
      const neg = this.negated[i] === 1
      if (track) this.tokenStart[i] = this.occ
      const h = hashString(t, neg ? SEED_NEG_WORD : SEED_WORD)
      this.wordHash[i] = h
      this.add(h, BLOCK_WORD)
      if (hasBigram(flags, i)) {
        this.add(fmix((Math.imul(this.wordHash[i - 1]!, 0x9e3779b1) ^ h ^ SEED_BIGRAM) >>> 0), BLOCK_WORD)
      }
      if ((flags[i]! & FLAG_IDEOGRAPH) !== 0) {
        this.ideographGrams(i, neg)
        if (plain) pu = this.emitPlain(pu, i)
        continue
      }
      // character n-grams of "<token>"
      const len = t.length + 2
      if (this.codes.length < len) this.codes = new Int32Array(len * 2)
      const codes = this.codes
      codes[0] = 60
      for (let k = 0; k < t.length; k++) codes[k + 1] = t.charCodeAt(k)
      codes[len - 1] = 62
      const seed = (neg ? SEED_NEG_CHAR : SEED_CHAR) >>> 0
      for (let a = 0; a < len; a++) {
        let hh = fnvBasis(seed)
        const limit = Math.min(len, a + charMax)
        for (let b = a; b < limit; b++) {
          hh = fnvStep(hh, codes[b]!)
          if (b - a + 1 >= charMin) this.add(fmix(hh), BLOCK_CHAR)
        }
      }
      if (plain) pu = this.emitPlain(pu, i)
    }
    // globals
    if (track) this.tokenStart[n] = this.occ
    if (this.config.globals !== false) this.addGlobals(n)
    // values: sublinear tf, L2 per block (globals stay 1)
    this.finish()
    return this.nnz
  }

  private addGlobals(n: number) {
    const norm = this.normalizer
    const tokens = norm.tokens
    const flags = norm.flags
    this.add(hashString("len:" + lengthBucket(n), SEED_GLOBAL), BLOCK_GLOBAL)
    let capsTokens = 0
    let urls = 0
    for (let i = 0; i < n; i++) {
      if ((flags[i]! & FLAG_CAPS) !== 0) capsTokens++
      if (tokens[i] === "xurl") urls++
    }
    if (norm.letters >= 8 && norm.upper / norm.letters > 0.6) this.add(hashString("shout", SEED_GLOBAL), BLOCK_GLOBAL)
    else if (capsTokens > 0) this.add(hashString("caps:" + Math.min(capsTokens, 3), SEED_GLOBAL), BLOCK_GLOBAL)
    if (norm.bangs > 0) this.add(hashString("bang:" + Math.min(norm.bangs, 4), SEED_GLOBAL), BLOCK_GLOBAL)
    if (urls > 0) this.add(hashString("urls:" + Math.min(urls, 3), SEED_GLOBAL), BLOCK_GLOBAL)
    if (n === 0) this.add(hashString("empty", SEED_GLOBAL), BLOCK_GLOBAL)
  }

  private finish() {
    let sw = 0
    let sc = 0
    let spw = 0
    let spc = 0
    const idf = this.idf
    for (let p = 0; p < this.nnz; p++) {
      const c = this.count[p]!
      let v = c === 1 ? 1 : 1 + Math.log(c)
      if (idf !== undefined && this.blockOf[p] !== BLOCK_GLOBAL) v *= idf[this.idx[p]! & this.idfMask]! * this.idfScale
      this.val[p] = v
      const block = this.blockOf[p]
      if (block === BLOCK_WORD) sw += v * v
      else if (block === BLOCK_CHAR) sc += v * v
      else if (block === BLOCK_PLAIN_WORD) spw += v * v
      else if (block === BLOCK_PLAIN_CHAR) spc += v * v
    }
    const iw = sw > 0 ? 1 / Math.sqrt(sw) : 0
    const ic = sc > 0 ? 1 / Math.sqrt(sc) : 0
    const ipw = spw > 0 ? 1 / Math.sqrt(spw) : 0
    const ipc = spc > 0 ? 1 / Math.sqrt(spc) : 0
    for (let p = 0; p < this.nnz; p++) {
      const block = this.blockOf[p]
      if (block === BLOCK_WORD) this.val[p]! *= iw
      else if (block === BLOCK_CHAR) this.val[p]! *= ic
      else if (block === BLOCK_GLOBAL) this.val[p] = 1
      else if (block === BLOCK_PLAIN_WORD) this.val[p]! *= ipw
      else this.val[p]! *= ipc
    }
  }

  /**
   * The plain baseline's units of `text` (`FeatureConfig.plain`), in text order: each `\w\w+` word
   * (lower-cased) and its bigram with the word before, then the `char_wb` n-grams of each
   * whitespace-separated chunk (scikit-learn's: the lower-cased chunk padded with a space each
   * side; n-grams of every length from `charMin`, the whole padded chunk once when it is no longer
   * than n). A unit belongs to the last of the `n` normaliser tokens that begins at or before it.
   */
  private plainUnits(text: string, n: number) {
    const { charMin, charMax } = this.config.plain!
    const begins = this.normalizer.begins
    // words and chunks, each in text order (owners non-decreasing): [hash, owner] pairs
    let words = this.plainWords
    let chunks = this.plainChunks
    let nw = 0
    let nc = 0
    let t = 0
    let prev = -1 // FNV state of the previous word, before finalising (its bigram continues it)
    for (const m of text.matchAll(PLAIN_WORD)) {
      const w = m[0].toLowerCase()
      if (w.length < 2) continue
      while (t + 1 < n && begins[t + 1]! <= m.index) t++
      const h = fnvString(fnvBasis(SEED_PLAIN_WORD), w)
      if (nw + 4 > words.length) words = this.plainWords = grown(words)
      words[nw++] = fmix(h) | 0
      words[nw++] = t
      if (prev !== -1) {
        // hashString(previous + " " + w)
        words[nw++] = fmix(fnvString(fnvStep(prev, 32), w)) | 0
        words[nw++] = t
      }
      prev = h
    }
    // a chunk's n-grams by where they start (the same n-grams as by length), each to the token at its first character
    t = 0
    const basis = fnvBasis(SEED_PLAIN_CHAR)
    let codes = this.codes
    for (const m of text.matchAll(PLAIN_CHUNK)) {
      const chunk = m[0].toLowerCase()
      const len = chunk.length + 2
      if (codes.length < len) codes = this.codes = new Int32Array(len * 2)
      codes[0] = 32
      for (let k = 0; k < chunk.length; k++) codes[k + 1] = chunk.charCodeAt(k)
      codes[len - 1] = 32
      const last = m[0].length - 1
      for (let a = 0; a + charMin <= len; a++) {
        const at = m.index + (a - 1 < 0 ? 0 : a - 1 > last ? last : a - 1)
        while (t + 1 < n && begins[t + 1]! <= at) t++
        let hh = basis
        const limit = Math.min(len, a + charMax)
        if (nc + 2 * (limit - a) > chunks.length) chunks = this.plainChunks = grown(chunks)
        for (let b = a; b < limit; b++) {
          hh = fnvStep(hh, codes[b]!)
          if (b - a + 1 >= charMin) {
            chunks[nc++] = fmix(hh) | 0
            chunks[nc++] = t
          }
        }
      }
    }
    // merged by owner: a token's words before its chunks' n-grams
    const size = (nw + nc) >> 1
    if (this.plainHash.length < size) {
      this.plainHash = new Int32Array(size * 2)
      this.plainBlock = new Uint8Array(size * 2)
      this.plainOwner = new Int32Array(size * 2)
    }
    const hash = this.plainHash
    const block = this.plainBlock
    const owner = this.plainOwner
    let w = 0
    let c = 0
    for (let u = 0; u < size; u++) {
      if (c >= nc || (w < nw && words[w + 1]! <= chunks[c + 1]!)) {
        hash[u] = words[w]!
        block[u] = BLOCK_PLAIN_WORD
        owner[u] = words[w + 1]!
        w += 2
      } else {
        hash[u] = chunks[c]!
        block[u] = BLOCK_PLAIN_CHAR
        owner[u] = chunks[c + 1]!
        c += 2
      }
    }
    this.plainCount = size
  }

  /** Adds the plain units from `from` that belong to token `i` (all that are left when `i` is the last token); returns the next. */
  private emitPlain(from: number, i: number): number {
    const last = i >= this.normalizer.count - 1
    const count = this.plainCount
    const owner = this.plainOwner
    let u = from
    for (; u < count && (last || owner[u] === i); u++) this.add(this.plainHash[u]!, this.plainBlock[u]!, 1)
    return u
  }

  /**
   * The character 3- to `charMax`-grams ending on ideograph token `i`, over the ideograph tokens
   * directly before it (adjacent in the text, no break).
   */
  private ideographGrams(i: number, neg: boolean) {
    const norm = this.normalizer
    const { tokens, flags, begins, ends } = norm
    let first = i
    while (
      i - first + 1 < this.config.charMax &&
      first > 0 &&
      (flags[first - 1]! & FLAG_IDEOGRAPH) !== 0 &&
      (flags[first]! & FLAG_BREAK) === 0 &&
      ends[first - 1] === begins[first]
    ) first--
    if (i - first + 1 < 3) return
    const seed = (neg ? SEED_NEG_CHAR : SEED_CHAR) >>> 0
    // n-grams ending on token i, shortest first
    for (let a = i - 2; a >= first; a--) {
      let hh = fnvBasis(seed)
      for (let b = a; b <= i; b++) {
        const t = tokens[b]!
        for (let k = 0; k < t.length; k++) hh = fnvStep(hh, t.charCodeAt(k))
      }
      this.add(fmix(hh), BLOCK_CHAR)
    }
  }

  /** Whether token `i` of the last text has a bigram with token `i - 1` (no clause break between them). */
  hasBigram(i: number): boolean {
    return hasBigram(this.normalizer.flags, i)
  }

  /** Block of slot position `p` of the last text. */
  block(p: number): number {
    return this.blockOf[p]!
  }

  /** Whether token `i` of the last text was inside a negation scope. */
  isNegated(i: number): boolean {
    return this.negated[i] === 1
  }
}
