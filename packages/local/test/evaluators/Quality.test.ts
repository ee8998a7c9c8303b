/**
 * The 1-5 quality grade moves the way a moderator expects: reasons and evidence raise it; an
 * insult, toxicity, low effort and fallacies lower it; threats and identity attacks cap it.
 * First on the grade itself (each weight's direction), then end to end on the shipped models.
 */
import { assert, describe, it } from "@effect/vitest"
import type { ArticleContext } from "@decorum/domain"
import { scoreComment } from "../../src/evaluators/LocalCommentScorer.js"
import { qualityScore, type QualitySignals, QualityWeights } from "../../src/evaluators/Quality.js"
import { fromModelSet, loadModelSet } from "../../src/models/TrainedModel.js"

const neutral: QualitySignals = {
  constructive: QualityWeights.constructive.neutral,
  toxicity: 0.05,
  threat: 0,
  identityAttack: 0,
  lowEffort: 0.1,
  appearsLowEffort: false,
  fallacies: 0,
  objectionable: 0,
  reasons: 0
}
const raw = (s: Partial<QualitySignals>) => qualityScore({ ...neutral, ...s }).raw
const grade = (s: Partial<QualitySignals>) => qualityScore({ ...neutral, ...s }).overall

describe("quality grade", () => {
  it("grades a neutral comment in the middle of the scale", () => {
    assert.strictEqual(grade({}), 3)
  })

  it("rises with constructiveness and with each reason given, up to the counted number", () => {
    assert.isAbove(raw({ constructive: 0.8 }), raw({}))
    assert.isAbove(raw({ reasons: 1 }), raw({}))
    assert.isAbove(raw({ reasons: 2 }), raw({ reasons: 1 }))
    assert.strictEqual(raw({ reasons: QualityWeights.reasons.counted + 5 }), raw({ reasons: QualityWeights.reasons.counted }))
    assert.strictEqual(grade({ constructive: 0.8, reasons: 3 }), 5)
  })

  it("falls with toxicity past the tolerance, insults, low effort and fallacies", () => {
    assert.strictEqual(raw({ toxicity: QualityWeights.toxicity.tolerance }), raw({ toxicity: 0 }))
    // past the tolerance (a literal 0.5 was past 11.3's tolerance, 0.2, and is 12.7's tolerance itself)
    assert.isBelow(raw({ toxicity: QualityWeights.toxicity.tolerance + 0.1 }), raw({}))
    assert.isBelow(raw({ objectionable: 1 }), raw({}))
    assert.isBelow(raw({ lowEffort: 0.6 }), raw({}))
    assert.strictEqual(raw({ lowEffort: 0.3, appearsLowEffort: true }), raw({ lowEffort: QualityWeights.lowEffort.whenJudged }))
    assert.isBelow(raw({ fallacies: 1 }), raw({}))
  })

  it("caps threats and identity attacks at 1 and clearly toxic comments at 2, however constructive", () => {
    const best: Partial<QualitySignals> = { constructive: 1, reasons: 3 }
    assert.strictEqual(grade({ ...best, threat: QualityWeights.caps.severeAt }), 1)
    assert.strictEqual(grade({ ...best, identityAttack: 0.9 }), 1)
    assert.isAtMost(grade({ ...best, toxicity: QualityWeights.caps.toxicAt }), 2)
  })

  it("stays an integer from 1 to 5 at the extremes", () => {
    assert.strictEqual(grade({ constructive: 0, toxicity: 1, lowEffort: 1, appearsLowEffort: true, fallacies: 9, objectionable: 9 }), 1)
    assert.strictEqual(grade({ constructive: 1, reasons: 9 }), 5)
  })
})

describe("quality on the shipped models", () => {
  const model = fromModelSet(loadModelSet())
  const overall = (comment: string) => scoreComment(model, { comment, replyTo: null, article: null as unknown as ArticleContext }).overall_score
  const claim = "I think the new bus schedule is worse"
  const reasoned = `${claim}, because the 12 now comes every 40 minutes instead of every 20, and according to the council's own data ridership on that route fell 15 percent since March.`

  it("rises when a comment gives its reasons and evidence", () => {
    assert.isAbove(overall(reasoned), overall(`${claim}.`))
    const bridge = "The article says the bridge will cost more"
    assert.isAbove(overall(`${bridge}, but the estimate it quotes is from 2019; according to the 2023 audit the overrun is 8 percent, mostly due to steel prices, so a fixed-price contract would help.`), overall(`${bridge}.`))
  })

  it("falls when an insult is added, and never rises", () => {
    assert.isBelow(overall(`${reasoned} You are an idiot.`), overall(reasoned))
    for (const base of [`${claim}.`, reasoned, "Thanks, this was a clear explanation of the budget."]) {
      assert.isAtMost(overall(`${base} You are a fucking idiot.`), overall(base), base)
    }
  })
})
