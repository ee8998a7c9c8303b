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
 * 2026.11 with training/threatdev.ts, it did not improve THREAT on the dev data (docs/models.md).
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

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
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
  return out
}
