/**
 * The shipped model files (packages/local/models): they load fast, score every attribute, meet
 * the guardrail and obfuscation expectations, and explain with verbatim quotes. These read the
 * repository's files only, never ../shared.
 */
import { Perspective } from "@decorum/domain"
import { describe, expect, it } from "@effect/vitest"
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
    expect(loadMs).toBeLessThan(1000)
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest
    let total = statSync(join(dir, "manifest.json")).size
    for (const f of manifest.families) {
      const bytes = readFileSync(join(dir, f.file))
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(f.sha256)
      total += bytes.length
    }
    expect(total).toBeLessThan(30 * 1024 * 1024)
    expect(set.version).toMatch(/^local-\d{4}\.\d+\.\d+$/)
  })

  it("score every Perspective attribute plus LOW_EFFORT and CONSTRUCTIVE, as probabilities", () => {
    const wanted: Array<ModelLabel> = [...Perspective.Attributes, "LOW_EFFORT", "CONSTRUCTIVE"]
    for (const l of wanted) expect(set.labels).toContain(l)
    const scores = set.predict("Thanks for the edit, but I think the source is outdated.", wanted)
    for (const l of wanted) {
      expect(scores[l]).toBeGreaterThanOrEqual(0)
      expect(scores[l]).toBeLessThanOrEqual(1)
    }
    expect(set.predict("", ["TOXICITY"]).TOXICITY).toBeLessThan(0.5)
    // words that are Object.prototype members are plain words to the lexicons and respellings
    for (const v of Object.values(set.predict("constructor toString valueOf", wanted))) expect(Number.isFinite(v)).toBe(true)
  })

  it("rank an insult above a polite comment for every toxicity head", () => {
    const rude = set.predict("You are a fucking idiot and I will kill you, you worthless piece of shit", [...set.labels])
    const polite = set.predict("I appreciate the careful sourcing in this section.", [...set.labels])
    for (const l of ["TOXICITY", "SEVERE_TOXICITY", "INSULT", "PROFANITY", "THREAT"] as const) expect(rude[l]!).toBeGreaterThan(polite[l]!)
    expect(polite.CONSTRUCTIVE ?? 0).toBeGreaterThan(0)
  })

  it("flag comment spam and leave a normal comment alone", () => {
    expect(set.predict("Check out my channel and subscribe!!! http://www.youtube.com/user/promo", ["SPAM"]).SPAM).toBeGreaterThan(0.7)
    expect(set.predict("This song reminds me of my summer in 2012, love it", ["SPAM"]).SPAM).toBeLessThan(0.5)
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
      expect(unexpected).toEqual([])
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
    expect(far).toEqual([])
  })

  it("explain with verbatim spans of the original text, the offending words first", () => {
    const text = "Nice edit. But you are a f*cking 1d10t, seriously."
    const spans = set.explain(text, "INSULT", 3)
    expect(spans.length).toBeGreaterThan(0)
    for (const s of spans) {
      expect(s.end).toBeGreaterThan(s.begin)
      expect(text.includes(text.slice(s.begin, s.end))).toBe(true)
      expect(s.weight).toBeGreaterThan(0)
    }
    expect(text.slice(spans[0]!.begin, spans[0]!.end)).toMatch(/1d10t|f\*cking/)
    const spam = "subscribe to my channel http://bit.ly/xyz for free giftcards"
    const reasons = set.explain(spam, "SPAM", 5).map((s) => spam.slice(s.begin, s.end))
    expect(reasons.join(" ")).toMatch(/subscribe|channel|http|free/)
    // a calm remark has at most weak evidence, far below a real threat's
    const calmTop = set.explain("A calm and kind remark.", "THREAT", 1)[0]?.weight ?? 0
    const threatTop = set.explain("I will find you and kill you.", "THREAT", 1)[0]?.weight ?? 0
    expect(threatTop).toBeGreaterThan(calmTop * 3)
    // aliases and lexicon approximations explain too
    expect(set.explain("you fucking idiot", "ATTACK_ON_COMMENTER").length).toBeGreaterThan(0)
    const lewd = "send nudes"
    expect(set.explain(lewd, "SEXUALLY_EXPLICIT").map((s) => lewd.slice(s.begin, s.end))).toContain("nudes")
  })

  it("treat negation through features, not by ignoring the sentence", () => {
    const attack = set.predict("I hate immigrants.", ["TOXICITY"]).TOXICITY!
    const negated = set.predict("I don't hate immigrants.", ["TOXICITY"]).TOXICITY!
    expect(negated).toBeLessThan(attack)
  })

  it.effect("provide the AttributeModel service through TrainedModel.layer", () =>
    Effect.gen(function* () {
      const model = yield* AttributeModel
      expect(model.version).toBe(set.version)
      const s = model.predict(model.analyse("you are an idiot"), ["INSULT", "OBSCENE"])
      expect(s.INSULT).toBeGreaterThan(0.5)
      expect(s.OBSCENE).toBeDefined()
    }).pipe(Effect.provide(TrainedModel.layer))
  )

  it("score an analysis the same whatever was analysed or asked before it", () => {
    const attack = "Muslims are vermin, deport them all. I will find you and hurt you."
    const calm = "The library opens at nine on Saturdays."
    const fresh = { p: set.predict(set.analyse(attack), set.labels), e: set.explain(set.analyse(attack), "IDENTITY_ATTACK", 5) }
    expect(fresh.p.IDENTITY_ATTACK!).toBeGreaterThan(0.5)
    const a = set.analyse(attack)
    const b = set.analyse(calm)
    // explanations first, then another text's scores, then this one's
    const threat = set.explain(a, "THREAT", 5)
    set.predict(b, set.labels)
    set.explain(b, "IDENTITY_ATTACK", 5)
    expect(set.explain(a, "IDENTITY_ATTACK", 5)).toEqual(fresh.e)
    expect(set.predict(a, set.labels)).toEqual(fresh.p)
    expect(set.explain(a, "THREAT", 5)).toEqual(threat)
    expect(a.tokens.tokens.slice(0, 2)).toEqual(["muslims", "are"])
    expect(Object.isFrozen(a.tokens.tokens)).toBe(true)
  })

  it("give spam verdicts on the shipped model: YouTube share and engagement spam yes, ordinary comments and a sourced link no", () => {
    const model: AttributeModelService = { version: set.version, labels: set.labels, analyse: (t) => set.analyse(t), predict: (a, l) => set.predict(a, l), explain: () => [] }
    const verdict = (comment: string) => checkSpam(model, { comment, article: null })
    for (const text of ["Check out this video on YouTube:", "Like this comment if you are watching in 2015", "Check out my channel, I make music covers! Please subscribe"]) {
      expect(verdict(text).is_spam, text).toBe(true)
    }
    for (const text of [
      "I ride the tram every day and it has been reliable, though crowded in the morning.",
      "According to the council's report (https://example.org/tram-report.pdf), ridership grew 12% last year, which is more than forecast.",
      "This song never gets old, still listening in 2015."
    ]) {
      const r = verdict(text)
      expect(r.is_spam, text).toBe(false)
      // a link is some evidence of spam: the sourced comment is "not spam" with less confidence
      expect(r.confidence, text).toBeGreaterThan(text.includes("https://") ? 0.6 : 0.8)
    }
  })
})
