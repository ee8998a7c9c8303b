/**
 * Prompt `attributes-v1`: Perspective-style attribute probabilities for a text and for each of its
 * sentences (spans). The answer schema is built per request, one property per requested attribute.
 */
import type { AttributeAnalysisInput, Perspective } from "@decorum/domain"
import { Schema } from "effect"
import { block, DATA_RULE, type Prompt } from "./Prompt.js"

/** What each attribute means, in the model's terms. */
export const Definitions: Readonly<Record<Perspective.Attribute, string>> = {
  TOXICITY: "rude, disrespectful or unreasonable; likely to make people leave a discussion",
  SEVERE_TOXICITY: "very hateful, aggressive or disrespectful; very likely to make people leave a discussion",
  IDENTITY_ATTACK: "negative or hateful towards people because of who they are (religion, ethnicity, gender, sexual orientation, disability, ...)",
  INSULT: "insulting, inflammatory or demeaning towards a person or a group",
  PROFANITY: "swear words, curses or other obscene or profane language",
  THREAT: "expresses an intention to hurt, injure or do violence to a person or a group",
  SEXUALLY_EXPLICIT: "refers to sexual acts, sexual body parts or other lewd content",
  FLIRTATION: "pickup lines, compliments on looks, sexual advances",
  ATTACK_ON_AUTHOR: "attacks the author of the article or post",
  ATTACK_ON_COMMENTER: "attacks another commenter",
  INCOHERENT: "hard to understand or nonsensical",
  INFLAMMATORY: "meant to provoke or inflame",
  LIKELY_TO_REJECT: "a moderator following common community guidelines would reject it",
  OBSCENE: "obscene or vulgar language",
  SPAM: "irrelevant, unsolicited commercial or promotional content",
  UNSUBSTANTIAL: "trivial or too short to add anything",
  AFFINITY_EXPERIMENTAL: "points to interests, motives or outlooks the author shares with another person or group",
  COMPASSION_EXPERIMENTAL: "shows concern, empathy or support for others, especially the vulnerable",
  CURIOSITY_EXPERIMENTAL: "asks questions or tries to clarify in order to understand",
  NUANCE_EXPERIMENTAL: "weighs several points of view to give a fuller picture",
  PERSONAL_STORY_EXPERIMENTAL: "supports a point with a personal experience or story",
  REASONING_EXPERIMENTAL: "makes specific, well-reasoned points, with evidence or logic",
  RESPECT_EXPERIMENTAL: "shows deference or appreciation, or acknowledges another person's point"
}

const AttributeScore = Schema.Struct({
  summary: Schema.Number.annotations({
    jsonSchema: { type: "number", minimum: 0, maximum: 1, description: "Probability for the whole text." }
  }),
  spans: Schema.Array(Schema.Number).annotations({
    jsonSchema: { type: "array", items: { type: "number", minimum: 0, maximum: 1 }, description: "One probability per numbered sentence, in order." }
  })
})

export type Answer = Readonly<Record<string, { readonly summary: number; readonly spans: ReadonlyArray<number> }>>

const SYSTEM = `You score a text for attributes in the way Perspective API does: for each attribute, the probability (0 to 1) that a typical reader would say the text has it. Score the whole text (summary) and each numbered sentence on its own (spans, one number per sentence, in order; an empty list when no sentences are numbered). Scores are independent: a text can score high on several attributes. Answer in the requested JSON structure. ${DATA_RULE}`

export const VERSION = "v1"

/** The prompt for one set of attributes. */
export const promptFor = (
  attributes: ReadonlyArray<Perspective.Attribute>
): Prompt<AttributeAnalysisInput, Answer, unknown> => ({
  id: "attributes",
  version: VERSION,
  answer: Schema.Struct(Object.fromEntries(attributes.map((a) => [a, AttributeScore]))) as unknown as Schema.Schema<Answer, unknown>,
  maxTokens: (input) => 200 + attributes.length * (40 + 8 * input.spans.length),
  messages: (input) => {
    const definitions = input.attributes.map((a) => `- ${a}: ${Definitions[a]}`).join("\n")
    const sentences = input.spans.map((s, i) => `${i + 1}. ${input.text.slice(s.begin, s.end)}`).join("\n")
    const context = [
      input.context.article ? block("article", input.context.article.slice(0, 4000)) : null,
      input.context.parent ? block("replying_to", input.context.parent) : null,
      ...input.context.entries.map((e) => block("context", e.slice(0, 2000)))
    ].filter((s): s is string => s !== null)
    return [
      { role: "system", content: SYSTEM },
      {
        role: "user",
        content: [
          `Attributes:\n${definitions}`,
          ...context,
          block("text", input.text),
          block("sentences", input.spans.length > 0 ? sentences : "(none)")
        ].join("\n\n")
      }
    ]
  }
})
