/**
 * The shipped AI-text detector (`packages/local/models/aitext.json` + `aitext.bin`): it loads,
 * ranks obvious machine-style text above obvious human comments it never saw, quotes verbatim,
 * and is not confident about short texts. (Its figures on held-out data: docs/aitext.md.)
 */
import { assert, describe, it } from "@effect/vitest"
import { loadAiTextWeights } from "../../src/models/AiTextDetector.js"

const weights = loadAiTextWeights()

const MACHINE = [
  "Remote work offers numerous benefits, including increased flexibility, reduced commuting time, and improved work-life balance. However, it is important to recognize the potential challenges, such as isolation and communication barriers. Ultimately, organizations that foster a culture of trust and collaboration are better positioned to thrive in this evolving landscape.",
  "There are several ways to reduce food waste at home:\n\n1. **Plan your meals**: Creating a weekly meal plan helps you buy only what you need.\n2. **Store food properly**: Proper storage can significantly extend the shelf life of produce.\n3. **Repurpose leftovers**: Transform leftovers into new dishes to minimize waste.\n\nBy implementing these strategies, you can save money while contributing to a more sustainable future.",
  "The city council's decision to expand the bike lane network reflects a growing commitment to sustainable transportation. Additionally, the initiative aims to enhance safety for cyclists and pedestrians alike. While some residents have expressed concerns about reduced parking, the long-term benefits for public health, air quality, and community well-being are significant."
]
const HUMAN = [
  "lol my neighbour tried this last summer and his whole garden flooded. honestly dont bother, just pay someone",
  "Read the article twice and I still don't get why they closed the pool. We've been going there since my kids were tiny. Nobody asked us, as usual!!",
  "nah the ref was right, watch the replay again. his foot was miles offside and everyone in the pub saw it",
  "Tried the recipe tonight - used half the sugar cos I'm trying to cut down and it was still too sweet for me? Kids loved it though haha"
]

describe("the shipped AI-text detector", () => {
  it("is a versioned aitext release whose decision point is a likelihood of 0.5", () => {
    assert.match(weights.manifest.version, /^aitext-\d{4}\.\d{2}\.\d+$/)
    assert.strictEqual(weights.manifest.threshold, 0.5)
    assert.deepStrictEqual(weights.manifest.sources.map((s) => s.dataset), ["l2r-llm-rewrites", "grid-gpt-reddit", "tweepfake", "hc3-indicating-words"])
  })

  it("ranks every machine-style fixture above every human comment, on the right side of 0.5", () => {
    const machine = MACHINE.map((t) => weights.analyse(t).likelihood)
    const human = HUMAN.map((t) => weights.analyse(t).likelihood)
    assert.isAbove(Math.min(...machine), Math.max(...human))
    for (const p of machine) assert.isAbove(p, 0.5)
    for (const p of human) assert.isBelow(p, 0.5)
  })

  it("quotes verbatim with signals of every type over the machine fixtures, and explains itself", () => {
    const kinds = new Set<string>()
    for (const t of [...MACHINE, ...HUMAN]) {
      const a = weights.analyse(t)
      for (const s of a.signals) {
        assert.strictEqual(t.slice(s.begin, s.end), s.quote)
        kinds.add(s.type)
      }
      assert.match(a.reasoning, /likelihood \d+%/)
    }
    assert.deepStrictEqual([...kinds].sort(), ["epistemic", "structural", "stylistic", "word_frequency"])
    assert.isAbove(weights.analyse(MACHINE[0]!).signals.length, 2)
  })

  it("gives short texts low confidence however they score, and does not call short human replies machine-written", () => {
    for (const t of ["Furthermore, this is crucial.", "Great point, thanks!", "Additionally, it is essential to consider various factors.", "lol what", "Agreed. The bus is always late."]) {
      assert.isBelow(weights.analyse(t).confidence, 0.45, t)
    }
    for (const t of ["Great point, thanks!", "lol what", "Agreed. The bus is always late.", "Who cares, honestly", "This. So much this."]) {
      assert.isBelow(weights.analyse(t).likelihood, 0.5, t)
    }
    for (const t of MACHINE) assert.isAbove(weights.analyse(t).confidence, 0.6)
  })
})
