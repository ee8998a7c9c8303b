/**
 * The one catalogue of logical fallacies Decorum reports, shared by every engine: the local
 * detector is trained on these types (every corpus's labels are mapped onto them in `aliases`),
 * and the LLM prompt names the same types. Each type carries a plain explanation and a way to
 * tackle it; together they are the `explanation` of a reported fallacy.
 *
 * Names follow the fallacy corpora's common names (CoCoLoFa's eight types keep their spelling,
 * "Appeal to majority", "Appeal to worse problems"), so a type can be compared across corpora
 * and engines by name.
 */

export const FallacyTypes = [
  "ad_hominem",
  "appeal_to_authority",
  "appeal_to_majority",
  "appeal_to_nature",
  "appeal_to_tradition",
  "appeal_to_worse_problems",
  "appeal_to_emotion",
  "false_dilemma",
  "hasty_generalization",
  "slippery_slope",
  "false_cause",
  "straw_man",
  "red_herring",
  "circular_reasoning",
  "false_analogy",
  "equivocation"
] as const
export type FallacyType = (typeof FallacyTypes)[number]

export interface FallacyEntry {
  readonly type: FallacyType
  /** The name reported in `fallacy_name`. */
  readonly name: string
  /** What the fallacy is, in one sentence. */
  readonly explanation: string
  /** How the commenter could make the point soundly, in one sentence. */
  readonly tackle: string
  /** Other names for the type, lower case: corpus labels and common synonyms (see `fallacyOf`). */
  readonly aliases: ReadonlyArray<string>
}

const entry = (type: FallacyType, name: string, explanation: string, tackle: string, aliases: ReadonlyArray<string>): FallacyEntry => ({
  type,
  name,
  explanation,
  tackle,
  aliases
})

export const FallacyCatalogue: Readonly<Record<FallacyType, FallacyEntry>> = {
  ad_hominem: entry(
    "ad_hominem",
    "Ad hominem",
    "This attacks the person (their character, motives, group or past) instead of what they said; who makes a claim does not decide whether it is true.",
    "Answer the argument itself: say which part is wrong and why.",
    ["ad hominem", "personal attack", "circumstantial ad hominem", "tu quoque", "name-calling/labeling", "name calling", "guilt by association", "abusive ad hominem"]
  ),
  appeal_to_authority: entry(
    "appeal_to_authority",
    "Appeal to authority",
    "This rests the claim on who endorses it (an expert, an official, a celebrity) rather than on evidence, often with an authority outside their field.",
    "Name the evidence or reasoning the authority relies on, and check they are an authority on this question.",
    ["appeal to authority", "irrelevant authority", "fallacy of credibility", "false authority", "appeal to (false) authority", "appeal to false authority", "authority"]
  ),
  appeal_to_majority: entry(
    "appeal_to_majority",
    "Appeal to majority",
    "This treats how many people believe or do something as proof that it is true or right.",
    "Give the reasons or evidence that would convince someone on their own, whatever the majority thinks.",
    ["appeal to majority", "appeal to popularity", "ad populum", "bandwagon", "popular opinion", "population", "appeal to the people"]
  ),
  appeal_to_nature: entry(
    "appeal_to_nature",
    "Appeal to nature",
    "This argues that something is good because it is natural, or bad because it is unnatural.",
    "Say what actually makes it better or worse (its effects, its risks), natural or not.",
    ["appeal to nature", "natural", "naturalistic fallacy"]
  ),
  appeal_to_tradition: entry(
    "appeal_to_tradition",
    "Appeal to tradition",
    "This argues that something is right because it has long been done that way.",
    "Give the reasons the practice still works today, or why the change would be worse.",
    ["appeal to tradition", "tradition", "appeal to common practice"]
  ),
  appeal_to_worse_problems: entry(
    "appeal_to_worse_problems",
    "Appeal to worse problems",
    "This dismisses an issue by pointing to a worse or different problem (whataboutism); another problem does not make this one matter less.",
    "If the comparison matters, explain how it bears on this issue; otherwise address the issue at hand.",
    ["appeal to worse problems", "whataboutism", "worse problems", "relative privation", "fallacy of relative privation"]
  ),
  appeal_to_emotion: entry(
    "appeal_to_emotion",
    "Appeal to emotion",
    "This tries to win agreement through fear, pity, anger, pride or loaded words instead of reasons.",
    "Say concretely who would be affected and how, with evidence, in neutral words.",
    [
      "appeal to emotion", "emotional appeal", "appeal to fear", "appeal to pity", "appeal to anger", "appeal to ridicule", "appeal to positive emotion",
      "loaded language", "flag waving", "flag-waving", "slogans", "slogan", "think of the children"
    ]
  ),
  false_dilemma: entry(
    "false_dilemma",
    "False dilemma",
    "This presents two options as the only ones when others exist.",
    "Consider a middle ground or a third option, and say why the alternatives are ruled out.",
    ["false dilemma", "false dichotomy", "black-and-white", "black and white", "blackwhite", "either-or"]
  ),
  hasty_generalization: entry(
    "hasty_generalization",
    "Hasty generalization",
    "This draws a broad conclusion about a whole group or all cases from too few or unrepresentative examples.",
    "Speak about the cases you actually know, or show evidence that the pattern holds broadly.",
    ["hasty generalization", "hasty generalisation", "faulty generalization", "overgeneralization", "sweeping generalization"]
  ),
  slippery_slope: entry(
    "slippery_slope",
    "Slippery slope",
    "This claims one step will set off a chain of worse ones without showing why each step would follow.",
    "Argue the likely consequences of this step on its own, with evidence for any chain you expect.",
    ["slippery slope"]
  ),
  false_cause: entry(
    "false_cause",
    "False cause",
    "This assumes that because one thing followed or came with another, it caused it, or reduces a complex outcome to a single cause.",
    "Show how the cause works, and rule out coincidence and other causes.",
    ["false cause", "false causality", "causal oversimplification", "post hoc", "post hoc ergo propter hoc", "correlation is not causation"]
  ),
  straw_man: entry(
    "straw_man",
    "Straw man",
    "This restates the other side's view in a weaker or more extreme form than they hold, then attacks that version.",
    "Quote what they actually said, or ask whether your reading is what they meant, and answer that.",
    ["straw man", "strawman", "fallacy of extension"]
  ),
  red_herring: entry(
    "red_herring",
    "Red herring",
    "This shifts to a different topic that does not bear on the point being discussed.",
    "Come back to the point under discussion, or explain how the new topic bears on it.",
    ["red herring", "fallacy of relevance", "irrelevant conclusion", "ignoratio elenchi"]
  ),
  circular_reasoning: entry(
    "circular_reasoning",
    "Circular reasoning",
    "This assumes what it sets out to prove: the conclusion is already in the premise.",
    "Give a reason that does not already assume the conclusion.",
    ["circular reasoning", "begging the question", "circular argument"]
  ),
  false_analogy: entry(
    "false_analogy",
    "False analogy",
    "This argues from a comparison between things that differ in the way that matters.",
    "Show that the two cases are alike in the respect your argument depends on.",
    ["false analogy", "faulty analogy", "weak analogy"]
  ),
  equivocation: entry(
    "equivocation",
    "Equivocation",
    "This uses one word in two different senses, so the argument only seems to follow.",
    "Say which sense you mean and keep to it throughout.",
    ["equivocation", "ambiguity"]
  )
}

const byAlias: ReadonlyMap<string, FallacyType> = new Map(
  FallacyTypes.flatMap((t) => [[FallacyCatalogue[t].name.toLowerCase(), t] as const, ...FallacyCatalogue[t].aliases.map((a) => [a, t] as const)])
)

/**
 * The catalogue type a label or name stands for ("Irrelevant Authority", "ad populum",
 * "whataboutism"), case, spacing and `_`/`-` between words ignored; undefined when the label
 * names no type of the catalogue (e.g. "No Fallacy", LOGIC's catch-all "fallacy of logic").
 */
export const fallacyOf = (label: string): FallacyType | undefined => {
  const key = label.trim().toLowerCase().replace(/_/g, " ").replace(/\s+/g, " ")
  return byAlias.get(key) ?? byAlias.get(key.replace(/-/g, " "))
}

/** The explanation reported with a fallacy of this type: what it is, then how to tackle it. */
export const explainFallacy = (type: FallacyType): string => {
  const e = FallacyCatalogue[type]
  return `${e.explanation} ${e.tackle}`
}

/** Every reportable name, in catalogue order (for prompts and documentation). */
export const fallacyNames: ReadonlyArray<string> = FallacyTypes.map((t) => FallacyCatalogue[t].name)
