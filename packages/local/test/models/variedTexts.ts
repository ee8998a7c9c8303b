/**
 * Varied texts for holding two scoring paths to each other: deterministic mixes of plain and
 * abusive words, obfuscations (masks, leet, spacing, stretching, confusables, zero-width and
 * combining characters), URLs, e-mail addresses, numbers, mentions, random code points (controls,
 * lone surrogates, astral letters and emoji), and a few long texts.
 */
/** A deterministic pseudo-random sequence. */
const lcg = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648

const PIECES = [
  "you", "are", "an", "idiot", "not", "never", "stupid", "but", "thanks", "for", "the", "article", "kill", "die",
  "muslims", "black people", "gay", "vermin", "should", "be", "deported", "f*ck", "sh1t", "@ss", "$hit", "b***h",
  "f u c k", "i.d.i.o.t", "stuuuupid", "sooooo", "fcuk", "idoit", "1d10t", "http://example.com/x?y=1", "www.spam.biz",
  "me@example.org", "12345678", "3rd", "10km", "@someone", "@idiot", "***", "$$$", "don't", "can't", "won't",
  "ЅТUРIᎠ", "іdіоt", "ｉｄｉｏｔ", "𝐢𝐝𝐢𝐨𝐭", "ⓘⓓⓘⓞⓣ", "i\u200Bd\u200Bi\u200Bo\u200Bt", "ÜBER", "naïve", "straße",
  "z̷a̷l̷g̷o̷", "👍🏽", "🙂", "“quoted”", "—", "…", "\n", "\r\n", "!!!", "???", ",", ".", "(", ")", ";", "IDIOT",
  "YOU ARE", "Ça", "œuvre", "ǅ", "\uD800", "\uDC00x", "\u0000", "\t", "—dash—", "l0ser", "p3nis", "c0ck", "tw@t"
]

export const variedTexts = (count: number): Array<string> => {
  const next = lcg(2026)
  const out: Array<string> = []
  for (let i = 0; i < count; i++) {
    const words = 1 + Math.floor(next() * (i % 10 === 0 ? 400 : 25))
    const parts: Array<string> = []
    for (let w = 0; w < words; w++) {
      const r = next()
      if (r < 0.08) {
        // a random code point from a mixed range (BMP letters, symbols, astral, controls)
        const ranges = [[0x20, 0x7e], [0xa0, 0x24f], [0x370, 0x4ff], [0x2000, 0x206f], [0xff00, 0xffef], [0x1d400, 0x1d7ff], [0x1f300, 0x1f6ff], [0x0, 0x1f]]
        const [lo, hi] = ranges[Math.floor(next() * ranges.length)]!
        parts.push(String.fromCodePoint(lo! + Math.floor(next() * (hi! - lo! + 1))))
      } else {
        const piece = PIECES[Math.floor(next() * PIECES.length)]!
        parts.push(next() < 0.2 ? piece.toUpperCase() : piece)
      }
    }
    out.push(parts.join(next() < 0.8 ? " " : ""))
  }
  // long texts: a repeated comment past the feature and token buffers' first sizes
  out.push("You are an idiot, and not a genius. ".repeat(400))
  out.push("f*ck ".repeat(3000))
  out.push("x".repeat(20_000))
  return out
}

