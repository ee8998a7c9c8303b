/**
 * The curated word and phrase lists of the cue model (and of the comment scorer's phrase cues). Written for this project; small on
 * purpose: each entry should be a clear signal in ordinary English comment sections. Words are
 * lowercase; phrases are space-separated words matched token by token (punctuation between the
 * words is ignored, case is ignored).
 */

// ---------------------------------------------------------------- insults

/**
 * Insult terms and their strength (1 strong, 0.75 medium, 0.5 mild). `contextual` terms are
 * ordinary words too ("trash", "pig", "clown") and count only when aimed at someone.
 */
export interface InsultTerm {
  readonly strength: number
  readonly contextual: boolean
}

const strong = ["idiot", "idiots", "idiotic", "moron", "morons", "moronic", "imbecile", "imbeciles", "imbecilic", "cretin",
  "cretins", "dumbass", "dumbasses", "asshole", "assholes", "arsehole", "arseholes", "dickhead", "dickheads", "douchebag",
  "douchebags", "scumbag", "scumbags", "halfwit", "halfwits", "dimwit", "dimwits", "nitwit", "numbskull", "numpty",
  "pillock", "tosser", "wanker", "wankers", "jackass", "jackasses", "retard", "retards", "retarded", "lowlife", "lowlifes",
  "subhuman", "bonehead", "boneheads", "knucklehead", "simpleton", "ignoramus", "cunt", "cunts", "twat", "twats",
  "bitch", "bitches", "bastard", "bastards", "libtard", "libtards", "trumptard", "trumptards", "feminazi", "feminazis",
  "braindead", "brainless", "fuckwit", "shithead", "dipshit", "motherfucker", "motherfuckers"]
const medium = ["stupid", "dumb", "loser", "losers", "pathetic", "worthless", "degenerate", "degenerates", "psycho",
  "lunatic", "nutjob", "nutcase", "buffoon", "buffoons", "scum", "hypocrite", "hypocrites", "coward", "cowards", "sheeple",
  "snowflake", "snowflakes", "creep", "freak", "freaks", "twit", "airhead", "prick", "pricks", "douche", "spineless",
  "gutless", "delusional", "ignorant", "clueless", "incompetent", "liar", "liars", "fool", "fools", "foolish", "stfu"]
const mild = ["useless", "disgusting", "vile", "sleazy", "crazy", "insane", "ugly", "lame", "dense", "naive", "ridiculous"]
const contextual = ["clown", "clowns", "troll", "trolls", "shill", "shills", "sheep", "pig", "pigs", "rat", "rats", "swine",
  "trash", "garbage", "filth", "fraud", "grifter", "grifters", "crook", "crooks", "hack", "parasite", "parasites",
  "vermin", "animal", "animals", "joke"]

export const INSULTS: ReadonlyMap<string, InsultTerm> = new Map<string, InsultTerm>([
  ...strong.map((w) => [w, { strength: 1, contextual: false }] as const),
  ...medium.map((w) => [w, { strength: 0.75, contextual: false }] as const),
  ...mild.map((w) => [w, { strength: 0.45, contextual: false }] as const),
  ...contextual.map((w) => [w, { strength: 0.7, contextual: true }] as const)
])

/** Words that address the reader or the person replied to. */
export const SECOND_PERSON: ReadonlySet<string> = new Set([
  "you", "u", "ya", "ye", "you're", "youre", "ur", "your", "yours", "yourself", "yourselves", "you've", "you'd", "you'll", "thou"
])

/** Words that make an insult predicative or exclamatory ("such a", "what an", "total"). */
export const INSULT_LEADS: ReadonlySet<string> = new Set([
  "a", "an", "such", "what", "total", "complete", "absolute", "utter", "bunch", "real", "big", "little", "pathetic", "stupid",
  "fucking", "bloody", "damn", "freaking", "effing", "are", "is", "'s", "were", "was", "so", "the", "of", "like", "ignorant"
])

/** Negators as the cue tokenizer writes them (lower case, apostrophes kept). */
export const CUE_NEGATORS: ReadonlySet<string> = new Set([
  "not", "no", "never", "isn't", "aren't", "wasn't", "weren't", "don't", "doesn't", "didn't", "nor", "hardly", "without", "neither"
])

/** References to the article's author or the article itself (ATTACK_ON_AUTHOR). */
export const AUTHOR_REFS: ReadonlyArray<string> = [
  "the author", "this author", "the writer", "this writer", "the journalist", "this journalist", "the reporter",
  "this reporter", "the editor", "whoever wrote this", "who wrote this", "this article", "the article", "this piece",
  "this op-ed", "this column", "the columnist", "this columnist", "this rag", "the blogger", "this blogger", "this post"
]

// ---------------------------------------------------------------- identity

/** Group terms; `black` and `white` count only before a people noun (see cues). */
export const IDENTITY_TERMS: ReadonlySet<string> = new Set([
  "jews", "jew", "jewish", "muslims", "muslim", "islam", "islamic", "christians", "christian", "catholics", "catholic",
  "hindus", "hindu", "sikhs", "atheists", "gays", "gay", "lesbians", "lesbian", "homosexuals", "homosexual", "queers",
  "queer", "trans", "transgender", "transgenders", "transsexuals", "bisexuals", "blacks", "whites", "asians", "chinese",
  "mexicans", "latinos", "hispanics", "africans", "arabs", "immigrants", "immigrant", "migrants", "refugees", "foreigners",
  "indians", "pakistanis", "gypsies", "roma", "women", "females", "feminists", "disabled", "autistic", "minorities",
  "liberals", "conservatives", "leftists", "democrats", "republicans"
])
export const COLOUR_TERMS: ReadonlySet<string> = new Set(["black", "white", "brown"])
export const PEOPLE_NOUNS: ReadonlySet<string> = new Set(["people", "men", "women", "folks", "guys", "person", "kids", "girls", "boys"])

/** Political labels are identity-like for generalisations but not protected groups: lower weight. */
export const POLITICAL_GROUPS: ReadonlySet<string> = new Set(["liberals", "conservatives", "leftists", "democrats", "republicans"])

/** Dehumanising or attacking words that, next to a group term, make an identity attack. */
export const GROUP_ATTACK_WORDS: ReadonlySet<string> = new Set([
  "animals", "savages", "savage", "subhuman", "subhumans", "vermin", "parasites", "parasite", "cockroaches", "rats", "apes",
  "monkeys", "filth", "filthy", "disease", "plague", "cancer", "inferior", "scum", "trash", "garbage", "evil",
  "terrorists", "criminals", "rapists", "thieves", "invaders", "infestation", "infesting", "exterminate", "exterminated",
  "eradicate", "eradicated", "gassed", "degenerates", "abominations", "abomination", "perverts", "pedophiles",
  "groomers", "dirty", "lazy", "greedy", "primitive", "uncivilized", "barbarians", "barbaric", "deported", "deport",
  "disgusting", "sick", "stupid", "idiots", "dumb", "destroying", "ruining", "breed", "breeding", "leeches", "freaks"
])

// ---------------------------------------------------------------- profanity, sexual

/** Mild profanity and abbreviations the obscenity dataset does not carry. */
export const MILD_PROFANITY: ReadonlyMap<string, number> = new Map([
  ["damn", 0.5], ["damned", 0.45], ["dammit", 0.55], ["goddamn", 0.7], ["goddamned", 0.7], ["hell", 0.3], ["crap", 0.45],
  ["crappy", 0.45], ["bloody", 0.3], ["bullcrap", 0.5], ["wtf", 0.7], ["stfu", 0.8], ["gtfo", 0.8], ["omfg", 0.6],
  ["fk", 0.7], ["fkn", 0.75], ["fking", 0.75], ["frigging", 0.35], ["effing", 0.5], ["bs", 0.45], ["arse", 0.5],
  ["bollocks", 0.6], ["sod", 0.3], ["bugger", 0.45], ["screw", 0.2], ["sucks", 0.3], ["pissed", 0.5]
])

/** Sexual words beyond the obscenity dataset, with strength. */
export const SEXUAL_TERMS: ReadonlyMap<string, number> = new Map([
  ["nude", 0.6], ["nudes", 0.8], ["naked", 0.5], ["horny", 0.8], ["sexy", 0.5], ["sexting", 0.8], ["erotic", 0.7],
  ["genitals", 0.7], ["breasts", 0.5], ["nipples", 0.7], ["threesome", 0.9], ["xxx", 0.8], ["nsfw", 0.6], ["onlyfans", 0.6],
  ["orgasms", 0.9], ["stripper", 0.5], ["lingerie", 0.5], ["kinky", 0.7], ["bdsm", 0.8], ["milf", 0.9], ["sexual", 0.25],
  ["booty", 0.4], ["thong", 0.5], ["hooters", 0.6]
])

// ---------------------------------------------------------------- phrase groups

/** Dismissive or sarcastic phrases: negative tone. */
export const DISMISSIVE_PHRASES: ReadonlyArray<string> = [
  "nobody cares", "no one cares", "noone cares", "who cares", "obviously you", "clearly you", "you clearly", "you obviously",
  "get a clue", "get a life", "get a grip", "grow up", "wake up", "give me a break", "spare me", "cry more", "ok boomer",
  "okay boomer", "yeah right", "nice try", "lol no", "do your research", "do some research", "educate yourself",
  "read a book", "learn to read", "did you even read", "are you serious", "are you kidding", "what a joke", "shut up",
  "shut the hell up", "get over it", "deal with it", "not my problem", "so what", "big deal", "thanks for nothing",
  "good luck with that", "oh please", "whatever you say", "you people", "cope harder", "stay mad", "touch grass",
  "go back to school", "get real", "give it a rest", "as usual", "how convenient", "sure buddy", "sure jan", "bless your heart",
  "newsflash", "news flash", "try harder", "pull your head out", "who asked", "nobody asked", "no one asked",
  "keep telling yourself", "spoken like a", "typical leftist", "typical liberal", "typical conservative", "what a surprise",
  "how original", "cry me a river", "boo hoo", "boohoo", "laughable", "absurd", "drivel", "nonsense", "rubbish", "hogwash",
  "garbage article", "trash article", "clickbait", "gtfo", "get lost", "go away", "piss off", "stfu"
]

/** Reasoning and evidence cues. */
export const REASONING_PHRASES: ReadonlyArray<string> = [
  "because", "since the", "therefore", "thus", "hence", "so that", "which means", "this means", "that means", "it follows",
  "for example", "for instance", "such as", "e.g", "according to", "evidence", "studies show", "study", "studies", "research",
  "data", "statistics", "the reason", "as a result", "consequently", "due to", "in other words", "in fact", "the source",
  "sources", "report", "survey", "percent", "compared to", "compared with", "on average", "in particular", "specifically",
  "the problem is", "the issue is", "if we", "which is why", "that is why", "that's why", "this is why", "firstly",
  "secondly", "finally", "in addition", "moreover", "furthermore", "the point is", "i think", "i believe", "in my view",
  "in my opinion", "it seems", "suggests", "implies", "assuming"
]

/** Nuance: qualification and seeing more than one side. */
/** Opinion markers among `REASONING_PHRASES`: they announce a view, not a reason for it. */
const OPINION_MARKERS: ReadonlySet<string> = new Set(["i think", "i believe", "in my view", "in my opinion", "it seems"])

/**
 * Phrases that give a reason or point to evidence ("because", "according to", "the data",
 * "for example"): `REASONING_PHRASES` without the opinion markers. The comment scorer's quality
 * grade counts them.
 */
export const EVIDENCE_PHRASES: ReadonlyArray<string> = REASONING_PHRASES.filter((p) => !OPINION_MARKERS.has(p))

export const NUANCE_PHRASES: ReadonlyArray<string> = [
  "on the other hand", "however", "although", "though", "it depends", "depends on", "to be fair", "in some cases", "partly",
  "partially", "not necessarily", "trade-off", "tradeoff", "trade off", "complicated", "complex", "nuanced", "both sides",
  "i see your point", "i see the point", "that said", "having said that", "then again", "at the same time", "while i",
  "while it", "but also", "more or less", "to some extent", "to a degree", "in part", "arguably", "it's possible",
  "it is possible", "might", "may be", "perhaps", "probably", "not always", "sometimes", "caveat", "unless", "admittedly",
  "granted", "fair enough", "i could be wrong", "i might be wrong", "correct me if"
]

/** Personal experience. */
export const STORY_PHRASES: ReadonlyArray<string> = [
  "when i was", "when i", "i remember", "in my experience", "from my experience", "i grew up", "years ago", "happened to me",
  "i used to", "my mother", "my father", "my mom", "my dad", "my son", "my daughter", "my wife", "my husband", "my kids",
  "my family", "my grandmother", "my grandfather", "my brother", "my sister", "my friend", "my partner", "my boss",
  "my job", "my neighbor", "my neighbour", "my town", "my city", "personally", "i worked", "i lived", "i went", "i was born",
  "i have been", "i've been", "i spent", "last year i", "as a nurse", "as a teacher", "as a parent", "as a mother",
  "as a father", "as a doctor", "as an engineer", "as a veteran", "i had", "my own"
]

/** Curiosity: asking, wondering. */
export const CURIOSITY_PHRASES: ReadonlyArray<string> = [
  "i wonder", "i'm curious", "i am curious", "curious", "what do you think", "what does everyone think", "could you explain",
  "can you explain", "can someone explain", "could someone explain", "anyone know", "does anyone know", "i'd like to know",
  "i would like to know", "how does", "how do", "why do", "why does", "what if", "is there", "are there", "do you know",
  "help me understand", "what would", "how would", "i'd love to hear", "genuinely asking", "genuine question",
  "out of curiosity", "does this mean", "what happens"
]

/** Compassion: care for someone's situation. */
export const COMPASSION_PHRASES: ReadonlyArray<string> = [
  "i'm sorry", "i am sorry", "so sorry", "sorry to hear", "sorry for your loss", "that must be", "must have been hard",
  "must be hard", "must be difficult", "hope you", "hope things", "take care", "sending love", "sending hugs", "hugs",
  "thoughts are with", "thinking of you", "i understand how", "i can imagine", "i can't imagine", "feel better", "condolences",
  "my heart goes out", "you're not alone", "you are not alone", "stay strong", "be kind", "wishing you", "get well",
  "here for you", "that sounds hard", "that sounds difficult", "that sounds awful", "i feel for", "rest in peace", "compassion",
  "empathy", "support you", "look after yourself"
]

/** Affinity: common ground, agreement, shared identity. */
export const AFFINITY_PHRASES: ReadonlyArray<string> = [
  "i agree", "agreed", "same here", "me too", "good point", "great point", "fair point", "you're right", "you are right",
  "i feel the same", "we all", "all of us", "we both", "together", "common ground", "we can all", "so true", "exactly",
  "well said", "couldn't agree more", "could not agree more", "with you on", "i'm with you", "same experience",
  "as a fellow", "we share", "our community", "our neighbors", "our neighbours", "like you", "just like you"
]

/** Respect: courtesy, acknowledging others. */
export const RESPECT_PHRASES: ReadonlyArray<string> = [
  "thank you", "thanks", "i appreciate", "appreciate", "respectfully", "with respect", "with all due respect",
  "i respect", "respect your", "good point", "fair point", "well said", "please", "i understand", "i hear you", "i see your point",
  "you make a good point", "you raise", "great question", "good question", "kindly", "i agree with you", "thoughtful",
  "well written", "well-written", "well researched", "great article", "interesting article", "i learned"
]

/** Flirtation. */
export const FLIRT_PHRASES: ReadonlyArray<string> = [
  "you're cute", "you are cute", "you're so cute", "you are so cute", "you're hot", "you are hot", "you're so hot",
  "you're sexy", "you are sexy", "you're beautiful", "you are beautiful", "you're gorgeous", "you are gorgeous",
  "you're pretty", "you're handsome", "you are handsome", "you're adorable", "you look good", "you look hot",
  "you look beautiful", "you look cute", "you look sexy", "go out with me", "date me", "marry me", "kiss me", "kiss you",
  "wanna date", "want to date", "take you out", "grab a drink", "hook up", "hookup", "your number", "ur number",
  "slide into your", "slide into ur", "hey sexy", "hey cutie", "hey gorgeous", "hey beautiful", "hey babe", "hey baby",
  "hey handsome", "babe", "cutie", "sweetie", "hottie", "single", "miss you", "love you", "love your smile", "your smile",
  "your eyes", "those eyes", "wink", "i'm single", "are you single", "be mine", "crush on you", "thinking about you"
]

/** Threat-adjacent violent words: weak on their own. */
export const VIOLENT_WORDS: ReadonlyMap<string, number> = new Map([
  ["kill", 0.5], ["killed", 0.3], ["killing", 0.35], ["murder", 0.5], ["shoot", 0.5], ["stab", 0.6], ["strangle", 0.7],
  ["behead", 0.8], ["lynch", 0.9], ["bomb", 0.45], ["die", 0.35], ["dead", 0.25], ["beat", 0.2], ["punch", 0.4],
  ["slaughter", 0.7], ["massacre", 0.5], ["hang", 0.3], ["hanged", 0.5], ["torture", 0.6], ["bleed", 0.5], ["burn", 0.25],
  ["destroy", 0.2], ["execute", 0.5], ["assassinate", 0.8], ["gun", 0.2], ["knife", 0.3]
])

/** Comments that are nothing but one of these (after trimming punctuation and emoji) are low effort. */
export const LOW_EFFORT_COMMENTS: ReadonlySet<string> = new Set([
  "me too", "metoo", "first", "1st", "+1", "+100", "1", "this", "^", "^this", "this^", "^^", "great article", "nice article",
  "good article", "great post", "nice post", "good post", "great read", "good read", "nice read", "lol", "lmao", "lmfao",
  "rofl", "haha", "hahaha", "agreed", "agree", "i agree", "so true", "true", "exactly", "same", "nice", "wow", "cool",
  "yes", "no", "yep", "yup", "nope", "ok", "okay", "k", "thanks", "thank you", "thx", "ty", "bump", "well said", "spot on",
  "100", "100%", "facts", "based", "ratio", "great", "awesome", "interesting", "good point", "true that", "word", "amen",
  "omg", "wtf", "meh", "yes!", "this is it", "love it", "love this", "i love this", "nailed it", "preach", "same here",
  "following", "subscribed", "great job", "good job", "well done", "bravo", "hear hear", "fake news", "who cares",
  "great video", "nice video", "first comment", "what", "why", "hmm", "ok boomer", "this exactly", "exactly this", "+1 this"
])

/** Intensifiers that precede a profanity-free word ("so", "really") for quoting a negative phrase. */
export const INTENSIFIERS: ReadonlySet<string> = new Set([
  "so", "very", "really", "totally", "utterly", "completely", "absolutely", "extremely", "incredibly", "truly", "just", "pure", "such"
])
