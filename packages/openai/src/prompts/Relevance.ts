/** Prompt `relevance-v1`: is the comment on the article's topic, and does it dwell on banned topics. */
import type { RelevanceInput } from "@decorum/domain"
import { Schema } from "effect"
import { block, DATA_RULE, type Prompt, renderArticle } from "./Prompt.js"

const Probability = (description: string) =>
  Schema.Number.annotations({ jsonSchema: { type: "number", minimum: 0, maximum: 1, description } })

export const Answer = Schema.Struct({
  on_topic: Schema.Struct({
    reasoning: Schema.String.annotations({ description: "One or two sentences on how the comment relates to the article." }),
    on_topic: Schema.Boolean,
    confidence: Probability("How sure you are of on_topic: 0.5 cannot tell, 1 certain.")
  }),
  banned_topics: Schema.Struct({
    reasoning: Schema.String.annotations({ description: "One or two sentences on the banned topics the comment touches, if any." }),
    banned_topics: Schema.Array(Schema.String).annotations({ description: "Names from the banned-topic list, exactly as listed." }),
    quantity_on_banned_topics: Probability("Share of the comment spent on banned topics: 0 none, 0.5 about half, 1 all."),
    confidence: Probability("How sure you are of the banned-topic assessment: 0.5 cannot tell, 1 certain.")
  })
})
export type Answer = typeof Answer.Type

const SYSTEM = `You check whether one comment stays on the topic of the article it was posted under, and whether it dwells on topics the site has banned. Answer in the requested JSON structure.

On-topic means the comment engages with the article's subject, with a point the article raises, or with the comment it replies to about the article. Short reactions ("Of course it is!", "Great reporting") that respond to the article are on-topic. Tangents that lose the article's subject entirely are off-topic.
Banned topics are the site owner's own list: report only names from that list, spelt exactly as listed, and only when the comment actually discusses them (a passing word is not enough). quantity_on_banned_topics is the share of the comment spent on them.
Confidences say how sure you are: 1 certain, 0.5 cannot tell. Say when you are unsure. ${DATA_RULE}`

export const prompt: Prompt<RelevanceInput, Answer, typeof Answer.Encoded> = {
  id: "relevance",
  version: "v1",
  answer: Answer,
  maxTokens: 500,
  messages: (input) => [
    { role: "system", content: SYSTEM },
    {
      role: "user",
      content: [
        block("article", renderArticle(input.article)),
        input.replyTo ? block("replying_to", input.replyTo) : null,
        block(
          "banned_topics",
          input.bannedTopics.length > 0
            ? input.bannedTopics.map((t) => `- ${t}`).join("\n")
            : "(none: answer banned_topics [] with quantity 0)"
        ),
        block("comment", input.comment)
      ].filter((s): s is string => s !== null).join("\n\n")
    }
  ]
}
