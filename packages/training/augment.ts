/**
 * Sentences written for the purpose of countering identity-term bias and teaching negation.
 *
 * A linear model trained on abuse corpora learns that identity words (gay, muslim, black, woman)
 * are themselves toxic, because they appear mostly in attacks. These templates put the same words
 * into neutral and positive statements (all toxicity labels 0) and into real attacks (TOXICITY,
 * IDENTITY_ATTACK and INSULT 1), so the weight has to move onto the attacking words. Negated
 * statements ("I don't hate ...") are labelled 0 so the negation features learn their meaning.
 *
 * The guardrail test set (test/model/guardrails.ts) is written separately, with other sentences.
 */
import type { Example } from "./data.js"

const GROUPS = [
  "muslims", "jews", "christians", "gay people", "lesbians", "trans people", "black people", "white people",
  "asians", "mexicans", "immigrants", "refugees", "women", "men", "arabs", "africans", "hindus", "atheists",
  "disabled people", "homosexuals", "bisexual people", "latinos", "catholics", "indians", "old people"
]
const ADJECTIVES = [
  "gay", "lesbian", "bisexual", "trans", "transgender", "black", "white", "asian", "muslim", "jewish",
  "christian", "hindu", "mexican", "african", "deaf", "blind", "disabled", "queer", "arab", "chinese",
  "catholic", "immigrant", "latina", "indian", "old"
]
const PEOPLE = ["man", "woman", "person", "guy", "girl", "teacher", "nurse", "father", "mother", "student"]

const NEUTRAL_GROUP = [
  "{G} live on my street.",
  "Many of my colleagues are {g}.",
  "{G} have every right to be here.",
  "I grew up with {g} and we are still close.",
  "{G} deserve the same respect as anyone else.",
  "The article interviews {g} about housing costs.",
  "Some {g} voted for him and some did not.",
  "I don't hate {g}.",
  "I do not hate {g} at all.",
  "Nobody should hate {g}.",
  "I have nothing against {g}.",
  "It is not true that {g} are dangerous.",
  "{G} are not the problem here.",
  "There is no reason to fear {g}.",
  "Hating {g} is wrong."
]
const NEUTRAL_PERSON = [
  "I am a {a} {p}.",
  "I'm a proud {a} {p}.",
  "As a {a} {p}, I found this article fair.",
  "My neighbour is a {a} {p} and a great cook.",
  "Being a {a} {p} is part of who I am.",
  "She is {a} and works as a {p2}.",
  "Our new {p2} is {a}."
]
const ATTACK_GROUP = [
  "{G} are disgusting vermin.",
  "{G} are filthy animals and should be thrown out.",
  "I hate {g}, they are a plague on this country.",
  "All {g} are subhuman trash.",
  "{G} are parasites who ruin everything.",
  "Get rid of all the {g}, they are scum.",
  "{G} are stupid and worthless, every single one."
]
const ATTACK_PERSON = [
  "Shut up, you stupid {a} freak.",
  "Typical {a} {p}, dumb and worthless.",
  "Nobody wants a disgusting {a} {p} like you here."
]
const NEGATED_INSULTS = [
  "You are not an idiot, you just made a mistake.",
  "He is not stupid, he was misinformed.",
  "I never said you were a moron.",
  "She is not a loser.",
  "I don't think you are dumb.",
  "Nobody here is an idiot.",
  "You're not stupid for asking that question."
]

/**
 * Counter-speech: a slur or insult mentioned in order to condemn it or to report being its
 * target. Labelled as not insulting and not an identity attack, and with a low soft TOXICITY
 * (0.2: a reader may still find the word itself offensive); PROFANITY is left unlabelled.
 */
const MENTIONED = ["retard", "faggot", "slut", "idiot", "moron", "whore", "bitch", "dyke", "tranny"]
const COUNTER_SPEECH = [
  "Using the word {w} to describe people is hurtful.",
  "My teacher told the class that {w} is a word we should never use.",
  "He was suspended for calling a classmate a {w}, and rightly so.",
  "I was called a {w} growing up and it still hurts.",
  "Words like {w} have no place in this discussion.",
  "It is not okay to call anyone a {w}, ever.",
  "Being called a {w} online made her quit the platform."
]

/**
 * Violent words used without a threat: sport, games, hyperbole, idioms, cooking, news reports of
 * violence. All toxicity labels 0: the words "kill", "destroy", "beat", "shoot", "murder" alone
 * must not make a comment a threat. Written for this project, other sentences than the
 * guardrails' "violent words, no threat" category.
 *
 * A candidate, NOT in the shipped recipe (`augmentation()` does not include it): tried in
 * 2026.11 with training/threatdev.ts, it did not improve THREAT on the dev data (docs/experiments/toxicity-log.md).
 */
export const VIOLENT_NOT_THREAT = [
  "Our defence is going to destroy their attack on Saturday.",
  "They crushed us three nil and deserved it.",
  "We are going to smash the league record this season.",
  "Their striker shot from thirty yards and scored.",
  "She beat the world champion in straight sets.",
  "Arsenal will annihilate them if they play like that again.",
  "The rookie knocked out the veteran in the second round.",
  "Our quarterback got sacked four times in the first half.",
  "The home team slaughtered the visitors at the weekend.",
  "I killed the final boss on my first try.",
  "My character got shot by a sniper in the last round.",
  "He headshots everyone in this game, it is unreal.",
  "In chess you have to attack the king early.",
  "I will destroy you at Mario Kart tonight, bring snacks.",
  "These shoes are killing my feet.",
  "My boss will kill me if I am late again, haha.",
  "That joke slayed the whole room.",
  "The heat today is murder.",
  "Traffic this morning was a killer.",
  "I am dying to read the sequel.",
  "This spreadsheet is going to be the death of me.",
  "You nailed the presentation, it was a knockout.",
  "The band blew the roof off the stadium.",
  "The senator's speech shot down the proposal.",
  "Critics tore the film apart.",
  "The new budget kills the bike lane project.",
  "Let's kill two birds with one stone and meet at lunch.",
  "Chop the onions and beat the eggs with a fork.",
  "Stab the potatoes with a knife to check they are done.",
  "Police say the gunman shot three people before he was arrested.",
  "The earthquake killed hundreds and left thousands homeless.",
  "The documentary covers the murders of the 1970s.",
  "The soldier was killed in action in 1944.",
  "The novel opens with a stabbing in a quiet village.",
  "The court sentenced him for the assault last year.",
  "Hunters shot a deer near the trail, rangers said.",
  "The bill would ban assault weapons in the state.",
  "He was attacked by a dog while jogging and is recovering.",
  "I would kill for a cup of coffee right now.",
  "We are going to fight this zoning decision in court.",
  "Vote them out, that is how we beat them.",
  "I will fight for lower taxes as long as I am on the council.",
  "The vaccine kills the virus before it can spread.",
  "This weed killer works on dandelions.",
  "The gym class absolutely wrecked me today."
]

/** The candidate negatives above as training rows (used by training/threatdev.ts only). */
export const violentWordsNoThreat = (): Array<Example> =>
  VIOLENT_NOT_THREAT.map((text, i) => ({
    text, source: "decorum-augmentation", id: `aug-violent-${i}`,
    labels: { TOXICITY: 0, SEVERE_TOXICITY: 0, INSULT: 0, PROFANITY: 0, THREAT: 0, IDENTITY_ATTACK: 0 }
  }))

/**
 * local-2026.12.3: contrastive minimal pairs (issue 11's suggestion), one list per cause that
 * docs/experiments/toxicity-log.md names for 12.2's guardrail failures. Each list pairs a toxic frame with the same
 * frame made harmless, so the weight has to move onto the words that make the difference (the
 * attacking description, the threat, the second person), not onto the group word, the swear word
 * or the sentence shape. Written for this project; none is a guardrail or functional-suite sentence
 * (tests check both, on word 4-grams for the guardrails).
 */

/** Dehumanising or attacking descriptions of a group, and harmless ones in the same frame. */
const DEROGATORY = [
  ["sick", "degenerates"], ["vile", "savages"], ["dirty", "cockroaches"], ["evil", "parasites"],
  ["inferior", "criminals"], ["diseased", "pigs"], ["twisted", "perverts"], ["worthless", "freaks"]
] as const
const RESPECTFUL = [
  ["hardworking", "neighbours"], ["ordinary", "people"], ["loving", "parents"], ["generous", "hosts"],
  ["talented", "artists"], ["honest", "citizens"], ["thoughtful", "colleagues"], ["welcome", "members"]
] as const
const GROUP_FRAMES = ["{G} are {adj} {noun}.", "Frankly, {g} are {adj} {noun}.", "Everyone knows {g} are {adj} {noun}."]

/** Swearing that targets no one: PROFANITY 1, INSULT 0 (TOXICITY left unlabelled: Perspective counts swearing). */
const THINGS = ["match", "concert", "soup", "update", "movie", "road trip", "exam", "recipe"]
const PROFANE_NO_TARGET = [
  "This {t} is fucking great.",
  "Holy crap, the {t} actually worked out.",
  "Damn, that {t} was better than I expected.",
  "What the hell happened to the {t}?",
  "The {t} was a total shitshow, but we laughed about it.",
  "I'm so fucking tired after the {t}.",
  "That {t} kicked ass, well done everyone.",
  "Oh shit, I totally forgot about the {t}."
]

/** Second-person insults without an insult noun, and the same frames as compliments. */
const INSULT_FRAMES = [
  "You are the {sup} {who} I have ever argued with.",
  "Honestly, you might be the {sup} {who} on the internet.",
  "Nobody here is as {adj} as you are.",
  "How can anyone be this {adj}?",
  "Every comment you post is more {adj} than the last."
]
const INSULTING = [["stupidest", "brainless"], ["most pathetic", "pathetic"], ["most clueless", "clueless"], ["most ignorant", "ignorant"], ["thickest", "dense"]] as const
const PRAISING = [["kindest", "kind"], ["most patient", "patient"], ["most generous", "generous"], ["most thoughtful", "thoughtful"], ["funniest", "funny"]] as const
const WHO = ["commenter", "poster", "guy", "user", "writer"]

/**
 * Counter-speech: an attack on a group quoted or reported in order to condemn it. As the
 * `COUNTER_SPEECH` rows: INSULT 0, IDENTITY_ATTACK 0, soft TOXICITY 0.2.
 */
const COUNTER_GROUP = [
  "Anyone who says {g} are {noun} is spreading hate.",
  "The claim that {g} are {noun} is a lie that hurts real families.",
  "A flyer calling {g} {noun} was found downtown and the mayor condemned it.",
  "It is wrong to describe {g} as {noun}, full stop."
]
const COUNTER_REPORT = [
  "My {rel} was called a {w} on the bus and nobody stepped in.",
  "Kids kept calling my {rel} a {w} until the teachers finally acted.",
  "Using {w} as an insult hurts everyone who hears it."
]
const RELATIVES = ["daughter", "brother", "friend", "cousin"]

/** Threats without the word "kill" (THREAT 1, TOXICITY 1), and the same frames with a harmless plan. */
const THREAT_FRAMES = ["I'm going to {act}.", "Come back here again and I will {act}.", "Next time I see you I will {act}.", "I swear I will {act}.", "You'd better hide, because I will {act}."]
const THREAT_ACTS = [
  "break your jaw", "put you in the hospital", "make you bleed", "stab you", "shoot you", "burn your house down",
  "hunt you down", "smash your face in", "break your nose", "strangle you", "hurt you badly", "bury you"
]
const HARMLESS_FRAMES = ["I'm going to {act}.", "Tomorrow I will {act}.", "I swear I will {act}."]
const HARMLESS_ACTS = [
  "break the club record", "shoot the wedding photos", "burn a copy of the album", "hunt down that recipe",
  "smash this exam", "bury the hatchet with my brother", "beat my personal best", "crush the interview"
]
const THREAT_WISHES = [
  "I hope you get hit by a bus.",
  "I hope your house burns down with you in it.",
  "Somebody should teach you a lesson with a baseball bat.",
  "People like you deserve a bullet.",
  "Watch your back tonight, we know which car is yours."
]

/** Neutral mentions of identity in everyday and religious life. */
const IDENTITY_LIFE = [
  ["Jewish", "celebrates Passover with the whole family"], ["Muslim", "fasts during Ramadan"],
  ["Hindu", "lights lamps for Diwali"], ["Christian", "sings in the choir at Easter"],
  ["Sikh", "cooks at the temple kitchen on Sundays"], ["gay", "married his partner last spring"],
  ["lesbian", "runs a bakery with her wife"], ["black", "coaches the youth football team"],
  ["transgender", "teaches piano to the neighbourhood kids"], ["Mexican", "makes the best tamales at the festival"]
] as const
const LIFE_FRAMES = ["My {rel} is {a} and {life}.", "One of our neighbours is {a} and {life}."]

/** The contrastive rows of local-2026.12.3 (part of `augmentation()`). */
export const contrastive = (): Array<Example> => {
  const out: Array<Example> = []
  const push = (text: string, labels: Example["labels"]) =>
    out.push({ text, source: "decorum-augmentation", id: `aug-c-${out.length}`, labels })
  const attack = { TOXICITY: 1, IDENTITY_ATTACK: 1, INSULT: 1, SEVERE_TOXICITY: 0, THREAT: 0 }
  const counter = { TOXICITY: 0.2, INSULT: 0, IDENTITY_ATTACK: 0, SEVERE_TOXICITY: 0, THREAT: 0 }
  GROUPS.forEach((g, i) => {
    GROUP_FRAMES.forEach((t, k) => {
      const [adj, noun] = DEROGATORY[(i + k) % DEROGATORY.length]!
      const [adj0, noun0] = RESPECTFUL[(i + k) % RESPECTFUL.length]!
      const fill = (a: string, n: string) => t.replace("{G}", cap(g)).replace("{g}", g).replace("{adj}", a).replace("{noun}", n)
      push(fill(adj, noun), attack)
      push(fill(adj0, noun0), ZERO)
    })
    const t = COUNTER_GROUP[i % COUNTER_GROUP.length]!
    push(t.replace("{g}", g).replace("{noun}", DEROGATORY[(i + 3) % DEROGATORY.length]![1]), counter)
  })
  for (const t of THINGS) for (const p of PROFANE_NO_TARGET) push(p.replace("{t}", t), { PROFANITY: 1, INSULT: 0, IDENTITY_ATTACK: 0, THREAT: 0, SEVERE_TOXICITY: 0 })
  INSULT_FRAMES.forEach((t, k) => {
    INSULTING.forEach(([sup, adj], i) => push(t.replace("{sup}", sup).replace("{adj}", adj).replace("{who}", WHO[(i + k) % WHO.length]!), { TOXICITY: 1, INSULT: 1, IDENTITY_ATTACK: 0, THREAT: 0 }))
    PRAISING.forEach(([sup, adj], i) => push(t.replace("{sup}", sup).replace("{adj}", adj).replace("{who}", WHO[(i + k) % WHO.length]!), ZERO))
  })
  MENTIONED.forEach((w, i) => {
    const t = COUNTER_REPORT[i % COUNTER_REPORT.length]!
    push(t.replace("{w}", w).replace("{rel}", RELATIVES[i % RELATIVES.length]!), counter)
  })
  for (const t of THREAT_FRAMES) for (const a of THREAT_ACTS) push(t.replace("{act}", a), { THREAT: 1, TOXICITY: 1, IDENTITY_ATTACK: 0 })
  for (const t of THREAT_WISHES) push(t, { THREAT: 1, TOXICITY: 1, IDENTITY_ATTACK: 0 })
  for (const t of HARMLESS_FRAMES) for (const a of HARMLESS_ACTS) push(t.replace("{act}", a), ZERO)
  IDENTITY_LIFE.forEach(([a, life], i) => {
    LIFE_FRAMES.forEach((t, k) => push(t.replace("{rel}", RELATIVES[(i + k) % RELATIVES.length]!).replace("{a}", a).replace("{life}", life), ZERO))
  })
  return out
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/**
 * local-2026.12.4: more contrastive pairs, one list per cause docs/experiments/toxicity-log.md names for 12.3's
 * guardrail failures. Written for this project; a test checks that none shares a word 4-gram with
 * a guardrail sentence, a functional-suite sentence or a contrastive dev pair.
 */

/**
 * Threats beyond "kill": first-person future harm aimed at "you" or "your family" (THREAT 1,
 * TOXICITY 1), each act paired with the same verb aimed at a thing (no target) and with the same
 * act negated ("I would never ..."), both harmless (every label 0). The weight has to move onto
 * the target and the intent, not onto the violent verb.
 */
const THREAT_FRAMES_124 = [
  "I'm gonna {act}.",
  "Mark my words, one day I'll {act}.",
  "Show your face here again and I'll {act}.",
  "Say one more thing and I'll {act}.",
  "Keep running your mouth and I'll {act}."
]
/**
 * [act aimed at you or your family, the same verb with no harm meant]. A third of the harmless acts still
 * match the threat pattern of `src/internal/cues/patterns.ts` ("I'll beat you at chess", "I'll cut
 * you a slice"), so the pattern's weight inside the head is learnt from both sides, not only from
 * threats (with threats alone, 12.4's first fit raised it from 2.04 to 2.73 and "We will beat them
 * in the final on Sunday." crossed THREAT 0.5).
 */
const TARGETED_ACTS = [
  ["beat you black and blue", "beat you at chess again"],
  ["rip your head off", "rip the old wallpaper off"],
  ["knock your teeth out", "knock your socks off with this recipe"],
  ["snap your neck", "snap your picture at the ceremony"],
  ["cut you open", "cut you a slice of the cake"],
  ["set you on fire", "set you up with my cousin"],
  ["break both your arms", "break you in gently on your first shift"],
  ["drown you in the river", "drown you in compliments"],
  ["choke you until you stop breathing", "choke up when you graduate"],
  ["make your whole family suffer", "make your whole family dinner"],
  ["hurt your kids", "help your kids with their homework"],
  ["put your family in the ground", "put your family on the guest list"],
  ["tear you limb from limb", "tear you a page from my notebook"],
  ["bash your brains in", "pick your brains about gardening"],
  ["hunt you down like a dog", "hunt you down a signed copy"],
  ["get you when you least expect it", "get you a coffee on the way"],
  ["find you and make you bleed", "find you a seat near the stage"],
  ["end you", "end your losing streak at cards"]
] as const
const NEGATED_FRAMES = ["I would never {act}.", "Don't worry, I will never {act}."]
/** Implicit threats and wished harm without "kill", each with a harmless sentence in the same frame. */
const IMPLICIT_THREATS = [
  ["You will pay for this, I swear on my life.", "You will love this, I swear on my life."],
  ["You will regret crossing me.", "You will regret missing this concert."],
  ["Sleep lightly, we know where your kids go to school.", "Sleep well, we know where your kids go to school and it is a good one."],
  ["Your family will not be safe after what you did.", "Your family will be safe at the shelter tonight."],
  ["People like you deserve to be beaten in the street.", "People like you deserve to be thanked in the street."],
  ["You deserve to have your throat cut.", "You deserve to have your work published."],
  ["Somebody needs to put you in a body bag.", "Somebody needs to put you in charge of the party."],
  ["Wait until I get my hands on you, you will be unrecognisable.", "Wait until I get my hands on the new phone, it looks great."]
] as const

/**
 * Superlative and comparative insults aimed at the reader (INSULT 1, TOXICITY 1), and the same
 * superlatives about things (INSULT 0, IDENTITY_ATTACK 0, TOXICITY unlabelled: calling a rule
 * stupid is criticism, but raters may still find the word rude), so the weight goes to "you".
 */
const SUPERLATIVES = [
  "stupidest", "dumbest", "most idiotic", "most brainless", "thickest", "most moronic", "laziest", "most useless",
  "most clueless", "worst"
]
const YOU_FRAMES = [
  "You are the {sup} {who} I have ever read.", "You're easily the {sup} {who} of the year.", "Seriously, you must be the {sup} {who} around here.",
  "You're the {sup} {who} in the whole thread."
]
const THING_FRAMES = [
  "This is the {sup} {what} I have ever read.", "That's easily the {sup} {what} of the year.", "Seriously, this must be the {sup} {what} around here.",
  "It's the {sup} {what} in the whole paper."
]
/** "You're the dumbest ..." is a guardrail's frame and superlative: that combination is left out (each appears with others). */
const LEFT_OUT_INSULT = "You're the dumbest"
const WHO_124 = ["commenter", "troll", "poster", "clown", "writer"]
const WHAT_124 = ["headline", "rule", "plot twist", "tax plan", "menu"]
const COMPARATIVES = [
  ["You are dumber than a sack of hammers.", "This bag is heavier than a sack of hammers."],
  ["You're thicker than a brick wall.", "The fog is thicker than a brick wall."],
  ["You have less sense than a doorknob.", "This gadget has fewer buttons than a doorknob."],
  ["Your brain is slower than dial-up internet.", "This laptop is slower than dial-up internet."]
] as const

/**
 * Identity attacks as a group plus a dehumanising predicate, bare nouns included ("{group} are
 * {beasts}"), each paired with the same group and frame with a neutral predicate.
 */
const DEHUMANISING = [
  "beasts", "maggots", "subhumans", "monsters", "garbage", "mongrels", "swine", "lice", "filth", "hyenas",
  "repulsive deviants", "depraved degenerates", "revolting creatures", "wretched parasites", "rotten savages"
]
const NEUTRAL_PREDICATE = [
  "neighbours", "taxpayers", "parents", "volunteers", "voters", "teachers", "friends", "patients", "students", "shoppers",
  "cheerful neighbours", "devoted parents", "gifted musicians", "careful drivers", "keen gardeners"
]
const GROUP_PREDICATE_FRAMES = ["{G} are {n}.", "Face it, {g} are {n}, all of them.", "Let's be clear: {g} are {n}."]

/** Counter-speech reporting a slur aimed at someone (as `COUNTER_REPORT`: soft TOXICITY 0.2). */
const COUNTER_REPORT_124 = [
  "A boy in my {rel}'s class keeps calling them a {w} and the school does nothing.",
  "Nobody should use {w} as an insult, it hurts real people.",
  "Someone yelled {w} at my {rel} in the park and I am still upset.",
  "The word {w} was scrawled on our door and it broke my heart."
]

/** The contrastive rows of local-2026.12.4 (part of `augmentation()`). */
export const contrastive124 = (): Array<Example> => {
  const out: Array<Example> = []
  const push = (text: string, labels: Example["labels"]) =>
    out.push({ text, source: "decorum-augmentation", id: `aug-d-${out.length}`, labels })
  const threat = { THREAT: 1, TOXICITY: 1, IDENTITY_ATTACK: 0 }
  THREAT_FRAMES_124.forEach((t, k) => {
    TARGETED_ACTS.forEach(([act, thing]) => {
      push(t.replace("{act}", act), threat)
      push(t.replace("{act}", thing), ZERO)
    })
  })
  TARGETED_ACTS.forEach(([act], i) => push(NEGATED_FRAMES[i % NEGATED_FRAMES.length]!.replace("{act}", act), ZERO))
  for (const [toxic, harmless] of IMPLICIT_THREATS) {
    push(toxic, threat)
    push(harmless, ZERO)
  }
  const insult = { TOXICITY: 1, INSULT: 1, IDENTITY_ATTACK: 0, THREAT: 0 }
  const criticism = { INSULT: 0, IDENTITY_ATTACK: 0, THREAT: 0, SEVERE_TOXICITY: 0 }
  YOU_FRAMES.forEach((t, k) =>
    SUPERLATIVES.forEach((sup, i) => {
      if (t.replace("{sup}", sup).startsWith(LEFT_OUT_INSULT)) return
      push(t.replace("{sup}", sup).replace("{who}", WHO_124[(i + k) % WHO_124.length]!), insult)
      push(THING_FRAMES[k]!.replace("{sup}", sup).replace("{what}", WHAT_124[(i + k) % WHAT_124.length]!), criticism)
    })
  )
  for (const [toxic, harmless] of COMPARATIVES) {
    push(toxic, insult)
    push(harmless, ZERO)
  }
  const attack = { TOXICITY: 1, IDENTITY_ATTACK: 1, INSULT: 1, SEVERE_TOXICITY: 0, THREAT: 0 }
  GROUPS.forEach((g, i) =>
    GROUP_PREDICATE_FRAMES.forEach((t, k) => {
      const fill = (n: string) => t.replace("{G}", cap(g)).replace("{g}", g).replace("{n}", n)
      push(fill(DEHUMANISING[(i + k) % DEHUMANISING.length]!), attack)
      push(fill(NEUTRAL_PREDICATE[(i + k) % NEUTRAL_PREDICATE.length]!), ZERO)
    })
  )
  const counter = { TOXICITY: 0.2, INSULT: 0, IDENTITY_ATTACK: 0, SEVERE_TOXICITY: 0, THREAT: 0 }
  MENTIONED.forEach((w, i) =>
    COUNTER_REPORT_124.forEach((t, k) => {
      if ((i + k) % 2 === 0) push(t.replace("{w}", w).replace("{rel}", RELATIVES[(i + k) % RELATIVES.length]!), counter)
    })
  )
  return out
}

/**
 * Sentences the templates above would generate that are guardrail sentences
 * (test/models/guardrails.ts): left out from local-2026.12.3 on, so a guardrail check is never
 * passed by memorising its sentence (up to 12.2 both were training rows). A test checks that no
 * augmentation row is a guardrail sentence.
 */
const GUARDRAIL_SENTENCES_LEFT_OUT = new Set(["I don't hate immigrants.", "I am a gay man."])

const ZERO = { TOXICITY: 0, SEVERE_TOXICITY: 0, INSULT: 0, PROFANITY: 0, THREAT: 0, IDENTITY_ATTACK: 0 }

export const augmentation = (): Array<Example> => {
  const out: Array<Example> = []
  const push = (text: string, labels: Example["labels"]) =>
    out.push({ text, source: "decorum-augmentation", id: `aug-${out.length}`, labels })
  for (const g of GROUPS) {
    for (const t of NEUTRAL_GROUP) push(t.replace("{G}", cap(g)).replace("{g}", g), ZERO)
    for (const t of ATTACK_GROUP) push(t.replace("{G}", cap(g)).replace("{g}", g), { TOXICITY: 1, IDENTITY_ATTACK: 1, INSULT: 1, SEVERE_TOXICITY: 0, THREAT: 0 })
  }
  ADJECTIVES.forEach((a, i) => {
    NEUTRAL_PERSON.forEach((t, k) => {
      const p = PEOPLE[(i + k) % PEOPLE.length]!
      const p2 = PEOPLE[(i + k + 3) % PEOPLE.length]!
      push(t.replace("{a}", a).replace("{p}", p).replace("{p2}", p2), ZERO)
    })
    ATTACK_PERSON.forEach((t, k) => {
      const p = PEOPLE[(i + k) % PEOPLE.length]!
      push(t.replace("{a}", a).replace("{p}", p), { TOXICITY: 1, IDENTITY_ATTACK: 1, INSULT: 1, THREAT: 0 })
    })
  })
  for (const w of MENTIONED) {
    for (const t of COUNTER_SPEECH) push(t.replace("{w}", w), { TOXICITY: 0.2, INSULT: 0, IDENTITY_ATTACK: 0, SEVERE_TOXICITY: 0, THREAT: 0 })
  }
  for (const t of NEGATED_INSULTS) push(t, { TOXICITY: 0, INSULT: 0, IDENTITY_ATTACK: 0, SEVERE_TOXICITY: 0, THREAT: 0 })
  // local-2026.12.3: the contrastive minimal pairs
  out.push(...contrastive())
  // local-2026.12.4: the second set of contrastive pairs
  out.push(...contrastive124())
  return out.filter((e) => !GUARDRAIL_SENTENCES_LEFT_OUT.has(e.text))
}

/**
 * A dev set of contrastive pairs (local-2026.12.3): sentences written for choosing among blends,
 * never trained on (not in `augmentation()`), other sentences than the guardrails and the
 * functional suite (tests check all three). Each pair is a toxic sentence for `label` and the
 * same frame made harmless; the blend choice reads the head's ROC AUC over them, so it can see
 * what the contrastive training rows teach, which no corpus dev set shows.
 */
export const CONTRASTIVE_DEV: ReadonlyArray<readonly [label: "TOXICITY" | "INSULT" | "IDENTITY_ATTACK" | "THREAT", toxic: string, harmless: string]> = [
  ["IDENTITY_ATTACK", "Refugees are nothing but diseased rodents.", "Refugees are nothing but ordinary families."],
  ["IDENTITY_ATTACK", "Those Hindus are a filthy infestation.", "Those Hindus are a friendly congregation."],
  ["IDENTITY_ATTACK", "Arabs are bloodthirsty barbarians.", "Arabs are warm and hospitable hosts."],
  ["IDENTITY_ATTACK", "Gay men are predators who prey on kids.", "Gay men are parents who care for kids."],
  ["IDENTITY_ATTACK", "Chinese people are dirty insects.", "Chinese people are diligent workers."],
  ["IDENTITY_ATTACK", "Disabled people are useless leeches.", "Disabled people are valued colleagues."],
  ["IDENTITY_ATTACK", "Catholics are brainwashed sheep.", "Catholics are welcoming neighbours."],
  ["IDENTITY_ATTACK", "Lesbians are sick abominations.", "Lesbians are loving partners."],
  ["THREAT", "I'm coming to your house tonight to break your legs.", "I'm coming to your house tonight to fix your sink."],
  ["THREAT", "Say that again and you'll be eating through a straw.", "Say that again and I'll write it in the minutes."],
  ["THREAT", "We will burn your shop to the ground.", "We will paint your shop before the opening."],
  ["THREAT", "You won't live to see next week.", "You won't believe what happens next week."],
  ["THREAT", "I'll lodge a bullet in your skull.", "I'll tuck a bookmark in your copy."],
  ["THREAT", "Sleep with one eye open, I'm on my way.", "Sleep well, I'm on my way tomorrow morning."],
  ["THREAT", "I will slit your throat.", "I will slice the bread."],
  ["THREAT", "Someone ought to run you over with a truck.", "Someone ought to give you a lift in a truck."],
  ["INSULT", "You have the brains of a goldfish.", "You have the patience of a saint."],
  ["INSULT", "Nobody in this thread is as dim as you.", "Nobody in this thread is as helpful as you."],
  ["INSULT", "Your comments are the work of a halfwit.", "Your comments are the work of an expert."],
  ["INSULT", "You are an embarrassment to this forum.", "You are an asset to this forum."],
  ["INSULT", "What a spineless coward you are.", "What a generous friend you are."],
  ["INSULT", "You are a fucking disgrace.", "That match was a fucking delight."],
  ["TOXICITY", "Shut up, you retard.", "People who call others retards should be ashamed."],
  ["TOXICITY", "She is a worthless slut.", "After a colleague called her a slut, she filed a complaint."],
  ["TOXICITY", "Get lost, you faggot.", "The coach banned the word faggot from the locker room."],
  ["TOXICITY", "Immigrants are a disease on this nation.", "The pamphlet said immigrants are a disease, which is a vile lie."],
  // local-2026.12.4: more pairs, so that THREAT, INSULT and IDENTITY_ATTACK are not chosen on 6 to 8 pairs
  ["THREAT", "Touch my car again and I'll cave your face in.", "Touch my car again and I'll wash it for free."],
  ["THREAT", "I'm about to hunt down your wife and make her pay.", "I'm about to call your wife and thank her."],
  ["THREAT", "We will find your children, count on it.", "We will find your suitcase, count on it."],
  ["THREAT", "Next time you post that, I break your fingers.", "Next time you post that, I share it with my class."],
  ["THREAT", "You are a dead man walking.", "You are a lucky man indeed."],
  ["THREAT", "I'll pour petrol through your letterbox and light it.", "I'll pop a birthday card through your letterbox."],
  ["THREAT", "Better lock your doors, because I'm coming with a knife.", "Better lock your doors, because the wind is picking up."],
  ["THREAT", "I'm going to gouge your eyes out.", "I'm going to get my eyes tested."],
  ["THREAT", "Somebody should shove you off a cliff.", "Somebody should show you the view from that cliff."],
  ["THREAT", "I'll be waiting outside your office with a bat.", "I'll be waiting outside your office with a coffee."],
  ["INSULT", "You're the most gullible fool on the planet.", "It's the most beautiful beach on the planet."],
  ["INSULT", "Your opinions are as worthless as you are.", "Your opinions are as welcome as anyone's."],
  ["INSULT", "Nobody has ever been more wrong or more stupid than you.", "Nobody has ever been more kind or more patient than you."],
  ["INSULT", "Go back to school, you illiterate buffoon.", "Go back to school, your classes start Monday."],
  ["INSULT", "You have the IQ of a potato.", "You have the energy of a toddler, in a good way."],
  ["IDENTITY_ATTACK", "Mexicans are a pack of thieving dogs.", "Mexicans are a big part of this town's history."],
  ["IDENTITY_ATTACK", "Muslims are savages who should be caged.", "Muslims are families who should be welcomed."],
  ["IDENTITY_ATTACK", "Jews are a cancer on humanity.", "Jews are a part of humanity like everyone else."],
  ["IDENTITY_ATTACK", "Old people are useless leftovers.", "Old people are wise storytellers."],
  ["IDENTITY_ATTACK", "Bisexuals are greedy degenerates.", "Bisexuals are ordinary people."],
  ["IDENTITY_ATTACK", "Asians are soulless robots.", "Asians are a diverse set of peoples."],
  // local-2026.12.4: an attack on a group against an everyday mention of the same group, and swearing
  // at the reader against swearing at no one, so the choice sees identity-word and swearing bias
  ["TOXICITY", "Hindus are stinking cow worshippers.", "My Hindu friends invited us to their Diwali party."],
  ["TOXICITY", "Jewish bankers are bleeding this country dry.", "Our Jewish neighbours host a seder every spring."],
  ["TOXICITY", "Muslim men are all violent brutes.", "The Muslim family next door brought us food for Eid."],
  ["TOXICITY", "Gay couples are sick and unnatural.", "The gay couple across the road just adopted a baby."],
  ["TOXICITY", "Lesbians should crawl back into their holes.", "Two lesbians run the bookshop on the corner."],
  ["INSULT", "Shut your damn mouth, moron.", "Damn, this soup is good."],
  ["INSULT", "You're a shitty excuse for a human.", "Shitty weather today, but the match went ahead."],
  ["INSULT", "Piss off, you useless twat.", "Pissing rain all day, but we still had a blast."],
  ["INSULT", "What the hell is wrong with you, dipshit?", "What the hell, this pizza is amazing."],
  ["INSULT", "Nobody cares what a fucking loser like you thinks.", "Nobody cares that the party got so fucking loud."]
]

/** The dev pairs as labelled rows: the toxic sentence 1, the harmless one 0 (every pair also counts for TOXICITY). */
export const contrastiveDevRows = (label: string): Array<{ readonly text: string; readonly y: number }> =>
  CONTRASTIVE_DEV.filter(([l]) => l === label || label === "TOXICITY").flatMap(([, toxic, harmless]) => [
    { text: toxic, y: 1 },
    { text: harmless, y: 0 }
  ])
