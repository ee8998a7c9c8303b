import { assert, describe, it } from "@effect/vitest"
import { augmentation, contrastive, contrastive124, CONTRASTIVE_DEV, contrastiveDevRows } from "../augment.js"
import { FUNCTIONAL_SUITE } from "../functional.js"
import { GUARDRAILS } from "../../local/test/models/guardrails.js"
import { threatEvidence } from "@decorum/local/Evidence"

const words = (s: string) => s.toLowerCase().replace(/[^a-z0-9']+/g, " ").trim().split(" ")
const grams = (s: string, n: number): Array<string> => {
  const w = words(s)
  const out: Array<string> = []
  for (let i = 0; i + n <= w.length; i++) out.push(w.slice(i, i + n).join(" "))
  return out
}

describe("training augmentation (training/augment.ts)", () => {
  it("never contains a guardrail sentence: the guardrails check the models, they are not training data", () => {
    const guard = new Set(GUARDRAILS.flatMap((g) => g.texts).map((t) => words(t).join(" ")))
    assert.deepStrictEqual(augmentation().filter((e) => guard.has(words(e.text).join(" "))).map((e) => e.text), [])
  })

  it("12.3's contrastive rows share no word 4-gram with a guardrail sentence (no near-copies either)", () => {
    const guard = new Set(GUARDRAILS.flatMap((g) => g.texts).flatMap((t) => grams(t, 4)))
    const near = contrastive().filter((e) => grams(e.text, 4).some((g) => guard.has(g)))
    assert.deepStrictEqual(near.map((e) => e.text), [])
  })

  it("is part of augmentation(), labelled in [0, 1], with no duplicate sentence", () => {
    const all = augmentation()
    const texts = new Set(all.map((e) => e.text))
    for (const e of contrastive()) assert.isTrue(texts.has(e.text), e.text)
    assert.strictEqual(texts.size, all.length)
    for (const e of all) for (const v of Object.values(e.labels)) assert.isTrue(v !== undefined && v >= 0 && v <= 1, e.text)
  })

  it("pairs every identity attack with a harmless statement about the same group in the same frame", () => {
    const rows = contrastive()
    const prefix = (t: string) => words(t).slice(0, -2).join(" ")
    const harmless = new Set(rows.filter((e) => e.labels.TOXICITY === 0).map((e) => prefix(e.text)))
    const attacks = rows.filter((e) => e.labels.IDENTITY_ATTACK === 1)
    assert.isAtLeast(attacks.length, 50)
    assert.deepStrictEqual(attacks.filter((e) => !harmless.has(prefix(e.text))).map((e) => e.text), [])
    // second-person insults without an insult noun, and swearing that insults no one
    assert.isAbove(rows.filter((e) => e.labels.INSULT === 1 && e.labels.IDENTITY_ATTACK === 0).length, 0)
    assert.isAbove(rows.filter((e) => e.labels.PROFANITY === 1 && e.labels.INSULT === 0).length, 0)
  })

  it("teaches threats beyond the word kill, and harmless plans in the same frames", () => {
    const rows = contrastive()
    const threats = rows.filter((e) => e.labels.THREAT === 1)
    assert.isAtLeast(threats.length, 50)
    assert.deepStrictEqual(threats.filter((e) => /\bkill/i.test(e.text)).map((e) => e.text), [])
    const frames = (texts: ReadonlyArray<string>) => new Set(texts.map((t) => words(t).slice(0, 3).join(" ")))
    const harmless = frames(rows.filter((e) => e.labels.THREAT === 0 && e.labels.TOXICITY === 0).map((e) => e.text))
    // every harmless-plan frame ("I'm going to ...", "I swear I ...") is also a threat frame
    assert.isAtLeast([...frames(threats.map((e) => e.text))].filter((f) => harmless.has(f)).length, 2)
  })

  it("12.4's contrastive rows share no word 4-gram with a guardrail, functional-suite or dev-pair sentence", () => {
    const held = new Set(
      [...GUARDRAILS.flatMap((g) => g.texts), ...FUNCTIONAL_SUITE.map((c) => c.text), ...CONTRASTIVE_DEV.flatMap(([, toxic, harmless]) => [toxic, harmless])].flatMap((t) => grams(t, 4))
    )
    const near = contrastive124().filter((e) => grams(e.text, 4).some((g) => held.has(g)))
    assert.deepStrictEqual(near.map((e) => e.text), [])
    const all = new Set(augmentation().map((e) => e.text))
    for (const e of contrastive124()) assert.isTrue(all.has(e.text), e.text)
  })

  it("12.4 pairs threats beyond kill with the same verb aimed at a thing or negated, and insults aimed at 'you' with the same superlatives about things", () => {
    const rows = contrastive124()
    const threats = rows.filter((e) => e.labels.THREAT === 1)
    assert.isAtLeast(threats.length, 60)
    assert.deepStrictEqual(threats.filter((e) => /\bkill/i.test(e.text)).map((e) => e.text), [])
    assert.isTrue(threats.every((e) => /\b(you|your)\b/i.test(e.text)), "every threat row aims at the reader or their family")
    const harmless = rows.filter((e) => e.labels.THREAT === 0 && e.labels.TOXICITY === 0)
    assert.isAtLeast(harmless.filter((e) => /^(I would never|Don't worry, I will never)/.test(e.text)).length, 10)
    // every threat frame also carries harmless acts, a third of which the threat pattern matches too
    const frame = (t: string) => words(t).slice(0, 3).join(" ")
    const threatFrames = new Set(threats.map((e) => frame(e.text)))
    assert.isAtLeast(harmless.filter((e) => threatFrames.has(frame(e.text))).length, 60)
    assert.isAtLeast(harmless.filter((e) => threatEvidence(e.text).strength > 0).length, 25)
    // the guardrail's "You're the dumbest ..." is not a template
    assert.deepStrictEqual(rows.filter((e) => /^you're the dumbest/i.test(e.text)), [])
    const insults = rows.filter((e) => e.labels.INSULT === 1 && e.labels.IDENTITY_ATTACK === 0)
    const criticism = rows.filter((e) => e.labels.INSULT === 0 && e.labels.TOXICITY === undefined)
    assert.isAtLeast(insults.filter((e) => /^(You|Seriously, you)/.test(e.text)).length, 30)
    assert.isAtLeast(criticism.length, 30)
    const superlative = (t: string) => /the (\w+est|most \w+|worst) /.exec(t)?.[1]
    assert.deepStrictEqual(new Set(insults.map((e) => superlative(e.text)).filter((x) => x !== undefined)), new Set(criticism.map((e) => superlative(e.text))))
    // identity attacks: every group with a dehumanising predicate also with a neutral one, same frame
    const neutral = rows.filter((e) => e.labels.IDENTITY_ATTACK === 0 && e.labels.TOXICITY === 0).map((e) => words(e.text))
    // the same frame and group: the predicate (one or two words) is all that differs
    const oneWordApart = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && [1, 2].includes(a.filter((w, i) => w !== b[i]).length)
    const attacks = rows.filter((e) => e.labels.IDENTITY_ATTACK === 1)
    assert.isAtLeast(attacks.length, 50)
    assert.deepStrictEqual(attacks.filter((e) => !neutral.some((n) => oneWordApart(words(e.text), n))).map((e) => e.text), [])
  })

  it("keeps the contrastive dev pairs out of training, the guardrails and the functional suite (no shared word 4-gram)", () => {
    const dev = CONTRASTIVE_DEV.flatMap(([, toxic, harmless]) => [toxic, harmless])
    const others = new Set([...augmentation().map((e) => e.text), ...GUARDRAILS.flatMap((g) => g.texts), ...FUNCTIONAL_SUITE.map((c) => c.text)].flatMap((t) => grams(t, 4)))
    assert.deepStrictEqual(dev.filter((t) => grams(t, 4).some((g) => others.has(g))), [])
    // each head's dev rows: the toxic member of every pair 1, the harmless one 0; TOXICITY reads every pair
    assert.deepStrictEqual(contrastiveDevRows("THREAT").map((r) => r.y), CONTRASTIVE_DEV.filter(([l]) => l === "THREAT").flatMap(() => [1, 0]))
    assert.lengthOf(contrastiveDevRows("TOXICITY"), 2 * CONTRASTIVE_DEV.length)
    assert.deepStrictEqual(contrastiveDevRows("PROFANITY"), [])
  })
})
