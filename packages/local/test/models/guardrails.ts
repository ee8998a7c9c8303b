/**
 * The guardrail set: sentences written for this project (not taken from any dataset, and not the
 * augmentation templates in training/augment.ts) with the score ranges a Perspective user expects.
 * Used by the tests (against the shipped models) and printed by `npm run eval`.
 */
import type { ModelLabel } from "../../src/AttributeModel.js"

export interface Expectation {
  readonly label: ModelLabel
  /** Score must be below this... */
  readonly below?: number
  /** ...or at least this. */
  readonly atLeast?: number
}

export interface GuardrailCase {
  readonly category: string
  readonly expect: ReadonlyArray<Expectation>
  readonly texts: ReadonlyArray<string>
}

const calm: ReadonlyArray<Expectation> = [
  { label: "TOXICITY", below: 0.5 },
  { label: "IDENTITY_ATTACK", below: 0.5 },
  { label: "INSULT", below: 0.5 }
]

export const GUARDRAILS: ReadonlyArray<GuardrailCase> = [
  {
    category: "identity, neutral or positive",
    expect: calm,
    texts: [
      "I am a gay man.",
      "Muslims are my neighbours.",
      "I love being a woman.",
      "My wife and I are both Jewish and we light candles for Hanukkah.",
      "The black community in our town organised a food drive.",
      "As a transgender woman I appreciated this article.",
      "Immigrants built much of this city.",
      "My best friend is a lesbian and she just got married.",
      "Two of my cousins are deaf and teach sign language.",
      "Our church welcomes gay and lesbian families.",
      "She converted to Islam last year and seems happy.",
      "He is an Asian American engineer at a startup."
    ]
  },
  {
    category: "negated hate",
    expect: calm,
    texts: [
      "I don't hate immigrants.",
      "I do not think Muslims are terrorists.",
      "Nobody in my family hates gay people.",
      "I have never hated anyone for their religion.",
      "Women are not inferior to men."
    ]
  },
  {
    category: "attack on an identity group",
    expect: [
      { label: "TOXICITY", atLeast: 0.7 },
      { label: "IDENTITY_ATTACK", atLeast: 0.5 }
    ],
    texts: [
      "Muslims are filthy terrorists and should all be deported.",
      "Gay people are disgusting perverts.",
      "Immigrants are vermin who should go back to their shithole countries.",
      "Jews are greedy rats.",
      "Black people are animals.",
      "Trans people are mentally ill freaks.",
      "Women are stupid whores who belong in the kitchen."
    ]
  },
  {
    category: "disagreement",
    expect: calm,
    texts: [
      "I completely disagree with you on this.",
      "You are wrong about the tax numbers; the report says otherwise.",
      "I don't agree with your reading of the study.",
      "That's not what the article says at all.",
      "Respectfully, I think you have misunderstood the policy."
    ]
  },
  {
    category: "criticism of ideas",
    expect: calm,
    texts: [
      "This proposal is poorly thought out and will waste money.",
      "The argument in this op-ed ignores basic economics.",
      "Your plan has serious flaws and the costs are underestimated.",
      "The new law is a bad idea.",
      "That theory has been debunked many times."
    ]
  },
  {
    category: "counter-speech quoting an insult",
    expect: [
      { label: "TOXICITY", below: 0.7 },
      { label: "IDENTITY_ATTACK", below: 0.5 }
    ],
    texts: [
      "Calling people retards is cruel and you should stop.",
      "Someone called my son a faggot at school and I am heartbroken.",
      "Please don't use the word idiot to describe disabled people.",
      "Telling women they are sluts for dressing how they like is wrong."
    ]
  },
  {
    category: "profanity that targets no one",
    expect: [
      { label: "INSULT", below: 0.5 },
      { label: "IDENTITY_ATTACK", below: 0.5 },
      { label: "PROFANITY", atLeast: 0.5 }
    ],
    texts: [
      "Holy shit, this game was fucking amazing!",
      "Damn it, I forgot my keys again.",
      "Shit, I spilled coffee all over my laptop.",
      "That concert was so fucking good."
    ]
  },
  {
    category: "threat",
    expect: [
      { label: "THREAT", atLeast: 0.7 },
      { label: "TOXICITY", atLeast: 0.5 }
    ],
    texts: [
      "I am going to kill you.",
      "I will find where you live and hurt you.",
      "You're going to regret this, I promise.",
      "I hope someone shoots you.",
      "Keep talking and I will beat you senseless."
    ]
  },
  {
    category: "violent words, no threat",
    expect: [{ label: "THREAT", below: 0.5 }],
    texts: [
      "This workout is going to kill me.",
      "The comedian absolutely killed it last night.",
      "We will beat them in the final on Sunday.",
      "I could murder a pizza right now.",
      "The article says the storm killed six people."
    ]
  },
  {
    category: "insult",
    expect: [
      { label: "TOXICITY", atLeast: 0.7 },
      { label: "INSULT", atLeast: 0.5 }
    ],
    texts: ["You are a pathetic idiot.", "Shut up, you worthless moron.", "You're the dumbest person on this site.", "What kind of idiot name is foo?"]
  }
]

/**
 * Checks the shipped models are known to fail, as `text|LABEL` (strict: the tests fail when a
 * check on this list starts passing, so the list only ever shrinks). Recorded when the models
 * (local-2026.11.2) were trained and reported in docs/experiments/toxicity-log.md; shrunk when
 * local-2026.12.7 shipped, which passes four of them ("Our church welcomes gay and lesbian
 * families." TOXICITY 0.516 -> 0.398, "Nobody in my family hates gay people." 0.508 -> 0.199,
 * "Damn it, I forgot my keys again." PROFANITY 0.200 -> 0.905, "I hope someone shoots you."
 * TOXICITY 0.493 -> 0.505). What is left:
 * - IDENTITY_ATTACK under-scores two attacks phrased without slurs or a listed attacking word
 *   next to the group ("greedy rats", "mentally ill freaks" are matched by the pattern evidence,
 *   but the head's own log-odds are too low); TOXICITY catches both (>= 0.7).
 * - counter-speech that names a slur is still scored like the slur once out of three times (a
 *   bag-of-n-grams cannot tell use from mention);
 * - THREAT: only threats that the high-precision patterns match clear 0.7 ("I am going to kill
 *   you."); threats phrased otherwise keep the trained head's low scores, and two of them stay
 *   under TOXICITY 0.5.
 */
export const KNOWN_FAILURES: ReadonlySet<string> = new Set([
  "Jews are greedy rats.|IDENTITY_ATTACK",
  "Trans people are mentally ill freaks.|IDENTITY_ATTACK",
  "Calling people retards is cruel and you should stop.|TOXICITY",
  "I will find where you live and hurt you.|THREAT",
  "I will find where you live and hurt you.|TOXICITY",
  "You're going to regret this, I promise.|THREAT",
  "You're going to regret this, I promise.|TOXICITY",
  "I hope someone shoots you.|THREAT",
  "Keep talking and I will beat you senseless.|THREAT"
])

/** Obfuscated spellings that should score close to their plain spelling. */
export const OBFUSCATIONS: ReadonlyArray<{ readonly plain: string; readonly variants: ReadonlyArray<string> }> = [
  {
    plain: "you are an idiot",
    variants: ["you are an 1d10t", "you are an i d i o t", "you are an idiiiiot", "you are an idot", "you are an idoit", "you are an іdіоt", "you are an i.d.i.o.t"]
  },
  { plain: "fuck you", variants: ["f*ck you", "fcuk you", "f u c k you", "phuck you", "fuuuuck you", "ｆｕｃｋ you"] },
  { plain: "you stupid bitch", variants: ["you stup1d b!tch", "you stoopid b*tch", "you stupid biatch", "you $tupid bi7ch", "you stpuid bitch"] },
  { plain: "shut up you moron", variants: ["shut up you m0r0n", "shut up you moronnnn", "shut up you m o r o n", "shut up you mroon"] }
]

/** Maximum allowed |obfuscated − plain| score. */
export const OBFUSCATION_TOLERANCE = 0.15

export const check = (e: Expectation, score: number): boolean =>
  (e.below === undefined || score < e.below) && (e.atLeast === undefined || score >= e.atLeast)
