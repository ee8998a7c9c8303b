/**
 * The dog-whistle detector: a fixture model written and read back through the file format (round
 * trip, damaged files, the layer), and the shipped model on the literal uses that must stay clean,
 * on coded uses, on site examples, sensitive topics and context. Needs no ../shared.
 */
import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer, Logger, Option } from "effect"
import { DogWhistleModel, type DogWhistleInput } from "../../src/DogWhistleModel.js"
import { matchTokens, TermMatcher } from "../../src/internal/dogwhistle/matcher.js"
import { DOGWHISTLE_FORMAT, type DogWhistleManifest, type DogWhistleTerm, HitFeaturizer, isSymbolForm } from "../../src/internal/dogwhistle/model.js"
import { encodeWeights } from "../../src/internal/model/format.js"
import { DOGWHISTLE_MANIFEST, DogWhistleDetector, dogWhistleModelIn, fromDogWhistleScorer, loadDogWhistleScorer } from "../../src/models/DogWhistleDetector.js"
import { defaultModelDirectory } from "../../src/models/TrainedModel.js"
import { scratchDir } from "../scratch.js"

const input = (comment: string, more: Partial<DogWhistleInput> = {}): DogWhistleInput => ({ comment, sensitiveTopics: [], examples: [], context: [], ...more })

// ------------------------------------------------------------------ a fixture model

const TERMS: ReadonlyArray<DogWhistleTerm> = [
  { root: "globalist", key: "globalist", category: "antisemitic", type: "stereotype-based target group label", register: "Formal/Offline", meaning: "Jewish people, cast as disloyal elites", subtlety: 0.65, harm: 0.85, forms: [{ text: "globalist" }, { text: "globalists" }] },
  { root: "1488", key: "1488", category: "white supremacist", type: "persona signal (symbol)", register: "Informal/Online", meaning: "The 14 Words and Heil Hitler", subtlety: 0.45, harm: 0.75, forms: [{ text: "14/88" }, { text: "88" }, { text: "14 words" }] },
  { root: "triple parentheses", key: "tripleparentheses", category: "antisemitic", type: "arbitrary target group label", register: "Informal/Online", meaning: "Marks a name as Jewish", subtlety: 0.4, harm: 0.9, forms: [{ text: "triple parentheses" }], echo: true }
]
const FEATURES = { bits: 12, charMin: 3, charMax: 5, negationScope: 3 }
const CODED = ["the globalist bankers control everything, wake up", "the (((globalists))) own the media and the banks", "secure the existence of our people 14/88"]
const LITERAL = ["a globalist trade policy lowered tariffs for exporters", "globalist economists favour open trade and lower tariffs", "the article has 14 words in its headline", "88 people came to the meeting"]

/** A fixture weight table: each coded example's features pushed up, each literal one's down. */
const fixtureFiles = (dir: string, manifestChange: (m: DogWhistleManifest) => DogWhistleManifest = (m) => m): { manifest: DogWhistleManifest; bytes: Uint8Array } => {
  const hf = new HitFeaturizer(FEATURES, 8)
  const matcher = new TermMatcher(TERMS.map((t) => t.forms), 2)
  const w = new Float32Array(1 << FEATURES.bits)
  const mask = (1 << FEATURES.bits) - 1
  // a perceptron with a margin, a few passes: every fixture text on its side of the threshold
  for (let epoch = 0; epoch < 20; epoch++) {
    for (const [texts, sign] of [[CODED, 1], [LITERAL, -1]] as const) {
      for (const text of texts) {
        const tokens = matchTokens(text)
        const hits = matcher.match(text, tokens)
        for (const h of hits) {
          const term = TERMS[h.term]!
          const form = h.form >= 0 ? term.forms[h.form]!.text : text.slice(h.begin, h.end)
          hf.run(text, tokens, { ...h, term, form, symbol: isSymbolForm(form) }, hits)
          let z = -0.5 + (isSymbolForm(form) ? -1 : 0)
          hf.idx.forEach((j, k) => (z += w[j & mask]! * hf.val[k]!))
          if (sign * z < 1) hf.idx.forEach((j, k) => (w[j & mask]! += sign * 0.5 * hf.val[k]!))
        }
      }
    }
  }
  const bytes = encodeWeights(FEATURES.bits, [w], [-0.5])
  const manifest = manifestChange({
    format: DOGWHISTLE_FORMAT,
    version: "dogwhistle-test",
    file: "dogwhistle.bin",
    sha256: createHash("sha256").update(bytes).digest("hex"),
    features: FEATURES,
    window: 8,
    threshold: 0.5,
    shifts: { symbol: -1, site: 2.5, topic: 0.75, topicInComment: 0.35, context: 0.5 },
    terms: TERMS,
    sources: []
  })
  writeFileSync(join(dir, "dogwhistle.bin"), bytes)
  writeFileSync(join(dir, DOGWHISTLE_MANIFEST), JSON.stringify(manifest))
  return { manifest, bytes }
}

describe("DogWhistleDetector (fixture model)", () => {
  it("writes and reads back a model: the same scores as the weights it was written from", () => {
    const dir = scratchDir("decorum-dogwhistle-")
    fixtureFiles(dir)
    const scorer = loadDogWhistleScorer(dir)
    const service = fromDogWhistleScorer(scorer)
    assert.strictEqual(service.version, "dogwhistle-test")
    for (const text of CODED) {
      const a = service.analyse(input(text))
      assert.isTrue(a.detected, text)
      for (const h of a.hits) assert.strictEqual(text.slice(h.begin, h.end), h.term)
      assert.isAbove(a.hits[0]!.meaning.length, 0)
      assert.include(a.reasoning, a.hits[0]!.term)
    }
    for (const text of LITERAL) assert.isFalse(service.analyse(input(text)).detected, text)
    assert.deepStrictEqual(service.analyse(input("a quiet afternoon in the park")).hits, [])
  })

  it("provides no layer, with one warning, when the files are damaged; none, silently, without a manifest", async () => {
    const run = (dir: string) =>
      Effect.runPromise(Effect.gen(function*() {
        const lines: Array<string> = []
        const logger = Logger.replace(Logger.defaultLogger, Logger.make(({ logLevel, message }) => lines.push(`${logLevel.label} ${String(message)}`)))
        const found = yield* Effect.serviceOption(DogWhistleModel).pipe(Effect.provide(DogWhistleDetector.layerIn(dir)), Effect.provide(logger))
        return { found: Option.isSome(found), lines }
      }))
    const empty = scratchDir("decorum-dogwhistle-none-")
    assert.deepStrictEqual(await run(empty), { found: false, lines: [] })
    const good = scratchDir("decorum-dogwhistle-good-")
    const { bytes, manifest } = fixtureFiles(good)
    assert.deepStrictEqual(await run(good), { found: true, lines: [] })
    const flipped = Uint8Array.from(bytes)
    flipped[flipped.length - 1] = flipped[flipped.length - 1]! ^ 0xff
    const cases: ReadonlyArray<readonly [string, string, Uint8Array | undefined]> = [
      ["weight file missing", JSON.stringify(manifest), undefined],
      ["weight file damaged", JSON.stringify(manifest), flipped],
      ["manifest unreadable", JSON.stringify(manifest).slice(0, 100), bytes],
      ["manifest of another format", JSON.stringify({ ...manifest, format: 99 }), bytes]
    ]
    for (const [what, json, bin] of cases) {
      const dir = scratchDir("decorum-dogwhistle-bad-")
      writeFileSync(join(dir, DOGWHISTLE_MANIFEST), json)
      if (bin !== undefined) writeFileSync(join(dir, "dogwhistle.bin"), bin)
      const r = await run(dir)
      assert.isFalse(r.found, what)
      assert.strictEqual(r.lines.length, 1, what)
      assert.match(r.lines[0]!, /^WARN dog-whistle detector in .* not loaded \(.+\)/, what)
    }
    assert.isTrue(Option.isNone(Effect.runSync(dogWhistleModelIn(empty))))
  })
})

// ------------------------------------------------------------------ the shipped model

const SHIPPED = defaultModelDirectory()
const shipped = existsSync(join(SHIPPED, DOGWHISTLE_MANIFEST)) ? fromDogWhistleScorer(loadDogWhistleScorer(SHIPPED)) : undefined

describe.runIf(shipped !== undefined)("the shipped dog-whistle detector", () => {
  const model = shipped!
  const manifest = JSON.parse(readFileSync(join(SHIPPED, DOGWHISTLE_MANIFEST), "utf8")) as DogWhistleManifest

  it("is versioned and built from the glossary", () => {
    assert.match(model.version, /^dogwhistle-\d{4}\.\d+\.\d+$/)
    assert.isAbove(manifest.terms.length, 200)
    assert.include(manifest.sources.map((s) => s.dataset), "silent-signals-informal")
  })

  it.each([
    "I counted the 14 words of the headline twice.",
    "There was an echo in the hall.",
    "See you all at the Christmas party on Friday!",
    "88 people attended the town meeting last night.",
    "My single mom worked two jobs to raise us.",
    "I grew up working class in Ohio and my dad was a union man.",
    "The council will vote on the new bus routes next week."
  ])("leaves a literal use clean: %s", (text) => {
    const a = model.analyse(input(text))
    assert.isFalse(a.detected)
    assert.deepStrictEqual(a.hits, [])
    assert.strictEqual(a.subtlety, 0)
    assert.strictEqual(a.harm, 0)
    assert.isAbove(a.reasoning.length, 20)
  })

  it.each([
    ["The globalists and their (((friends))) control the media, every single time.", "(((friends)))", "antisemitic"],
    ["Those TRAs want to erase women and call it progress.", "TRAs", "transphobic"],
    ["Remove kebab, deus vult!", "deus vult", "Islamophobic"]
  ])("flags a coded use, quoting it verbatim: %s", (text, term, category) => {
    const a = model.analyse(input(text))
    assert.isTrue(a.detected)
    const hit = a.hits.find((h) => h.term === term)
    assert.isDefined(hit)
    assert.strictEqual(text.slice(hit!.begin, hit!.end), term)
    assert.strictEqual(hit!.category, category)
    assert.include(a.reasoning, `"${term}"`)
    assert.isAbove(a.subtlety, 0)
    assert.isAbove(a.harm, 0)
    assert.isAtLeast(a.confidence, 0.5)
  })

  it("is less confident on a short comment than its hit's probability", () => {
    const short = model.analyse(input("Remove kebab, deus vult!"))
    assert.isTrue(short.detected)
    assert.isBelow(short.confidence, short.hits[0]!.probability)
    const clean = model.analyse(input("ok"))
    assert.isFalse(clean.detected)
    assert.isBelow(clean.confidence, model.analyse(input("The council will vote on the new bus routes next week, after a long public consultation on the timetable.")).confidence)
  })

  it("watches for a site's examples at once, in their obvious variants", () => {
    const examples = ["snowflake brigade"]
    for (const text of ["The Snowflake Brigade is at it again.", "more snowflake-brigades showing up"]) {
      assert.isFalse(model.analyse(input(text)).detected, text)
      const a = model.analyse(input(text, { examples }))
      assert.isTrue(a.detected, text)
      assert.strictEqual(a.hits[0]!.source, "site")
      assert.strictEqual(text.slice(a.hits[0]!.begin, a.hits[0]!.end), a.hits[0]!.term)
      assert.match(a.hits[0]!.term.toLowerCase().replace("-", " "), /^snowflake brigades?$/)
    }
  })

  it("reads sensitive topics and the context as shifts of a hit's probability", () => {
    const text = "They keep talking about illegal aliens."
    const probability = (a: ReturnType<typeof model.analyse>) => Math.max(0, ...a.hits.map((h) => h.probability))
    // the candidates are not in the port's answer: compare through a low threshold copy of the model
    const dir = scratchDir("decorum-dogwhistle-shift-")
    writeFileSync(join(dir, DOGWHISTLE_MANIFEST), JSON.stringify({ ...manifest, threshold: 0.001 }))
    writeFileSync(join(dir, manifest.file), readFileSync(join(SHIPPED, manifest.file)))
    const low = fromDogWhistleScorer(loadDogWhistleScorer(dir))
    const plain = probability(low.analyse(input(text)))
    assert.isAbove(plain, 0)
    assert.isAbove(probability(low.analyse(input(text, { sensitiveTopics: ["immigration"] }))), plain)
    assert.isAbove(probability(low.analyse(input(text, { context: ["Send the illegal aliens back, secure the border, MAGA"] }))), plain)
    assert.closeTo(probability(low.analyse(input(text, { context: ["What time does the bus leave?"] }))), plain, 5e-11)
  })

  it("analyses in well under a millisecond per comment", () => {
    const text = "The globalists and their (((friends))) control the media, every single time. ".repeat(5)
    model.analyse(input(text))
    const t0 = performance.now()
    for (let i = 0; i < 200; i++) model.analyse(input(text))
    assert.isBelow((performance.now() - t0) / 200, 5)
  })
})

// keep the layer type honest: a layer that may provide the detector
const _layer: Layer.Layer<never> = DogWhistleDetector.layerIn(SHIPPED)
void _layer
