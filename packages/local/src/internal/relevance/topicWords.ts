/**
 * Tokens, stopwords and the "generic reaction" vocabulary shared by the topic profiler, the
 * relevance checker and the build script of the background table. Changing how text is
 * tokenised or stemmed changes profiles: bump `PROFILE_VERSION` in `Profiler.ts` when you do.
 */
import { tokenize } from "../text/words.js"
import { stem } from "./stem.js"

/** A word of the text as the topic code sees it: the shared word token, plus its stem. */
export interface TopicToken {
  /** The word as written in the text (a verbatim slice). */
  readonly raw: string
  /** Lowercase, apostrophes and possessive `'s` removed. */
  readonly lower: string
  /** The stem used for matching. */
  readonly stem: string
  /** UTF-16 offsets into the text, `end` exclusive. */
  readonly start: number
  readonly end: number
}

export const normaliseWord = (raw: string): string => {
  let s = raw.toLowerCase().replace(/’/g, "'")
  if (s.endsWith("'s")) s = s.slice(0, -2)
  return s.replace(/'/g, "")
}

/** The words of `text` (the package's one word tokenizer, `internal/text/words.ts`), stemmed. */
export const topicTokens = (text: string): Array<TopicToken> => {
  const out: Array<TopicToken> = []
  for (const w of tokenize(text)) {
    const raw = text.slice(w.begin, w.end)
    const lower = normaliseWord(raw)
    if (lower.length === 0) continue
    out.push({ raw, lower, stem: stem(lower), start: w.begin, end: w.end })
  }
  return out
}

/** Function words: never terms of a profile, never evidence of relevance. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above across after afterwards again against all almost alone along already also although always am
among amongst an and another any anybody anyhow anyone anything anyway anywhere are aren around as at back be
became because become becomes becoming been before beforehand behind being below beside besides between beyond
both but by can cannot cant could couldnt did didnt do does doesnt doing done dont down due during each either
else elsewhere enough etc even ever every everybody everyone everything everywhere except few for former formerly
from further had hadnt has hasnt have havent having he hed hell hence her here hereby herein hers herself hes him
himself his how however hows i id ie if ill im in indeed instead into is isnt it itd itll its itself ive just
least less let lets like likely ll made make makes many may maybe me meanwhile might mine more moreover most mostly
much must mustnt my myself namely neither never nevertheless next no nobody none noone nor not nothing now nowhere
of off often on once one only onto or other others otherwise our ours ourselves out over own per perhaps please
put quite rather re really s same say says said see seem seemed seeming seems several shall shant she shed shell
shes should shouldnt since so some somebody somehow someone something sometime sometimes somewhat somewhere still
such t than that thats the their theirs them themselves then thence there thereafter thereby therefore therein
theres these they theyd theyll theyre theyve thing things this those though through throughout thru thus to
together too toward towards u under until up upon ur us very via was wasnt we wed well were weve werent what
whatever whats when whence whenever where whereas whereby wherever whether which while who whoever whole whom
whose why will with within without wont would wouldnt yet you youd youll your youre yours yourself yourselves
youve ok okay oh yeah yes yep nope hey hi hello lol lmao haha hahaha omg btw imo imho fyi tbh got get gets getting
go goes going gone went come comes came coming know knew known take took taken want wants wanted use used using
way ways lot lots bit kind sort also yet`
    .split(/\s+/)
    .filter((w) => w.length > 0)
)

/**
 * Words that carry reactions, not topics: a comment made only of these (and stopwords) says too
 * little to be judged on- or off-topic ("Great article!", "Of course it is!", "Totally agree").
 */
export const GENERIC: ReadonlySet<string> = new Set(
  `article articles post posts piece pieces story stories read reading reads write wrote written writing writer
author authors blog thanks thank thx ty great good nice awesome amazing excellent brilliant wonderful fantastic
superb best better worse worst bad terrible awful horrible love loved loves hate hated like liked agree agreed
agrees disagree disagreed totally completely absolutely exactly indeed course sure true false right wrong correct
incorrect point points interesting informative helpful useful insightful well said think thought thoughts believe
feel felt guess suppose mean means meant wow cool lovely beautiful perfect fine real really truly definitely
certainly probably clearly obviously honestly seriously basically literally actually simply just same too also
thing stuff everyone anyone people person guy guys man folks comment comments reply replies said saying says
tell told question questions answer answers look looks looking see seen saw done keep
first second last new old today yesterday tomorrow time times day days year years yes no maybe please share
shared sharing wait hope hoping wish glad happy sad sorry funny hilarious boring stupid dumb silly crazy idea
ideas opinion opinions view views matter fact facts agreeing nonsense rubbish wonder wondering bravo kudos congrats
congratulations spot needed need needs important`
    .split(/\s+/)
    .filter((w) => w.length > 0)
)

export const isStopword = (lower: string): boolean => STOPWORDS.has(lower) || lower.length < 2 || /^\d+$/.test(lower)

/** A word that can carry a topic: not a stopword, not a number, not a reaction word. */
export const isContentWord = (lower: string): boolean => !isStopword(lower) && !GENERIC.has(lower)

/**
 * Reduces Markdown to prose: code blocks, images, link targets, emphasis marks, heading and list
 * markers and tables' pipes go; the words stay. Plain text passes through unchanged in substance.
 */
export const markdownToText = (md: string): string =>
  md
    .replace(/```[\s\S]*?```/g, "\n")
    .replace(/~~~[\s\S]*?~~~/g, "\n")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/^\s*\[[^\]]+\]:\s*\S+.*$/gm, "")
    .replace(/<https?:[^>]+>/g, "")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/^\s{0,3}#{1,6}\s+/gm, "")
    .replace(/^\s{0,3}>\s?/gm, "")
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, "")
    .replace(/^\s*(?:[-*_]\s*){3,}$/gm, "")
    .replace(/^\s*\|?(?:\s*:?-+:?\s*\|)+\s*:?-*:?\s*$/gm, "")
    .replace(/\|/g, " ")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|[\s(])[*_]([^*_\n]+)[*_](?=[\s).,;:!?]|$)/g, "$1$2")
    .replace(/<\/?[a-z][^>]*>/gi, "")
