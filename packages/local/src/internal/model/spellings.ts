/**
 * The normaliser's spelling lists: which abusive words a masked, leet or misspelt token is
 * restored to. They do not score anything by themselves. Changing them changes the tokens every
 * trained head sees: the shipped weights were trained with these exact lists.
 */

/**
 * Abusive and profane words whose obfuscated spellings the normaliser restores: a masked token
 * (`f*ck`, `b***h`) is matched against these by shape, and one-edit variants of them (`fcuk`,
 * `idoit`) are mapped back when the variant is not itself a common word of the training corpus.
 */
export const ABUSE_WORDS: ReadonlyArray<string> = [
  "fuck", "fucking", "fucked", "fucker", "fuckers", "fuckin", "fucks", "motherfucker", "motherfucking",
  "shit", "shitty", "shits", "bullshit", "shithead", "bitch", "bitches", "bitching", "cunt", "cunts",
  "dick", "dicks", "dickhead", "cock", "cocksucker", "pussy", "asshole", "assholes", "ass", "arse",
  "arsehole", "bastard", "bastards", "damn", "goddamn", "crap", "piss", "pissed", "whore", "whores",
  "slut", "sluts", "fag", "fags", "faggot", "faggots", "nigger", "niggers", "nigga", "niggas",
  "retard", "retarded", "retards", "idiot", "idiots", "idiotic", "stupid", "moron", "morons",
  "moronic", "dumb", "dumbass", "loser", "losers", "jerk", "scum", "scumbag", "twat", "wanker",
  "prick", "douche", "douchebag", "tranny", "kike", "spic", "chink", "wetback", "dyke", "imbecile",
  "cretin", "suck", "sucks", "sucker", "penis", "vagina", "rape", "raped", "kill", "hate"
]

/** Explicit respellings too short or too irregular for the one-edit rule. */
export const RESPELLINGS: Readonly<Record<string, string>> = {
  fuk: "fuck", fuking: "fucking", fukin: "fuckin", fck: "fuck", fcking: "fucking", fk: "fuck",
  fking: "fucking", fkn: "fucking", fcuk: "fuck", phuck: "fuck", phuk: "fuck", fuq: "fuck",
  fuckn: "fucking", effing: "fucking", sht: "shit", shyt: "shit", sh1t: "shit", btch: "bitch",
  biatch: "bitch", biotch: "bitch", beotch: "bitch", azz: "ass", stoopid: "stupid", stupit: "stupid",
  idjit: "idiot", niga: "nigga", nigguh: "nigga", fagot: "faggot", fagit: "faggot", azzhole: "asshole",
  ahole: "asshole", dik: "dick", cnt: "cunt", wh0re: "whore", hoar: "whore", mofo: "motherfucker",
  stfu: "shut the fuck up", gtfo: "get the fuck out", wtf: "what the fuck", fu: "fuck you"
}

/**
 * Words that a stretched spelling most likely meant with a double letter: `asssss` collapses to
 * `as`, which is turned back into `ass` only when it was stretched.
 */
export const DOUBLE_LETTER_WORDS: ReadonlyArray<string> = [
  "ass", "asshole", "assholes", "kill", "hell", "all", "will", "good", "cool", "feel", "need",
  "see", "too", "sorry", "pussy", "bull", "bullshit", "shitty", "fucking", "stupid", "damn",
  "wood", "look", "book", "food", "moon", "soon", "call", "well", "still", "full", "free", "tree",
  "sweet", "sleep", "keep", "deep", "week", "yeah", "boo", "lmao", "off", "stuff", "buzz", "jazz",
  "dumbass", "badass", "kiss", "miss", "less", "mess", "boss", "loss", "class", "pass", "grass",
  "happy", "funny", "silly", "dummy", "mommy", "daddy", "sissy", "little", "bitter", "better",
  "sorry", "worry", "hurry", "crazy", "bizarre", "butt", "shitt", "dick"
]
