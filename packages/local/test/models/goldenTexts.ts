import type { ArticleContext, AttributeAnalysisInput, CommentScoreInput, SpamCheckInput } from "@decorum/domain"
import { GUARDRAILS, OBFUSCATIONS } from "./guardrails.js"
export const GOLDEN_TEXTS: ReadonlyArray<string> = [
  ...GUARDRAILS.flatMap((g) => g.texts),
  ...OBFUSCATIONS.flatMap((o) => [o.plain, ...o.variants]),
  "",
  "   ",
  "ok",
  "You are a fucking idiot and I will kill you, you worthless piece of shit",
  "I appreciate the careful sourcing in this section.",
  "Check out my channel and subscribe!!! http://www.youtube.com/user/promo",
  "Muslims are vermin and should be deported. I don't think all Muslims are terrorists though.",
  "Deport all the immigrants. They are filthy rats.",
  "You're going to regret this. I know where you live.",
  "This fucking article is great, but the second table is wrong because the 2019 census counted households, not people. Source: https://example.org/census",
  "Everyone knows that scientists are always lying, so this whole study is garbage. Typical liberal nonsense!!!",
  "I disagree. The evidence in the third paragraph comes from a single survey of 40 people; a larger sample would make the claim stronger. For example, the 2021 national study found the opposite.",
  "STOP WRITING SUCH STUPID GARBAGE YOU MORON",
  "not an idiot, never stupid, but a genius",
  "f u c k y o u",
  "y0u 4r3 4n 1d10t",
  "ｙｏｕ ａｒｅ ａｎ ｉｄｉｏｔ",
  "Thanks! 👍🏽 Great read. Ça va? Über gut.",
  "constructor toString valueOf __proto__ hasOwnProperty",
  "I hope you die in a fire.\n\nSeriously.",
  "The committee met on Tuesday to discuss the budget. ".repeat(30)
]

/**
 * The inputs the golden fixture was recorded with. The local scorers do not read the article
 * context, so none is given.
 */
export const goldenInputs = (text: string): {
  readonly comment: CommentScoreInput
  readonly attributes: AttributeAnalysisInput
  readonly spam: SpamCheckInput
} => ({
  comment: { comment: text, replyTo: null, article: null as unknown as ArticleContext },
  attributes: {
    text,
    attributes: ["TOXICITY", "INSULT", "THREAT"],
    spans: [{ begin: 0, end: text.length }, { begin: 0, end: Math.floor(text.length / 2) }],
    context: { article: null, parent: null, entries: [] }
  },
  spam: { comment: text, article: null }
})
