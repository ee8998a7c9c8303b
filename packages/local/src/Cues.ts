/**
 * The cue model's hand-written resources that training reuses: the spam signals and the curated
 * word lists (identity terms, insults, violent words, ...).
 */
export { detectSpam } from "./internal/cues/spam.js"
export { IDENTITY_TERMS, COLOUR_TERMS, INSULTS, MILD_PROFANITY, PEOPLE_NOUNS, POLITICAL_GROUPS, SEXUAL_TERMS, VIOLENT_WORDS } from "./internal/cues/wordLists.js"
