/**
 * A functional test suite in the style of HateCheck (Röttger et al. 2021), written for this project:
 * short template sentences, each testing one functionality, each with the answer a moderator
 * expects ("toxic" = TOXICITY should be above 0.5; THREAT cases also check the THREAT head).
 *
 * It is an evaluation set, never training data: its sentences are worded differently from the
 * augmentation templates (training/augment.ts) and the guardrails (test/models/guardrails.ts), so a
 * model cannot pass it by having memorised them. `npm run eval` reports the share of correct
 * answers per functionality and lists every failure (docs/experiments/toxicity-log.md keeps earlier
 * releases' lists); they are not frozen by a test.
 */
import type { ModelLabel } from "@decorum/local"

export interface FunctionalCase {
  readonly functionality: string
  readonly text: string
  /** What a moderator expects: the comment is toxic (score above 0.5) or not. */
  readonly toxic: boolean
  /** The head that should carry it (TOXICITY unless said otherwise). */
  readonly label: ModelLabel
}

const GROUPS = ["women", "Muslims", "Jews", "gay men", "trans people", "Black people", "immigrants", "disabled people"]
const SINGULAR = ["woman", "Muslim", "Jew", "gay man", "trans woman", "Black man", "immigrant", "disabled person"]

const fill = (templates: ReadonlyArray<string>, functionality: string, toxic: boolean, label: ModelLabel = "TOXICITY"): Array<FunctionalCase> =>
  templates.flatMap((t, k) => {
    if (!t.includes("{g}") && !t.includes("{s}")) return [{ functionality, text: t, toxic, label }]
    // two groups per template, rotating, so every group appears in every functionality
    return [k % GROUPS.length, (k + 3) % GROUPS.length].map((i) => ({
      functionality,
      text: t.replaceAll("{g}", GROUPS[i]!).replaceAll("{s}", SINGULAR[i]!),
      toxic,
      label
    }))
  })

export const FUNCTIONAL_SUITE: ReadonlyArray<FunctionalCase> = [
  // hateful
  ...fill([
    "{g} are a disease and this country needs a cure.",
    "Honestly {g} are too dumb to be allowed to vote.",
    "I can't stand {g}, they make me sick to my stomach.",
    "{g} are nothing but lying, thieving rats.",
    "Never trust a {s}, they are all scum underneath."
  ], "derogation of a group", true),
  ...fill([
    "Someone should put a bullet in every {s} who walks past my house.",
    "If a {s} moves onto my street I will burn their house down.",
    "{g} deserve to be hanged, and I would gladly tie the rope.",
    "I'm going to find you after work and break every bone in your body.",
    "Keep talking and you'll be waking up in a hospital bed, if you wake up at all.",
    "I know where you live and I'm coming for your family tonight.",
    "One more word and I'll smash your skull in.",
    "You'd better watch your back, I'll make sure you bleed."
  ], "threat without the word kill", true),
  ...fill([
    "Someone should put a bullet in every {s} who walks past my house.",
    "I'm going to find you after work and break every bone in your body.",
    "I know where you live and I'm coming for your family tonight.",
    "One more word and I'll smash your skull in."
  ], "threat without the word kill (THREAT head)", true, "THREAT"),
  ...fill([
    "{g} are not human beings, they are animals.",
    "I would never hire a {s}, they are worthless.",
    "No {s} has ever done anything useful for society."
  ], "negated positive statement (hateful)", true),
  ...fill([
    "Why are {g} always so disgusting?",
    "Is it just me or are {g} the worst thing about this city?",
    "I think {g} are vermin, change my mind."
  ], "hate phrased as question or opinion", true),
  ...fill([
    "You are a pathetic f*cking idiot.",
    "Shut up you stup1d b1tch.",
    "{g} are all id1ots and p4rasites.",
    "What a m0ron, go d1e in a ditch.",
    "You absolute a s s h o l e.",
    "Youre a dumass and everyone hates u",
    "{g} are filthy sc*m."
  ], "obfuscated spelling (hateful)", true),

  // not hateful
  ...fill([
    "I don't think {g} are dangerous at all.",
    "It's false that {g} are lazy, the numbers show the opposite.",
    "No, {g} are not criminals, stop repeating that lie.",
    "{g} aren't a threat to anyone.",
    "I would never say that a {s} is worth less than me."
  ], "negated hateful statement", false),
  ...fill([
    "My best friend is a {s} and she's the kindest person I know.",
    "{g} have been part of this town for generations.",
    "The panel included three {g} talking about the housing market.",
    "Proud to stand with {g} today.",
    "We hired a {s} as our new head of engineering and she is brilliant."
  ], "neutral or positive identity mention", false),
  ...fill([
    "Saying '{g} are animals' is exactly the kind of hate we need to call out.",
    "He wrote that {g} are vermin, and he should be ashamed of it.",
    "When people say {g} are a plague, they are spreading lies.",
    "\"All {g} are scum\" is a disgusting thing to post, reported.",
    "Stop calling {g} parasites, it's dehumanising and wrong."
  ], "counter-speech quoting hate", false),
  ...fill([
    "This fucking sandwich is the best thing I've eaten all year.",
    "Holy shit, what a goal!",
    "I'm so damn proud of you, you did it!",
    "Fuck yeah, we won the championship!",
    "That concert was bloody brilliant.",
    "Shit, I forgot my keys again.",
    "Damn, this view is gorgeous.",
    "I laughed my ass off at that episode."
  ], "non-hateful profanity", false),
  ...fill([
    "As a queer woman I'm tired of being told to hide who I am.",
    "Us dykes run the best softball team in the county.",
    "Queer and proud, see you all at the parade!",
    "My crip friends and I built our own accessible hiking club.",
    "Love you bitches, best girls' night ever."
  ], "reclaimed slur", false),
  ...fill([
    "The k1ll count in this game is insane, gg everyone.",
    "Our team absolutely destroyed the quiz tonight.",
    "I'm going to murder this plate of pasta.",
    "My phone battery is dead again, ugh."
  ], "violent or obfuscated words, no threat", false, "THREAT")
]

/** Correct answers per functionality for the scores `score(case)`, at threshold 0.5. */
export const runSuite = (
  score: (c: FunctionalCase) => number
): { rows: Array<{ functionality: string; toxic: boolean; cases: number; correct: number }>; failures: Array<{ c: FunctionalCase; score: number }> } => {
  const rows: Array<{ functionality: string; toxic: boolean; cases: number; correct: number }> = []
  const failures: Array<{ c: FunctionalCase; score: number }> = []
  for (const c of FUNCTIONAL_SUITE) {
    const s = score(c)
    const ok = c.toxic ? s > 0.5 : s <= 0.5
    let row = rows.find((r) => r.functionality === c.functionality)
    if (row === undefined) {
      row = { functionality: c.functionality, toxic: c.toxic, cases: 0, correct: 0 }
      rows.push(row)
    }
    row.cases++
    if (ok) row.correct++
    else failures.push({ c, score: s })
  }
  return { rows, failures }
}
