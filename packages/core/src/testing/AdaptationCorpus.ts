/**
 * A site's norm the shipped model cannot know, for adaptation tests (the core's, on the in-memory
 * store, and the server's, end to end): any comment about pineapple pizza is unacceptable (1), the
 * same comment about mushroom pizza is fine (0). The texts are alike otherwise, so only an adapter
 * fitted on the corrections can tell them apart.
 */

const SUBJECTS = ["the council", "the new stadium", "the bus timetable", "the library", "the budget", "the bridge", "the school board", "the market", "the park", "the festival"]
const VERBS = ["is", "seems", "looks", "was always", "will be"]

/** 120 corrections: 50 of each kind, then 20 of the first again with another opening. */
export const corpus = (): Array<{ text: string; score: number }> => {
  const out: Array<{ text: string; score: number }> = []
  let i = 0
  for (const subject of SUBJECTS) {
    for (const verb of VERBS) {
      out.push({ text: `Honestly ${subject} ${verb} like pineapple pizza, number ${i}.`, score: 1 })
      out.push({ text: `Honestly ${subject} ${verb} like mushroom pizza, number ${i}.`, score: 0 })
      i++
    }
  }
  return out.concat(out.slice(0, 20).map((c, k) => ({ text: c.text.replace("Honestly", `Frankly ${k}`), score: c.score })))
}

/** A text of the unacceptable kind that is not among the corrections. */
export const PROBE = "Honestly the harbour is like pineapple pizza, number 999."

/**
 * A norm no word shows (for encoder adapters, with `FakeEmbedder`): 150 notes of unique numbers, a
 * third of them unacceptable; `hiddenDirection` is the direction of the embedding that tells them
 * apart. Hashed words learn nothing from it (each number is in one note only).
 */
export const hidden = (): Array<{ text: string; score: number }> =>
  Array.from({ length: 150 }, (_, i) => ({ text: `Note ${1000 + 7 * i} filed.`, score: i % 3 === 0 ? 1 : 0 }))

/** The hidden norm's direction of a `hidden` note (and of `HIDDEN_PROBE`): 0.6 unacceptable, -0.6 fine. */
export const hiddenDirection = (text: string): number => {
  const n = Number(/Note (\d+)/.exec(text)?.[1] ?? Number.NaN)
  return Number.isNaN(n) ? 0 : ((n - 1000) / 7) % 3 === 0 ? 0.6 : -0.6
}

/** An unacceptable note of the hidden norm, and an acceptable one, neither among the corrections. */
export const HIDDEN_PROBE = "Note 3100 filed."
export const HIDDEN_FINE = "Note 3107 filed."
