import { Perspective } from "@decorum/domain"
import { AttributeModel, CUE_MODEL_VERSION, CueModel, type ModelLabel } from "@decorum/local"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { corpus } from "../evaluators/fixtures.js"

const HARMFUL: ReadonlyArray<ModelLabel> = [
  "TOXICITY", "SEVERE_TOXICITY", "IDENTITY_ATTACK", "INSULT", "PROFANITY", "THREAT", "SEXUALLY_EXPLICIT", "FLIRTATION",
  "ATTACK_ON_AUTHOR", "ATTACK_ON_COMMENTER", "INCOHERENT", "INFLAMMATORY", "OBSCENE", "SPAM"
]

const withModel = <A>(f: (model: AttributeModel["Type"]) => A) => Effect.map(AttributeModel, f).pipe(Effect.provide(CueModel))

describe("CueModel", () => {
  it.effect("scores every Perspective attribute plus LOW_EFFORT and CONSTRUCTIVE, under its version", () =>
    withModel((model) => {
      assert.strictEqual(model.version, CUE_MODEL_VERSION)
      for (const a of Perspective.Attributes) assert.include(model.labels, a)
      assert.include(model.labels, "LOW_EFFORT")
      assert.include(model.labels, "CONSTRUCTIVE")
      for (const text of corpus) {
        const p = model.predict(model.analyse(text), model.labels)
        for (const label of model.labels) {
          assert.isAtLeast(p[label]!, 0, `${label} of ${JSON.stringify(text)}`)
          assert.isAtMost(p[label]!, 1)
        }
      }
    }))

  it.effect("keeps neutral comments low on every harmful label", () =>
    withModel((model) => {
      const neutral = [
        "I think the council is right here, because congestion costs everyone time.",
        "The tram opened in 2019 and now carries about 40,000 people a day.",
        "Does anyone know whether the new line will stop at the hospital?",
        "My daughter uses it to get to school; it has been reliable so far, though it is crowded at 8am."
      ]
      for (const text of neutral) {
        const p = model.predict(model.analyse(text), HARMFUL)
        for (const label of HARMFUL) assert.isBelow(p[label]!, 0.2, `${label} of ${JSON.stringify(text)}`)
      }
    }))

  it.effect("scores an insult high on TOXICITY and INSULT and explains it with the insult", () =>
    withModel((model) => {
      const text = "You are an idiot and nobody wants your opinion."
      const p = model.predict(model.analyse(text), ["TOXICITY", "INSULT", "ATTACK_ON_COMMENTER"])
      assert.isAbove(p.TOXICITY!, 0.7)
      assert.isAbove(p.INSULT!, 0.7)
      assert.isAbove(p.ATTACK_ON_COMMENTER!, 0.5)
      const spans = model.explain(model.analyse(text), "INSULT", 3)
      assert.isAbove(spans.length, 0)
      assert.match(text.slice(spans[0]!.begin, spans[0]!.end), /idiot/u)
      // strongest first
      for (let i = 1; i < spans.length; i++) assert.isAtLeast(spans[i - 1]!.weight, spans[i]!.weight)
    }))

  it.effect("catches obfuscated profanity", () =>
    withModel((model) => {
      for (const [text, word] of [["f*ck this council", "f*ck"], ["fuuuck off", "fuuuck"], ["this plan is sh1t", "sh1t"]] as const) {
        assert.isAbove(model.predict(model.analyse(text), ["PROFANITY"]).PROFANITY!, 0.7, text)
        const top = model.explain(model.analyse(text), "PROFANITY", 1)[0]
        assert.strictEqual(top && text.slice(top.begin, top.end), word, text)
      }
    }))

  it.effect("recognises threats, identity attacks, sexual content and flirtation", () =>
    withModel((model) => {
      assert.isAbove(model.predict(model.analyse("I will kill you if I see you again."), ["THREAT"]).THREAT!, 0.7)
      assert.isBelow(model.predict(model.analyse("I would never hurt you."), ["THREAT"]).THREAT!, 0.3)
      assert.isAbove(model.predict(model.analyse("Immigrants are vermin and should be deported."), ["IDENTITY_ATTACK"]).IDENTITY_ATTACK!, 0.7)
      assert.isBelow(model.predict(model.analyse("Immigrants are not criminals."), ["IDENTITY_ATTACK"]).IDENTITY_ATTACK!, 0.2)
      assert.isAbove(model.predict(model.analyse("Send nudes, I'm horny"), ["SEXUALLY_EXPLICIT"]).SEXUALLY_EXPLICIT!, 0.7)
      assert.isAbove(model.predict(model.analyse("Hey cutie, you're so hot 😘"), ["FLIRTATION"]).FLIRTATION!, 0.7)
    }))

  it.effect("rewards reasoning, nuance, personal stories, curiosity and compassion on the bridging labels", () =>
    withModel((model) => {
      const text =
        "When I was a nurse, my ward lost two staff because of the cuts. However, it depends on the hospital. " +
        "Is there data on this? I'm sorry to hear about your own experience, I hope things improve."
      const p = model.predict(model.analyse(text), model.labels)
      assert.isAbove(p.REASONING_EXPERIMENTAL!, 0.4)
      assert.isAbove(p.NUANCE_EXPERIMENTAL!, 0.4)
      assert.isAbove(p.PERSONAL_STORY_EXPERIMENTAL!, 0.4)
      assert.isAbove(p.CURIOSITY_EXPERIMENTAL!, 0.4)
      assert.isAbove(p.COMPASSION_EXPERIMENTAL!, 0.4)
      assert.isAbove(p.CONSTRUCTIVE!, 0.7)
      assert.isBelow(p.LOW_EFFORT!, 0.2)
      assert.isAbove(model.predict(model.analyse("me too"), ["LOW_EFFORT"]).LOW_EFFORT!, 0.8)
    }))

  it.effect("explains every label with non-empty, in-bounds spans, strongest first", () =>
    withModel((model) => {
      for (const text of corpus) {
        for (const label of model.labels) {
          const spans = model.explain(model.analyse(text), label, 5)
          assert.isAtMost(spans.length, 5)
          for (const [i, s] of spans.entries()) {
            assert.isAtLeast(s.begin, 0)
            assert.isAtMost(s.end, text.length)
            assert.isAbove(s.end, s.begin)
            assert.isAbove(text.slice(s.begin, s.end).trim().length, 0)
            if (i > 0) assert.isAtLeast(spans[i - 1]!.weight, s.weight)
          }
        }
      }
    }))
})
