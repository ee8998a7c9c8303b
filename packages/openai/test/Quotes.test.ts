import { Fallacies } from "@decorum/domain"
import { LlmEvaluators, Prompts, Quotes } from "@decorum/openai"
import { LocalStub } from "@decorum/openai/testing"
import { Either } from "effect"
import { assert, describe, it } from "@effect/vitest"

const { repairQuote } = Quotes

describe("repairQuote", () => {
  const comment = "Honestly, you’re an idiot if you think   the tram will ever pay for itself."

  it("keeps an exact quote", () => {
    assert.strictEqual(repairQuote(comment, "you’re an idiot"), "you’re an idiot")
  })

  it("strips added quotation marks and ellipses", () => {
    assert.strictEqual(repairQuote(comment, "\"you’re an idiot...\""), "you’re an idiot")
    assert.strictEqual(repairQuote(comment, "…ever pay for itself"), "ever pay for itself")
  })

  it("maps case, straightened apostrophes and collapsed spaces back onto the comment's text", () => {
    assert.strictEqual(repairQuote(comment, "You're an idiot if you think the tram"), "you’re an idiot if you think   the tram")
  })

  it("gives up on text that is not in the comment", () => {
    assert.isNull(repairQuote(comment, "you moron"))
    assert.isNull(repairQuote(comment, "   "))
    assert.isNull(repairQuote(comment, "\"\""))
  })
})

describe("answer validation", () => {
  const input = { comment: "Only a fool would back this. Trams never work anywhere.", article: LocalStub.article(), replyTo: null }

  it("keeps only verbatim quotes, clamps scores and rounds the overall score", () => {
    const checked = LlmEvaluators.validateCommentScore({
      logical_fallacies: [
        { fallacy_name: "hasty generalisation", quoted_logical_fallacy_example: "trams never work anywhere", explanation_and_suggestions: "One city is not all.", suggested_rewrite: "" },
        { fallacy_name: "straw man", quoted_logical_fallacy_example: "you want to ban cars", explanation_and_suggestions: "", suggested_rewrite: "" }
      ],
      objectionable_phrases: [{ quoted_objectionable_phrase: "Only a fool", explanation: "Insults supporters.", suggested_rewrite: "Only a fool" }],
      negative_tone_phrases: [],
      appears_low_effort: false,
      overall_score: 7.4,
      toxicity_score: 1.3,
      toxicity_explanation: " Insulting. "
    }, input)
    const value = Either.getOrThrow(checked)
    assert.deepStrictEqual(value.logical_fallacies, [
      {
        // a synonym of a catalogue type is reported under the catalogue's name
        fallacy_name: "Hasty generalization",
        quoted_logical_fallacy_example: "Trams never work anywhere",
        explanation_and_suggestions: "One city is not all.",
        explanation: "One city is not all.",
        suggested_rewrite: ""
      }
    ])
    // A rewrite that repeats the quote is no rewrite.
    assert.deepStrictEqual(value.objectionable_phrases, [{ quoted_objectionable_phrase: "Only a fool", explanation: "Insults supporters.", suggested_rewrite: "" }])
    assert.strictEqual(value.overall_score, 5)
    assert.strictEqual(value.toxicity_score, 1)
    assert.strictEqual(value.toxicity_explanation, "Insulting.")
    for (const q of [...value.logical_fallacies.map((f) => f.quoted_logical_fallacy_example), ...value.objectionable_phrases.map((p) => p.quoted_objectionable_phrase)]) {
      assert.isTrue(input.comment.includes(q))
    }
  })

  it("names fallacies from the catalogue, with the catalogue's explanation when the model gave none", () => {
    const checked = LlmEvaluators.validateCommentScore({
      logical_fallacies: [
        { fallacy_name: "Whataboutism", quoted_logical_fallacy_example: "Only a fool would back this.", explanation_and_suggestions: " ", suggested_rewrite: "" },
        { fallacy_name: "Moving the goalposts", quoted_logical_fallacy_example: "Trams never work anywhere.", explanation_and_suggestions: "Shifts the bar.", suggested_rewrite: "" }
      ],
      objectionable_phrases: [],
      negative_tone_phrases: [],
      appears_low_effort: false,
      overall_score: 3,
      toxicity_score: 0.1,
      toxicity_explanation: "Mild."
    }, input)
    const value = Either.getOrThrow(checked)
    assert.deepStrictEqual(value.logical_fallacies.map((f) => [f.fallacy_name, f.explanation]), [
      ["Appeal to worse problems", Fallacies.explainFallacy("appeal_to_worse_problems")],
      // a name outside the catalogue is kept as the model gave it
      ["Moving the goalposts", "Shifts the bar."]
    ])
  })

  it("the prompt names every type of the catalogue", () => {
    const system = Prompts.CommentScore.prompt.messages(input)[0]!.content
    for (const name of Fallacies.fallacyNames) assert.include(system, `- ${name}: `)
    assert.strictEqual(Prompts.CommentScore.prompt.version, "v2")
  })

  it("names only banned topics from the request, spelt as requested", () => {
    const checked = LlmEvaluators.validateRelevance({
      on_topic: { reasoning: "r", on_topic: false, confidence: -0.2 },
      banned_topics: { reasoning: "r", banned_topics: ["POLITICS", "religion", "politics"], quantity_on_banned_topics: 0.6, confidence: 0.8 }
    }, { ...input, bannedTopics: ["Politics"] })
    const value = Either.getOrThrow(checked)
    assert.deepStrictEqual(value.banned_topics.banned_topics, ["Politics"])
    assert.strictEqual(value.on_topic.confidence, 0)
    const none = Either.getOrThrow(LlmEvaluators.validateRelevance({
      on_topic: { reasoning: "r", on_topic: true, confidence: 0.9 },
      banned_topics: { reasoning: "r", banned_topics: ["religion"], quantity_on_banned_topics: 0.6, confidence: 0.8 }
    }, { ...input, bannedTopics: [] }))
    assert.deepInclude(none.banned_topics, { banned_topics: [], quantity_on_banned_topics: 0 })
  })

  it("rejects attribute answers whose span scores do not line up with the sentences", () => {
    const attrs = { text: "One. Two.", attributes: ["TOXICITY"] as const, spans: [{ begin: 0, end: 4 }, { begin: 5, end: 9 }], context: { article: null, parent: null, entries: [] } }
    assert.isTrue(Either.isLeft(LlmEvaluators.validateAttributes({ TOXICITY: { summary: 0.2, spans: [0.1] } }, attrs)))
    assert.deepStrictEqual(Either.getOrThrow(LlmEvaluators.validateAttributes({ TOXICITY: { summary: 2, spans: [0.1, -1] } }, attrs)), {
      TOXICITY: { summary: 1, spans: [0.1, 0] }
    })
  })
})
