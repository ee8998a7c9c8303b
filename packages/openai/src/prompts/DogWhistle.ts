/** Prompt `dogwhistle-v1`: does the comment use coded language (dog whistles), which terms, and how harmful. */
import type { DogWhistleCheckInput } from "@decorum/domain"
import { Schema } from "effect"
import { block, DATA_RULE, type Prompt, renderArticleBrief } from "./Prompt.js"

const Probability = (description: string) =>
  Schema.Number.annotations({ jsonSchema: { type: "number", minimum: 0, maximum: 1, description } })

export const Answer = Schema.Struct({
  reasoning: Schema.String.annotations({
    description: "Name each coded term found and its covert meaning, or say why nothing is coded here (e.g. a literal use)."
  }),
  dogwhistles_detected: Schema.Boolean,
  confidence: Probability("How sure you are of dogwhistles_detected: 0.5 cannot tell, 1 certain."),
  dogwhistle_terms: Schema.Array(Schema.String).annotations({
    description: "Each coded term or phrase, copied exactly as it appears in the comment. Empty when none."
  }),
  categories: Schema.Array(Schema.String).annotations({
    description: "The kind of each coded term's target or ideology, e.g. antisemitic, racist, transphobic, homophobic, xenophobic, Islamophobic. Empty when none."
  }),
  subtlety_level: Probability("0 obvious to any reader, 1 recognisable only to insiders. 0 when none."),
  harm_potential: Probability("0 harmless, 1 dehumanising or inciting. 0 when none.")
})
export type Answer = typeof Answer.Type

const SYSTEM = `You detect dog whistles in one comment from a publication's comment section: coded language that says something hateful or extremist to insiders while looking innocent to everyone else (numbers, slogans, euphemisms, in-group phrases). Answer in the requested JSON structure.

Judge the use, not the word: most words with a coded sense are used literally most of the time ("the 14 words of the headline", "an echo in the hall", "a Christmas party" are not dog whistles). Flag a term only when the comment, its thread or the article make the coded sense the likely reading; otherwise answer dogwhistles_detected false and say so in reasoning.
The site may list sensitive topics (where coded language is expected) and terms it has seen used as coded language: watch for those terms and their obvious variants at once, still judging whether this use is coded.
Copy every term exactly as the comment spells it. Confidence is how sure you are of your verdict: 1 certain, 0.5 cannot tell; say when you are unsure. ${DATA_RULE}`

export const prompt: Prompt<DogWhistleCheckInput, Answer, typeof Answer.Encoded> = {
  id: "dogwhistle",
  version: "v1",
  answer: Answer,
  maxTokens: 600,
  messages: (input) => [
    { role: "system", content: SYSTEM },
    {
      role: "user",
      content: [
        input.article ? block("article", renderArticleBrief(input.article)) : null,
        input.sensitiveTopics.length > 0 ? block("sensitive_topics", input.sensitiveTopics.map((t) => `- ${t}`).join("\n")) : null,
        input.examples.length > 0 ? block("known_coded_terms", input.examples.map((t) => `- ${t}`).join("\n")) : null,
        input.replyTo ? block("replying_to", input.replyTo) : null,
        input.contextComments.length > 0 ? block("thread", input.contextComments.map((c) => `- ${c}`).join("\n")) : null,
        block("comment", input.comment)
      ].filter((s): s is string => s !== null).join("\n\n")
    }
  ]
}
