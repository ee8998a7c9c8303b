/**
 * The per-language model sets (issue 28): the loader (an index at start, a language's weights on
 * its first use, kept), a model file written and read back, verbatim spans in Han and Devanagari
 * text, and a tiny model trained here ranking an obvious insult above a neutral sentence. The
 * fixtures are built by the test (no ../shared); the shipped sets are checked when present.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { assert, describe, it } from "@effect/vitest"
import type { ModelLabel } from "../../src/AttributeModel.js"
import { LanguageModels } from "../../src/LanguageModels.js"
import { applyCalibration } from "../../src/internal/calibration.js"
import { Featurizer, type FeatureConfig } from "@decorum/local/Featurizer" // as packages/training/fit.ts types it
import { BLOCK_CHAR, BLOCK_WORD } from "../../src/internal/model/features.js"
import { decodeIdf, decodeWeights, encodeIdf, encodeWeights, type Manifest } from "../../src/internal/model/format.js"
import type { ScriptOptions } from "../../src/internal/model/normalize.js"
import { defaultLanguageDirectory, LanguageModelSets, makeLanguageModels, type LanguageIndex } from "../../src/models/LanguageModelSets.js"
import { loadModelSet } from "../../src/models/TrainedModel.js"
import { SparseMatrix, trainLogistic } from "../../../training/fit.js"
import { LANGUAGE_RELEASE, languageVersion, nextRelease, RELEASE_PATTERN, releaseConflict, RELEASES_FILE, type LanguageReleases } from "../../../training/languageRelease.js"

interface Fixture {
  readonly code: string
  readonly script: ScriptOptions
  readonly positives: ReadonlyArray<string>
  readonly negatives: ReadonlyArray<string>
}

const ZH: Fixture = {
  code: "zh",
  script: { ideographs: true },
  positives: ["你是傻逼", "傻逼滚开", "这个傻逼真蠢", "滚吧傻逼", "傻逼东西", "你这个傻逼"],
  negatives: ["今天天气很好", "谢谢你的文章", "我喜欢这本书", "这个问题很有意思", "我们明天见", "文章写得很好"]
}
const HI: Fixture = {
  code: "hi",
  script: {},
  positives: ["तुम बेवकूफ़ हो", "बेवकूफ़ आदमी चुप रहो", "चुप बेवकूफ़", "कितना बेवकूफ़ है", "बेवकूफ़ लोग", "तू बेवकूफ़ है"],
  negatives: ["आज मौसम अच्छा है", "धन्यवाद आपका लेख अच्छा था", "मुझे यह किताब पसंद है", "हम कल मिलेंगे", "यह सवाल दिलचस्प है", "लेख बहुत अच्छा है", "तुम अच्छे हो", "तुम कल आओगे", "मुझे लगता है यह सही है"]
}

const BITS = 12
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex")

/** smooth idf of every slot folded to `BITS` over the fixture's texts (0 where no text has it), as the training computes it. */
const idfTable = (f: Featurizer, texts: ReadonlyArray<string>): Float64Array => {
  const df = new Float64Array(1 << BITS)
  for (const t of texts) {
    f.run(t)
    const seen = new Set<number>()
    for (let p = 0; p < f.nnz; p++) seen.add(f.idx[p]! & ((1 << BITS) - 1))
    for (const j of seen) df[j]! += 1
  }
  return df.map((d) => (d === 0 ? 0 : Math.log((1 + texts.length) / (1 + d)) + 1))
}

/**
 * Train a one-label set on a fixture and write it as `dir/<code>/` (manifest + weights; with
 * `idf`, an idf table too, applied before the fit as the per-language training does); returns its manifest.
 */
const writeLanguage = (
  dir: string,
  fx: Fixture,
  options: { readonly idf?: boolean; readonly plain?: boolean; readonly onlyParity?: 0 | 1 } = {}
): Manifest => {
  const features: FeatureConfig = {
    bits: 16,
    charMin: 3,
    charMax: 4,
    negationScope: 3,
    script: fx.script,
    ...(options.plain === true ? { plain: { charMin: 1, charMax: 5 } } : {})
  }
  const f = new Featurizer(features)
  const texts = [...fx.positives, ...fx.negatives]
  const idfBytes = options.idf === true ? encodeIdf(idfTable(f, texts)) : undefined
  if (idfBytes !== undefined) f.useIdf(decodeIdf(idfBytes))
  const X = new SparseMatrix()
  for (const t of texts) {
    f.run(t)
    X.pushFeatures(f)
  }
  const y = Float32Array.from(texts.map((_, i) => (i < fx.positives.length ? 1 : 0)))
  const model = trainLogistic(X, y, new Float32Array(texts.length).fill(1), { bits: BITS, epochs: 30, learningRate: 0.3, l2: 1e-6, seed: 7 })
  // a model of one feature set only (round 3's candidates): the other parity's slots weigh nothing
  if (options.onlyParity !== undefined) for (let j = 0; j < model.weights.length; j++) if ((j & 1) !== options.onlyParity) model.weights[j] = 0
  const bytes = encodeWeights(BITS, [model.weights], [model.bias])
  const manifest: Manifest = {
    format: 1,
    version: `local-${fx.code}-test`,
    features,
    respell: {},
    families: [{ name: fx.code, file: `${fx.code}.bin`, sha256: sha256(bytes), bits: BITS, labels: ["TOXICITY"], sources: [] }],
    labels: { TOXICITY: { kind: "trained", family: fx.code, calibration: { kind: "platt", a: 1, b: 0 } } },
    ...(idfBytes !== undefined ? { idf: { file: `${fx.code}.idf`, sha256: sha256(idfBytes), bits: BITS } } : {})
  }
  mkdirSync(join(dir, fx.code), { recursive: true })
  writeFileSync(join(dir, fx.code, `${fx.code}.bin`), bytes)
  if (idfBytes !== undefined) writeFileSync(join(dir, fx.code, `${fx.code}.idf`), idfBytes)
  writeFileSync(join(dir, fx.code, "manifest.json"), JSON.stringify(manifest))
  return manifest
}

const writeIndex = (dir: string, codes: ReadonlyArray<string>) => {
  const index: LanguageIndex = {
    format: 1,
    languages: Object.fromEntries(codes.map((c) => [c, { version: `local-${c}-test`, labels: ["TOXICITY"] as Array<ModelLabel>, directory: c }]))
  }
  writeFileSync(join(dir, "index.json"), JSON.stringify(index))
}

const fixtureDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "decorum-languages-"))
  writeLanguage(dir, ZH)
  writeLanguage(dir, HI)
  writeIndex(dir, ["zh", "hi"])
  return dir
}

describe("LanguageModelSets", () => {
  it("reads the index at start and loads a language's weights only when it is first asked for, once", () => {
    const dir = fixtureDir()
    const loads: Array<string> = []
    const models = makeLanguageModels(dir, { onLoad: (l) => loads.push(l) })
    assert.deepStrictEqual([...models.languages.keys()], ["zh", "hi"])
    assert.deepStrictEqual<unknown>(models.languages.get("zh"), ["TOXICITY"])
    assert.deepStrictEqual(loads, [])
    assert.isUndefined(models.forLanguage("de"))
    const zh = models.forLanguage("zh")
    assert.strictEqual(zh?.version, "local-zh-test")
    assert.deepStrictEqual(loads, ["zh"])
    assert.strictEqual(models.forLanguage("zh"), zh)
    assert.deepStrictEqual(loads, ["zh"])
  })

  it("never reads the weights at start: a damaged weight file is found (and warned about once) only when the language is asked for", () => {
    const dir = fixtureDir()
    writeFileSync(join(dir, "zh", "zh.bin"), "damaged")
    const warnings: Array<string> = []
    const models = makeLanguageModels(dir, { warn: (w) => warnings.push(w) })
    assert.isTrue(models.languages.has("zh"))
    assert.deepStrictEqual(warnings, [])
    assert.isUndefined(models.forLanguage("zh"))
    assert.isUndefined(models.forLanguage("zh"))
    assert.strictEqual(warnings.length, 1)
    assert.include(warnings[0]!, "zh")
    // the other language is still served
    assert.strictEqual(models.forLanguage("hi")?.version, "local-hi-test")
  })

  it.effect("gives no languages for a missing or empty directory, and for an index that does not parse (with a warning)", () => Effect.gen(function*() {
    const missing = yield* Effect.provide(LanguageModels, LanguageModelSets.layerIn(join(tmpdir(), "decorum-no-such-directory")))
    assert.strictEqual(missing.languages.size, 0)
    assert.isUndefined(missing.forLanguage("de"))
    const empty = mkdtempSync(join(tmpdir(), "decorum-languages-empty-"))
    assert.strictEqual(makeLanguageModels(empty).languages.size, 0)
    writeFileSync(join(empty, "index.json"), "{ not json")
    const warnings: Array<string> = []
    assert.strictEqual(makeLanguageModels(empty, { warn: (w) => warnings.push(w) }).languages.size, 0)
    assert.strictEqual(warnings.length, 1)
  }))

  it("writes a model file and reads it back: the weights within half a quantisation step, the scores as computed from the trained weights", () => {
    const dir = mkdtempSync(join(tmpdir(), "decorum-languages-rt-"))
    const manifest = writeLanguage(dir, HI)
    const bytes = new Uint8Array(readFileSync(join(dir, "hi", "hi.bin")))
    const table = decodeWeights(bytes)
    assert.strictEqual(table.bits, BITS)
    assert.strictEqual(table.labels, 1)
    // rebuild the raw score from the decoded table and compare with the loaded set's probability
    const set = loadModelSet(join(dir, "hi"))
    assert.strictEqual(set.version, manifest.version)
    const f = new Featurizer(manifest.features)
    for (const text of [...HI.positives, ...HI.negatives, "बिल्कुल नया वाक्य"]) {
      f.run(text)
      let z = table.bias[0]!
      for (let p = 0; p < f.nnz; p++) z += table.weights[f.idx[p]! & ((1 << BITS) - 1)]! * f.val[p]!
      assert.closeTo(set.score(text, ["TOXICITY"]).TOXICITY!, applyCalibration({ kind: "platt", a: 1, b: 0 }, z), 5e-7)
    }
  })

  it("applies a shipped idf table before each block's norm (the plain baseline's TF-IDF), drops unseen slots from the norm, and refuses a damaged idf file", () => {
    const dir = mkdtempSync(join(tmpdir(), "decorum-languages-idf-"))
    const manifest = writeLanguage(dir, HI, { idf: true })
    const idf = decodeIdf(new Uint8Array(readFileSync(join(dir, "hi", "hi.idf"))))
    assert.strictEqual(idf.length, 1 << BITS)
    const table = decodeWeights(new Uint8Array(readFileSync(join(dir, "hi", "hi.bin"))))
    const set = loadModelSet(join(dir, "hi"))
    const plain = new Featurizer(manifest.features)
    const weighted = new Featurizer(manifest.features)
    weighted.useIdf(idf)
    const mask = (1 << BITS) - 1
    let differs = false
    for (const text of [...HI.positives, ...HI.negatives, "बिल्कुल नया वाक्य"]) {
      weighted.run(text)
      plain.run(text)
      // by hand: sublinear tf (proportional to the plain featuriser's value: its block norm
      // cancels) x idf, then each block L2-normalised over its slots
      const norms = [0, 0]
      const raw: Array<number> = []
      for (let p = 0; p < plain.nnz; p++) {
        const v = plain.val[p]! * idf[plain.idx[p]! & mask]!
        raw.push(v)
        if (plain.block(p) === BLOCK_WORD || plain.block(p) === BLOCK_CHAR) norms[plain.block(p)]! += v * v
      }
      let z = table.bias[0]!
      for (let p = 0; p < weighted.nnz; p++) {
        const b = weighted.block(p)
        if (b === BLOCK_WORD || b === BLOCK_CHAR) {
          assert.closeTo(weighted.val[p]!, norms[b]! > 0 ? raw[p]! / Math.sqrt(norms[b]!) : 0, 0.000005)
          if (Math.abs(weighted.val[p]! - plain.val[p]!) > 1e-4) differs = true
        } else assert.strictEqual(weighted.val[p]!, 1) // globals: no idf
        z += table.weights[weighted.idx[p]! & mask]! * weighted.val[p]!
      }
      assert.closeTo(set.score(text, ["TOXICITY"]).TOXICITY!, applyCalibration({ kind: "platt", a: 1, b: 0 }, z), 5e-7)
    }
    assert.isTrue(differs)
    // the new sentence's unseen n-grams have idf 0: they add nothing to its norm
    weighted.run("बिल्कुल नया वाक्य")
    assert.isTrue([...weighted.val.subarray(0, weighted.nnz)].some((v) => v === 0))
    writeFileSync(join(dir, "hi", "hi.idf"), "damaged")
    assert.throws(() => loadModelSet(join(dir, "hi")), /idf file hi.idf: sha256/)
  })

  it("a tiny model trained here ranks an obvious insult above a neutral sentence (Chinese, Hindi)", () => {
    const models = makeLanguageModels(fixtureDir())
    const zh = models.forLanguage("zh")!
    const hi = models.forLanguage("hi")!
    const score = (m: typeof zh, text: string) => m.score!(text, ["TOXICITY"]).TOXICITY!
    assert.isAbove(score(zh, "你真是个傻逼"), score(zh, "谢谢，这本书很好"))
    assert.isAbove(score(hi, "वह बेवकूफ़ है"), score(hi, "धन्यवाद, किताब अच्छी है"))
  })

  it("quotes Han and Devanagari text verbatim: every span is a UTF-16 slice of the text, and the insult is the top span", () => {
    const models = makeLanguageModels(fixtureDir())
    const cases: Array<[string, string, string]> = [
      ["zh", "我觉得你真是个傻逼，滚！", "傻逼"],
      ["hi", "मुझे लगता है तुम बेवकूफ़ हो।", "बेवकूफ़"]
    ]
    for (const [code, text, insult] of cases) {
      const m = models.forLanguage(code)!
      const spans = m.explain(m.analyse(text), "TOXICITY")
      assert.isAbove(spans.length, 0)
      for (const s of spans) {
        assert.isAtLeast(s.begin, 0)
        assert.isAtMost(s.end, text.length)
        assert.isAbove(s.end, s.begin)
        assert.isTrue(text.includes(text.slice(s.begin, s.end)))
      }
      assert.strictEqual(text.slice(spans[0]!.begin, spans[0]!.end), insult)
    }
  })

  it("with the plain baseline's tokens beside the normaliser's (round 3), a model of either set or both quotes spans verbatim, the insult first", () => {
    const cases: Array<[Fixture, string, string]> = [
      [ZH, "我觉得你真是个傻逼，滚！", "傻逼"],
      [HI, "मुझे लगता है तुम बेवकूफ़ हो।", "बेवकूफ़"]
    ]
    for (const onlyParity of [undefined, 0, 1] as const) {
      const dir = mkdtempSync(join(tmpdir(), "decorum-languages-plain-"))
      for (const [fx, text, insult] of cases) {
        writeLanguage(dir, fx, { idf: true, plain: true, ...(onlyParity !== undefined ? { onlyParity } : {}) })
        const m = loadModelSet(join(dir, fx.code))
        const spans = m.explain(m.analyse(text), "TOXICITY")
        const what = `${fx.code}, ${onlyParity === undefined ? "both sets" : onlyParity === 1 ? "the baseline's tokens only" : "the normaliser's only"}`
        assert.isAbove(spans.length, 0, what)
        for (const sp of spans) {
          assert.isAtLeast(sp.begin, 0)
          assert.isAtMost(sp.end, text.length)
          assert.isAbove(sp.end, sp.begin)
        }
        // the baseline's character n-grams of a Han run are no words: 你, 个 and 滚 lean positive in
        // this fixture too, so the strongest run of characters holds the insult and its neighbours
        if (onlyParity === 1) assert.include(text.slice(spans[0]!.begin, spans[0]!.end), insult, what)
        else assert.strictEqual(text.slice(spans[0]!.begin, spans[0]!.end), insult, what)
        assert.isAbove(m.score(text, ["TOXICITY"]).TOXICITY!, m.score(fx.negatives[1]!, ["TOXICITY"]).TOXICITY!, what)
      }
    }
  })
})

/** The shipped sets (packages/local/models/languages), when the release has them. */
const shipped = defaultLanguageDirectory()
const releases = JSON.parse(readFileSync(new URL(`../../../training/${RELEASES_FILE}`, import.meta.url), "utf8")) as LanguageReleases
describe.runIf(existsSync(join(shipped, "index.json")))("the shipped per-language sets", () => {
  const models = makeLanguageModels(shipped)

  it("list every language of the index, each loading with its own version and the labels the index gives", () => {
    assert.isAbove(models.languages.size, 0)
    const index = JSON.parse(readFileSync(join(shipped, "index.json"), "utf8")) as LanguageIndex
    for (const [code, labels] of models.languages) {
      assert.strictEqual(index.languages[code]?.version, languageVersion(code, LANGUAGE_RELEASE), code)
      const m = models.forLanguage(code)
      assert.isDefined(m, code)
      // the release the trainer writes (a rebuild reproduces it), in the index and the manifest
      assert.strictEqual(m!.version, languageVersion(code, LANGUAGE_RELEASE))
      assert.deepStrictEqual([...m!.labels].sort(), [...labels].sort())
      // round 2: every set is TF-IDF, its idf table sized as its weights
      const manifest = JSON.parse(readFileSync(join(shipped, code, "manifest.json"), "utf8")) as Manifest
      assert.strictEqual(manifest.idf?.bits, manifest.families[0]!.bits, code)
      // one version names one weight set: recorded, with these files
      assert.isUndefined(releaseConflict(releases, manifest, true), code)
    }
  })

  it("carry a release id of the documented form; a version the record gives other weights, or lacks, is refused", () => {
    assert.match(LANGUAGE_RELEASE, RELEASE_PATTERN)
    assert.strictEqual(nextRelease("2026.11.28"), "2026.11.28.2")
    assert.strictEqual(nextRelease("2026.11.28.2"), "2026.11.28.3")
    // a shipped manifest given another version's name is refused; so is a name the record lacks
    const code = [...models.languages.keys()][0]!
    const manifest = JSON.parse(readFileSync(join(shipped, code, "manifest.json"), "utf8")) as Manifest
    const other = Object.keys(releases.versions).find((v) => v.startsWith(`local-${code}-`) && v !== manifest.version)
    assert.isDefined(other, code)
    assert.match(releaseConflict(releases, { ...manifest, version: other! })!, /already names other weights/)
    assert.match(releaseConflict(releases, { ...manifest, version: `local-${code}-1999.01.01` }, true)!, /not in/)
    assert.isUndefined(releaseConflict(releases, { ...manifest, version: `local-${code}-1999.01.01` }))
    // the record itself: every entry a version of the documented form, with its files
    for (const [version, files] of Object.entries(releases.versions)) {
      assert.match(version, /^local-[A-Za-z-]+-\d{4}\.\d{2}\.\d{2}(\.\d+)?$/)
      assert.match(version.slice(version.lastIndexOf("-") + 1), RELEASE_PATTERN)
      assert.isAbove(Object.keys(files).length, 0, version)
    }
  })

  it("score an obvious insult above a thank-you in the languages of the issue's examples", () => {
    const pairs: Array<[string, string, string]> = [
      ["de", "Du bist ein dummer Idiot, halt die Fresse", "Vielen Dank für den hilfreichen Artikel"],
      ["es", "Eres un pendejo de mierda, cállate", "Gracias por el artículo, muy útil"],
      ["it", "Sei un coglione di merda", "Grazie per l'articolo, molto utile"],
      ["ru", "Ты тупой урод", "Спасибо за полезную статью"]
    ]
    for (const [code, insult, thanks] of pairs) {
      const m = models.forLanguage(code)
      assert.isDefined(m, code)
      const s = (t: string) => m!.score!(t, ["TOXICITY"]).TOXICITY!
      assert.isAbove(s(insult), s(thanks), `${code}: ${insult}`)
    }
  })
})
