import { assert, describe, it } from "@effect/vitest"
import { pooled, sentencesOf } from "../pooling.js"

describe("sentence pooling (training/pooling.ts)", () => {
  it("splits a comment of several sentences as the runtime does, and gives none for a single sentence", () => {
    assert.deepStrictEqual(sentencesOf("Thanks for the edit. You are an idiot!\nSee the talk page."), [
      "Thanks for the edit.",
      "You are an idiot!",
      "See the talk page."
    ])
    assert.deepStrictEqual(sentencesOf("You are an idiot."), [])
    assert.deepStrictEqual(sentencesOf("See e.g. the 3.5 release."), [])
  })

  it("moves the whole score towards its best sentence by a, and never lowers it", () => {
    assert.strictEqual(pooled(-2, [-3, 2, 0], 0), -2)
    assert.strictEqual(pooled(-2, [-3, 2, 0], 1), 2)
    assert.strictEqual(pooled(-2, [-3, 2, 0], 0.25), -1)
    // a sentence below the whole does not pull it down
    assert.strictEqual(pooled(1, [-3, 0.5], 0.5), 1)
    assert.strictEqual(pooled(1, [], 1), 1)
  })
})
