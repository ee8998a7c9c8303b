/** Prompt `llm-detect-v1`: was the comment written by an LLM, and which signals say so. */
import { type LlmDetectInput, Native } from "@decorum/domain"
import { Schema } from "effect"
import { block, DATA_RULE, type Prompt } from "./Prompt.js"

const Probability = (description: string) =>
  Schema.Number.annotations({ jsonSchema: { type: "number", minimum: 0, maximum: 1, description } })

export const Answer = Schema.Struct({
  llm_likelihood: Probability("Probability the comment was written by an LLM: 0 surely human, 0.5 cannot tell, 1 surely an LLM."),
  confidence: Probability("How much to trust llm_likelihood: low for short comments, which carry little evidence."),
  signals_detected: Schema.Array(Schema.Struct({
    // Decoded as any string (an unknown type drops the signal, not the answer); offered as the four types.
    signal_type: Schema.String.annotations({
      jsonSchema: { type: "string", enum: [...Native.LlmSignalTypes], description: "word_frequency, structural, stylistic or epistemic." }
    }),
    description: Schema.String.annotations({ description: "One sentence: what you saw and why it suggests machine-written text." }),
    quoted_text: Schema.String.annotations({ description: "The words of the comment that show it, copied exactly." })
  })).annotations({ description: "The strongest signals first; empty when none." }),
  reasoning: Schema.String.annotations({ description: "Two or three sentences weighing the signals for and against." })
})
export type Answer = typeof Answer.Type

const SYSTEM = `You judge whether one comment from a publication's comment section was written by a large language model rather than a person. Answer in the requested JSON structure.

Signals of four types: word_frequency (words and phrases LLMs overuse: "delve", "tapestry", "it is important to note", "furthermore"), structural (balanced enumerations, headings, bullet lists, a closing summary in a short comment), stylistic (uniform polished sentences, no typos or slang, generic tone detached from the thread), epistemic (hedging and both-sides framing, "as an AI", disclaimers). Quote the comment's own words for each signal.
People write formally too, and short comments carry little evidence: keep llm_likelihood near 0.5 and confidence low when there is not enough text, and never call a comment machine-written from one formal word. ${DATA_RULE}`

export const prompt: Prompt<LlmDetectInput, Answer, typeof Answer.Encoded> = {
  id: "llm-detect",
  version: "v1",
  answer: Answer,
  maxTokens: 600,
  messages: (input) => [
    { role: "system", content: SYSTEM },
    { role: "user", content: block("comment", input.comment) }
  ]
}
