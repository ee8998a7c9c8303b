/**
 * The AI-text detector's training and runtime on small fixtures of its own (no ../shared): a
 * detector trained on a handful of texts, written as the shipped files are, read back by
 * `AiTextDetector`; quotes, short-text confidence, ranking, and the damaged-file rule.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Logger, Option } from "effect"
import { assert, describe, it } from "@effect/vitest"
import { AiTextModel } from "@decorum/local"
import { applyCalibration } from "@decorum/local/Calibration"
import { AITEXT_MANIFEST, AiTextDetector, aiTextModelIn, loadAiTextWeights } from "@decorum/local"
import { AITEXT_DEFAULTS, chooseThreshold, classWeights, figures, mineLexicon, trainAiText } from "../aitext.js"
import type { AiRow } from "../aitextData.js"
import { scratchDir } from "../../local/test/scratch.js"

const LLM = [
  "Climate change is a complex and multifaceted issue that requires a comprehensive approach. Additionally, it is important to consider the economic, social, and environmental impacts of any policy. Ultimately, a balanced strategy can help create a more sustainable future.",
  "There are several ways to improve your sleep:\n\n1. Maintain a consistent schedule: going to bed at the same time helps regulate your body's clock.\n2. Create a relaxing environment: ensure your bedroom is dark, quiet, and cool.\n\nOverall, these strategies can significantly enhance your well-being.",
  "The new library offers a wide range of resources for students, researchers, and community members. Its modern design not only enhances accessibility but also fosters collaboration. However, it is worth noting that funding challenges may impact its sustainability.",
  "Regular exercise plays a crucial role in maintaining overall health. Furthermore, it can help reduce stress, improve mood, and boost energy levels. It is essential to find activities that you genuinely enjoy, as this fosters long-term consistency.",
  "Effective communication is essential in any workplace. Moreover, it fosters trust, collaboration, and innovation among team members. In conclusion, organizations that prioritize clear communication are better positioned to navigate complex challenges.",
  "Traveling offers a unique opportunity to explore diverse cultures, cuisines, and landscapes. Additionally, it can broaden your perspective and foster personal growth. Ultimately, the experiences gained are invaluable and may shape your outlook."
]
const HUMAN = [
  "lol no way, my brother tried that last year and it totally broke his car. dont bother tbh",
  "I've been reading this blog for years and honestly? This is the first post I disagree with. My dad ran a shop like that in the 80s and it was nothing like you describe... we barely scraped by",
  "Ugh. Train was late AGAIN this morning. Third time this week!! Somebody at the council needs to sort it out",
  "nah mate you've got it backwards, the ref gave the penalty AFTER the replay. watch it again",
  "Made this last night for the kids. Swapped the butter for olive oil cos we'd run out, still came out great!",
  "my cat just knocked a full glass of water onto my laptop. i'm done with today honestly"
]
const HELD_OUT_LLM = "Social media has transformed the way we communicate, offering numerous benefits and challenges. Additionally, it is important to recognize its impact on mental health, privacy, and public discourse. Ultimately, a balanced approach can help users navigate this complex landscape."
const HELD_OUT_HUMAN = "ok so i finally tried the new bakery on main st and honestly?? overrated lol. the croissants were kinda stale and they charged me 5 bucks"

const row = (text: string, label: number, i: number, split: AiRow["split"]): AiRow => ({
  text, label, source: "l2r", generator: label === 1 ? "fixture-llm" : "human", domain: "fixture", group: `g${i}`, split
})
const TRAIN = [...LLM.map((t, i) => row(t, 1, i, "train")), ...HUMAN.map((t, i) => row(t, 0, 100 + i, "train"))]
// dev: the training texts again (the fixture is too small for a split); it only calibrates
const DEV = TRAIN.map((r) => ({ ...r, split: "dev" as const }))
const HC3 = { llm: ["there are several ways", "in conclusion"], human: ["my two cents"] }
const OPTIONS = { ...AITEXT_DEFAULTS, mineMinDocs: 2, C: 10 }

const trained = trainAiText(TRAIN, DEV, HC3, OPTIONS, "aitext-test")

const writeModel = (json = JSON.stringify(trained.manifest), bin: Uint8Array | "none" = trained.bytes): string => {
  const dir = scratchDir("decorum-aitext-")
  writeFileSync(join(dir, AITEXT_MANIFEST), json)
  if (bin !== "none") writeFileSync(join(dir, trained.manifest.file), bin)
  return dir
}

const TEXTS = [
  ...LLM, ...HUMAN, HELD_OUT_LLM, HELD_OUT_HUMAN, "",
  "İstanbul’s “tram” — and then İzmir’s, furthermore: additionally, it is important to note 😀👍🏽 the economic, social, and political costs.",
  "## Key points\n\n**Overall**, it is crucial to note — as many note — that there are several ways to do this.\n- First item\n* Second item",
  "Noe\u0308l said so. e\u0301te\u0301, café, naïve, and coöperate; moreover, it may be significant. https://example.org/a.b?c=d @handle"
]

describe("AI-text detector training", () => {
  it("mines LLM and human words from the training texts", () => {
    const lexicon = mineLexicon(TRAIN, HC3, { mineTop: 50, mineMinDocs: 2 })
    assert.include(Object.keys(lexicon.llmWords), "fosters")
    assert.notInclude(Object.keys(lexicon.llmWords), "lol")
    assert.deepStrictEqual(lexicon.llmPhrases, HC3.llm)
  })

  it("weights each source's classes equally", () => {
    const rows = [row("a", 1, 1, "train"), row("b", 1, 2, "train"), row("c", 1, 3, "train"), row("d", 0, 4, "train")]
    const w = classWeights(rows, { l2r: 1, grid: 1, tweepfake: 1 })
    assert.closeTo(w[0]! * 3, w[3]!, 0.005)
    assert.closeTo(w.reduce((a, b) => a + b, 0), 4, 0.005)
  })

  it("chooses the lowest threshold from 0.5 that keeps human texts of 15+ words under the rate", () => {
    const long = (label: number) => row("word ".repeat(20), label, 0, "dev")
    const rows = [long(0), long(0), long(0), long(0), row("short", 0, 1, "dev")]
    assert.strictEqual(chooseThreshold([0.2, 0.3, 0.4, 0.8, 0.99], rows, 0.25), 0.5)
    assert.strictEqual(chooseThreshold([0.2, 0.3, 0.7, 0.8, 0.99], rows, 0.25), 0.71)
    assert.deepInclude(figures([0.9, 0.2, 0.6], [1, 0, 0], 0.5), { accuracy: 2 / 3, fpr: 0.5, auc: 1 })
  })

  it("ranks held-out LLM-style text above held-out human text", () => {
    const llm = trained.weights.analyse(HELD_OUT_LLM)
    const human = trained.weights.analyse(HELD_OUT_HUMAN)
    assert.isAbove(llm.likelihood, 0.5)
    assert.isBelow(human.likelihood, 0.5)
  })
})

describe("AI-text detector at runtime", () => {
  it("reads back from its files exactly what training scored", () => {
    const loaded = loadAiTextWeights(writeModel())
    for (const t of TEXTS) assert.deepStrictEqual(loaded.analyse(t), trained.weights.analyse(t))
  })

  it("quotes verbatim, strongest first, in any script and with links, markdown and combining marks", () => {
    let seen = 0
    const kinds = new Set<string>()
    for (const t of TEXTS) {
      const a = trained.weights.analyse(t)
      for (const s of a.signals) {
        assert.strictEqual(t.slice(s.begin, s.end), s.quote)
        assert.notStrictEqual(s.quote.trim(), "")
        assert.match(s.description, /^[A-Z"].*\.$/)
        kinds.add(s.type)
        seen++
      }
      assert.isAtMost(a.signals.length, 8)
      assert.isAbove(a.reasoning.length, 20)
    }
    assert.isAbove(seen, 10)
    assert.deepStrictEqual([...kinds].sort(), ["epistemic", "structural", "stylistic", "word_frequency"])
  })

  it("is not confident about short texts, however they score", () => {
    const short = ["Furthermore, it is crucial.", "Additionally, this is essential and significant overall.", "lol ok", "Thanks, great post!", "In conclusion, there are several ways to approach this issue."]
    for (const t of short) assert.isBelow(trained.weights.analyse(t).confidence, 0.45, t)
    assert.isAbove(trained.weights.analyse(HELD_OUT_LLM).confidence, 0.5)
    assert.deepInclude(trained.weights.analyse(""), { likelihood: 0, confidence: 0, signals: [] })
  })

  it("scales a short text's log-odds down before calibration, and leaves longer texts alone", () => {
    const full = trained.manifest.fullWords!
    assert.strictEqual(full, 25)
    const short = trained.weights.analyse("Additionally, it is crucial to consider this.")
    assert.isBelow(short.words, full)
    assert.closeTo(short.likelihood, applyCalibration(trained.manifest.calibration, (short.z * short.words) / full), 5e-13)
    const long = trained.weights.analyse(HELD_OUT_LLM)
    assert.isAtLeast(long.words, full)
    assert.closeTo(long.likelihood, applyCalibration(trained.manifest.calibration, long.z), 5e-13)
    assert.strictEqual(trained.manifest.threshold, 0.5)
  })

  const serviceIn = (dir: string) =>
    Effect.runPromise(Effect.gen(function*() {
      const lines: Array<string> = []
      const logger = Logger.replace(Logger.defaultLogger, Logger.make(({ logLevel, message }) => lines.push(`${logLevel.label} ${String(message)}`)))
      const service = yield* Effect.serviceOption(AiTextModel).pipe(Effect.provide(AiTextDetector.layerIn(dir)), Effect.provide(logger))
      return { service, lines }
    }))

  it("provides the service from good files, nothing silently without them, nothing with one warning when damaged", async () => {
    const good = await serviceIn(writeModel())
    assert.deepStrictEqual(good.lines, [])
    const service = Option.getOrThrow(good.service)
    assert.strictEqual(service.version, "aitext-test")
    const a = service.analyse(HELD_OUT_LLM)
    assert.deepStrictEqual(a, { likelihood: a.likelihood, confidence: a.confidence, signals: a.signals, reasoning: a.reasoning })
    assert.strictEqual(a.likelihood, trained.weights.analyse(HELD_OUT_LLM).likelihood)
    const none = await serviceIn(scratchDir("decorum-aitext-none-"))
    assert.isTrue(Option.isNone(none.service))
    assert.deepStrictEqual(none.lines, [])
    assert.isTrue(Option.isNone(Effect.runSync(aiTextModelIn(scratchDir("decorum-aitext-none-")))))
    const json = JSON.stringify(trained.manifest)
    const flipped = Uint8Array.from(trained.bytes)
    flipped[flipped.length - 1] = flipped[flipped.length - 1]! ^ 0xff
    const damaged: ReadonlyArray<readonly [string, string, Uint8Array | "none"]> = [
      ["weight file missing", json, "none"],
      ["weight file damaged", json, flipped],
      ["weight file truncated", json, trained.bytes.subarray(0, 100)],
      ["manifest unreadable", json.slice(0, 200), trained.bytes],
      ["manifest of another format", json.replace('"format":1', '"format":99'), trained.bytes],
      ["manifest of another feature list", json.replace('"len_log"', '"length"'), trained.bytes]
    ]
    for (const [what, j, bin] of damaged) {
      const r = await serviceIn(writeModel(j, bin))
      assert.isTrue(Option.isNone(r.service), what)
      assert.strictEqual(r.lines.length, 1, what)
      assert.match(r.lines[0]!, /^WARN AI-text detector in .* not loaded \(.+\): llmdetect has no local model/, what)
    }
    assert.strictEqual(readFileSync(join(writeModel(), AITEXT_MANIFEST), "utf8"), json)
  })
})
