/**
 * The benchmark corpus of `npm run bench:score` and `npm run bench:featurize`: comments of typical
 * forum length, built deterministically from sentence fragments (some polite, some rude), so every
 * run scores the same texts.
 */

const OPENINGS = [
  "I think the council is wrong about the library budget",
  "Thanks for writing this, it was really helpful",
  "This is the dumbest thing I have read all week",
  "Has anyone checked the numbers in the second table",
  "My neighbour said the same thing at the meeting",
  "You clearly have no idea what you are talking about",
  "Great photos, the bridge looks amazing at night",
  "Honestly the referee ruined the whole match"
]
const MIDDLES = [
  "and frankly the plan is a stupid waste of money",
  "because the report leaves out the cost of maintenance",
  "so I would like to see the sources before I believe it",
  "but the comments here are full of idiots as usual",
  "which is why I stopped reading this paper years ago",
  "and I hope the mayor reads it before the vote",
  "although the article could have been shorter",
  "and whoever wrote this should be ashamed of themselves"
]
const ENDINGS = [".", "!", "?", "... just saying.", ". Shut up already.", ". Well done!", ". What a joke.", ". Cheers."]

/** A deterministic pseudo-random sequence, so every run scores the same file. */
const lcg = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648

/** `rows` comments (one to three sentences each, numbered so that no two are equal). */
export const benchComments = (rows: number): Array<string> => {
  const next = lcg(13)
  const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(next() * xs.length)]!
  const out: Array<string> = []
  for (let i = 0; i < rows; i++) {
    const sentences = 1 + Math.floor(next() * 3)
    const text = Array.from({ length: sentences }, () => `${pick(OPENINGS)} ${pick(MIDDLES)}${pick(ENDINGS)}`).join(" ")
    out.push(`${text} (#${i})`)
  }
  return out
}
