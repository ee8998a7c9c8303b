/** Prompt `spam-check-v1`: is the comment spam, why, and how sure. */
import type { SpamCheckInput } from "@decorum/domain"
import { Schema } from "effect"
import { block, DATA_RULE, type Prompt, renderArticleBrief } from "./Prompt.js"

export const Answer = Schema.Struct({
  reasoning: Schema.String.annotations({ description: "One or two sentences: what makes the comment spam or not." }),
  is_spam: Schema.Boolean,
  confidence: Schema.Number.annotations({
    jsonSchema: { type: "number", minimum: 0, maximum: 1, description: "How sure you are of is_spam: 0.5 cannot tell, 1 certain." }
  })
})
export type Answer = typeof Answer.Type

const SYSTEM = `You are the spam filter of a publication's comment section. Decide whether one comment is spam and answer in the requested JSON structure.

Spam is: selling or advertising, promotion of a product, service, channel or site, links or keywords placed for search engines, scams and phishing, "work from home" and crypto pitches, bot-like or generated filler unrelated to the discussion, the same text posted again and again.
Not spam: a genuine opinion, even when off-topic, rude, wrong or low-effort; a link that supports an argument; a mention of a product that is part of the discussion.

confidence is how sure you are of your is_spam verdict: 1 certain, 0.5 cannot tell. Say when a verdict is uncertain; do not guess with high confidence. ${DATA_RULE}`

export const prompt: Prompt<SpamCheckInput, Answer, typeof Answer.Encoded> = {
  id: "spam-check",
  version: "v1",
  answer: Answer,
  maxTokens: 300,
  messages: (input) => [
    { role: "system", content: SYSTEM },
    {
      role: "user",
      content: [
        input.article ? block("article", renderArticleBrief(input.article)) : null,
        block("comment", input.comment)
      ].filter((s): s is string => s !== null).join("\n\n")
    }
  ]
}
