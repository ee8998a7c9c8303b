import { assert, describe, it } from "@effect/vitest"
import { Effect, Metric, MetricBoundaries } from "effect"
import { Metrics } from "../src/index.js"

describe("Metrics.labelled", () => {
  it.effect("updates the series Metric.tagged names, labels in the same order, so the scrape shows one series", () =>
    Effect.gen(function*() {
      const counter = Metric.counter("decorum_test_labelled_total", { incremental: true })
      const update = Metrics.labelled(counter, [["route", "/r"], ["family", "google"], ["status", "200"]])
      update(1)
      update(2)
      const tagged = counter.pipe(Metric.tagged("route", "/r"), Metric.tagged("family", "google"), Metric.tagged("status", "200"))
      assert.strictEqual((yield* Metric.value(tagged)).count, 3)
      yield* Metric.increment(tagged)
      update(1)
      assert.strictEqual((yield* Metric.value(tagged)).count, 5)
      // Another label set is another series.
      const other = counter.pipe(Metric.tagged("route", "/r"), Metric.tagged("family", "google"), Metric.tagged("status", "400"))
      assert.strictEqual((yield* Metric.value(other)).count, 0)

      const histogram = Metric.histogram("decorum_test_labelled_seconds", MetricBoundaries.fromIterable([0.01, 0.1]))
      Metrics.labelled(histogram, [["route", "/r"]])(0.05)
      const state = yield* Metric.value(Metric.tagged(histogram, "route", "/r"))
      assert.strictEqual(state.count, 1)
      assert.strictEqual(state.sum, 0.05)
    }))

  it.effect("countEvaluationNow and countEvaluation count one series per section and engine", () =>
    Effect.gen(function*() {
      const series = Metrics.evaluations.pipe(Metric.tagged("section", "test_section"), Metric.tagged("engine", "local"))
      const before = (yield* Metric.value(series)).count
      Metrics.countEvaluationNow("test_section", { model: "local-1" })
      yield* Metrics.countEvaluation("test_section", { model: "local-1" })
      assert.strictEqual((yield* Metric.value(series)).count - before, 2)
      // The engine follows the provenance: an LLM's model name, a fallback.
      const of = (engine: string) => Metric.value(Metrics.evaluations.pipe(Metric.tagged("section", "test_section"), Metric.tagged("engine", engine)))
      Metrics.countEvaluationNow("test_section", { model: "openai:gpt-x@prompt-1" })
      Metrics.countEvaluationNow("test_section", { model: "openai:gpt-x@prompt-1" })
      Metrics.countEvaluationNow("test_section", { model: "local-1", fallbackFrom: "openai:gpt-x@prompt-1" })
      assert.strictEqual((yield* of("llm")).count, 2)
      assert.strictEqual((yield* of("fallback")).count, 1)
      assert.strictEqual((yield* of("local")).count - before, 2)
    }))
})
