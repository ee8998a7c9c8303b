import { AttributeScorer, CommentScorer, SpamChecker } from "@decorum/core"
import { AnalysedComment, Native, Perspective, ProviderFailure } from "@decorum/domain"
import { AttributeModel, type AttributeModelService, type Contribution, CUE_MODEL_VERSION, CueModel, LocalCommentScorer, LocalEvaluators, type ModelLabel, type TextAnalysis } from "@decorum/local"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { article, corpus } from "./fixtures.js"

const decodeScore = Schema.decodeUnknownSync(Native.CommentScore)
const decodeSpam = Schema.decodeUnknownSync(Native.SpamCheck)

const score = (comment: string, replyTo: string | null = null) =>
  Effect.flatMap(CommentScorer, (s) => s.score({ comment, article, replyTo }))
const spam = (comment: string) => Effect.flatMap(SpamChecker, (s) => s.check({ comment, article: null }))

/** Every phrase the comment score quotes. */
const quotesOf = (r: Native.CommentScore): Array<string> => [
  ...r.logical_fallacies.map((f) => f.quoted_logical_fallacy_example),
  ...r.objectionable_phrases.map((o) => o.quoted_objectionable_phrase),
  ...r.negative_tone_phrases.map((n) => n.quoted_negative_tone_phrase)
]

layer(LocalEvaluators.evaluators.pipe(Layer.provideMerge(CueModel)))("local evaluators on the cue model", (it) => {
  describe("comment scoring", () => {
    it.effect("a clean, reasoned comment scores low toxicity and at least 3", () =>
      Effect.gen(function*() {
        const r = yield* score("I think the council is right here, because congestion costs everyone time. For example, the 14 bus is always late.")
        decodeScore(r.value)
        assert.strictEqual(r.provenance.model, CUE_MODEL_VERSION)
        assert.isBelow(r.value.toxicity_score, 0.2)
        assert.isAtLeast(r.value.overall_score, 3)
        assert.deepStrictEqual(r.value.objectionable_phrases, [])
        assert.isFalse(r.value.appears_low_effort)
        assert.match(r.value.toxicity_explanation, /no toxic language/iu)
      }))

    it.effect("an insult scores high and is quoted verbatim with a reason", () =>
      Effect.gen(function*() {
        const text = "Honestly, you’re an idiot if you think the tram will ever pay for itself."
        const r = (yield* score(text)).value
        decodeScore(r)
        assert.isAbove(r.toxicity_score, 0.7)
        assert.isAtMost(r.overall_score, 2)
        const insult = r.objectionable_phrases.find((o) => o.quoted_objectionable_phrase.includes("idiot"))
        assert.isDefined(insult)
        assert.include(text, insult!.quoted_objectionable_phrase)
        assert.match(insult!.explanation, /insult directed at a person/iu)
        assert.match(r.toxicity_explanation, /idiot/u)
        const insultP = yield* Effect.map(AttributeModel, (m) => m.predict(m.analyse(text), ["INSULT"]).INSULT ?? 0)
        assert.isAbove(insultP, 0.7)
      }))

    it.effect("obfuscated profanity is caught and named", () =>
      Effect.gen(function*() {
        for (const [text, word] of [["What a load of sh1t.", "sh1t"], ["f*ck this council", "f*ck"], ["fuuuck the tram", "fuuuck"]] as const) {
          const r = (yield* score(text)).value
          const hit = r.objectionable_phrases.find((o) => o.quoted_objectionable_phrase.includes(word))
          assert.isDefined(hit, text)
          assert.match(hit!.explanation, /profanity/iu)
        }
      }))

    it.effect("suggests a rewrite only when dropping an intensifying profanity is enough", () =>
      Effect.gen(function*() {
        const r = (yield* score("This fucking tram is late again.")).value
        const hit = r.objectionable_phrases.find((o) => o.suggested_rewrite !== "")
        assert.strictEqual(hit?.quoted_objectionable_phrase, "fucking tram")
        assert.strictEqual(hit?.suggested_rewrite, "tram")
        const insult = (yield* score("You are an idiot.")).value
        assert.isAbove(insult.objectionable_phrases.length, 0)
        assert.isTrue(insult.objectionable_phrases.every((o) => o.suggested_rewrite === ""))
      }))

    it.effect("flags low-effort comments and not short real ones", () =>
      Effect.gen(function*() {
        for (const text of ["me too", "First!", "+1", "This.", "Great article!", "lol", "Agreed.", "👍👍", "ok"]) {
          const r = (yield* score(text)).value
          assert.isTrue(r.appears_low_effort, text)
          assert.isAtMost(r.overall_score, 2, text)
        }
        const real = (yield* score("Me too: my bus to the hospital was cut last spring, so the tram is my only option now.")).value
        assert.isFalse(real.appears_low_effort)
        // Copying the parent comment is low effort too.
        const copy = (yield* score("Trams are great.", "Trams are great!")).value
        assert.isTrue(copy.appears_low_effort)
      }))

    it.effect("names negative tone: dismissive, sarcastic and strongly negative wording", () =>
      Effect.gen(function*() {
        const text = "Nobody cares about the tram. Yeah right, world class transit. I hate this awful plan. Whatever."
        const r = (yield* score(text)).value
        const quotes = r.negative_tone_phrases.map((n) => n.quoted_negative_tone_phrase)
        assert.includeMembers(quotes, ["Nobody cares", "Yeah right", "Whatever"])
        assert.isTrue(quotes.some((q) => /hate|awful/u.test(q)))
        for (const n of r.negative_tone_phrases) assert.isAbove(n.explanation?.length, 10)
        // "whatever" inside a sentence is not dismissive
        const plain = (yield* score("We should build whatever line serves the most riders.")).value
        assert.deepStrictEqual(plain.negative_tone_phrases, [])
      }))

    it.effect("quotes fallacies verbatim, naming each pattern", () =>
      Effect.gen(function*() {
        const cases: ReadonlyArray<readonly [string, string, string]> = [
          ["All politicians are liars, so why trust the council?", "Hasty generalization", "All politicians are liars, so why trust the council?"],
          ["Either we build the tram or the city dies.", "False dilemma", "Either we build the tram or the city dies."],
          ["Everyone knows trams are a waste.", "Appeal to popularity", "Everyone knows trams are a waste."],
          ["If we allow this, next they'll ban cars.", "Slippery slope", "If we allow this, next they'll ban cars."],
          ["But what about the potholes?", "Whataboutism", "But what about the potholes?"],
          ["Experts say it will work.", "Appeal to authority", "Experts say it will work."],
          ["It has always been done this way. Leave it.", "Appeal to tradition", "It has always been done this way."],
          ["Says the guy who never rides a bus.", "Ad hominem", "Says the guy who never rides a bus."],
          ["So you're saying we should all walk?", "Straw man", "So you're saying we should all walk?"]
        ]
        for (const [text, name, quote] of cases) {
          const r = (yield* score(text)).value
          const hit = r.logical_fallacies.find((f) => f.fallacy_name === name)
          assert.isDefined(hit, `${name} in ${text}`)
          assert.strictEqual(hit!.quoted_logical_fallacy_example, quote)
          assert.isAbove(hit!.explanation_and_suggestions.length, 20)
          assert.strictEqual(hit!.explanation, hit!.explanation_and_suggestions)
          assert.strictEqual(hit!.suggested_rewrite, "")
        }
        const none = (yield* score("The tram costs more per rider than buses, according to the council's report.")).value
        assert.deepStrictEqual(none.logical_fallacies, [])
      }))

    it.effect("every quote of every comment is a verbatim substring, and every answer decodes", () =>
      Effect.gen(function*() {
        for (const text of corpus) {
          if (text.trim().length === 0) continue
          const r = (yield* score(text, "The tram is a good idea.")).value
          decodeScore(r)
          for (const q of quotesOf(r)) {
            assert.isAbove(q.trim().length, 0)
            assert.isTrue(text.includes(q), `${JSON.stringify(q)} in ${JSON.stringify(text)}`)
          }
          decodeSpam((yield* spam(text)).value)
        }
      }))
  })

  describe("spam checking", () => {
    it.effect("channel promotion with a link is spam, with high confidence", () =>
      Effect.gen(function*() {
        const text = "Check out my channel https://youtube.com/@trams4ever and subscribe!!! DM me to earn $500 a day"
        const r = yield* spam(text)
        decodeSpam(r.value)
        assert.strictEqual(r.provenance.model, CUE_MODEL_VERSION)
        assert.isTrue(r.value.is_spam)
        assert.isAbove(r.value.confidence, 0.9)
        assert.include(r.value.reasoning, "Check out my channel")
        assert.include(r.value.reasoning, "https://youtube.com/@trams4ever")
      }))

    it.effect("pharma spam with a shortener and a phone number is spam", () =>
      Effect.gen(function*() {
        const r = (yield* spam("BUY NOW!!! cheap viagra at bit.ly/x9z, call +1 555 123 4567")).value
        assert.isTrue(r.is_spam)
        assert.isAbove(r.confidence, 0.9)
        assert.match(r.reasoning, /viagra/u)
        assert.match(r.reasoning, /bit\.ly\/x9z/u)
        assert.match(r.reasoning, /555 123 4567/u)
      }))

    it.effect("an ordinary comment with one source link is not spam", () =>
      Effect.gen(function*() {
        const r = (yield* spam("According to the council's report (https://example.org/tram-report.pdf), ridership grew 12% last year, which is more than forecast.")).value
        assert.isFalse(r.is_spam)
        assert.isAbove(r.confidence, 0.8)
      }))

    it.effect("a plain comment is confidently not spam", () =>
      Effect.gen(function*() {
        const r = (yield* spam("I ride the tram every day and it has been reliable, though crowded in the morning.")).value
        assert.isFalse(r.is_spam)
        assert.isAbove(r.confidence, 0.9)
        assert.match(r.reasoning, /no spam signals/iu)
      }))

    it.effect("a lone https://www is not a confident verdict either way", () =>
      Effect.gen(function*() {
        const r = (yield* spam("https://www")).value
        assert.isBelow(r.confidence, 0.7)
        assert.match(r.reasoning, /uncertain/iu)
      }))
  })

  describe("attribute scoring", () => {
    it.effect("scores the summary on the whole text and each span on its slice", () =>
      Effect.gen(function*() {
        const text = "The tram is useful. You are an idiot."
        const spans = [{ begin: 0, end: 19 }, { begin: 20, end: 37 }]
        const r = yield* Effect.flatMap(AttributeScorer, (s) =>
          s.analyze({ text, attributes: ["TOXICITY", "INSULT", "SPAM"], spans, context: { article: null, parent: null, entries: [] } }))
        assert.strictEqual(r.provenance.model, CUE_MODEL_VERSION)
        const tox = r.value.TOXICITY!
        assert.lengthOf(tox.spans, 2)
        assert.isBelow(tox.spans[0]!, 0.2)
        assert.isAbove(tox.spans[1]!, 0.7)
        assert.isAbove(r.value.INSULT!.summary, 0.7)
        for (const a of ["TOXICITY", "INSULT", "SPAM"] as const) {
          const v = r.value[a]!
          for (const x of [v.summary, ...v.spans]) {
            assert.isAtLeast(x, 0)
            assert.isAtMost(x, 1)
          }
        }
      }))

    it.effect("answers every accepted attribute", () =>
      Effect.gen(function*() {
        const r = yield* Effect.flatMap(AttributeScorer, (s) =>
          s.analyze({ text: "Nice work.", attributes: Perspective.Attributes, spans: [], context: { article: null, parent: null, entries: [] } }))
        assert.deepStrictEqual(Object.keys(r.value).sort(), [...Perspective.Attributes].sort())
      }))
  })
})

describe("evaluators on another model", () => {
  const partial: AttributeModelService = {
    version: "stub-1",
    labels: ["TOXICITY"],
    analyse: (text) => ({ text }),
    predict: (_analysis, labels) => Object.fromEntries(labels.map((l) => [l, 0.5])),
    explain: () => []
  }
  const stub = Layer.succeed(AttributeModel, partial)

  it.effect("report the model's version and fail as a provider failure for labels it lacks", () =>
    Effect.gen(function*() {
      const scored = yield* Effect.flatMap(CommentScorer, (s) => s.score({ comment: "fine", article, replyTo: null }))
      assert.strictEqual(scored.provenance.model, "stub-1")
      decodeScore(scored.value)
      const failure = yield* Effect.flip(Effect.flatMap(AttributeScorer, (s) =>
        s.analyze({ text: "x", attributes: ["INSULT"], spans: [], context: { article: null, parent: null, entries: [] } })))
      assert.instanceOf(failure, ProviderFailure)
      assert.match(failure.message, /INSULT/u)
    }).pipe(Effect.provide(LocalEvaluators.evaluators.pipe(Layer.provide(stub)))))

  /** A model that records the analyses it makes and those its predictions and explanations read. */
  const countingModel = (version: string, labels: ReadonlyArray<ModelLabel>, p: number, explained: ReadonlyArray<Contribution>) => {
    const analysed: Array<TextAnalysis> = []
    const read: Array<TextAnalysis> = []
    const model: AttributeModelService = {
      version,
      labels,
      analyse: (text) => {
        const a = { text }
        analysed.push(a)
        return a
      },
      predict: (a, ls) => {
        read.push(a)
        return Object.fromEntries(ls.map((l) => [l, p]))
      },
      explain: (a) => {
        read.push(a)
        return explained
      }
    }
    return { analysed, model, read }
  }

  it.effect("analyse the comment once and read every score and explanation from that analysis", () => {
    const labels: ReadonlyArray<ModelLabel> = ["TOXICITY", "INSULT", "PROFANITY", "THREAT", "IDENTITY_ATTACK", "SEVERE_TOXICITY", "CONSTRUCTIVE", "LOW_EFFORT"]
    const { analysed, model: counting, read } = countingModel("counting-1", labels, 0.9, [{ begin: 0, end: 5, weight: 3 }])
    return Effect.gen(function*() {
      const comment = "idiot, you are wrong and I will find you"
      const scored = yield* Effect.flatMap(CommentScorer, (s) => s.score({ comment, article, replyTo: null }))
      assert.isAbove(scored.value.objectionable_phrases.length, 0)
      assert.lengthOf(analysed, 1)
      assert.isAbove(read.length, 2)
      for (const a of read) assert.strictEqual(a, analysed[0])
    }).pipe(Effect.provide(LocalCommentScorer.pipe(Layer.provide(Layer.succeed(AttributeModel, counting)))))
  })

  it.effect("share one analysis of a comment across the evaluators a request hands the same analysed comment to", () => {
    const labels: ReadonlyArray<ModelLabel> = ["TOXICITY", "INSULT", "PROFANITY", "THREAT", "IDENTITY_ATTACK", "CONSTRUCTIVE", "LOW_EFFORT", "SPAM"]
    const { analysed, model: counting, read } = countingModel("counting-2", labels, 0.25, [])
    return Effect.gen(function*() {
      const comment = "The plan is a waste of money, and the council knows it."
      const request = new AnalysedComment(comment)
      yield* Effect.flatMap(CommentScorer, (s) => s.score({ comment, article, replyTo: null, analysed: request }))
      yield* Effect.flatMap(SpamChecker, (s) => s.check({ comment, article: null, analysed: request }))
      const attributes = yield* Effect.flatMap(AttributeScorer, (s) =>
        s.analyze({ text: comment, attributes: ["TOXICITY"], spans: [], context: { article: null, parent: null, entries: [] }, analysed: request }))
      assert.strictEqual(analysed.length, 1)
      for (const a of read) assert.strictEqual(a, analysed[0])
      assert.strictEqual(attributes.value.TOXICITY?.summary, 0.25)
      // without the request's analysed comment, each evaluator analyses the comment itself
      yield* Effect.flatMap(SpamChecker, (s) => s.check({ comment, article: null }))
      assert.strictEqual(analysed.length, 2)
    }).pipe(Effect.provide(LocalEvaluators.evaluators.pipe(Layer.provide(Layer.succeed(AttributeModel, counting)))))
  })

  it.effect("turn a throwing model into a provider failure", () =>
    Effect.gen(function*() {
      const failure = yield* Effect.flip(Effect.flatMap(CommentScorer, (s) => s.score({ comment: "fine", article, replyTo: null })))
      assert.strictEqual(failure._tag, "ProviderFailure")
      assert.strictEqual(failure.provider, "broken-1")
    }).pipe(Effect.provide(LocalCommentScorer.pipe(Layer.provide(Layer.succeed(AttributeModel, {
      ...partial,
      version: "broken-1",
      predict: () => {
        throw new Error("weights not loaded")
      }
    }))))))
})
