import type { ArticleContext } from "@decorum/domain"
import { AccountId, ArticleContextId, Native } from "@decorum/domain"
import { RelevanceChecker, TopicProfiler } from "@decorum/core"
import {
  buildProfile,
  checkRelevance,
  compileTopic,
  extractEntities,
  judgeBannedTopics,
  LocalRelevance,
  PROFILE_VERSION
} from "@decorum/local"
import { stem } from "../../src/internal/relevance/stem.js"
import { TOPIC_VOCABULARY } from "../../src/internal/relevance/vocabulary.js"
import { markdownToText } from "../../src/internal/relevance/topicWords.js"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"

const TEXT = `The city council voted 7 to 2 on Tuesday to approve a network of protected bike lanes along Main Street and Harbor Avenue.

The plan replaces one lane of car traffic in each direction with a cycling lane separated from cars by concrete kerbs. Supporters say the change will reduce traffic injuries on the two streets.

Some shop owners opposed the plan because it removes about 120 parking spaces. The Harbor District Business Association asked the council to add loading zones for deliveries, and the approved version includes eight of them.

The project is funded by a state transportation grant from the DOT. Mayor Lisa Chen said traffic counts will be published every quarter.`

const TITLE = "Council approves protected bike lanes on Main Street"

const article = (text = TEXT, title: string | null = TITLE, topicDescription: string | null = null): ArticleContext => ({
  id: ArticleContextId.make(globalThis.crypto.randomUUID()),
  accountId: AccountId.make(1),
  text,
  title,
  topicDescription,
  sourceUrl: null,
  profile: buildProfile({ text, title, topicDescription }),
  createdAt: new Date()
})

/** Every "quoted" phrase in a reasoning is a verbatim substring of the comment. */
const quotesOf = (reasoning: string) => [...reasoning.matchAll(/"([^"]+)"/g)].map((m) => m[1]!)

const check = (comment: string, bannedTopics: ReadonlyArray<string> = [], replyTo: string | null = null, a = article()) => {
  const result = checkRelevance({ comment, article: a, bannedTopics, replyTo })
  // Every answer satisfies the wire schema (confidences in [0, 1]).
  Schema.decodeUnknownSync(Native.RelevanceCheck)(result)
  // Double quotes in a reasoning always quote the comment verbatim (names of topics and articles use « »).
  for (const q of [...quotesOf(result.on_topic.reasoning), ...quotesOf(result.banned_topics.reasoning)]) expect(comment).toContain(q)
  return result
}


describe("stem", () => {
  it("conflates inflections", () => {
    expect(stem("elections")).toBe(stem("election"))
    expect(stem("elected")).toBe(stem("elect"))
    expect(stem("vaccinated")).toBe(stem("vaccines"))
    expect(stem("politicians")).toBe(stem("politician"))
    expect(stem("running")).toBe("run")
    expect(stem("cats")).toBe("cat")
  })
})

describe("LocalTopicProfiler", () => {
  it("builds a versioned, L2-normalised profile with title terms on top", () => {
    const p = buildProfile({ text: TEXT, title: TITLE, topicDescription: null })
    expect(p.version).toBe(PROFILE_VERSION)
    const norm = Math.sqrt(p.terms.reduce((s, t) => s + t.weight * t.weight, 0))
    expect(norm).toBeCloseTo(1, 3)
    const top = p.terms.slice(0, 6).map((t) => t.term)
    expect(top).toEqual(expect.arrayContaining([stem("lane"), stem("bike")]))
    // Function and reaction words are never terms.
    expect(p.terms.map((t) => t.term)).not.toContain("the")
    expect(p.terms.map((t) => t.term)).not.toContain(stem("great"))
  })

  it("weighs the topic description extra", () => {
    const without = buildProfile({ text: TEXT, title: null, topicDescription: null })
    const withDescription = buildProfile({ text: TEXT, title: null, topicDescription: "urban cycling infrastructure" })
    const weight = (p: typeof without, term: string) => p.terms.find((t) => t.term === stem(term))?.weight ?? 0
    expect(weight(withDescription, "infrastructure")).toBeGreaterThan(0.2)
    expect(weight(withDescription, "cycling")).toBeGreaterThan(weight(without, "cycling"))
  })

  it("finds multi-word names and acronyms, not capitalised sentence openers", () => {
    const entities = extractEntities(TEXT)
    expect(entities).toEqual(expect.arrayContaining(["Harbor District Business Association", "Main Street", "Mayor Lisa Chen", "DOT"]))
    expect(entities).not.toContain("The")
    expect(entities).not.toContain("Supporters")
  })

  it("summarises in one to three of the article's own sentences", () => {
    const p = buildProfile({ text: TEXT, title: TITLE, topicDescription: null })
    expect(p.summary.length).toBeGreaterThan(40)
    expect(p.summary.length).toBeLessThanOrEqual(480)
    const sentences = p.summary.match(/[^.!?]+[.!?]/g) ?? []
    expect(sentences.length).toBeGreaterThanOrEqual(1)
    expect(sentences.length).toBeLessThanOrEqual(3)
    for (const s of sentences) expect(TEXT.replace(/\s+/g, " ")).toContain(s.trim())
  })

  it("reads Markdown as prose", () => {
    const md = "# Sourdough starters\n\nA **starter** is [wild yeast](https://example.com/yeast) in flour.\n\n```js\nconst x = 1\n```\n- feed it daily"
    expect(markdownToText(md)).not.toMatch(/[#*`]|\]\(|https/)
    const p = buildProfile({ text: md, title: null, topicDescription: null })
    expect(p.terms.map((t) => t.term)).toEqual(expect.arrayContaining([stem("starter"), stem("yeast")]))
    expect(p.terms.map((t) => t.term)).not.toContain("https")
    expect(p.terms.map((t) => t.term)).not.toContain("const")
  })

  it("profiles a long article quickly enough for a request", () => {
    const long = Array.from({ length: 2000 }, (_, i) => `Paragraph ${i} about bike lanes, parking and council votes in Harbor City.`).join("\n")
    const started = performance.now()
    const p = buildProfile({ text: long, title: null, topicDescription: null })
    expect(performance.now() - started).toBeLessThan(2000)
    expect(p.terms.length).toBeGreaterThan(3)
  })
})

describe("LocalRelevanceChecker: on-topic", () => {
  it("calls a substantive comment on-topic and names the shared terms verbatim", () => {
    const comment = "Removing 120 parking spaces will hurt the small shops on Main Street."
    const r = check(comment)
    expect(r.on_topic.on_topic).toBe(true)
    expect(r.on_topic.confidence).toBeGreaterThan(0.6)
    expect(r.on_topic.reasoning).toMatch(/"parking"/)
    for (const q of quotesOf(r.on_topic.reasoning)) expect(comment.includes(q)).toBe(true)
  })

  it("calls an unrelated comment off-topic with confidence", () => {
    const comment = "Does anyone have a good recipe for banana bread? Mine always comes out dry."
    const r = check(comment)
    expect(r.on_topic.on_topic).toBe(false)
    expect(r.on_topic.confidence).toBeGreaterThan(0.7)
    expect(r.on_topic.reasoning).toMatch(/banana/)
    expect(r.on_topic.reasoning).toContain(TITLE)
    for (const q of quotesOf(r.on_topic.reasoning)) expect(comment.includes(q)).toBe(true)
  })

  it.each(["Great article!", "Of course it is!", "Totally agree.", "lol", "Wow, fascinating.", "This."])(
    "does not call the generic reaction %j off-topic, and says it is too little to judge",
    (comment) => {
      const r = check(comment)
      expect(r.on_topic.on_topic).toBe(true)
      expect(r.on_topic.confidence).toBeLessThanOrEqual(0.6)
      expect(r.on_topic.reasoning).toMatch(/too short or generic/)
      for (const q of quotesOf(r.on_topic.reasoning)) expect(comment.includes(q)).toBe(true)
    }
  )

  it("lets a reply follow its parent's topic", () => {
    const parent = "The shop owners are exaggerating, most customers arrive on foot anyway."
    const reply = "Those customers on foot still need somewhere to leave the car first."
    const r = check(reply, [], parent)
    expect(r.on_topic.on_topic).toBe(true)
    expect(r.on_topic.reasoning).toMatch(/replies to|shares key terms/)
  })

  it("is less sure when an off-topic comment is a reply", () => {
    const comment = "My cat keeps knocking glasses off the kitchen table at night, any advice for that?"
    const alone = check(comment)
    const asReply = check(comment, [], "Great point about the loading zones on Main Street.")
    expect(alone.on_topic.on_topic).toBe(false)
    expect(asReply.on_topic.confidence).toBeLessThan(alone.on_topic.confidence)
  })

  it("rebuilds a profile made by an older profiler version", () => {
    const a = article()
    const stale: ArticleContext = { ...a, profile: { version: 0, terms: [], entities: [], summary: "" } }
    expect(check("The parking spaces on Main Street matter to shops.", [], null, stale).on_topic.on_topic).toBe(true)
  })
})

describe("LocalRelevanceChecker: banned topics", () => {
  it("ships a vocabulary of at least 25 common topics", () => {
    expect(TOPIC_VOCABULARY.length).toBeGreaterThanOrEqual(25)
    const names = TOPIC_VOCABULARY.map((t) => t.name)
    for (const n of ["politics", "religion", "cryptocurrency", "sports", "violence", "drugs", "sex", "gambling", "guns", "abortion", "immigration", "elections", "vaccines", "celebrities", "advertising"]) {
      expect(names).toContain(n)
    }
  })

  it("matches through the vocabulary and names the topic as the caller spelled it", () => {
    const comment = "I bought more bitcoin yesterday. My hardware wallet is finally set up."
    const r = check(comment, ["Crypto", "politics"])
    expect(r.banned_topics.banned_topics).toEqual(["Crypto"])
    expect(r.banned_topics.quantity_on_banned_topics).toBe(1)
    expect(r.banned_topics.confidence).toBeGreaterThan(0.75)
    expect(r.banned_topics.reasoning).toContain("bitcoin")
  })

  it("quotes the comment verbatim in its reasoning", () => {
    const comment = "Nice photos of the harbour. Politicians are all corrupt and the senator knows it."
    const r = check(comment, ["politics"])
    expect(r.banned_topics.banned_topics).toEqual(["politics"])
    const quotes = quotesOf(r.banned_topics.reasoning)
    expect(quotes.length).toBeGreaterThan(0)
    for (const q of quotes) expect(comment.includes(q)).toBe(true)
  })

  it("matches inflections of the topic's own words", () => {
    expect(check("Religious people will never accept this.", ["religion"]).banned_topics.banned_topics).toEqual(["religion"])
    expect(check("Those gamblers lost everything.", ["gambling"]).banned_topics.banned_topics).toEqual(["gambling"])
    expect(check("My cats sleep all day.", ["cats"]).banned_topics.banned_topics).toEqual(["cats"])
  })

  it.each([
    ["The party was fun and the cake was delicious.", "politics"],
    ["The staff were polite and helpful.", "politics"],
    ["I lost my wallet on the train.", "cryptocurrency"],
    ["Oh my god, this recipe is amazing.", "religion"],
    ["I bet you did not expect that ending.", "gambling"],
    ["Just a few bullet points would help.", "guns"],
    ["The political climate in the office is tense.", "climate change"],
    ["This category of problems is hard.", "cats"],
    ["I went to high school with the author.", "drugs"]
  ])("does not flag the trap %j as %s", (comment, topic) => {
    const r = check(comment, [topic])
    expect(r.banned_topics.banned_topics).toEqual([])
    expect(r.banned_topics.quantity_on_banned_topics).toBe(0)
  })

  it("measures the share of sentences on banned topics", () => {
    const r = check("Great photos of the lake. Also, Trump is a disgrace.", ["politics"])
    expect(r.banned_topics.banned_topics).toEqual(["politics"])
    expect(r.banned_topics.quantity_on_banned_topics).toBe(0.5)
    expect(r.banned_topics.reasoning).toContain("1 of 2 sentences")
  })

  it("answers an empty list with no topics and full confidence", () => {
    const r = check("Bitcoin to the moon!", [])
    expect(r.banned_topics).toEqual({ reasoning: "No banned topics were given to check.", banned_topics: [], quantity_on_banned_topics: 0, confidence: 1 })
  })

  it("lists each requested topic once", () => {
    const r = check("Bitcoin to the moon!", ["crypto", "Crypto", " crypto "])
    expect(r.banned_topics.banned_topics).toEqual(["crypto"])
  })

  it("links named topics to the vocabulary", () => {
    expect(compileTopic("US politics").vocabulary).toEqual(["politics"])
    expect(compileTopic("cryptocurrencies").vocabulary).toEqual(["cryptocurrency"])
    expect(compileTopic("pineapple pizza").vocabulary).toEqual([])
  })

  it("is fast on a typical comment", () => {
    const comment = "I think the council is right about the bike lanes, but the senator who blocked the grant should explain himself. Bitcoin has nothing to do with it."
    const a = article()
    check(comment, ["politics", "cryptocurrency", "religion"], null, a)
    const started = performance.now()
    for (let i = 0; i < 200; i++) judgeBannedTopics(comment, ["politics", "cryptocurrency", "religion"])
    // Generous bound for a loaded CI machine; typical is tens of microseconds per check.
    expect((performance.now() - started) / 200).toBeLessThan(5)
  })
})

describe("LocalRelevance.layer", () => {
  it.effect("provides the profiler and the checker", () =>
    Effect.gen(function*() {
      const profile = yield* (yield* TopicProfiler).profile({ text: TEXT, title: TITLE, topicDescription: null })
      const a: ArticleContext = { ...article(), profile }
      const result = yield* (yield* RelevanceChecker).check({ comment: "Concrete kerbs beat painted bike lanes.", article: a, bannedTopics: ["sports"], replyTo: null })
      expect(result.value.on_topic.on_topic).toBe(true)
      expect(result.value.banned_topics.banned_topics).toEqual([])
      expect(result.provenance.model).toMatch(/^local-relevance-/)
    }).pipe(Effect.provide(LocalRelevance.layer()))
  )
})
