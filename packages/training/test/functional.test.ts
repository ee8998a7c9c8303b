import { assert, describe, it } from "@effect/vitest"
import { augmentation, VIOLENT_NOT_THREAT } from "../augment.js"
import { FUNCTIONAL_SUITE, runSuite } from "../functional.js"
import { GUARDRAILS } from "../../local/test/models/guardrails.js"

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim()

describe("functional suite (evaluation only)", () => {
  it("covers every functionality issue 11 names, with toxic and non-toxic cases", () => {
    const names = new Set(FUNCTIONAL_SUITE.map((c) => c.functionality))
    for (const required of [
      "negated hateful statement", "negated positive statement (hateful)", "counter-speech quoting hate", "reclaimed slur",
      "non-hateful profanity", "neutral or positive identity mention", "obfuscated spelling (hateful)", "threat without the word kill"
    ]) assert.isTrue(names.has(required), required)
    assert.isTrue(FUNCTIONAL_SUITE.some((c) => c.toxic))
    assert.isTrue(FUNCTIONAL_SUITE.some((c) => !c.toxic))
    assert.isTrue(FUNCTIONAL_SUITE.filter((c) => c.functionality.startsWith("threat")).every((c) => !/\bkill/i.test(c.text)))
  })

  it("shares no sentence with the training augmentation or the guardrails, so it cannot be passed by memorising them", () => {
    const seen = new Set([...augmentation().map((e) => e.text), ...VIOLENT_NOT_THREAT, ...GUARDRAILS.flatMap((g) => g.texts)].map(squash))
    const overlap = FUNCTIONAL_SUITE.filter((c) => seen.has(squash(c.text)))
    assert.deepStrictEqual(overlap.map((c) => c.text), [])
  })

  it("scores each case at 0.5: a scorer that says toxic to everything passes exactly the toxic cases", () => {
    const { rows, failures } = runSuite(() => 0.9)
    for (const r of rows) assert.strictEqual(r.correct, r.toxic ? r.cases : 0)
    assert.strictEqual(failures.length, FUNCTIONAL_SUITE.filter((c) => !c.toxic).length)
  })
})
