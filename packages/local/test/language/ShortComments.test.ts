/**
 * Short comments (issue 28, the short-English follow-up): one- to four-word comments an English
 * site receives all day must be taken for English, so that they are scored by the English model
 * and not refused or scored by another language's; and short comments in the other languages
 * must keep their language. The lists are written for this test (never used to choose the rule,
 * which is chosen on the training rows: `node packages/training/run.mjs langid --choose-rule`).
 * The first sixteen English comments are those the first release (margin only) got wrong.
 */
import { LanguageIdentifier } from "@decorum/core"
import { ManagedRuntime } from "effect"
import { assert, describe, it } from "@effect/vitest"
import { LanguageIdentification } from "../../src/language/LanguageIdentification.js"

const identifier = await ManagedRuntime.make(LanguageIdentification.layer).runPromise(LanguageIdentifier)

/** Short English comments with letters (one to four words). */
export const SHORT_ENGLISH: ReadonlyArray<string> = [
  // taken for another language by the first release
  "ok", "So true.", "lmao ur dumb", "Bravo!", "Nope", "kys", "go die", "haha", "Amen", "Sad!", "no", "gg", "ty", "Moron", "Source?",
  // written for this test
  "lol", "thanks", "Thank you!", "Great article", "Well said.", "I agree", "Totally agree", "This.", "What?", "Why?",
  "fake news", "you suck", "shut up", "idiot", "loser", "stupid", "get lost", "nice one", "Good point", "So sad",
  "Love it", "wtf", "omg", "smh", "yes", "Yep", "nah", "Same", "Exactly!", "Agreed.",
  "Hilarious", "Garbage", "trash take", "clown", "Cry more", "Who cares?", "Nobody asked", "cope", "touch grass", "cringe",
  "fair enough", "Not true", "Disgusting.", "Pathetic", "What a joke", "go away", "screw you", "RIP", "Congrats!", "Well done",
  "Spot on", "Sounds good", "Hell yeah", "No way", "Get a life", "Unbelievable", "Makes sense", "you're an idiot", "delete this"
]

/** Short comments in the other languages (language, text): they must keep their language. */
export const SHORT_OTHERS: ReadonlyArray<readonly [string, string]> = [
  ["de", "Danke schön"], ["fr", "Merci beaucoup"], ["es", "Gracias amigo"], ["pt", "Obrigado"], ["it", "Grazie mille"],
  ["pl", "Dziękuję bardzo"], ["ru", "Спасибо"], ["zh", "谢谢"], ["ja", "ありがとう"], ["ko", "감사합니다"],
  ["de", "Vielen Dank"], ["de", "Du bist dumm"], ["es", "Muchas gracias"], ["es", "Eres un idiota"], ["fr", "Tu es nul"],
  ["fr", "Bonne nuit"], ["it", "Sei stupido"], ["pt", "Você é burro"], ["id", "Terima kasih"], ["tr", "Çok teşekkürler"],
  ["pl", "Jesteś głupi"], ["ru", "Ты дурак"], ["ar", "شكرا جزيلا"], ["hi", "धन्यवाद"], ["hi-Latn", "bahut accha laga"]
]

/** The share of the short English comments that must be English (the first release: 49 of 74, 66%; this one: 70 of 74). */
const ENGLISH_SHARE = 0.9
/** The share of the short comments in the other languages that must keep their language (the first release: 25 of 25; this one: 24 of 25, "Bonne nuit" is taken for English). */
const OTHERS_SHARE = 0.8

describe("short comments", () => {
  it(`takes at least ${100 * ENGLISH_SHARE}% of short English comments for English`, () => {
    const wrong = SHORT_ENGLISH.filter((t) => identifier.detect(t)[0] !== "en").map((t) => `${t} → ${identifier.detect(t)[0] ?? "-"}`)
    assert.isAtLeast(SHORT_ENGLISH.length, 65)
    assert.deepInclude({ share: 1 - wrong.length / SHORT_ENGLISH.length >= ENGLISH_SHARE, wrong }, { share: true })
  })

  it(`keeps the language of at least ${100 * OTHERS_SHARE}% of short comments in the other languages, and every non-Latin script's`, () => {
    const wrong = SHORT_OTHERS.filter(([language, t]) => identifier.detect(t)[0] !== language).map(([l, t]) => `${l}: ${t} → ${identifier.detect(t)[0] ?? "-"}`)
    assert.deepInclude({ share: 1 - wrong.length / SHORT_OTHERS.length >= OTHERS_SHARE, wrong }, { share: true })
    for (const [language, t] of SHORT_OTHERS) if (!/\p{Script=Latin}/u.test(t)) assert.strictEqual(identifier.detect(t)[0], language, t)
  })

  it("detects nothing in a comment without letters (Perspective's LANGUAGE_DETECTION_FAILED when no languages are sent)", () => {
    for (const t of ["+1", "👍", "😂😂😂", "100%", "!!!"]) assert.deepStrictEqual(identifier.detect(t), [], t)
  })
})
