/**
 * The optional detectors that cost more than a few milliseconds to decode (fallacy, toxic spans,
 * dog-whistle) check their files at start-up and decode their weights on first use, once: the start-up cost of a process that serves none of
 * them (a Lambda cold start on analyze) is a read and a checksum. A detector whose files pass the
 * checks answers exactly as one decoded at start-up; one whose weights turn out not to decode fails
 * its callers, logged once.
 */
import { assert, describe, it } from "@effect/vitest"
import { copyFileSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Logger, Option } from "effect"
import { onFirstUse } from "../../src/internal/optionalModel.js"
import { tokenize } from "../../src/internal/text/words.js"
import { DOGWHISTLE_MANIFEST, dogWhistleModelIn, fromDogWhistleScorer, loadDogWhistleScorer } from "../../src/models/DogWhistleDetector.js"
import { FALLACY_MANIFEST, fallacyModelIn, fromFallacyWeights, loadFallacyWeights } from "../../src/models/FallacyDetector.js"
import { fromSpanWeights, loadSpanWeights, SPAN_MANIFEST, spanModelIn } from "../../src/models/SpanTagger.js"
import { defaultModelDirectory } from "../../src/models/TrainedModel.js"
import { scratchDir } from "../scratch.js"

const SHIPPED = defaultModelDirectory()
const TEXTS = [
  "You are an idiot if you believe this, everyone knows the experts are always right.",
  "The globalist bankers control the media. Wake up, people.",
  "Thanks for the article, I learned something about the harbour's history."
]

type Json = Record<string, unknown>

/** One detector: how it is read, how its service is called, and a manifest edit its checksum cannot see but its decoder refuses. */
interface Detector {
  readonly name: string
  readonly manifest: string
  readonly modelIn: (directory: string) => Effect.Effect<Option.Option<{ readonly version: string }>>
  readonly eager: (directory: string) => { readonly version: string }
  readonly answer: (service: any, text: string) => unknown
  readonly undecodable: (manifest: Json) => Json
}

const DETECTORS: ReadonlyArray<Detector> = [
  {
    name: "fallacy detector",
    manifest: FALLACY_MANIFEST,
    modelIn: fallacyModelIn,
    eager: (d) => fromFallacyWeights(loadFallacyWeights(d)),
    answer: (s, text) => s.analyse(text),
    undecodable: (m) => ({ ...m, heads: [...(m["heads"] as Array<string>), "one_head_too_many"] })
  },
  {
    name: "toxic-span tagger",
    manifest: SPAN_MANIFEST,
    modelIn: spanModelIn,
    eager: (d) => fromSpanWeights(loadSpanWeights(d)),
    answer: (s, text) => [s.spans(text, tokenize(text)), s.confidentSpans(text, tokenize(text))],
    undecodable: (m) => ({ ...m, bits: (m["bits"] as number) + 1 })
  },
  {
    name: "dog-whistle detector",
    manifest: DOGWHISTLE_MANIFEST,
    modelIn: dogWhistleModelIn,
    eager: (d) => fromDogWhistleScorer(loadDogWhistleScorer(d)),
    answer: (s, text) => s.analyse({ comment: text, sensitiveTopics: [], examples: [], context: [] }),
    undecodable: (m) => ({ ...m, features: { ...(m["features"] as Json), bits: 12 } })
  }
]

/** Runs `effect` with a logger that keeps each line as `LEVEL message`. */
const withLines = <A>(effect: Effect.Effect<A>): Effect.Effect<{ readonly value: A; readonly lines: ReadonlyArray<string> }> =>
  Effect.suspend(() => {
    const lines: Array<string> = []
    const logger = Logger.replace(Logger.defaultLogger, Logger.make(({ logLevel, message }) => lines.push(`${logLevel.label} ${String(message)}`)))
    return Effect.map(Effect.provide(effect, logger), (value) => ({ value, lines }))
  })

describe("onFirstUse", () => {
  it("makes nothing until called, then once; a failure is told once and thrown to every caller", () => {
    let made = 0
    const value = onFirstUse(() => ({ made: ++made }))
    assert.strictEqual(made, 0)
    const first = value()
    assert.strictEqual(value(), first)
    assert.strictEqual(made, 1)

    const failures: Array<unknown> = []
    let tries = 0
    const broken = onFirstUse(() => {
      tries++
      throw new Error("does not decode")
    }, (e) => failures.push(e))
    assert.strictEqual(tries, 0)
    assert.throws(broken, /does not decode/)
    assert.throws(broken, /does not decode/)
    assert.strictEqual(tries, 1)
    assert.strictEqual(failures.length, 1)
  })
})

describe("the optional detectors, decoded on first use", () => {
  for (const d of DETECTORS) {
    it.effect(`${d.name}: answers as the detector loaded at start-up, with the manifest's version before any call`, () =>
      Effect.gen(function*() {
        const { lines, value } = yield* withLines(d.modelIn(SHIPPED))
        assert.deepStrictEqual(lines, [])
        const lazy = Option.getOrThrow(value)
        const eager = d.eager(SHIPPED)
        assert.strictEqual(lazy.version, eager.version)
        for (const text of TEXTS) assert.deepStrictEqual(d.answer(lazy, text), d.answer(eager, text), text)
      }))

    it.effect(`${d.name}: start-up checks the files only; the first call decodes the weights, once`, () =>
      Effect.gen(function*() {
        // the shipped weight file with a manifest whose format and sha256 are right but whose shape
        // the decoder refuses: provided at start-up, so the weights were not decoded then
        const dir = scratchDir("decorum-lazy-detector-")
        const manifest = JSON.parse(readFileSync(join(SHIPPED, d.manifest), "utf8")) as Json
        copyFileSync(join(SHIPPED, manifest["file"] as string), join(dir, manifest["file"] as string))
        writeFileSync(join(dir, d.manifest), JSON.stringify(d.undecodable(manifest)))
        const { lines, value } = yield* withLines(d.modelIn(dir))
        const service = Option.getOrThrow(value)
        assert.strictEqual(service.version, manifest["version"])
        assert.deepStrictEqual(lines, [])

        const first = yield* Effect.flip(Effect.try(() => d.answer(service, TEXTS[0]!)))
        assert.strictEqual(lines.length, 1)
        assert.match(lines[0]!, new RegExp(`^ERROR ${d.name} in .* failed to load on first use \\(.+\\)$`))
        // decoded once: every later call gets the same failure, not a new attempt, and no new line
        const second = yield* Effect.flip(Effect.try(() => d.answer(service, TEXTS[1]!)))
        assert.strictEqual(second.cause, first.cause)
        assert.strictEqual(lines.length, 1)
      }))
  }
})
