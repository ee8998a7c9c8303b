/**
 * The language-identification rule (issue 28), one function for the runtime and the evaluation:
 * the n-gram model decides among the languages it was trained on, English with a log-prior (a
 * constant per comment, whatever its length) in a Latin-script comment, and always when such a
 * comment has fewer letters than the model's `latinEvidence` (other scripts are decided by their
 * script: English's cost there is far above the prior); a comment of 20 letters or more unlike its best
 * language's training comments (mean cost per gram above that language's `unfamiliar` line) is
 * given to the fallback (a general library, for cs, nl, sv and the like, which have no data here),
 * whose answer wins when it names a language the model does not have. No letters at all: nothing is detected (Perspective answers
 * LANGUAGE_DETECTION_FAILED).
 */
import { type NgramModel, read, type Scratch } from "./ngrams.js"

/** A general identifier for comments the model does not know: a language code as Perspective writes it, or undefined. */
export type Fallback = (text: string) => string | undefined

export interface Identification {
  /** Most likely first; empty when nothing can be detected. */
  readonly languages: ReadonlyArray<string>
  /** Whether the fallback was asked (for the evaluation's counts). */
  readonly fellBack: boolean
}

/** Letters a comment needs before the fallback is asked (the six smoke sentences in cs, nl and sv have 28 or more). */
export const FALLBACK_MIN_LETTERS = 20

export const identify = (
  model: NgramModel,
  fallback: Fallback | undefined,
  text: string,
  scratch?: Scratch,
  fallbackMinLetters: number = FALLBACK_MIN_LETTERS
): Identification => {
  const reading = read(model, text, scratch)
  if (reading.grams === 0) return { languages: [], fellBack: false }
  const s = reading.scripts
  const letters = s.latin + s.cyrillic + s.arabic + s.devanagari + s.hangul + s.kana + s.han + s.other
  // Scripts the model has no language for (Greek, Hebrew, Thai, ...) are not guessed at.
  if (s.other * 2 > letters) return { languages: [], fellBack: false }
  let top = reading.ranked[0]!
  // Whether English's prior overruled the model's best language: a sentence of a language without
  // data here (Dutch, Swedish) can read closer to English than to its neighbour, and is then checked
  // against the fallback like any unfamiliar comment.
  let overruled = false
  if (top.language !== "en") {
    const english = reading.ranked.find((r) => r.language === "en")
    if (english !== undefined) {
      // English's prior and the evidence threshold apply to Latin-script comments only: other
      // scripts are decided by their script (English's cost there is far above any prior).
      const latin = s.latin * 2 > letters
      const allowance = model.englishMargin * reading.grams + (latin ? model.englishPrior : 0)
      if (english.cost - top.cost <= allowance || (latin && letters < model.latinEvidence)) {
        top = english
        overruled = true
      }
    }
  }
  const best = top.language
  // A comment that reads like the training comments of its best language (19 in 20 of them do)
  // costs the n-gram model only; the others are checked against the languages that share a script
  // with it but have no data here (Dutch reads like odd German, Czech like odd Polish).
  // Too short a comment says too little for the fallback too (franc's guesses on a few words are
  // worse than the model's: on the training first sentences of one to four words, asking it only
  // from 20 letters on is right more often in every language with data; `langid --choose-rule`).
  if (fallback === undefined || letters < fallbackMinLetters || (!overruled && reading.meanCost <= model.unfamiliar[top.index]!)) {
    return { languages: [best], fellBack: false }
  }
  const other = fallback(text)
  return { languages: [other !== undefined && !model.languages.includes(other) ? other : best], fellBack: true }
}

/**
 * Languages without data here that share a script with one that has: the fallback may name only
 * these (or a language of the model, which then changes nothing). Perspective's cs, nl and sv are
 * among them; the rest are there so that, say, Ukrainian is not scored as Russian.
 */
export const FALLBACK_LANGUAGES: ReadonlyArray<string> = ["cs", "nl", "sv", "uk", "bg", "be", "sr", "hr", "bs", "ro", "hu", "fa", "ur", "mr", "ne"]

/**
 * franc (`franc-min`) as the fallback: asked to choose only among the model's languages and
 * `FALLBACK_LANGUAGES` (which also makes it faster), its answer in Perspective's codes.
 */
export const francFallback = (
  franc: (text: string, options: { only: Array<string> }) => string,
  modelLanguages: ReadonlyArray<string>
): Fallback => {
  const wanted = new Set([...modelLanguages, ...FALLBACK_LANGUAGES])
  const only = Object.entries(ISO639_3).filter(([, code]) => wanted.has(code)).map(([iso3]) => iso3)
  return (text) => ISO639_3[franc(text, { only })]
}

/** franc's ISO 639-3 codes as Perspective writes languages (639-1 where there is one). */
export const ISO639_3: Readonly<Record<string, string>> = {
  spa: "es", eng: "en", por: "pt", ind: "id", fra: "fr", deu: "de", jav: "jv", vie: "vi", ita: "it", tur: "tr",
  pol: "pl", swh: "sw", sun: "su", ron: "ro", hau: "ha", bos: "bs", hrv: "hr", nld: "nl", srp: "sr", yor: "yo",
  uzn: "uz", zlm: "ms", ibo: "ig", tgl: "tl", hun: "hu", azj: "az", ces: "cs", run: "rn", plt: "mg", nya: "ny",
  kin: "rw", zul: "zu", swe: "sv", lin: "ln", som: "so", rus: "ru", ukr: "uk", bel: "be", bul: "bg", kaz: "kk",
  arb: "ar", urd: "ur", pes: "fa", hin: "hi", mar: "mr", npi: "ne", cmn: "zh", jpn: "ja", kor: "ko"
}
