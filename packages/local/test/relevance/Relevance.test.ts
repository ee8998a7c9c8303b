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
import { assert, describe, it } from "@effect/vitest"
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
  for (const q of [...quotesOf(result.on_topic.reasoning), ...quotesOf(result.banned_topics.reasoning)]) assert.include(comment, q)
  return result
}


describe("stem", () => {
  it("conflates inflections", () => {
    assert.strictEqual(stem("elections"), stem("election"))
    assert.strictEqual(stem("elected"), stem("elect"))
    assert.strictEqual(stem("vaccinated"), stem("vaccines"))
    assert.strictEqual(stem("politicians"), stem("politician"))
    assert.strictEqual(stem("running"), "run")
    assert.strictEqual(stem("cats"), "cat")
  })
})

describe("LocalTopicProfiler", () => {
  it("builds a versioned, L2-normalised profile with title terms on top", () => {
    const p = buildProfile({ text: TEXT, title: TITLE, topicDescription: null })
    assert.strictEqual(p.version, PROFILE_VERSION)
    const norm = Math.sqrt(p.terms.reduce((s, t) => s + t.weight * t.weight, 0))
    assert.closeTo(norm, 1, 0.0005)
    const top = p.terms.slice(0, 6).map((t) => t.term)
    assert.includeMembers(top, [stem("lane"), stem("bike")])
    // Function and reaction words are never terms.
    assert.notInclude(p.terms.map((t) => t.term), "the")
    assert.notInclude(p.terms.map((t) => t.term), stem("great"))
  })

  it("weighs the topic description extra", () => {
    const without = buildProfile({ text: TEXT, title: null, topicDescription: null })
    const withDescription = buildProfile({ text: TEXT, title: null, topicDescription: "urban cycling infrastructure" })
    const weight = (p: typeof without, term: string) => p.terms.find((t) => t.term === stem(term))?.weight ?? 0
    assert.isAbove(weight(withDescription, "infrastructure"), 0.2)
    assert.isAbove(weight(withDescription, "cycling"), weight(without, "cycling"))
  })

  it("finds multi-word names and acronyms, not capitalised sentence openers", () => {
    const entities = extractEntities(TEXT)
    assert.includeMembers(entities, ["Harbor District Business Association", "Main Street", "Mayor Lisa Chen", "DOT"])
    assert.notInclude(entities, "The")
    assert.notInclude(entities, "Supporters")
  })

  it("summarises in one to three of the article's own sentences", () => {
    const p = buildProfile({ text: TEXT, title: TITLE, topicDescription: null })
    assert.isAbove(p.summary.length, 40)
    assert.isAtMost(p.summary.length, 480)
    const sentences = p.summary.match(/[^.!?]+[.!?]/g) ?? []
    assert.isAtLeast(sentences.length, 1)
    assert.isAtMost(sentences.length, 3)
    for (const s of sentences) assert.include(TEXT.replace(/\s+/g, " "), s.trim())
  })

  it("reads Markdown as prose", () => {
    const md = "# Sourdough starters\n\nA **starter** is [wild yeast](https://example.com/yeast) in flour.\n\n```js\nconst x = 1\n```\n- feed it daily"
    assert.notMatch(markdownToText(md), /[#*`]|\]\(|https/)
    const p = buildProfile({ text: md, title: null, topicDescription: null })
    assert.includeMembers(p.terms.map((t) => t.term), [stem("starter"), stem("yeast")])
    assert.notInclude(p.terms.map((t) => t.term), "https")
    assert.notInclude(p.terms.map((t) => t.term), "const")
  })

  it("profiles a long article quickly enough for a request", () => {
    const long = Array.from({ length: 2000 }, (_, i) => `Paragraph ${i} about bike lanes, parking and council votes in Harbor City.`).join("\n")
    const started = performance.now()
    const p = buildProfile({ text: long, title: null, topicDescription: null })
    assert.isBelow(performance.now() - started, 2000)
    assert.isAbove(p.terms.length, 3)
  })
})

describe("LocalRelevanceChecker: on-topic", () => {
  it("calls a substantive comment on-topic and names the shared terms verbatim", () => {
    const comment = "Removing 120 parking spaces will hurt the small shops on Main Street."
    const r = check(comment)
    assert.isTrue(r.on_topic.on_topic)
    assert.isAbove(r.on_topic.confidence, 0.6)
    assert.match(r.on_topic.reasoning, /"parking"/)
    for (const q of quotesOf(r.on_topic.reasoning)) assert.isTrue(comment.includes(q))
  })

  it("calls an unrelated comment off-topic with confidence", () => {
    const comment = "Does anyone have a good recipe for banana bread? Mine always comes out dry."
    const r = check(comment)
    assert.isFalse(r.on_topic.on_topic)
    assert.isAbove(r.on_topic.confidence, 0.7)
    assert.match(r.on_topic.reasoning, /banana/)
    assert.include(r.on_topic.reasoning, TITLE)
    for (const q of quotesOf(r.on_topic.reasoning)) assert.isTrue(comment.includes(q))
  })

  it.each(["Great article!", "Of course it is!", "Totally agree.", "lol", "Wow, fascinating.", "This."])(
    "does not call the generic reaction %j off-topic, and says it is too little to judge",
    (comment) => {
      const r = check(comment)
      assert.isTrue(r.on_topic.on_topic)
      assert.isAtMost(r.on_topic.confidence, 0.6)
      assert.match(r.on_topic.reasoning, /too short or generic/)
      for (const q of quotesOf(r.on_topic.reasoning)) assert.isTrue(comment.includes(q))
    }
  )

  it("lets a reply follow its parent's topic", () => {
    const parent = "The shop owners are exaggerating, most customers arrive on foot anyway."
    const reply = "Those customers on foot still need somewhere to leave the car first."
    const r = check(reply, [], parent)
    assert.isTrue(r.on_topic.on_topic)
    assert.match(r.on_topic.reasoning, /replies to|shares key terms/)
  })

  it("is less sure when an off-topic comment is a reply", () => {
    const comment = "My cat keeps knocking glasses off the kitchen table at night, any advice for that?"
    const alone = check(comment)
    const asReply = check(comment, [], "Great point about the loading zones on Main Street.")
    assert.isFalse(alone.on_topic.on_topic)
    assert.isBelow(asReply.on_topic.confidence, alone.on_topic.confidence)
  })

  it("rebuilds a profile made by an older profiler version", () => {
    const a = article()
    const stale: ArticleContext = { ...a, profile: { version: 0, terms: [], entities: [], summary: "" } }
    assert.isTrue(check("The parking spaces on Main Street matter to shops.", [], null, stale).on_topic.on_topic)
  })
})

describe("LocalRelevanceChecker: banned topics", () => {
  it("ships a vocabulary of at least 25 common topics", () => {
    assert.isAtLeast(TOPIC_VOCABULARY.length, 25)
    const names = TOPIC_VOCABULARY.map((t) => t.name)
    for (const n of ["politics", "religion", "cryptocurrency", "sports", "violence", "drugs", "sex", "gambling", "guns", "abortion", "immigration", "elections", "vaccines", "celebrities", "advertising"]) {
      assert.include(names, n)
    }
  })

  it("matches through the vocabulary and names the topic as the caller spelled it", () => {
    const comment = "I bought more bitcoin yesterday. My hardware wallet is finally set up."
    const r = check(comment, ["Crypto", "politics"])
    assert.deepStrictEqual(r.banned_topics.banned_topics, ["Crypto"])
    assert.strictEqual(r.banned_topics.quantity_on_banned_topics, 1)
    assert.isAbove(r.banned_topics.confidence, 0.75)
    assert.include(r.banned_topics.reasoning, "bitcoin")
  })

  it("quotes the comment verbatim in its reasoning", () => {
    const comment = "Nice photos of the harbour. Politicians are all corrupt and the senator knows it."
    const r = check(comment, ["politics"])
    assert.deepStrictEqual(r.banned_topics.banned_topics, ["politics"])
    const quotes = quotesOf(r.banned_topics.reasoning)
    assert.isAbove(quotes.length, 0)
    for (const q of quotes) assert.isTrue(comment.includes(q))
  })

  it("matches inflections of the topic's own words", () => {
    assert.deepStrictEqual(check("Religious people will never accept this.", ["religion"]).banned_topics.banned_topics, ["religion"])
    assert.deepStrictEqual(check("Those gamblers lost everything.", ["gambling"]).banned_topics.banned_topics, ["gambling"])
    assert.deepStrictEqual(check("My cats sleep all day.", ["cats"]).banned_topics.banned_topics, ["cats"])
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
    assert.deepStrictEqual(r.banned_topics.banned_topics, [])
    assert.strictEqual(r.banned_topics.quantity_on_banned_topics, 0)
  })

  it("measures the share of sentences on banned topics", () => {
    const r = check("Great photos of the lake. Also, Trump is a disgrace.", ["politics"])
    assert.deepStrictEqual(r.banned_topics.banned_topics, ["politics"])
    assert.strictEqual(r.banned_topics.quantity_on_banned_topics, 0.5)
    assert.include(r.banned_topics.reasoning, "1 of 2 sentences")
  })

  it("answers an empty list with no topics and full confidence", () => {
    const r = check("Bitcoin to the moon!", [])
    assert.deepStrictEqual(r.banned_topics, { reasoning: "No banned topics were given to check.", banned_topics: [], quantity_on_banned_topics: 0, confidence: 1 })
  })

  it("lists each requested topic once", () => {
    const r = check("Bitcoin to the moon!", ["crypto", "Crypto", " crypto "])
    assert.deepStrictEqual(r.banned_topics.banned_topics, ["crypto"])
  })

  it("links named topics to the vocabulary", () => {
    assert.deepStrictEqual(compileTopic("US politics").vocabulary, ["politics"])
    assert.deepStrictEqual(compileTopic("cryptocurrencies").vocabulary, ["cryptocurrency"])
    assert.deepStrictEqual(compileTopic("pineapple pizza").vocabulary, [])
  })

  it("is fast on a typical comment", () => {
    const comment = "I think the council is right about the bike lanes, but the senator who blocked the grant should explain himself. Bitcoin has nothing to do with it."
    const a = article()
    check(comment, ["politics", "cryptocurrency", "religion"], null, a)
    const started = performance.now()
    for (let i = 0; i < 200; i++) judgeBannedTopics(comment, ["politics", "cryptocurrency", "religion"])
    // Generous bound for a loaded CI machine; typical is tens of microseconds per check.
    assert.isBelow((performance.now() - started) / 200, 5)
  })
})

describe("LocalRelevance.layer", () => {
  it.effect("provides the profiler and the checker", () =>
    Effect.gen(function*() {
      const profile = yield* (yield* TopicProfiler).profile({ text: TEXT, title: TITLE, topicDescription: null })
      const a: ArticleContext = { ...article(), profile }
      const result = yield* (yield* RelevanceChecker).check({ comment: "Concrete kerbs beat painted bike lanes.", article: a, bannedTopics: ["sports"], replyTo: null })
      assert.isTrue(result.value.on_topic.on_topic)
      assert.deepStrictEqual(result.value.banned_topics.banned_topics, [])
      assert.match(result.provenance.model, /^local-relevance-/)
    }).pipe(Effect.provide(LocalRelevance.layer()))
  )
})
