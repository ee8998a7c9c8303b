import { assert, describe, it } from "@effect/vitest"
import { type Token, tokenize } from "../../src/internal/text/words.js"
import { GOLDEN_TEXTS } from "../models/goldenTexts.js"
import { variedTexts } from "../models/variedTexts.js"

/** The tokenizer as the regular expressions define it (what `tokenize` scanned with before it scanned by hand). */
const WORD = /[\p{L}\p{N}]+(?:['\u2019*$@][\p{L}\p{N}*$@]+)*/gu
const NEEDS_KEY = /[0-9*$@]|(\p{L})\1\1/u
const LEET: Readonly<Record<string, string>> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i" }
const reference = (text: string): Array<Token> => {
  const out: Array<Token> = []
  WORD.lastIndex = 0
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const lower = m[0].toLowerCase().replace(/\u2019/g, "'")
    const key = !NEEDS_KEY.test(lower) || /^[0-9]+$/.test(lower)
      ? lower
      : lower.replace(/[013457@$!]/g, (c) => LEET[c] ?? c).replace(/\*/g, "").replace(/(\p{L})\1{2,}/gu, "$1")
    out.push({ begin: m.index, end: m.index + m[0].length, lower, key })
  }
  return out
}

/** Deterministic strings dense in what the scan must get right: separators, symbols, surrogates, runs. */
const tricky = (count: number): Array<string> => {
  let seed = 16
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  const pieces = [
    "a", "Z", "é", "ß", "İ", "ǅ", "ſ", "K", "0", "7", "'", "\u2019", "*", "$", "@", "!", "-", " ", ".", "\n", "\u00A0", "_",
    "𝐢", "😀", "\uD835", "\uDC22", "\uD800\uDC00", "\u0301", "٣", "Ⅻ", "½", "中", "ooo", "AAA", "𝐢𝐢𝐢", "\u200B", "ǰ"
  ]
  const out: Array<string> = []
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(next() * 30)
    let s = ""
    for (let k = 0; k < n; k++) s += pieces[Math.floor(next() * pieces.length)]!
    out.push(s)
  }
  return out
}

describe("tokenize", () => {
  it("finds the words the regular expression finds, with the same lowercase forms and keys", () => {
    const texts = [...GOLDEN_TEXTS, ...variedTexts(400), ...tricky(3000), "", "'", "a'", "'a", "a''b", "a'*b", "a*", "*a", "a**b$$c@", "don\u2019t", "x\uD800"]
    for (const text of texts) assert.deepStrictEqual(tokenize(text), reference(text), JSON.stringify(text))
  })

  it("keeps apostrophes and obfuscation symbols inside words and undoes leetspeak in the key", () => {
    assert.deepStrictEqual(tokenize("Don’t be an 1d10t, f*ck sh1t sooooo").map((t) => [t.lower, t.key]), [
      ["don't", "don't"], ["be", "be"], ["an", "an"], ["1d10t", "idiot"], ["f*ck", "fck"], ["sh1t", "shit"], ["sooooo", "so"]
    ])
    assert.deepStrictEqual(tokenize("a 𝐢𝐝𝐢𝐨𝐭 b").map((t) => [t.begin, t.end]), [[0, 1], [2, 12], [13, 14]])
  })
})
