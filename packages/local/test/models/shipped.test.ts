/**
 * The shipped model files (packages/local/models): they load fast, score every attribute, meet
 * the guardrail and obfuscation expectations, and explain with verbatim quotes. These read the
 * repository's files only, never ../shared.
 */
import { Perspective } from "@decorum/domain"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { AttributeModel, type AttributeModelService, type ModelLabel } from "../../src/AttributeModel.js"
import { checkSpam } from "../../src/evaluators/LocalSpamChecker.js"
import type { Manifest } from "../../src/internal/model/format.js"
import { defaultModelDirectory, loadModelSet, TrainedModel } from "../../src/models/TrainedModel.js"
import { check, GUARDRAILS, KNOWN_FAILURES, OBFUSCATION_TOLERANCE, OBFUSCATIONS } from "./guardrails.js"

const dir = defaultModelDirectory()
// CPU time of this process, not wall time: on a machine whose cores are busy with other work a
// wall-clock bound fails for reasons that have nothing to do with the files (seen at 1.0-1.2 s wall
// for 0.35 s of CPU).
const cpu0 = process.cpuUsage()
const set = loadModelSet(dir)
const cpu = process.cpuUsage(cpu0)
const loadMs = (cpu.user + cpu.system) / 1000

describe("shipped model files", () => {
  it("load in under a second of CPU, match their sha256 and stay under 30 MB together", () => {
    assert.isBelow(loadMs, 1000)
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest
    let total = statSync(join(dir, "manifest.json")).size
    for (const f of manifest.families) {
      const bytes = readFileSync(join(dir, f.file))
      assert.strictEqual(createHash("sha256").update(bytes).digest("hex"), f.sha256)
      total += bytes.length
    }
    assert.isBelow(total, 30 * 1024 * 1024)
    assert.match(set.version, /^local-\d{4}\.\d+\.\d+$/)
  })

  it("score every Perspective attribute plus LOW_EFFORT and CONSTRUCTIVE, as probabilities", () => {
    const wanted: Array<ModelLabel> = [...Perspective.Attributes, "LOW_EFFORT", "CONSTRUCTIVE"]
    for (const l of wanted) assert.include(set.labels, l)
    const scores = set.predict("Thanks for the edit, but I think the source is outdated.", wanted)
    for (const l of wanted) {
      assert.isAtLeast(scores[l]!, 0)
      assert.isAtMost(scores[l]!, 1)
    }
    assert.isBelow(set.predict("", ["TOXICITY"]).TOXICITY!, 0.5)
    // words that are Object.prototype members are plain words to the lexicons and respellings
    for (const v of Object.values(set.predict("constructor toString valueOf", wanted))) assert.isTrue(Number.isFinite(v))
  })

  it("rank an insult above a polite comment for every toxicity head", () => {
    const rude = set.predict("You are a fucking idiot and I will kill you, you worthless piece of shit", [...set.labels])
    const polite = set.predict("I appreciate the careful sourcing in this section.", [...set.labels])
    for (const l of ["TOXICITY", "SEVERE_TOXICITY", "INSULT", "PROFANITY", "THREAT"] as const) assert.isAbove(rude[l]!, polite[l]!)
    assert.isAbove(polite.CONSTRUCTIVE ?? 0, 0)
  })

  it("flag comment spam and leave a normal comment alone", () => {
    assert.isAbove(set.predict("Check out my channel and subscribe!!! http://www.youtube.com/user/promo", ["SPAM"]).SPAM!, 0.7)
    assert.isBelow(set.predict("This song reminds me of my summer in 2012, love it", ["SPAM"]).SPAM!, 0.5)
  })

  for (const g of GUARDRAILS) {
    it(`guardrail: ${g.category}`, () => {
      const unexpected: Array<string> = []
      for (const text of g.texts) {
        const scores = set.predict(text, g.expect.map((e) => e.label))
        for (const e of g.expect) {
          const known = KNOWN_FAILURES.has(`${text}|${e.label}`)
          const ok = check(e, scores[e.label]!)
          if (ok === known) unexpected.push(`${known ? "known failure now passes" : "fails"}: ${text} ${e.label}=${scores[e.label]!.toFixed(3)}`)
        }
      }
      assert.deepStrictEqual(unexpected, [])
    })
  }

  it("score obfuscated insults close to their plain spelling", () => {
    const labels: Array<ModelLabel> = ["TOXICITY", "INSULT", "PROFANITY"]
    const far: Array<string> = []
    for (const o of OBFUSCATIONS) {
      const plain = set.predict(o.plain, labels)
      for (const v of o.variants) {
        const s = set.predict(v, labels)
        for (const l of labels) if (Math.abs(s[l]! - plain[l]!) > OBFUSCATION_TOLERANCE) far.push(`${v} ${l} ${s[l]} vs ${plain[l]}`)
      }
    }
    assert.deepStrictEqual(far, [])
  })

  it("explain with verbatim spans of the original text, the offending words first", () => {
    const text = "Nice edit. But you are a f*cking 1d10t, seriously."
    const spans = set.explain(text, "INSULT", 3)
    assert.isAbove(spans.length, 0)
    for (const s of spans) {
      assert.isAbove(s.end, s.begin)
      assert.isTrue(text.includes(text.slice(s.begin, s.end)))
      assert.isAbove(s.weight, 0)
    }
    assert.match(text.slice(spans[0]!.begin, spans[0]!.end), /1d10t|f\*cking/)
    const spam = "subscribe to my channel http://bit.ly/xyz for free giftcards"
    const reasons = set.explain(spam, "SPAM", 5).map((s) => spam.slice(s.begin, s.end))
    assert.match(reasons.join(" "), /subscribe|channel|http|free/)
    // a calm remark has at most weak evidence, far below a real threat's
    const calmTop = set.explain("A calm and kind remark.", "THREAT", 1)[0]?.weight ?? 0
    const threatTop = set.explain("I will find you and kill you.", "THREAT", 1)[0]?.weight ?? 0
    assert.isAbove(threatTop, calmTop * 3)
    // aliases and lexicon approximations explain too
    assert.isAbove(set.explain("you fucking idiot", "ATTACK_ON_COMMENTER").length, 0)
    const lewd = "send nudes"
    assert.include(set.explain(lewd, "SEXUALLY_EXPLICIT").map((s) => lewd.slice(s.begin, s.end)), "nudes")
  })

  it("treat negation through features, not by ignoring the sentence", () => {
    const attack = set.predict("I hate immigrants.", ["TOXICITY"]).TOXICITY!
    const negated = set.predict("I don't hate immigrants.", ["TOXICITY"]).TOXICITY!
    assert.isBelow(negated, attack)
  })

  it.effect("provide the AttributeModel service through TrainedModel.layer", () =>
    Effect.gen(function* () {
      const model = yield* AttributeModel
      assert.strictEqual(model.version, set.version)
      const s = model.predict(model.analyse("you are an idiot"), ["INSULT", "OBSCENE"])
      assert.isAbove(s.INSULT!, 0.5)
      assert.isDefined(s.OBSCENE)
    }).pipe(Effect.provide(TrainedModel.layer))
  )

  it("score an analysis the same whatever was analysed or asked before it", () => {
    const attack = "Muslims are vermin, deport them all. I will find you and hurt you."
    const calm = "The library opens at nine on Saturdays."
    const fresh = { p: set.predict(set.analyse(attack), set.labels), e: set.explain(set.analyse(attack), "IDENTITY_ATTACK", 5) }
    assert.isAbove(fresh.p.IDENTITY_ATTACK!, 0.5)
    const a = set.analyse(attack)
    const b = set.analyse(calm)
    // explanations first, then another text's scores, then this one's
    const threat = set.explain(a, "THREAT", 5)
    set.predict(b, set.labels)
    set.explain(b, "IDENTITY_ATTACK", 5)
    assert.deepStrictEqual(set.explain(a, "IDENTITY_ATTACK", 5), fresh.e)
    assert.deepStrictEqual(set.predict(a, set.labels), fresh.p)
    assert.deepStrictEqual(set.explain(a, "THREAT", 5), threat)
    assert.deepStrictEqual(a.tokens.tokens.slice(0, 2), ["muslims", "are"])
    assert.isTrue(Object.isFrozen(a.tokens.tokens))
  })

  it("give spam verdicts on the shipped model: YouTube share and engagement spam yes, ordinary comments and a sourced link no", () => {
    const model: AttributeModelService = { version: set.version, labels: set.labels, analyse: (t) => set.analyse(t), predict: (a, l) => set.predict(a, l), explain: () => [] }
    const verdict = (comment: string) => checkSpam(model, { comment, article: null })
    for (const text of ["Check out this video on YouTube:", "Like this comment if you are watching in 2015", "Check out my channel, I make music covers! Please subscribe"]) {
      assert.isTrue(verdict(text).is_spam, text)
    }
    for (const text of [
      "I ride the tram every day and it has been reliable, though crowded in the morning.",
      "According to the council's report (https://example.org/tram-report.pdf), ridership grew 12% last year, which is more than forecast.",
      "This song never gets old, still listening in 2015."
    ]) {
      const r = verdict(text)
      assert.isFalse(r.is_spam, text)
      // a link is some evidence of spam: the sourced comment is "not spam" with less confidence
      assert.isAbove(r.confidence, text.includes("https://") ? 0.6 : 0.8, text)
    }
  })
})
