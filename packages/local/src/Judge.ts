/**
 * The judge (issue 27): the second stage of English attribute scoring. The linear models score
 * every comment first (microseconds); the judge reads the whole comment with a `JudgeBackend` (the
 * built-in encoder heads, `EncoderJudge`, or an operator's own model) and answers, per attribute
 * the backend judges, the combined probability `JudgeBackend.combine(head, z, p_linear)`.
 *
 * Modes (`DECORUM_JUDGE`):
 * - `linear`: the judge is off; no backend is loaded, scoring is the linear models alone.
 * - `cascade` (the engine's default): a comment with a requested judged attribute goes to the
 *   judge when the linear summary of one of the judged attributes (requested or not: a score never
 *   depends on what else was asked) is inside that attribute's band (the backend's source names
 *   the bands; `DEFAULT_BAND` otherwise): the comments the linear models are unsure about.
 * - `neural`: every comment with a requested judged attribute goes to the judge.
 *
 * Batching: concurrent requests are collected into one backend call: what arrives in the same
 * turn of the event loop as the first, and everything that arrives while a run is in flight, up
 * to `maxBatch` texts a call (8), with at most `runs` calls in flight (2). How a call is computed is
 * the backend's (`EncoderJudge` runs each text on its own, so that a score never depends on the
 * texts it was called with).
 *
 * Overload: the queue holds at most `maxQueue` texts. A text that finds it full is not queued: its
 * request fails over to the linear scores at once (a `JudgeFailure`, which the scorer answers as a
 * fallback, counted and logged). So a flood neither grows memory nor waits without bound; it is
 * answered as `linear` would answer it.
 *
 * Budget: a text is judged only if it can be judged within `budgetMs` (`DECORUM_JUDGE_BUDGET_MS`,
 * `DEFAULT_BUDGET_MS`) of its arrival, the way a production cascade sheds load. The judge keeps an
 * estimate of the backend's time per text (a moving average of its measured busy time per text);
 * a text that would be done only after the budget (when the calls made so far are expected to end,
 * then the texts waiting and itself at the estimate each) is not queued: its request is answered
 * linear at once (no encoder time spent for it). An idle backend always takes a text, so the
 * estimate keeps learning (a slow first call does not shut the judge).
 * A text still waiting when its budget runs out is answered linear then, and the collector skips
 * it (the backend never runs for nobody), as it skips (answering linear) a text it does not expect
 * the backend to finish in its time. A text whose time runs out in a call (a backend slower than
 * its estimate) is answered linear then too, and the call's answer for it is dropped: no request
 * waits for the judge longer than the budget, but for the texts of the calls made before any has
 * finished (the backend's warm-up, whose time nothing predicts yet). All count as `over_budget`. `budgetMs: 0` turns the
 * budget off.
 *
 * Failure: a backend that cannot start (its runtime or model file missing or damaged) leaves the
 * judge `unavailable` with the reason (`status`, which `/readyz` shows) and scoring linear; a call
 * that fails at request time fails that request's judging only (`JudgeFailure`).
 */
import { type Adaptation, Metrics } from "@decorum/core"
import type { Perspective } from "@decorum/domain"
import { Chunk, Clock, Context, Data, Deferred, Effect, Layer, Option, Queue, type Scope } from "effect"
import { combine, type JudgeBackend } from "./JudgeBackend.js"

export type Mode = "linear" | "cascade" | "neural"

export const MODES: ReadonlyArray<Mode> = ["linear", "cascade", "neural"]

/** The band of the linear probability routed to the judge in cascade mode, for an attribute its source gives none. */
export const DEFAULT_BAND: readonly [number, number] = [0.2, 0.8]

/**
 * Texts per backend call, by default. Small: the encoder costs about as much per comment in a call
 * of 1, 8 or 32 (3.3, 3.1, 3.0 ms: `npm run bench:judge`), so a larger call buys little throughput
 * and makes every text in it wait for the whole call.
 */
export const DEFAULT_MAX_BATCH = 8

/** Backend calls in flight, by default: the next call waits at the backend while one runs, so it never idles between two. */
export const DEFAULT_RUNS = 2

/** Texts waiting for the backend, by default, beyond which a request falls back to linear at once. */
export const DEFAULT_MAX_QUEUE = 256

/**
 * The judge's latency budget per text, by default (ms; `DECORUM_JUDGE_BUDGET_MS`): with it, analyze
 * at 32 connections on one server process measured p99 29-43 ms; 40 ms measured 48-60
 * (docs/performance.md, "The latency budget").
 */
export const DEFAULT_BUDGET_MS = 25

/** The weight of the newest call in the estimate of the backend's time per text. */
const ESTIMATE_WEIGHT = 0.2

/** A backend that could not start: the judge is unavailable, the engine serves linear. */
export class JudgeUnavailable extends Data.TaggedError("JudgeUnavailable")<{ readonly reason: string }> {}

/**
 * A request the judge could not judge (the backend failed, the queue was full, or it could not be
 * judged within the budget: `shed`): it is answered linear.
 */
export class JudgeFailure extends Data.TaggedError("JudgeFailure")<{
  readonly reason: string
  /** Load shedding by design (the budget), not a fault: not worth a warning. */
  readonly shed?: boolean
}> {}

/** What `/readyz` shows of the judge. */
export interface Status {
  readonly mode: Mode
  /** `off` in linear mode; `unavailable` when the backend did not start (scoring is linear); else `ready`. */
  readonly state: "ready" | "unavailable" | "off"
  /** The backend's model (`judge-2026.11.28`), when it started. */
  readonly model?: string
  /** Why the judge is unavailable. */
  readonly reason?: string
  /** Whose model serves: the built-in encoder heads, or the operator's classifier (`DECORUM_JUDGE_MODEL`). */
  readonly backend?: "built-in" | "operator"
  /** Why the operator's classifier (`DECORUM_JUDGE_MODEL`) is not the one serving. */
  readonly fallback?: string
}

/** A started backend and, for cascade mode, the band of each attribute it judges. */
export interface Source {
  readonly backend: JudgeBackend
  readonly cascade?: Readonly<Partial<Record<Perspective.Attribute, readonly [number, number]>>>
  /** What `/readyz` says of it (`Status.backend`, `Status.fallback`). */
  readonly status?: Pick<Status, "backend" | "fallback">
  /** The backend's sentence encoder, for site adapters that read it (the built-in backend's). */
  readonly embedder?: Adaptation.Embedder["Type"]
}

export interface Options {
  readonly mode: Mode
  readonly maxBatch?: number
  readonly maxQueue?: number
  /** Backend calls in flight at most (default `DEFAULT_RUNS`). */
  readonly runs?: number
  /** The latency budget per text in ms (default `DEFAULT_BUDGET_MS`); 0: none (every routed text waits for the judge). */
  readonly budgetMs?: number
}

export interface JudgeService {
  readonly status: Status
  /** The started backend's sentence encoder, when it has one (`Source.embedder`). */
  readonly embedder?: Adaptation.Embedder["Type"]
  /** The attributes the backend judges (none when off or unavailable). */
  readonly attributes: ReadonlyArray<Perspective.Attribute>
  /** Texts queued for the backend, not yet in a call. */
  readonly waiting: () => number
  /**
   * Whether a text goes to the judge, from the linear summaries of `attributes`: in neural mode when
   * one of them is judged; in cascade mode when one of them is inside its band.
   */
  /**
   * Whether a text arriving now would be over the budget (the check `judge` makes first), counted
   * as `over_budget` when it is: a synchronous caller answers it linear without a fiber.
   */
  readonly shedNow: () => boolean
  readonly routes: (attributes: ReadonlyArray<Perspective.Attribute>, linear: Readonly<Partial<Record<Perspective.Attribute, number>>>) => boolean
  /**
   * The judged probability of each attribute of `linear` the backend judges (the others are left
   * out), from the text and its linear probabilities. Batched with concurrent calls.
   */
  readonly judge: (
    text: string,
    linear: Readonly<Partial<Record<Perspective.Attribute, number>>>
  ) => Effect.Effect<Partial<Record<Perspective.Attribute, number>>, JudgeFailure>
}

export class Judge extends Context.Tag("@decorum/local/Judge")<Judge, JudgeService>() {}

const never = () => false

/** The judge of `linear` mode (or of a backend that did not start): routes nothing. */
const off = (status: Status): JudgeService => ({
  status,
  attributes: [],
  waiting: () => 0,
  shedNow: never,
  routes: never,
  judge: () => Effect.fail(new JudgeFailure({ reason: status.reason ?? "the judge is off" }))
})

type Logits = Readonly<Partial<Record<Perspective.Attribute, number>>>

interface Waiting {
  readonly text: string
  readonly answer: Deferred.Deferred<Logits, JudgeFailure>
  /** When its budget runs out (ms on the clock); Infinity without a budget. */
  readonly deadline: number
  /** Taken into a call: its answer comes from the backend. */
  taken: boolean
  /** Taken into a call before any call had finished (the backend's warm-up): waited for past its budget. */
  patient: boolean
  /** No longer waited for (answered linear over the budget, or its request interrupted): the collector skips it. */
  dropped: boolean
}

/** Resumes after the event loop's current turn: requests read in the same turn join the batch. */
const nextTurn = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e))

// The counter's updates for each outcome, labelled once.
const counted = {
  judged: Metrics.labelled(Metrics.judgeTexts, [["outcome", "judged"]]),
  failed: Metrics.labelled(Metrics.judgeTexts, [["outcome", "failed"]]),
  overloaded: Metrics.labelled(Metrics.judgeTexts, [["outcome", "overloaded"]]),
  overBudget: Metrics.labelled(Metrics.judgeTexts, [["outcome", "over_budget"]])
}
const callTexts = Metrics.labelled(Metrics.judgeCallTexts, [])

/**
 * The judge on a started backend: its batching queue and the fibers that call the backend (in
 * the scope, which closes the backend too).
 */
export const fromBackend = (source: Source, options: Options): Effect.Effect<JudgeService, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { backend } = source
    yield* Effect.addFinalizer(() => Effect.promise(() => backend.close().catch(() => undefined)))
    const status: Status = { mode: options.mode, state: "ready", model: backend.model, ...source.status }
    if (options.mode === "linear") return off({ mode: "linear", state: "off" })
    const maxBatch = Math.max(1, options.maxBatch ?? DEFAULT_MAX_BATCH)
    const queue = yield* Queue.dropping<Waiting>(Math.max(1, options.maxQueue ?? DEFAULT_MAX_QUEUE))
    yield* Effect.addFinalizer(() => Queue.shutdown(queue))
    // One caller collects at a time: the texts of one turn go into one call, not split between
    // the callers; the next caller collects what arrives while that call runs.
    const collecting = yield* Effect.makeSemaphore(1)
    const budgetMs = Math.max(0, options.budgetMs ?? DEFAULT_BUDGET_MS)
    // One failure for every shed text: shedding is the hot path under load (no stack trace each time).
    const shedFailures = {
      arrival: new JudgeFailure({ reason: `${backend.model} could not judge within ${budgetMs} ms: too many texts ahead`, shed: true }),
      waited: new JudgeFailure({ reason: `${backend.model} could not judge within ${budgetMs} ms: its time ran out while it waited`, shed: true })
    }
    const overBudget = () => {
      counted.overBudget(1)
      return shedFailures.arrival
    }
    // The backend's busy time per text (ms), a moving average over its calls; undefined before the first.
    let estimate: number | undefined
    // Texts waiting (not dropped) and in calls now; when the backend last finished a call; and when
    // it is expected to finish the calls made so far (each call's texts x the estimate, one after another).
    let pending = 0
    let inCalls = 0
    let lastEnd = -Infinity
    let busyUntil = -Infinity
    /**
     * A text out of its budget: answered linear now (counted once, unless the backend answered it
     * first); a waiting one is skipped by the collector, a late answer of a call is dropped.
     */
    const drop = (w: Waiting) =>
      Effect.suspend(() => {
        if (w.dropped || (w.taken && w.patient)) return Effect.void
        w.dropped = true
        if (!w.taken) pending--
        return Effect.map(Deferred.fail(w.answer, shedFailures.waited), (answered) => {
          if (answered) counted.overBudget(1)
        })
      })
    /**
     * The texts of `taken` still to judge, after `ahead` texts of the call being collected: the
     * dropped ones left out, and dropped the ones the backend is not expected to finish in their
     * time (after the calls made so far, the texts ahead and the ones before it here), but for the
     * first of a call to an idle backend (which keeps the estimate learning).
     */
    const live = (taken: ReadonlyArray<Waiting>, ahead: number) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const per = estimate ?? 0
        let done = Math.max(now, busyUntil) + ahead * per
        const out: Array<Waiting> = []
        for (const w of taken) {
          const probe = ahead === 0 && out.length === 0 && inCalls === 0
          if (!w.dropped && (now >= w.deadline || (!probe && done + per > w.deadline))) yield* drop(w)
          if (w.dropped) continue
          w.taken = true
          w.patient = estimate === undefined
          pending--
          done += per
          out.push(w)
        }
        return out
      })
    const collect = collecting.withPermits(1)(Effect.gen(function*() {
      let batch: Array<Waiting> = []
      while (batch.length === 0) batch = yield* live([yield* Queue.take(queue)], 0)
      yield* nextTurn
      while (batch.length < maxBatch) {
        const rest = Chunk.toReadonlyArray(yield* Queue.takeUpTo(queue, maxBatch - batch.length))
        if (rest.length === 0) break
        batch.push(...(yield* live(rest, batch.length)))
      }
      inCalls += batch.length
      const now = yield* Clock.currentTimeMillis
      busyUntil = Math.max(now, busyUntil) + batch.length * (estimate ?? 0)
      return batch
    }))
    const runOnce = Effect.gen(function*() {
      const batch = yield* collect
      callTexts(batch.length)
      const start = yield* Clock.currentTimeMillis
      const answers = yield* Effect.tryPromise({
        try: () => backend.logits(batch.map((w) => w.text)),
        catch: (e) => new JudgeFailure({ reason: `${backend.model} failed: ${messageOf(e)}` })
      }).pipe(
        Effect.filterOrFail(
          (a) => a.length === batch.length,
          (a) => new JudgeFailure({ reason: `${backend.model} answered ${a.length} rows for ${batch.length} texts` })
        ),
        Effect.either
      )
      const end = yield* Clock.currentTimeMillis
      inCalls -= batch.length
      if (inCalls === 0) busyUntil = end
      if (answers._tag === "Right") {
        // Busy time: a call that waited at the backend for the one before it counts from that one's end.
        const perText = (end - Math.max(start, lastEnd)) / batch.length
        estimate = estimate === undefined ? perText : estimate + ESTIMATE_WEIGHT * (perText - estimate)
      }
      lastEnd = end
      // Counted for the texts whose requests still waited (not those answered linear at their deadline).
      let answered = 0
      for (let i = 0; i < batch.length; i++) {
        const waiting = batch[i]!
        const done = yield* answers._tag === "Right" ? Deferred.succeed(waiting.answer, answers.right[i]!) : Deferred.fail(waiting.answer, answers.left)
        if (done) answered++
      }
      ;(answers._tag === "Right" ? counted.judged : counted.failed)(answered)
    })
    for (let r = 0; r < Math.max(1, options.runs ?? DEFAULT_RUNS); r++) yield* Effect.forkScoped(Effect.forever(runOnce))
    const heads = backend.heads
    const bands = new Map<Perspective.Attribute, readonly [number, number]>()
    for (const attribute of heads.keys()) bands.set(attribute, source.cascade?.[attribute] ?? DEFAULT_BAND)
    const routes: JudgeService["routes"] = options.mode === "neural"
      ? (attributes) => attributes.some((a) => heads.has(a))
      : (attributes, linear) =>
        attributes.some((a) => {
          const band = bands.get(a)
          const p = linear[a]
          return band !== undefined && p !== undefined && p >= band[0] && p <= band[1]
        })
    const waiting = () => Math.max(0, Option.getOrElse(queue.unsafeSize(), () => 0))
    /** The answer of a queued text: the backend's, or linear when its budget runs out first (waiting or in a call). */
    const answerOf = (w: Waiting, now: number): Effect.Effect<Logits, JudgeFailure> =>
      budgetMs === 0
        ? Deferred.await(w.answer)
        : Effect.raceFirst(
          Deferred.await(w.answer),
          Effect.sleep(Math.max(0, w.deadline - now)).pipe(Effect.zipRight(drop(w)), Effect.zipRight(Deferred.await(w.answer)))
        )
    /**
     * Whether a text arriving at `now` would be done only after its budget: when the calls made so
     * far are, then the texts waiting, then it. An idle backend takes the text whatever the
     * estimate says, so the estimate keeps learning (a slow first call, a busy machine that has
     * calmed down) instead of shutting the judge for good.
     */
    const overAt = (now: number) =>
      budgetMs > 0 && estimate !== undefined && (pending > 0 || inCalls > 0) &&
      Math.max(now, busyUntil) + (pending + 1) * estimate > now + budgetMs
    const clock = yield* Effect.clock
    const shedNow = () => {
      if (!overAt(clock.unsafeCurrentTimeMillis())) return false
      counted.overBudget(1)
      return true
    }
    const judge: JudgeService["judge"] = (text, linear) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        if (overAt(now)) return yield* overBudget()
        const answer = yield* Deferred.make<Logits, JudgeFailure>()
        const entry: Waiting = { text, answer, deadline: budgetMs === 0 ? Infinity : now + budgetMs, taken: false, patient: false, dropped: false }
        pending++
        const queued = yield* Queue.offer(queue, entry)
        if (!queued) {
          pending--
          counted.overloaded(1)
          return yield* new JudgeFailure({ reason: `${backend.model} is overloaded (${Queue.capacity(queue)} texts waiting)` })
        }
        // A request interrupted (its client gone) while its text waits: the collector skips the text.
        const logits = yield* answerOf(entry, now).pipe(Effect.onInterrupt(() =>
          Effect.sync(() => {
            if (entry.dropped) return
            entry.dropped = true
            if (!entry.taken) pending--
          })
        ))
        const out: Partial<Record<Perspective.Attribute, number>> = {}
        for (const [attribute, p] of Object.entries(linear) as Array<[Perspective.Attribute, number]>) {
          const head = heads.get(attribute)
          const z = logits[attribute]
          if (head === undefined || z === undefined || !Number.isFinite(z)) continue
          out[attribute] = combine(head, z, p)
        }
        return out
      })
    return { status, attributes: [...heads.keys()], waiting, shedNow, routes, judge, ...(source.embedder === undefined ? {} : { embedder: source.embedder }) }
  })

/**
 * The judge on the backend `source` starts, in `options.mode`: off in `linear` mode (the backend is
 * never started); `unavailable` (logged once as a warning, scoring linear) when it fails to start.
 */
export const make = (
  source: Effect.Effect<Source, JudgeUnavailable, Scope.Scope>,
  options: Options
): Effect.Effect<JudgeService, never, Scope.Scope> =>
  options.mode === "linear"
    ? Effect.succeed(off({ mode: "linear", state: "off" }))
    : source.pipe(
      Effect.flatMap((s) => fromBackend(s, options)),
      Effect.catchTag("JudgeUnavailable", ({ reason }) =>
        Effect.logWarning(`The judge (DECORUM_JUDGE=${options.mode}) is unavailable: ${reason}. Attribute scores are the linear models' alone.`).pipe(
          Effect.as(off({ mode: options.mode, state: "unavailable", reason }))
        ))
    )

/** `make` as a layer. */
export const layer = (source: Effect.Effect<Source, JudgeUnavailable, Scope.Scope>, options: Options): Layer.Layer<Judge> =>
  Layer.scoped(Judge, make(source, options))

/** The judge of `linear` mode. */
export const layerLinear: Layer.Layer<Judge> = Layer.succeed(Judge, off({ mode: "linear", state: "off" }))
