/**
 * Prompt `comment-score-v2`: fallacies, objectionable and negative-tone phrases (all quoted),
 * low effort, a 1-5 quality score and toxicity, for one comment in the context of its article.
 * v2: fallacies are named from Decorum's one catalogue (`Fallacies` in @decorum/domain), the
 * types the local detector reports, so both engines speak the same names.
 */
import { type CommentScoreInput, Fallacies, Native } from "@decorum/domain"
import { Schema } from "effect"
import { block, DATA_RULE, type Prompt, renderArticle } from "./Prompt.js"

const Text = (description: string) => Schema.String.annotations({ description })
const OptionalText = (description: string) =>
  Schema.optionalWith(Schema.String.annotations({ description }), { default: () => "" })
const REWRITE = "A better wording of the quoted part that keeps the commenter's point, only when the intent is very clear; otherwise \"\"."

/** The engine's wire types, with every field the model must fill in made explicit. */
export const Answer = Schema.Struct({
  // The wire's `explanation` is `explanation_and_suggestions` again: the model writes it once.
  logical_fallacies: Schema.Array(Schema.Struct({
    fallacy_name: Text(`The fallacy's name, one of: ${Fallacies.fallacyNames.join(", ")}.`),
    quoted_logical_fallacy_example: Text("The exact words of the comment that commit the fallacy, copied verbatim."),
    explanation_and_suggestions: OptionalText("Why this is a fallacy, and how the commenter could make the point soundly."),
    suggested_rewrite: OptionalText(REWRITE)
  })),
  objectionable_phrases: Schema.Array(Schema.Struct({
    ...Native.ObjectionablePhrase.fields,
    quoted_objectionable_phrase: Text("The exact objectionable words of the comment, copied verbatim."),
    explanation: OptionalText("Why the phrase is objectionable."),
    suggested_rewrite: OptionalText(REWRITE)
  })),
  negative_tone_phrases: Schema.Array(Schema.Struct({
    ...Native.NegativeTonePhrase.fields,
    quoted_negative_tone_phrase: Text("The exact words of the comment, copied verbatim."),
    explanation: OptionalText("Why the tone may hurt the conversation."),
    suggested_rewrite: OptionalText(REWRITE)
  })),
  appears_low_effort: Schema.Boolean,
  overall_score: Schema.Number.annotations({
    jsonSchema: { type: "integer", minimum: 1, maximum: 5, description: "Quality: 1 harmful or worthless ... 5 excellent." }
  }),
  toxicity_score: Schema.Number.annotations({
    jsonSchema: { type: "number", minimum: 0, maximum: 1, description: "Probability that readers find the comment toxic." }
  }),
  toxicity_explanation: Text("One sentence on the toxicity score.")
})
export type Answer = typeof Answer.Type

const FALLACY_TYPES = Fallacies.FallacyTypes.map((t) => {
  const e = Fallacies.FallacyCatalogue[t]
  return `  - ${e.name}: ${e.explanation}`
}).join("\n")

const SYSTEM = `You are the moderation assistant of a publication's comment section. You assess one reader comment in the context of the article it was posted under (and of the comment it replies to, when given), and you answer in the requested JSON structure.

What to report:
- logical_fallacies: clear fallacies in the commenter's own reasoning, named with one of these types:
${FALLACY_TYPES}
  Give the type's name exactly as written, the exact sentence or clause that commits it (one item per sentence; a second item only when another sentence shows a fallacy), and in explanation_and_suggestions one or two sentences on why it is a fallacy here and how the point could be made soundly. A strong opinion is not a fallacy.
- objectionable_phrases: insults, slurs, harassment, threats, dehumanising language, profanity aimed at people. Say why in explanation.
- negative_tone_phrases: sarcasm, contempt, condescension, dismissiveness or hostility that may hurt the conversation without being objectionable. Say why in explanation.
- appears_low_effort: true only when the comment adds nothing to the discussion, such as "me too", "first", "+1", "this", a bare agreement or a lone emoji.
- overall_score: an integer: 1 harmful or worthless, 2 poor, 3 acceptable, 4 good, 5 an excellent, thoughtful contribution.
- toxicity_score: the probability (0 to 1) that a typical reader finds the comment rude, disrespectful or unreasonable enough to leave the discussion; toxicity_explanation: one sentence.

Rules:
- Every quoted_* field is copied character for character from the comment: same case, punctuation and spacing, no ellipses, no added quotation marks, a phrase or at most one sentence. If you cannot quote it exactly, leave the item out.
- Disagreement, criticism of ideas or public figures' actions, blunt language and strong opinions are legitimate: do not report them as objectionable or negative.
- suggested_rewrite is "" unless the commenter's intent is very clear; then it rewords the quoted part, keeping the point and dropping the problem. Most items have no rewrite.
- Use empty lists when nothing applies; most comments have few or no items. Be precise rather than exhaustive: a wrong flag is worse than a missed one.
- ${DATA_RULE}`

export const prompt: Prompt<CommentScoreInput, Answer, typeof Answer.Encoded> = {
  id: "comment-score",
  version: "v2",
  answer: Answer,
  maxTokens: 1500,
  messages: (input) => [
    { role: "system", content: SYSTEM },
    {
      role: "user",
      content: [
        block("article", renderArticle(input.article)),
        input.replyTo ? block("replying_to", input.replyTo) : null,
        block("comment", input.comment)
      ].filter((s): s is string => s !== null).join("\n\n")
    }
  ]
}
