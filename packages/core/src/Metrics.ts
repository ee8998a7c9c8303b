/**
 * The engine's metrics, on effect's `Metric` module (the default registry): what the hosts
 * expose as Prometheus text at `/metrics` and export over OTLP. Names follow Prometheus
 * conventions (`_total` counters, `_seconds` histograms); label values are bounded (routes are
 * templates, never raw paths; no keys, emails or comment text).
 */
import type { Provenance } from "@decorum/domain"
import { Effect, Metric, MetricBoundaries, MetricLabel } from "effect"

// ---------------------------------------------------------------- HTTP

/** Requests answered, by `route` (the template, or `unmatched`), `family` and `status`. */
export const httpRequests = Metric.counter("decorum_http_requests_total", {
  description: "HTTP requests answered, by route template, API family and status.",
  incremental: true
})

/** Time from request to response, by `route` and `family`. */
export const httpDuration = Metric.histogram(
  "decorum_http_request_duration_seconds",
  MetricBoundaries.fromIterable([0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]),
  "Time to answer an HTTP request, by route template and API family."
)

// ---------------------------------------------------------------- evaluations

export type AnsweredBy = "local" | "llm" | "fallback"

/** Evaluations answered, by `section` and `engine`: `local`, `llm`, or `fallback` (the local model after the LLM failed). */
export const evaluations = Metric.counter("decorum_evaluations_total", {
  description: "Evaluations answered, by section and by the engine that answered (local, llm, fallback).",
  incremental: true
})

/** Which engine answered, from an answer's provenance: LLM models are named `<provider>:<model>@<prompt>`. */
export const answeredBy = (provenance: Provenance): AnsweredBy =>
  provenance.fallbackFrom !== undefined ? "fallback" : /^[a-z][\w-]*:[^@]+@/.test(provenance.model) ? "llm" : "local"

/**
 * A metric's update for one fixed set of labels, as a plain function. `Metric.tagged` builds a
 * metric whose every update makes a new label array and so a new `MetricKey` (hashed, formatted and
 * looked up in the registry: more than the increment itself); updating the untagged metric with one
 * label array built once finds its hook in the metric's own cache instead. The labels are in the
 * order `Metric.tagged` would give them (first tag first), so both write the same series.
 */
export const labelled = <In>(metric: Metric.Metric<any, In, any>, labels: ReadonlyArray<readonly [string, string]>): (input: In) => void => {
  const tags = labels.map(([key, value]) => MetricLabel.make(key, value))
  return (input) => metric.unsafeUpdate(input, tags)
}

// Module cache, a documented constant: one counter update per section and engine, built once. Its
// content is a pure function of the key (the metric is Effect's global one) and the keys are few.
const evaluationCounters = new Map<string, (input: number) => void>()

// The counter update of each section and model answered without a fallback (the usual case), so
// that counting reads one map instead of testing the model name against a pattern. Model names
// are few (the model set, LLM models and prompts, adapters); a full map starts over. Module cache, a
// documented constant: each entry is a pure function of its key, so engines sharing it agree.
const plainCounters = new Map<string, (input: number) => void>()

const counterOf = (section: string, engine: AnsweredBy) => {
  const key = `${section} ${engine}`
  let counter = evaluationCounters.get(key)
  if (counter === undefined) {
    counter = labelled(evaluations, [["section", section], ["engine", engine]])
    evaluationCounters.set(key, counter)
  }
  return counter
}

/** Counts one answered evaluation, as a plain function (`countEvaluation` is this in an effect). */
export const countEvaluationNow = (section: string, provenance: Provenance): void => {
  if (provenance.fallbackFrom !== undefined) return counterOf(section, "fallback")(1)
  const key = `${section} ${provenance.model}`
  let counter = plainCounters.get(key)
  if (counter === undefined) {
    counter = counterOf(section, answeredBy(provenance))
    if (plainCounters.size >= 1_000) plainCounters.clear()
    plainCounters.set(key, counter)
  }
  counter(1)
}

/** Counts one answered evaluation. */
export const countEvaluation = (section: string, provenance: Provenance): Effect.Effect<void> =>
  Effect.sync(() => countEvaluationNow(section, provenance))

// ---------------------------------------------------------------- the judge (issue 27)

/**
 * Texts sent to the neural judge, by `outcome`: `judged`, `failed` (its backend failed; the request
 * was answered linear), `overloaded` (its queue was full; answered linear) or `over_budget` (it could
 * not be judged within `DECORUM_JUDGE_BUDGET_MS`; answered linear). Beside
 * `decorum_evaluations_total{section="perspective"}`, the share of comments the cascade judges.
 */
export const judgeTexts = Metric.counter("decorum_judge_texts_total", {
  description: "Texts sent to the neural judge, by outcome: judged, failed (answered linear), overloaded (queue full, answered linear), over_budget (not judged within the budget, answered linear).",
  incremental: true
})

/** Texts per call to the judge's backend: how well concurrent requests are batched. */
export const judgeCallTexts = Metric.histogram(
  "decorum_judge_call_texts",
  MetricBoundaries.fromIterable([1, 2, 4, 8, 16, 32]),
  "Texts per call to the neural judge's backend."
)

// ---------------------------------------------------------------- LLM

/** Requests sent to the LLM provider (each retry is one more), by `evaluation` and `outcome` (`ok` or the error kind). */
export const llmCalls = Metric.counter("decorum_llm_calls_total", {
  description: "Requests sent to the LLM provider, by evaluation and outcome (ok, or the kind of error).",
  incremental: true
})

/** Retries of a failed LLM request (transient errors, rate limits), by `evaluation`. */
export const llmRetries = Metric.counter("decorum_llm_retries_total", {
  description: "LLM requests retried after a transient failure, by evaluation.",
  incremental: true
})

/** Evaluations that ran past the LLM deadline (the local model answered instead), by `evaluation`. */
export const llmTimeouts = Metric.counter("decorum_llm_timeouts_total", {
  description: "LLM evaluations that ran past their deadline, by evaluation.",
  incremental: true
})

/** Evaluations answered from the LLM answer cache, by `evaluation`. */
export const llmCacheHits = Metric.counter("decorum_llm_cache_hits_total", {
  description: "LLM evaluations answered from the in-memory answer cache, by evaluation.",
  incremental: true
})

/** The LLM circuit breaker: 0 closed, 1 half-open, 2 open. */
export const llmCircuitState = Metric.gauge("decorum_llm_circuit_state", {
  description: "LLM circuit breaker state: 0 closed, 1 half-open, 2 open."
})

export const circuitStateValue = (state: "closed" | "half-open" | "open"): number => (state === "closed" ? 0 : state === "half-open" ? 1 : 2)

// ---------------------------------------------------------------- stores

/** Score suggestions (`suggestscore`) stored. */
export const suggestionsStored = Metric.counter("decorum_suggestions_stored_total", {
  description: "Score suggestions (suggestscore) stored.",
  incremental: true
})

// ---------------------------------------------------------------- build

/** Always 1; the labels name the engine version and the model set (`X-Engine-Version`, `X-Model-Version`). */
export const modelInfo = Metric.gauge("decorum_model_info", {
  description: "The engine version and the model set answering (always 1)."
})

export const recordModelInfo = (info: { readonly engineVersion: string; readonly modelVersion: string }): Effect.Effect<void> =>
  Metric.set(Metric.tagged(Metric.tagged(modelInfo, "engine_version", info.engineVersion), "model_version", info.modelVersion), 1)
