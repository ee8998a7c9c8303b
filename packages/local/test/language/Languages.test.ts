/**
 * Language identification and per-language scoring on the real local engine (issue 28): the
 * shipped identifier on comments of each language (and on what has no language), Perspective's
 * language rules through `Analyze` with the local attribute scorer, and lazy loading: an
 * English-only stream of comments never loads a language's model set, the first German comment
 * loads German once. A fixture languages directory (the English set's files under `de/`) stands in
 * for the per-language sets, so these tests do not depend on them; the shipped sets are checked
 * too when present.
 */
import { Analyze, CommentScorer, LanguageIdentifier, SpamChecker } from "@decorum/core"
import { LanguageDetectionFailed, LanguageNotSupportedByAttribute } from "@decorum/domain"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { LanguageModels, type LanguageModelsService } from "../../src/LanguageModels.js"
import { LocalAttributeScorer, LocalCommentScorer, LocalSpamChecker } from "../../src/evaluators/index.js"
import { ENGLISH_ONLY_FIELDS } from "../../src/evaluators/LocalCommentScorer.js"
import { article } from "../evaluators/fixtures.js"
import { LanguageIdentification } from "../../src/language/LanguageIdentification.js"
import { defaultLanguageDirectory, defaultModelDirectory, makeLanguageModels, readLanguageIndex, TrainedModel } from "../../src/models/index.js"

const identifier = await ManagedRuntime.make(LanguageIdentification.layer).runPromise(LanguageIdentifier)

describe("the shipped language identifier", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["en", "Thanks for the article, I really enjoyed reading it this morning"],
    ["de", "Vielen Dank für den hilfreichen Artikel, das war sehr interessant"],
    ["fr", "Tu es un connard et une ordure, personne ne veut te lire ici"],
    ["es", "Eres un pendejo de mierda, cállate de una vez por favor"],
    ["it", "Sei un coglione di merda e nessuno ti vuole qui"],
    ["pt", "Você é um idiota e ninguém quer ler o que você escreve"],
    ["pl", "Jesteś idiotą i nikt nie chce czytać twoich komentarzy"],
    ["tr", "Sen tam bir aptalsın ve kimse seni burada istemiyor"],
    ["id", "Kamu memang bodoh sekali dan tidak ada yang mau membaca ini"],
    ["ru", "Ты тупой урод и никто не хочет читать твои комментарии"],
    ["ar", "أنت غبي جدا ولا أحد يريد أن يقرأ تعليقاتك هنا"],
    ["hi", "तुम बहुत बेवकूफ़ हो और कोई तुम्हारी बात नहीं सुनता"],
    ["hi-Latn", "bhai tu pagal hai kya, koi teri baat nahi sunta yaar"],
    ["zh", "这篇文章写得很好，谢谢作者的分享"],
    ["ja", "この記事はとても面白かったです、ありがとうございます"],
    ["ko", "이 기사 정말 재미있게 읽었습니다 감사합니다"],
    // Perspective's languages without data here: the fallback (franc-min) names them.
    ["sv", "Det här är en mycket bra artikel, tack för den"],
    ["nl", "Dit is een heel goed artikel, bedankt daarvoor"]
  ]
  it.each(cases)("identifies %s", (language, text) => {
    assert.strictEqual(identifier.detect(text)[0], language)
  })

  it("keeps links, mentions and emoji from deciding, and detects nothing where there are no letters or an unknown script", () => {
    assert.deepStrictEqual(identifier.detect("@dieter_mueller https://example.com/path?q=1 Vielen Dank für den Artikel 👍👍"), ["de"])
    for (const text of ["👍👍👍", "12345 !!!", "https://example.com/a/b", "Αυτό είναι ένα πολύ καλό άρθρο"]) {
      assert.deepStrictEqual(identifier.detect(text), [])
    }
  })
})

/** A languages directory with one language, `de`, whose "model" is the English set's files (a stand-in for the real sets). */
const fixtureLanguages = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "decorum-languages-"))
  mkdirSync(join(dir, "de"))
  for (const file of readdirSync(defaultModelDirectory())) {
    if (file === "manifest.json" || file.endsWith(".bin")) symlinkSync(join(defaultModelDirectory(), file), join(dir, "de", file))
  }
  writeFileSync(join(dir, "index.json"), JSON.stringify({ format: 1, languages: { de: { version: "local-de-fixture", labels: ["TOXICITY"], directory: "de" } } }))
  return dir
}

const engine = (languages: LanguageModelsService): Runtime =>
  ManagedRuntime.make(
    Layer.mergeAll(
      LocalAttributeScorer.pipe(Layer.provide(Layer.succeed(LanguageModels, languages)), Layer.provide(TrainedModel.layer)),
      LanguageIdentification.layer
    )
  )

type Runtime = ManagedRuntime.ManagedRuntime<any, never>
const analyze = (runtime: Runtime, request: Parameters<typeof Analyze.analyze>[0]): Promise<Either.Either<any, any>> =>
  runtime.runPromise(Effect.either(Analyze.analyze(request, "google")) as Effect.Effect<Either.Either<any, any>, never, any>)

describe("Perspective's language rules on the local engine", () => {
  const loads: Array<string> = []
  const languages = makeLanguageModels(fixtureLanguages(), { onLoad: (l) => loads.push(l) })
  const layer = engine(languages)

  it("an English-only stream never loads a language's model set", async () => {
    for (const text of ["You are an idiot and nobody likes you", "Thanks, great article!", "I disagree with the council on this one."]) {
      const answer = await analyze(layer, { comment: { text }, requestedAttributes: { TOXICITY: {}, INSULT: {} } })
      assert.isTrue(Either.isRight(answer))
      assert.deepInclude(Either.getOrThrow(answer).value, { languages: ["en"], detectedLanguages: ["en"] })
    }
    assert.deepStrictEqual(loads, [])
  })

  it("scores German with the German set, loaded once on first use, and says so", async () => {
    const text = "Du bist ein dummer Idiot und niemand mag dich hier"
    for (let i = 0; i < 2; i++) {
      const answer = Either.getOrThrow(await analyze(layer, { comment: { text }, requestedAttributes: { TOXICITY: {} } }))
      assert.deepInclude(answer.value, { languages: ["de"], detectedLanguages: ["de"] })
      assert.isDefined(answer.provenance.model)
    }
    assert.deepStrictEqual(loads, ["de"])
  })

  it("answers LANGUAGE_NOT_SUPPORTED_BY_ATTRIBUTE for an attribute or a language without a model, never the English model", async () => {
    const insult = await analyze(layer, { comment: { text: "Du bist ein dummer Idiot und niemand mag dich hier" }, requestedAttributes: { TOXICITY: {}, INSULT: {} } })
    assert.instanceOf(Either.isLeft(insult) && insult.left, LanguageNotSupportedByAttribute)
    assert.isTrue(Either.isLeft(insult))
    assert.deepInclude(Either.isLeft(insult) ? insult.left : {}, { attribute: "INSULT", languages: ["de"], source: "detected" })
    const french = await analyze(layer, { comment: { text: "Tu es un connard et une ordure" }, requestedAttributes: { TOXICITY: {} }, languages: ["fr"] })
    assert.isTrue(Either.isLeft(french))
    assert.deepInclude(Either.isLeft(french) ? french.left : {}, { _tag: "LanguageNotSupportedByAttribute", attribute: "TOXICITY", languages: ["fr"], source: "requested" })
    const dropped = Either.getOrThrow(await analyze(layer, { comment: { text: "Tu es un connard et une ordure" }, requestedAttributes: { TOXICITY: {} }, dropUnsupportedAttributes: true }))
    assert.deepStrictEqual(dropped.value, { attributeScores: {}, languages: ["fr"], detectedLanguages: ["fr"] })
    const nothing = await analyze(layer, { comment: { text: "👍👍" }, requestedAttributes: { TOXICITY: {} } })
    assert.instanceOf(Either.isLeft(nothing) && nothing.left, LanguageDetectionFailed)
    assert.deepStrictEqual(loads, ["de"])
  })
})

describe("the native evaluations in the comment's language", () => {
  const loads: Array<string> = []
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(LocalCommentScorer, LocalSpamChecker).pipe(
      Layer.provide(Layer.succeed(LanguageModels, makeLanguageModels(fixtureLanguages(), { onLoad: (l) => loads.push(l) }))),
      Layer.provide(TrainedModel.layer)
    )
  )
  const score = (comment: string, language?: string) =>
    runtime.runPromise(Effect.flatMap(CommentScorer, (s) => s.score({ comment, article, replyTo: null, ...(language ? { language } : {}) })))

  it("scores toxicity with the language's model, says which, and lists what stayed English-only", async () => {
    const english = await score("You are an idiot")
    assert.deepInclude(english.value, { toxicity_language: "en", english_only_fields: [] })
    assert.deepStrictEqual(loads, [])
    const german = await score("Du bist ein dummer Idiot", "de")
    assert.deepInclude(german.value, { toxicity_language: "de", english_only_fields: ENGLISH_ONLY_FIELDS })
    assert.match(german.provenance.model, /\+/)
    assert.deepStrictEqual(loads, ["de"])
    // A language without a toxicity model: the English model's toxicity, and the answer says so.
    const swedish = await score("Du är en idiot", "sv")
    assert.strictEqual(swedish.value.toxicity_language, "en")
    assert.deepStrictEqual(swedish.value.english_only_fields, [...ENGLISH_ONLY_FIELDS, "toxicity_score", "toxicity_explanation"])
    const spam = await runtime.runPromise(Effect.flatMap(SpamChecker, (s) => s.check({ comment: "Billige Uhren https://x.example", article: null, language: "de" })))
    assert.deepStrictEqual(spam.value.english_only_fields, ["is_spam", "confidence", "reasoning"])
  })
})

const shipped = readLanguageIndex(defaultLanguageDirectory())
const hasShipped = existsSync(join(defaultLanguageDirectory(), "index.json")) && "fr" in shipped && "de" in shipped

describe.skipIf(!hasShipped)("the shipped per-language sets (when present)", () => {
  const layer = engine(makeLanguageModels(defaultLanguageDirectory()))
  const toxicity = async (text: string) => {
    const answer = Either.getOrThrow(await analyze(layer, { comment: { text }, requestedAttributes: { TOXICITY: {} } }))
    return { value: answer.value.attributeScores.TOXICITY.summaryScore.value as number, model: answer.provenance.model as string, languages: answer.value.languages }
  }

  it("scores the issue's French and German examples with their own models: the insult above the thanks", async () => {
    const insult = await toxicity("Tu es un connard et une ordure")
    const thanks = await toxicity("Merci beaucoup pour cet article très intéressant")
    assert.deepStrictEqual(insult.languages, ["fr"])
    assert.match(insult.model, /^local-fr-/)
    assert.isAbove(insult.value, thanks.value)
    const german = await toxicity("Vielen Dank für den hilfreichen Artikel")
    assert.match(german.model, /^local-de-/)
    assert.isBelow(german.value, (await toxicity("Du bist ein dummer Idiot, halt die Fresse")).value)
  })
})

describe("the n-gram sums", () => {
  it("packed (four languages a word, 16-bit lanes) equal one add per language, on long and short texts", async () => {
    const { decodeModel, gramsOf, addRows, scratchFor } = await import("../../src/internal/langid/ngrams.js")
    const { readFileSync } = await import("node:fs")
    const model = decodeModel(readFileSync(join(defaultModelDirectory(), "langid.bin")))
    const scratch = scratchFor(model)
    assert.isDefined(scratch.words)
    const plain = { ...scratch, words: undefined, sums: new Int32Array(model.languages.length) }
    const texts = ["", "a", "Vielen Dank", "x".repeat(5_000), "word ".repeat(400), "这篇文章写得很好，谢谢作者的分享".repeat(20), "@user https://t.co/x Tu es un connard"]
    for (const text of texts) {
      const { count } = gramsOf(text, scratch.grams)
      plain.grams.set(scratch.grams.subarray(0, count))
      addRows(model, scratch, count)
      addRows(model, plain, count)
      assert.deepStrictEqual([...scratch.sums], [...plain.sums])
    }
  })
})
