/**
 * The toxic-span tagger's training and decoding on small fixtures of its own (no ../shared):
 * SemEval's per-post metric, the decoding rules, and a tagger trained, written, read back by the
 * runtime and rebuilt bit for bit.
 */
import { createHash } from "node:crypto"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { hashString } from "@decorum/local/Featurizer"
import { decodeSpans, SpanWeights, WordFeatureHashes, wordFeatures } from "@decorum/local/SpanFormat"
import { tokenize } from "@decorum/local/Words"
import { loadSpanWeights, SPAN_MANIFEST } from "@decorum/local"
import { corpus } from "../../local/test/evaluators/fixtures.js"
import { variedTexts } from "../../local/test/models/variedTexts.js"
import { buildTagger, lexiconBaseline, offsetsOf, postSpanF1, type SpanPost, SPAN_RECIPE } from "../spans.js"
import { scratchDir } from "../../local/test/scratch.js"

describe("SemEval-2021 character F1 of one post", () => {
  it("scores 1 for quoting nothing in a post without a gold span, and 0 for quoting anything", () => {
    assert.strictEqual(postSpanF1(new Set(), new Set()), 1)
    assert.strictEqual(postSpanF1(new Set([1]), new Set()), 0)
    assert.strictEqual(postSpanF1(new Set(), new Set([1])), 0)
  })

  it("is the F1 of the character offsets", () => {
    // 2 of 4 predicted are gold, 2 of 2 gold found: P 0.5, R 1
    assert.closeTo(postSpanF1(new Set([0, 1, 2, 3]), new Set([2, 3])), 2 / 3, 5e-11)
  })
})

describe("decoding word scores into spans", () => {
  const text = "you stupid lying idiot, go away"
  const tokens = tokenize(text)
  const quote = (scores: ReadonlyArray<number>, d: { threshold: number; gap: number; none: number; relative?: number }) =>
    decodeSpans(tokens, scores, { ...d, confident: 2, contextMax: 99 }).map((r) => text.slice(r.begin, r.end))

  it("joins neighbouring words into one phrase and keeps the others apart", () => {
    assert.deepStrictEqual(quote([-3, 2, 1, 3, -2, -4], { threshold: 0, gap: 99, none: -99 }), ["stupid lying idiot"])
    assert.deepStrictEqual(quote([-3, 2, -1, 3, -2, -4], { threshold: 0, gap: 99, none: -99 }), ["stupid", "idiot"])
  })

  it("fills a one-word gap only when that word reaches the gap level", () => {
    assert.deepStrictEqual(quote([-3, 2, -1, 3, -2, -4], { threshold: 0, gap: -1.5, none: -99 }), ["stupid lying idiot"])
    assert.deepStrictEqual(quote([-3, 2, -2, 3, -2, -4], { threshold: 0, gap: -1.5, none: -99 }), ["stupid", "idiot"])
  })

  it("leaves out words far below the strongest one when a relative limit is set, and not otherwise", () => {
    // "idiot" at 4 is the offence; "stupid" at 0.5 passes the threshold but is 3.5 below it
    assert.deepStrictEqual(quote([-3, 0.5, -2, 4, -2, -4], { threshold: -1, relative: 2, gap: 99, none: -99 }), ["idiot"])
    assert.deepStrictEqual(quote([-3, 0.5, -2, 4, -2, -4], { threshold: -1, gap: 99, none: -99 }), ["stupid", "idiot"])
    // the threshold still applies below the limit, and the strongest word is always in
    assert.deepStrictEqual(quote([-3, 2.5, 1, 3, -2, -4], { threshold: 2, relative: 2, gap: 99, none: -99 }), ["stupid", "idiot"])
    assert.deepStrictEqual(quote([-3, -2, -2, -1.5, -2, -4], { threshold: 0, relative: 2, gap: 99, none: -99 }), ["idiot"])
  })

  it("quotes the best word when none reaches the threshold, and nothing below the post-level level", () => {
    assert.deepStrictEqual(quote([-3, -1, -2, -0.5, -2, -4], { threshold: 0, gap: 99, none: -1 }), ["idiot"])
    assert.deepStrictEqual(quote([-3, -1, -2, -1.5, -2, -4], { threshold: 0, gap: 99, none: -0.5 }), [])
  })
})

/** Posts built from templates: the insult words are gold, nothing else is. */
const INSULTS = ["idiot", "moron", "imbecile", "clown", "scumbag"]
const FRAMES = ["You are an {} and everyone knows it.", "What a {}, honestly.", "Only an {} would vote for this.", "Listen, {}: the tram is late again."]
const NEUTRAL = ["The tram is late again.", "I support the new bus lanes.", "Honestly, the council did well this time.", "Everyone knows the plan works."]
const fixturePosts = (): Array<SpanPost> => {
  const posts: Array<SpanPost> = []
  for (const frame of FRAMES) {
    for (const word of INSULTS) {
      const at = frame.indexOf("{}")
      const text = frame.replace("{}", word)
      posts.push({ text, offsets: offsetsOf([{ begin: at, end: at + word.length }]) })
    }
  }
  for (const text of NEUTRAL) posts.push({ text, offsets: new Set() })
  return posts
}

describe("a word's own features", () => {
  it("hash exactly the names `wordFeatures` defines, in its order, whatever the word", () => {
    const words = [
      ...[...corpus, ...variedTexts(300)].flatMap((t) => tokenize(t)),
      // lexicon words (AFINN, insults, profanity, sexual, violent), obfuscations, short and long keys,
      // and a long word before short ones (the buffers are reused)
      ...tokenize("idiot moron damn nude kill abandon l0ser f*ck 1d10t a ab abc naïve Ça 😀x"),
      { begin: 0, end: 0, key: "x".repeat(300), lower: "x".repeat(300) },
      { begin: 0, end: 0, key: "", lower: "" },
      ...tokenize("I am ok")
    ]
    const features = new WordFeatureHashes()
    const expected: Array<string> = []
    const actual: Array<string> = []
    let lexicon = 0
    for (const w of words) {
      const names: Array<string> = []
      wordFeatures(w, (f) => names.push(f))
      // the names' hashes, with the seed the tagger's slots use (0x5a17)
      expected.push(`${w.key}: ${names.map((f) => hashString(f, 0x5a17)).join(" ")}`)
      const { hashes, count } = features.of(w)
      actual.push(`${w.key}: ${hashes.subarray(0, count).join(" ")}`)
      lexicon += names.filter((f) => /^(afinn|insult)\||^(profanity|sexual|violent)$/.test(f)).length
    }
    assert.deepStrictEqual(actual, expected)
    assert.isAbove(lexicon, 20)
  })
})

describe("the tagger", () => {
  const recipe = { ...SPAN_RECIPE, bits: 14, epochs: 20, learningRate: 0.1 }
  const posts = fixturePosts()
  const train = posts.filter((_, i) => i % 4 !== 0)
  const dev = posts.filter((_, i) => i % 4 === 0)

  it("learns which words carry the offence and quotes only them, verbatim", () => {
    const { tagger } = buildTagger(train, dev, recipe, "spans-test")
    const text = "Frankly, only a moron or an idiot — écoute 🙂 — would write this."
    const quotes = tagger.spans(text, tokenize(text)).map((r) => text.slice(r.begin, r.end))
    assert.deepStrictEqual(quotes, ["moron", "idiot"])
  })

  it("chooses its decoding on dev, where it beats the lexicon baseline or ties it", () => {
    const built = buildTagger(train, dev, recipe, "spans-test")
    const f1 = built.manifest.metrics?.["devCharacterF1"] as number
    let lexicon = 0
    const baseline = lexiconBaseline(train)
    for (const p of dev) lexicon += postSpanF1(baseline(p.text), p.offsets)
    assert.isAtLeast(f1, lexicon / dev.length - 1e-9)
    assert.isAbove(f1, 0.8)
  })

  it("is rebuilt bit for bit, and the runtime reads back what training wrote", () => {
    const a = buildTagger(train, dev, recipe, "spans-test")
    const b = buildTagger(train, dev, recipe, "spans-test")
    assert.strictEqual(createHash("sha256").update(b.bytes).digest("hex"), a.manifest.sha256)
    assert.deepStrictEqual(b.manifest, a.manifest)
    const dir = scratchDir("decorum-spans-test-")
    writeFileSync(join(dir, a.manifest.file), a.bytes)
    writeFileSync(join(dir, SPAN_MANIFEST), JSON.stringify(a.manifest))
    const loaded = loadSpanWeights(dir)
    const text = "What a scumbag, honestly."
    assert.deepStrictEqual(Array.from(loaded.score(text, tokenize(text))), Array.from(a.tagger.score(text, tokenize(text))))
  })

  it("quotes only confident words, the same with or without the pruning by own features", () => {
    const { tagger, manifest } = buildTagger(train, dev, recipe, "spans-test")
    const unpruned = new SpanWeights({ ...manifest, decode: { ...manifest.decode, contextMax: 1e9 } }, tagger.weights)
    const texts = [...corpus, "", "idiot", "«Quoted» idiot!? Yes... moron; \"fool\" — clown", "ＦＵＬＬ 1d10t 🙂 e\u0301 ZoË", "What a scumbag, honestly. Only an imbecile would."]
    let quoted = 0
    for (const text of texts) {
      const tokens = tokenize(text)
      const scores = tagger.score(text, tokens)
      const expected = tokens.filter((_, i) => scores[i]! >= manifest.decode.confident).map((t) => ({ begin: t.begin, end: t.end }))
      assert.deepStrictEqual(tagger.confidentSpans(text, tokens), expected, text)
      assert.deepStrictEqual(unpruned.confidentSpans(text, tokens), expected, text)
      quoted += expected.length
    }
    assert.isAbove(quoted, 0)
  })

  it("learns from comments with no offence that a word is not one there", () => {
    // "clown" is gold in the insult frames; in the circus comments it offends nobody
    const circus = ["The clown at the circus was funny.", "My son wants to be a clown.", "A clown and a juggler opened the show."]
    const plain = buildTagger(train, dev, recipe, "spans-test").tagger
    const taught = buildTagger(train, dev, recipe, "spans-test", circus).tagger
    const text = "What a clown, honestly."
    const at = tokenize(text).findIndex((t) => t.key === "clown")
    assert.isBelow(taught.score(text, tokenize(text))[at]!, plain.score(text, tokenize(text))[at]! - 0.5)
  })

  it("refuses a weight file that does not match its manifest", () => {
    const a = buildTagger(train, dev, recipe, "spans-test")
    const dir = scratchDir("decorum-spans-test-")
    const bytes = Uint8Array.from(a.bytes)
    bytes[0] = bytes[0]! ^ 1
    writeFileSync(join(dir, a.manifest.file), bytes)
    writeFileSync(join(dir, SPAN_MANIFEST), JSON.stringify(a.manifest))
    assert.throws(() => loadSpanWeights(dir), /sha256/)
  })
})
