import { splitSentences } from "@decorum/core"
import { assert, describe, it } from "@effect/vitest"
import { findFallacies } from "../../src/internal/cues/fallacies.js"
import { tokenize } from "../../src/internal/text/words.js"

/**
 * One wording per alternative of every fallacy pattern. A pattern is searched only in texts that
 * hold one of its anchor words: an alternative whose anchor is missing from the list would go
 * unreported here.
 */
const WORDINGS: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["Ad hominem", [
    "That is rich, coming from someone who never paid taxes.", "Says the guy who cheated on his exam.", "What would you know about farming?",
    "Consider the source.", "Of course you would say that.", "You only say that because you own shares.", "You're not an expert on this.",
    "You are no economist.", "Typical liberal nonsense."
  ]],
  ["Slippery slope", [
    "Next thing you know they will ban cars.", "Where does it end?", "This is a slippery slope.", "Before you know it we are all broke.",
    "It will inevitably lead to chaos.", "If we let them build it, soon they will want the park too.", "If we allow this then they win."
  ]],
  ["Whataboutism", [
    "But what about the emails?", "What about when you did the same?", "There are bigger problems in this town.", "Focus on the real issues.",
    "There are more important things to worry about.", "Why isn't anyone talking about the budget?"
  ]],
  ["Appeal to popularity", [
    "Everyone knows it is true.", "Most people agree with me.", "The majority of people think so.", "Millions of people can't be wrong.",
    "It's common knowledge.", "Nobody believes that story.", "No one agrees with you."
  ]],
  ["False dilemma", [
    "Either we cut taxes or the economy dies.", "You're either with us or against us.", "There are only two options here.",
    "The only solution is more police.", "Love it or leave it.", "If you're not helping, you're part of the problem."
  ]],
  ["Appeal to authority", [
    "The experts have said it is safe.", "Scientists agree on this.", "Doctors say it works.", "My professor said so in class.",
    "A friend who is a nurse told me.", "Because I said so.", "Trust me, I'm a lawyer."
  ]],
  ["Appeal to tradition", [
    "It's always been done this way.", "That's just the way things have always been.", "We've always done it.",
    "This has always been done.", "If it ain't broke, leave it.", "People have farmed here for hundreds of years."
  ]],
  ["Straw man", ["So you're saying we should starve?", "So what you're telling me is that rules are optional.", "So you think we should all walk?"]],
  ["Appeal to emotion", ["Think of the children!", "Won't somebody please think?"]]
]

const names = (text: string) => findFallacies(text, tokenize(text), splitSentences(text)).map((h) => h.name)

describe("fallacy patterns", () => {
  it("find every alternative of every pattern, in any case (the anchor words that gate them miss none)", () => {
    for (const [name, wordings] of WORDINGS) {
      for (const text of wordings) {
        // the case-insensitive Unicode patterns also read ſ as s and the Kelvin sign as k
        for (const variant of [text, text.toUpperCase(), text.replace(/s/g, "ſ").replace(/k/g, "\u212A")]) {
          assert.include(names(variant), name, variant)
        }
      }
    }
  })

  it("report nothing for a text without any pattern's wording", () => {
    assert.deepStrictEqual(names("The council approved the new budget on Tuesday. Work starts in spring."), [])
  })
})
