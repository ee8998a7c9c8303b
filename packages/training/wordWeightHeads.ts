/**
 * Word-weight heads (manifest kind `lexicon`, "lexicon approximations" in the model card) for attributes that no dataset in `../shared/data` labels. Each is a
 * logistic of a bias plus hand-set weights of distinct canonical tokens (after normalisation, so
 * obfuscated spellings match too). They are named as approximations in the model card.
 */
import type { WordWeightEntry } from "@decorum/local/ModelFormat"

const entry = (note: string, bias: number, groups: ReadonlyArray<readonly [number, string]>): WordWeightEntry => {
  const words: Record<string, number> = {}
  for (const [w, list] of groups) for (const word of list.trim().split(/\s*,\s*/)) words[word] = w
  return { kind: "lexicon", bias, words: Object.fromEntries(Object.entries(words).sort(([a], [b]) => (a < b ? -1 : 1))), note }
}

export const WORD_WEIGHT_HEADS: Record<string, WordWeightEntry> = {
  SEXUALLY_EXPLICIT: entry("lexicon approximation: explicit sexual terms (no labelled data)", -4, [
    [3.2, "porn, porno, pornhub, xxx, nude, nudes, naked, blowjob, handjob, cum, cumming, jizz, orgasm, dildo, vibrator, horny, masturbate, masturbating, boobs, tits, titties, pussy, cock, dick, penis, vagina, clit, anal, erection, boner, threesome, milf, sexting, stripper, hooker, deepthroat, creampie, nsfw"],
    [2.2, "sex, sexy, fuck, fucking, fucked, screw, suck, sucking, lick, licking, naked, bed, ass, butt, booty, hardcore, kinky, fetish, slut, whore, hentai, thong, panties, lingerie, moan"],
    [1.2, "body, hot, touch, wet, hard, bang, ride, spank, strip"]
  ]),
  FLIRTATION: entry("lexicon approximation: pick-up lines and compliments on looks (no labelled data)", -4, [
    [2.6, "sexy, gorgeous, cutie, babe, baby, hottie, handsome, beautiful, kiss, kisses, date, flirt, flirting, crush, wink, sweetie, honey, darling, sweetheart, lover"],
    [1.6, "cute, hot, pretty, lovely, love, miss, dinner, single, number, girlfriend, boyfriend, smile, eyes, lips, body"],
    [1.2, "you, your, tonight, call, text, dm, me"],
    [3.0, "wanna date, go out, your number, be mine, so hot, so cute, so sexy, you beautiful, marry me, my place"]
  ]),
  CURIOSITY_EXPERIMENTAL: entry("lexicon approximation: questions and requests for information (no labelled data)", -3.2, [
    [1.6, "why, how, what, wonder, wondering, curious, explain, clarify, understand, question, questions, learn, anyone, source, sources, elaborate"],
    [2.2, "i wonder, can you, could you, do you, would you, what if, how does, how do, why do, why does, im curious, more about, tell me"]
  ]),
  COMPASSION_EXPERIMENTAL: entry("lexicon approximation: sympathy, care and support (no labelled data)", -3.4, [
    [2.0, "sorry, condolences, sympathy, empathy, compassion, support, care, caring, hope, heal, healing, hug, hugs, prayers, thoughts, kindness, kind, gentle, comfort, understand, feel"],
    [2.6, "so sorry, my condolences, thinking of, here for, take care, sending love, i understand, must be, hang in, feel better"]
  ]),
  AFFINITY_EXPERIMENTAL: entry("lexicon approximation: shared interests, agreement and belonging (no labelled data)", -3.4, [
    [1.8, "we, us, our, together, share, shared, agree, same, too, also, fellow, community, both, join"],
    [2.4, "me too, i agree, same here, we both, as well, like you, fellow fans, our community, with you"]
  ]),
  NUANCE_EXPERIMENTAL: entry("lexicon approximation: hedges, concessions and multiple perspectives (no licensed labelled data)", -3.4, [
    [1.6, "however, although, though, while, perhaps, maybe, might, may, depends, nuance, complicated, complex, partly, somewhat, likely, unclear, arguably, both, whereas, nevertheless"],
    [2.2, "on the other hand, it depends, to be fair, in some cases, not always, at the same time, that said, then again, both sides"]
  ]),
  INCOHERENT: entry("lexicon approximation: keyboard mashing, filler and chat noise (no labelled data)", -3, [
    [2.2, "asdf, asdfgh, qwerty, jkjk, lol, lmao, lolol, hahaha, haha, xd, omg, wtf, idk, ugh, hmm, blah, etc, xmasked"],
    [1.0, "u, ur, r, k, ok, ya, yo, gonna, wanna"]
  ])
}
