/**
 * A Porter-style stemmer (after M. F. Porter, "An algorithm for suffix stripping", 1980), written
 * for Decorum. It conflates inflections and common derivations ("elections", "elected" -> "elect";
 * "vaccines", "vaccinated" -> "vaccin") so that a comment and an article meet on the same terms.
 * Deterministic and allocation-light: it runs on every token of every comment.
 */

const isConsonantAt = (w: string, i: number): boolean => {
  const c = w.charCodeAt(i)
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false
  if (c === 121) return i === 0 ? true : !isConsonantAt(w, i - 1) // y
  return true
}

/** Porter's m: the number of VC sequences in `w[0, end)`. */
const measure = (w: string, end: number): number => {
  let m = 0
  let i = 0
  while (i < end && isConsonantAt(w, i)) i++
  while (i < end) {
    while (i < end && !isConsonantAt(w, i)) i++
    if (i >= end) break
    m++
    while (i < end && isConsonantAt(w, i)) i++
  }
  return m
}

const hasVowel = (w: string, end: number): boolean => {
  for (let i = 0; i < end; i++) if (!isConsonantAt(w, i)) return true
  return false
}

const endsDoubleConsonant = (w: string): boolean => {
  const n = w.length
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonantAt(w, n - 1)
}

/** consonant-vowel-consonant at the end, the last not w, x or y ("hop", not "snow"). */
const endsCvc = (w: string): boolean => {
  const n = w.length
  if (n < 3) return false
  if (!isConsonantAt(w, n - 1) || isConsonantAt(w, n - 2) || !isConsonantAt(w, n - 3)) return false
  const last = w[n - 1]
  return last !== "w" && last !== "x" && last !== "y"
}

/** Replaces `suffix` by `repl` when the stem before it has a measure above `minM`. */
const replaceIf = (w: string, suffix: string, repl: string, minM: number): string | null => {
  if (!w.endsWith(suffix)) return null
  const stemEnd = w.length - suffix.length
  return measure(w, stemEnd) > minM ? w.slice(0, stemEnd) + repl : w
}

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"], ["bli", "ble"],
  ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"], ["ization", "ize"], ["ation", "ate"],
  ["ator", "ate"], ["alism", "al"], ["iveness", "ive"], ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"],
  ["iviti", "ive"], ["biliti", "ble"], ["logi", "log"]
]
const STEP3: ReadonlyArray<readonly [string, string]> = [
  ["icate", "ic"], ["ative", ""], ["alize", "al"], ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""]
]
const STEP4 = [
  "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti",
  "ous", "ive", "ize"
]

/** Module cache, a documented constant: a word's stem is a pure function of the word (at most 50,000, then it starts over). */
const cache = new Map<string, string>()
const CACHE_LIMIT = 50_000

/** Stems a lowercase word. Words of one or two letters, and words with digits, are left alone. */
export const stem = (word: string): string => {
  if (word.length <= 2 || /[^a-z]/.test(word)) return word
  const hit = cache.get(word)
  if (hit !== undefined) return hit
  const out = stemUncached(word)
  if (cache.size >= CACHE_LIMIT) cache.clear()
  cache.set(word, out)
  return out
}

const stemUncached = (word: string): string => {
  let w = word
  // Step 1a: plurals.
  if (w.endsWith("sses")) w = w.slice(0, -2)
  else if (w.endsWith("ies")) w = w.slice(0, -2)
  else if (w.endsWith("ss")) {
    // keep
  } else if (w.endsWith("s") && w.length > 3) w = w.slice(0, -1)

  // Step 1b: -eed, -ed, -ing.
  let step1bCleanup = false
  if (w.endsWith("eed")) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1)
  } else if (w.endsWith("ed") && hasVowel(w, w.length - 2)) {
    w = w.slice(0, -2)
    step1bCleanup = true
  } else if (w.endsWith("ing") && hasVowel(w, w.length - 3) && w.length > 5) {
    w = w.slice(0, -3)
    step1bCleanup = true
  }
  if (step1bCleanup) {
    if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e"
    else if (endsDoubleConsonant(w) && !/[lsz]$/.test(w)) w = w.slice(0, -1)
    else if (measure(w, w.length) === 1 && endsCvc(w)) w += "e"
  }

  // Step 1c: y -> i after a vowel-containing stem.
  if (w.endsWith("y") && hasVowel(w, w.length - 1) && w.length > 2) w = w.slice(0, -1) + "i"

  // Step 2 and 3: derivational suffixes, when the remaining stem is long enough.
  for (const [suffix, repl] of STEP2) {
    const r = replaceIf(w, suffix, repl, 0)
    if (r !== null) {
      w = r
      break
    }
  }
  for (const [suffix, repl] of STEP3) {
    const r = replaceIf(w, suffix, repl, 0)
    if (r !== null) {
      w = r
      break
    }
  }
  // Step 4: strip a suffix when the stem has m > 1.
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue
    const stemEnd = w.length - suffix.length
    if (measure(w, stemEnd) > 1 && (suffix !== "ion" || /[st]$/.test(w.slice(0, stemEnd)))) w = w.slice(0, stemEnd)
    break
  }
  // Step 5: final e and double l.
  if (w.endsWith("e")) {
    const m = measure(w, w.length - 1)
    if (m > 1 || (m === 1 && !endsCvc(w.slice(0, -1)))) w = w.slice(0, -1)
  }
  if (w.endsWith("ll") && measure(w, w.length) > 1) w = w.slice(0, -1)
  return w
}
