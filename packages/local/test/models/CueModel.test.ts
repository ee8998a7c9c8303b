import { Perspective } from "@decorum/domain"
import { AttributeModel, CUE_MODEL_VERSION, CueModel, type ModelLabel } from "@decorum/local"
import { describe, expect, it } from "@effect/vitest"
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
      expect(model.version).toBe(CUE_MODEL_VERSION)
      for (const a of Perspective.Attributes) expect(model.labels).toContain(a)
      expect(model.labels).toContain("LOW_EFFORT")
      expect(model.labels).toContain("CONSTRUCTIVE")
      for (const text of corpus) {
        const p = model.predict(model.analyse(text), model.labels)
        for (const label of model.labels) {
          expect(p[label], `${label} of ${JSON.stringify(text)}`).toBeGreaterThanOrEqual(0)
          expect(p[label]).toBeLessThanOrEqual(1)
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
        for (const label of HARMFUL) expect(p[label], `${label} of ${JSON.stringify(text)}`).toBeLessThan(0.2)
      }
    }))

  it.effect("scores an insult high on TOXICITY and INSULT and explains it with the insult", () =>
    withModel((model) => {
      const text = "You are an idiot and nobody wants your opinion."
      const p = model.predict(model.analyse(text), ["TOXICITY", "INSULT", "ATTACK_ON_COMMENTER"])
      expect(p.TOXICITY).toBeGreaterThan(0.7)
      expect(p.INSULT).toBeGreaterThan(0.7)
      expect(p.ATTACK_ON_COMMENTER).toBeGreaterThan(0.5)
      const spans = model.explain(model.analyse(text), "INSULT", 3)
      expect(spans.length).toBeGreaterThan(0)
      expect(text.slice(spans[0]!.begin, spans[0]!.end)).toMatch(/idiot/u)
      // strongest first
      for (let i = 1; i < spans.length; i++) expect(spans[i - 1]!.weight).toBeGreaterThanOrEqual(spans[i]!.weight)
    }))

  it.effect("catches obfuscated profanity", () =>
    withModel((model) => {
      for (const [text, word] of [["f*ck this council", "f*ck"], ["fuuuck off", "fuuuck"], ["this plan is sh1t", "sh1t"]] as const) {
        expect(model.predict(model.analyse(text), ["PROFANITY"]).PROFANITY, text).toBeGreaterThan(0.7)
        const top = model.explain(model.analyse(text), "PROFANITY", 1)[0]
        expect(top && text.slice(top.begin, top.end), text).toBe(word)
      }
    }))

  it.effect("recognises threats, identity attacks, sexual content and flirtation", () =>
    withModel((model) => {
      expect(model.predict(model.analyse("I will kill you if I see you again."), ["THREAT"]).THREAT).toBeGreaterThan(0.7)
      expect(model.predict(model.analyse("I would never hurt you."), ["THREAT"]).THREAT).toBeLessThan(0.3)
      expect(model.predict(model.analyse("Immigrants are vermin and should be deported."), ["IDENTITY_ATTACK"]).IDENTITY_ATTACK).toBeGreaterThan(0.7)
      expect(model.predict(model.analyse("Immigrants are not criminals."), ["IDENTITY_ATTACK"]).IDENTITY_ATTACK).toBeLessThan(0.2)
      expect(model.predict(model.analyse("Send nudes, I'm horny"), ["SEXUALLY_EXPLICIT"]).SEXUALLY_EXPLICIT).toBeGreaterThan(0.7)
      expect(model.predict(model.analyse("Hey cutie, you're so hot 😘"), ["FLIRTATION"]).FLIRTATION).toBeGreaterThan(0.7)
    }))

  it.effect("rewards reasoning, nuance, personal stories, curiosity and compassion on the bridging labels", () =>
    withModel((model) => {
      const text =
        "When I was a nurse, my ward lost two staff because of the cuts. However, it depends on the hospital. " +
        "Is there data on this? I'm sorry to hear about your own experience, I hope things improve."
      const p = model.predict(model.analyse(text), model.labels)
      expect(p.REASONING_EXPERIMENTAL).toBeGreaterThan(0.4)
      expect(p.NUANCE_EXPERIMENTAL).toBeGreaterThan(0.4)
      expect(p.PERSONAL_STORY_EXPERIMENTAL).toBeGreaterThan(0.4)
      expect(p.CURIOSITY_EXPERIMENTAL).toBeGreaterThan(0.4)
      expect(p.COMPASSION_EXPERIMENTAL).toBeGreaterThan(0.4)
      expect(p.CONSTRUCTIVE).toBeGreaterThan(0.7)
      expect(p.LOW_EFFORT).toBeLessThan(0.2)
      expect(model.predict(model.analyse("me too"), ["LOW_EFFORT"]).LOW_EFFORT).toBeGreaterThan(0.8)
    }))

  it.effect("explains every label with non-empty, in-bounds spans, strongest first", () =>
    withModel((model) => {
      for (const text of corpus) {
        for (const label of model.labels) {
          const spans = model.explain(model.analyse(text), label, 5)
          expect(spans.length).toBeLessThanOrEqual(5)
          for (const [i, s] of spans.entries()) {
            expect(s.begin).toBeGreaterThanOrEqual(0)
            expect(s.end).toBeLessThanOrEqual(text.length)
            expect(s.end).toBeGreaterThan(s.begin)
            expect(text.slice(s.begin, s.end).trim().length).toBeGreaterThan(0)
            if (i > 0) expect(spans[i - 1]!.weight).toBeGreaterThanOrEqual(s.weight)
          }
        }
      }
    }))
})
