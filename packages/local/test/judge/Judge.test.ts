/**
 * The judge (issue 27): batching of concurrent requests into one backend call, the bounded queue,
 * the modes, and the attribute scorer's routing and fallback, on a fake backend that counts its
 * calls (the real encoder is `EncoderJudge.test.ts`).
 */
import { AttributeScorer, Metrics } from "@decorum/core"
import type { AttributeAnalysisInput, Perspective } from "@decorum/domain"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Fiber, Layer, Metric, TestClock } from "effect"
import { AttributeModel } from "../../src/AttributeModel.js"
import { JudgedAttributeScorer, LocalAttributeScorer, makeLocalAttributeScorer } from "../../src/evaluators/LocalAttributeScorer.js"
import * as Judge from "../../src/Judge.js"
import { combine } from "../../src/JudgeBackend.js"
import { TrainedModel } from "../../src/models/TrainedModel.js"
import { type FakeBackend, fakeBackend } from "./fakeBackend.js"

/** Resumes after the event loop's current turn (no timer). */
const turn = Effect.async<void>((resume) => {
  setImmediate(() => resume(Effect.void))
})

/** `decorum_judge_texts_total` of one outcome, now. */
const judgeTexts = (outcome: string) => Effect.map(Metric.value(Metric.tagged(Metrics.judgeTexts, "outcome", outcome)), (s) => s.count)

/** Waits, turn after turn of the event loop, until `condition` holds (fails after 10,000 turns). */
const until = (condition: () => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 10_000; i++) {
      if (condition()) return
      yield* turn
    }
    assert.fail("the condition never held")
  })

const judgeOn = (backend: FakeBackend, options: Partial<Judge.Options> = {}) =>
  Judge.make(Effect.succeed({ backend, cascade: { TOXICITY: [0.4, 0.9] } }), { mode: "cascade", ...options })

describe("Judge", () => {
  it.scoped("batches concurrent requests into one backend call", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { maxBatch: 16 })
      const texts = Array.from({ length: 12 }, (_, i) => `comment ${i}`)
      const answers = yield* Effect.forEach(texts, (t) => judge.judge(t, { TOXICITY: 0.5 }), { concurrency: "unbounded" })
      assert.strictEqual(backend.calls.length, 1)
      assert.deepStrictEqual([...backend.calls[0]!].sort(), [...texts].sort())
      for (const a of answers) assert.closeTo(a.TOXICITY!, combine({ head: 1, linear: 0, bias: 0 }, 3, 0.5), 1e-12)
    }))

  it.scoped("collects what arrives while a call is in flight into the next call, at most maxBatch texts a call", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { maxBatch: 4, runs: 1 })
      backend.hold()
      const first = yield* Effect.fork(judge.judge("first", { TOXICITY: 0.5 }))
      yield* until(() => backend.calls.length === 1)
      const rest = yield* Effect.fork(Effect.forEach(Array.from({ length: 6 }, (_, i) => `later ${i}`), (t) => judge.judge(t, { TOXICITY: 0.5 }), { concurrency: "unbounded" }))
      yield* until(() => judge.waiting() === 6)
      backend.release()
      yield* Fiber.join(first)
      yield* Fiber.join(rest)
      assert.deepStrictEqual(backend.calls.map((c) => c.length), [1, 4, 2])
    }))

  it.scoped("with two calls in flight, the second is made while the first runs", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { maxBatch: 2, runs: 2 })
      backend.hold()
      const all = yield* Effect.fork(Effect.forEach(["a", "b", "c", "d", "e"], (t) => judge.judge(t, { TOXICITY: 0.5 }), { concurrency: "unbounded" }))
      yield* until(() => backend.calls.length === 2)
      assert.strictEqual(judge.waiting(), 1)
      backend.release()
      yield* Fiber.join(all)
      assert.deepStrictEqual(backend.calls.map((c) => c.length), [2, 2, 1])
    }))

  it.scoped("a full queue fails the request at once (it is answered linear), without growing", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { maxQueue: 2, maxBatch: 1, runs: 1 })
      const [overloaded, judged] = [yield* judgeTexts("overloaded"), yield* judgeTexts("judged")]
      backend.hold()
      const first = yield* Effect.fork(judge.judge("in flight", { TOXICITY: 0.5 }))
      yield* until(() => backend.calls.length === 1)
      const queued = yield* Effect.fork(Effect.forEach(["a", "b"], (t) => judge.judge(t, { TOXICITY: 0.5 }), { concurrency: "unbounded" }))
      yield* until(() => judge.waiting() === 2)
      const overflow = yield* Effect.either(judge.judge("c", { TOXICITY: 0.5 }))
      assert.isTrue(Either.isLeft(overflow))
      if (Either.isLeft(overflow)) assert.match(overflow.left.reason, /overloaded/)
      backend.release()
      yield* Fiber.join(first)
      assert.strictEqual((yield* Fiber.join(queued)).length, 2)
      assert.deepStrictEqual(backend.calls.flat(), ["in flight", "a", "b"])
      // counted: the overflow, and the three judged
      assert.strictEqual((yield* judgeTexts("overloaded")) - overloaded, 1)
      assert.strictEqual((yield* judgeTexts("judged")) - judged, 3)
    }))

  it.scoped("a backend call that fails fails its requests, and the next call is made as usual", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend)
      backend.breakIt("the session crashed")
      const failed = yield* Effect.either(judge.judge("a", { TOXICITY: 0.5 }))
      assert.isTrue(Either.isLeft(failed) && /the session crashed/.test(failed.left.reason))
    }))

  it.scoped("linear mode never starts the backend", () =>
    Effect.gen(function*() {
      let started = 0
      const judge = yield* Judge.make(Effect.sync(() => (started++, { backend: fakeBackend() })), { mode: "linear" })
      assert.strictEqual(started, 0)
      assert.deepStrictEqual(judge.status, { mode: "linear", state: "off" })
      assert.isFalse(judge.routes(["TOXICITY"], { TOXICITY: 0.5 }))
    }))

  it.scoped("a backend that cannot start leaves the judge unavailable, with the reason", () =>
    Effect.gen(function*() {
      const judge = yield* Judge.make(Effect.fail(new Judge.JudgeUnavailable({ reason: "no model here" })), { mode: "cascade" })
      assert.deepStrictEqual(judge.status, { mode: "cascade", state: "unavailable", reason: "no model here" })
      assert.isFalse(judge.routes(["TOXICITY"], { TOXICITY: 0.5 }))
    }))

  it.scoped("routes by band in cascade mode, every judged attribute in neural mode", () =>
    Effect.gen(function*() {
      const cascade = yield* judgeOn(fakeBackend())
      assert.isTrue(cascade.routes(["TOXICITY"], { TOXICITY: 0.5 }))
      assert.isFalse(cascade.routes(["TOXICITY"], { TOXICITY: 0.95 }))
      // INSULT has no band in the source: the default one
      assert.isTrue(cascade.routes(["INSULT"], { INSULT: Judge.DEFAULT_BAND[0] }))
      assert.isFalse(cascade.routes(["INSULT"], { INSULT: Judge.DEFAULT_BAND[0] / 2 }))
      assert.isFalse(cascade.routes(["THREAT"], { THREAT: 0.5 }), "an attribute the backend does not judge")
      const neural = yield* judgeOn(fakeBackend(), { mode: "neural" })
      assert.isTrue(neural.routes(["TOXICITY"], { TOXICITY: 0.999 }))
      assert.isFalse(neural.routes(["THREAT"], { THREAT: 0.5 }))
    }))
})

/**
 * Teaches the judge the backend's time per text: one call of `texts`, held at the backend while the
 * test clock moves `ms` (so the estimate is `ms / texts.length`; texts out of their budget by then are answered linear).
 */
const teach = (judge: Judge.JudgeService, backend: FakeBackend, texts: ReadonlyArray<string>, ms: number) =>
  Effect.gen(function*() {
    const calls = backend.calls.length
    backend.hold()
    const fiber = yield* Effect.fork(Effect.forEach(texts, (t) => Effect.either(judge.judge(t, { TOXICITY: 0.5 })), { concurrency: "unbounded" }))
    yield* until(() => backend.calls.length === calls + 1)
    yield* TestClock.adjust(ms)
    backend.release()
    yield* Fiber.join(fiber)
  })

describe("the judge's latency budget", () => {
  it.scoped("a text that cannot be judged within the budget is answered linear at once, without calling the backend", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { budgetMs: 25, runs: 1 })
      yield* teach(judge, backend, ["warm"], 10) // 10 ms a text
      const overBudget = yield* judgeTexts("over_budget")
      backend.hold()
      const a = yield* Effect.fork(judge.judge("a", { TOXICITY: 0.5 }))
      yield* until(() => backend.calls.length === 2)
      // "a" in a call: "b" would be done in 20 ms, within the budget; "c" in 30 ms, over it
      const b = yield* Effect.fork(judge.judge("b", { TOXICITY: 0.5 }))
      yield* until(() => judge.waiting() === 1)
      const c = yield* Effect.either(judge.judge("c", { TOXICITY: 0.5 }))
      assert.isTrue(Either.isLeft(c))
      if (Either.isLeft(c)) {
        assert.isTrue(c.left.shed)
        assert.match(c.left.reason, /within 25 ms/)
      }
      assert.strictEqual((yield* judgeTexts("over_budget")) - overBudget, 1)
      // the same check, synchronously (the scorer's answer without a fiber)
      assert.isTrue(judge.shedNow())
      assert.strictEqual((yield* judgeTexts("over_budget")) - overBudget, 2)
      backend.release()
      yield* Fiber.join(a)
      yield* Fiber.join(b)
      assert.isFalse(judge.shedNow(), "an idle backend takes a text")
      assert.deepStrictEqual(backend.calls, [["warm"], ["a"], ["b"]])
    }))

  it.scoped("a text still waiting when its budget runs out is answered linear then, and never sent to the backend", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { budgetMs: 25, runs: 1 })
      yield* teach(judge, backend, ["warm"], 2) // 2 ms a text; the clock at 2
      const [overBudget, judged] = [yield* judgeTexts("over_budget"), yield* judgeTexts("judged")]
      backend.hold()
      const eight = Array.from({ length: 8 }, (_, i) => `in flight ${i}`)
      const inFlight = yield* Effect.fork(Effect.forEach(eight, (t) => Effect.either(judge.judge(t, { TOXICITY: 0.5 })), { concurrency: "unbounded" }))
      yield* until(() => backend.calls.length === 2)
      // expected done at 20, within its time (27): "late" is queued behind the call
      const late = yield* Effect.fork(Effect.either(judge.judge("late", { TOXICITY: 0.5 })))
      yield* until(() => judge.waiting() === 1)
      yield* TestClock.adjust(26)
      const answer = yield* Fiber.join(late)
      assert.isTrue(Either.isLeft(answer) && answer.left.shed === true)
      // the texts in the held call are out of time too: answered linear, whatever the call answers later
      for (const a of yield* Fiber.join(inFlight)) assert.isTrue(Either.isLeft(a) && a.left.shed === true)
      backend.release()
      // the next text is within the budget, and its call has no "late" in it
      yield* judge.judge("next", { TOXICITY: 0.5 })
      assert.deepStrictEqual(backend.calls.slice(2), [["next"]])
      assert.strictEqual((yield* judgeTexts("over_budget")) - overBudget, 9)
      assert.strictEqual((yield* judgeTexts("judged")) - judged, 1)
    }))

  it.scoped("the collector answers linear, without sending it, a text the backend is not expected to finish in its time", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { budgetMs: 45, runs: 1, maxBatch: 4 })
      yield* teach(judge, backend, ["warm"], 10) // 10 ms a text; the clock at 10
      backend.hold()
      const a = yield* Effect.fork(judge.judge("a", { TOXICITY: 0.5 }))
      yield* until(() => backend.calls.length === 2)
      // expected done at 30 and 40, within their time (55): both wait
      const later = yield* Effect.fork(Effect.forEach(["b", "c"], (t) => Effect.either(judge.judge(t, { TOXICITY: 0.5 })), { concurrency: "unbounded" }))
      yield* until(() => judge.waiting() === 2)
      // "a" takes 24 ms: the estimate rises to 12.8; collected at 34, "b" would be done at 46.8, "c" at 59.6
      yield* TestClock.adjust(24)
      backend.release()
      yield* Fiber.join(a)
      const [b, c] = (yield* Fiber.join(later)) as [Either.Either<unknown, Judge.JudgeFailure>, Either.Either<unknown, Judge.JudgeFailure>]
      assert.isTrue(Either.isRight(b))
      assert.isTrue(Either.isLeft(c) && c.left.shed === true)
      assert.deepStrictEqual(backend.calls, [["warm"], ["a"], ["b"]])
    }))

  it.scoped("an idle backend takes a text whatever the estimate, so a slow call does not shut the judge", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { budgetMs: 25, runs: 1 })
      yield* teach(judge, backend, ["slow first call"], 100) // 100 ms a text: over the budget
      // answered after the slow call's end: the estimate is 80 ms a text from here on
      yield* judge.judge("next", { TOXICITY: 0.5 })
      const judged = yield* judgeTexts("judged")
      yield* judge.judge("after", { TOXICITY: 0.5 })
      assert.strictEqual((yield* judgeTexts("judged")) - judged, 1)
    }))

  it.scoped("the first call (the backend's warm-up, no estimate yet) is waited for past the budget", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { budgetMs: 25, runs: 1 })
      backend.hold()
      const first = yield* Effect.fork(judge.judge("first", { TOXICITY: 0.5 }))
      yield* until(() => backend.calls.length === 1)
      yield* TestClock.adjust(100)
      backend.release()
      const answer = yield* Fiber.join(first)
      assert.isDefined(answer.TOXICITY)
    }))

  it.scoped("a text whose request is interrupted while it waits is never sent to the backend", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { budgetMs: 25, runs: 1 })
      backend.hold()
      const first = yield* Effect.fork(judge.judge("first", { TOXICITY: 0.5 }))
      yield* until(() => backend.calls.length === 1)
      const gone = yield* Effect.fork(judge.judge("gone", { TOXICITY: 0.5 }))
      yield* until(() => judge.waiting() === 1)
      yield* Fiber.interrupt(gone)
      backend.release()
      yield* Fiber.join(first)
      yield* judge.judge("next", { TOXICITY: 0.5 })
      assert.deepStrictEqual(backend.calls, [["first"], ["next"]])
    }))

  it.scoped("under the budget every text is judged", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { budgetMs: 25, maxBatch: 4, runs: 1 })
      yield* teach(judge, backend, ["warm"], 2) // 2 ms a text: 12 texts take 24 ms
      const [overBudget, judged] = [yield* judgeTexts("over_budget"), yield* judgeTexts("judged")]
      const texts = Array.from({ length: 12 }, (_, i) => `comment ${i}`)
      const answers = yield* Effect.forEach(texts, (t) => judge.judge(t, { TOXICITY: 0.5 }), { concurrency: "unbounded" })
      assert.strictEqual(answers.length, 12)
      assert.strictEqual((yield* judgeTexts("judged")) - judged, 12)
      assert.strictEqual((yield* judgeTexts("over_budget")) - overBudget, 0)
      assert.deepStrictEqual(backend.calls.slice(1).flat().sort(), [...texts].sort())
    }))

  it.scoped("budgetMs 0: no budget, every text waits for the judge however long", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { budgetMs: 0, runs: 1 })
      yield* teach(judge, backend, ["warm"], 100) // 100 ms a text
      const overBudget = yield* judgeTexts("over_budget")
      backend.hold()
      const all = yield* Effect.fork(Effect.forEach(["a", "b", "c"], (t) => judge.judge(t, { TOXICITY: 0.5 }), { concurrency: "unbounded" }))
      yield* until(() => backend.calls.length === 2)
      yield* TestClock.adjust(10_000)
      backend.release()
      assert.strictEqual((yield* Fiber.join(all)).length, 3)
      assert.strictEqual((yield* judgeTexts("over_budget")) - overBudget, 0)
    }))
})

// The attribute scorer with a judge, on the shipped linear models.
const LOW = "Thanks for the thoughtful article, I learned a lot."
const HIGH = "You are a stupid idiot and everyone knows it."

const input = (text: string, attributes: ReadonlyArray<Perspective.Attribute> = ["TOXICITY", "INSULT"], language = "en"): AttributeAnalysisInput => ({
  text,
  attributes,
  spans: [{ begin: 0, end: text.length }],
  context: { article: null, parent: null, entries: [] },
  language
})

const linearOf = (text: string) =>
  Effect.flatMap(AttributeScorer, (s) => s.analyze(input(text))).pipe(Effect.provide(LocalAttributeScorer.pipe(Layer.provide(TrainedModel.layer))))

const scorerWith = (backend: FakeBackend, mode: Judge.Mode, band: readonly [number, number], insultBand = band) =>
  JudgedAttributeScorer.pipe(
    Layer.provideMerge(Judge.layer(Effect.succeed({ backend, cascade: { TOXICITY: band, INSULT: insultBand } }), { mode })),
    Layer.provideMerge(TrainedModel.layer)
  )

describe("the attribute scorer with a judge", () => {
  it.scoped("a routed comment over the judge's budget is answered linear at once by analyzeNow, naming the judge it stands in for", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const judge = yield* judgeOn(backend, { mode: "neural" })
      const model = yield* Effect.provide(AttributeModel, TrainedModel.layer)
      const linear = yield* Effect.provide(linearOf(HIGH), TrainedModel.layer)
      const within = makeLocalAttributeScorer(model, undefined, judge)
      assert.isUndefined(within.analyzeNow(input(HIGH)), "within the budget: only analyze answers")
      const over = makeLocalAttributeScorer(model, undefined, { ...judge, shedNow: () => true })
      assert.deepStrictEqual(over.analyzeNow(input(HIGH)), Either.right({ value: linear.value, provenance: { model: model.version, fallbackFrom: "judge-test" } }))
      assert.strictEqual(backend.calls.length, 0)
    }))

  it.effect("cascade: only comments with a linear summary in the band reach the judge; the others are answered at once", () =>
    Effect.gen(function*() {
      const low = yield* linearOf(LOW)
      const high = yield* linearOf(HIGH)
      const lowToxicity = low.value.TOXICITY!.summary
      const highToxicity = high.value.TOXICITY!.summary
      assert.isBelow(lowToxicity, 0.3)
      assert.isAbove(highToxicity, 0.5)
      const backend = fakeBackend()
      // a band around the high comment's TOXICITY and INSULT only
      const band = [Math.min(highToxicity, high.value.INSULT!.summary) - 0.01, 1] as const
      yield* Effect.gen(function*() {
        const scorer = yield* AttributeScorer
        const now = scorer.analyzeNow(input(LOW))
        assert.deepStrictEqual(now, Either.right(low), "out of band: the linear answer, at once")
        assert.deepStrictEqual(yield* scorer.analyze(input(LOW)), low)
        assert.strictEqual(backend.calls.length, 0)
        assert.isUndefined(scorer.analyzeNow(input(HIGH)), "in band: only analyze answers")
        const judged = yield* scorer.analyze(input(HIGH))
        assert.deepStrictEqual(backend.calls, [[HIGH]])
        const model = (yield* AttributeModel).version
        assert.strictEqual(judged.provenance.model, `${model}+judge-test`)
        assert.closeTo(judged.value.TOXICITY!.summary, combine({ head: 1, linear: 0, bias: 0 }, 3, highToxicity), 1e-12)
        assert.closeTo(judged.value.INSULT!.summary, combine({ head: 1, linear: 0, bias: 0 }, -3, high.value.INSULT!.summary), 1e-12)
        // a span covering the whole comment is the summary (Google's client's default span); any
        // other span keeps its linear score
        const parts = { ...input(HIGH), spans: [{ begin: 0, end: HIGH.length }, { begin: 0, end: 13 }] }
        const linearParts = yield* Effect.flatMap(AttributeScorer, (s) => s.analyze(parts)).pipe(
          Effect.provide(LocalAttributeScorer.pipe(Layer.provide(TrainedModel.layer)))
        )
        const judgedParts = yield* scorer.analyze(parts)
        assert.deepStrictEqual(judgedParts.value.TOXICITY!.spans, [judged.value.TOXICITY!.summary, linearParts.value.TOXICITY!.spans[1]!])
        assert.deepStrictEqual(judgedParts.value.INSULT!.spans, [judged.value.INSULT!.summary, linearParts.value.INSULT!.spans[1]!])
        assert.notStrictEqual(judged.value.TOXICITY!.summary, high.value.TOXICITY!.spans[0])
        // another language keeps its linear set, never the judge
        assert.isDefined(scorer.analyzeNow(input(HIGH, ["TOXICITY"], "de")))
      }).pipe(Effect.provide(scorerWith(backend, "cascade", band)))
    }))

  it.effect("cascade routes by every judged attribute, requested or not: a score does not depend on what else was asked", () =>
    Effect.gen(function*() {
      const high = yield* linearOf(HIGH)
      const backend = fakeBackend()
      // only INSULT's band holds the comment; TOXICITY alone is requested
      yield* Effect.gen(function*() {
        const scorer = yield* AttributeScorer
        assert.isUndefined(scorer.analyzeNow(input(HIGH, ["TOXICITY"])))
        const alone = yield* scorer.analyze(input(HIGH, ["TOXICITY"]))
        const both = yield* scorer.analyze(input(HIGH, ["TOXICITY", "INSULT"]))
        assert.strictEqual(alone.value.TOXICITY!.summary, both.value.TOXICITY!.summary)
        assert.notStrictEqual(alone.value.TOXICITY!.summary, high.value.TOXICITY!.summary)
        assert.deepStrictEqual(Object.keys(alone.value), ["TOXICITY"])
        // a request for no judged attribute is never routed
        assert.isDefined(scorer.analyzeNow(input(HIGH, ["THREAT"])))
        assert.strictEqual(backend.calls.length, 2)
      }).pipe(Effect.provide(scorerWith(backend, "cascade", [1, 1], [high.value.INSULT!.summary - 0.01, 1])))
    }))

  it.effect("neural: every English comment is judged", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      yield* Effect.gen(function*() {
        const scorer = yield* AttributeScorer
        assert.isUndefined(scorer.analyzeNow(input(LOW)))
        const judged = yield* scorer.analyze(input(LOW))
        assert.match(judged.provenance.model, /\+judge-test$/)
        assert.deepStrictEqual(backend.calls, [[LOW]])
      }).pipe(Effect.provide(scorerWith(backend, "neural", [0, 0])))
    }))

  it.effect("linear mode never touches the backend and answers the linear scores", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      const high = yield* linearOf(HIGH)
      yield* Effect.gen(function*() {
        const scorer = yield* AttributeScorer
        assert.deepStrictEqual(scorer.analyzeNow(input(HIGH)), Either.right(high))
        assert.deepStrictEqual(yield* scorer.analyze(input(HIGH)), high)
        assert.strictEqual(backend.calls.length, 0)
      }).pipe(Effect.provide(scorerWith(backend, "linear", [0, 1])))
    }))

  it.effect("a judge that fails at request time leaves the linear scores, naming it as the fallback", () =>
    Effect.gen(function*() {
      const backend = fakeBackend()
      backend.breakIt("the session crashed")
      const high = yield* linearOf(HIGH)
      yield* Effect.gen(function*() {
        const answer = yield* (yield* AttributeScorer).analyze(input(HIGH))
        assert.deepStrictEqual(answer.value, high.value)
        assert.deepStrictEqual(answer.provenance, { model: high.provenance.model, fallbackFrom: "judge-test" })
        assert.strictEqual(backend.calls.length, 1)
      }).pipe(Effect.provide(scorerWith(backend, "neural", [0, 1])))
    }))
})
