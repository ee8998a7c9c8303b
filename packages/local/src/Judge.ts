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
 * Failure: a backend that cannot start (its runtime or model file missing or damaged) leaves the
 * judge `unavailable` with the reason (`status`, which `/readyz` shows) and scoring linear; a call
 * that fails at request time fails that request's judging only (`JudgeFailure`).
 */
import { Metrics } from "@decorum/core"
import type { Perspective } from "@decorum/domain"
import { Context, Data, Deferred, Effect, Layer, Option, Queue, type Scope } from "effect"
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

/** A backend that could not start: the judge is unavailable, the engine serves linear. */
export class JudgeUnavailable extends Data.TaggedError("JudgeUnavailable")<{ readonly reason: string }> {}

/** A request the judge could not judge (the backend failed, or the queue was full): it is answered linear. */
export class JudgeFailure extends Data.TaggedError("JudgeFailure")<{ readonly reason: string }> {}

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
}

export interface Options {
  readonly mode: Mode
  readonly maxBatch?: number
  readonly maxQueue?: number
  /** Backend calls in flight at most (default `DEFAULT_RUNS`). */
  readonly runs?: number
}

export interface JudgeService {
  readonly status: Status
  /** The attributes the backend judges (none when off or unavailable). */
  readonly attributes: ReadonlyArray<Perspective.Attribute>
  /** Texts queued for the backend, not yet in a call. */
  readonly waiting: () => number
  /**
   * Whether a text goes to the judge, from the linear summaries of `attributes`: in neural mode when
   * one of them is judged; in cascade mode when one of them is inside its band.
   */
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
  routes: never,
  judge: () => Effect.fail(new JudgeFailure({ reason: status.reason ?? "the judge is off" }))
})

type Logits = Readonly<Partial<Record<Perspective.Attribute, number>>>

interface Waiting {
  readonly text: string
  readonly answer: Deferred.Deferred<Logits, JudgeFailure>
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
  overloaded: Metrics.labelled(Metrics.judgeTexts, [["outcome", "overloaded"]])
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
    const collect = collecting.withPermits(1)(Effect.gen(function*() {
      const first = yield* Queue.take(queue)
      yield* nextTurn
      const rest = yield* Queue.takeUpTo(queue, maxBatch - 1)
      return [first, ...rest]
    }))
    const runOnce = Effect.gen(function*() {
      const batch = yield* collect
      callTexts(batch.length)
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
      const outcome = answers._tag === "Right" ? counted.judged : counted.failed
      outcome(batch.length)
      for (let i = 0; i < batch.length; i++) {
        const waiting = batch[i]!
        yield* answers._tag === "Right" ? Deferred.succeed(waiting.answer, answers.right[i]!) : Deferred.fail(waiting.answer, answers.left)
      }
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
    const judge: JudgeService["judge"] = (text, linear) =>
      Effect.gen(function*() {
        const answer = yield* Deferred.make<Logits, JudgeFailure>()
        const queued = yield* Queue.offer(queue, { text, answer })
        if (!queued) {
          counted.overloaded(1)
          return yield* new JudgeFailure({ reason: `${backend.model} is overloaded (${Queue.capacity(queue)} texts waiting)` })
        }
        const logits = yield* Deferred.await(answer)
        const out: Partial<Record<Perspective.Attribute, number>> = {}
        for (const [attribute, p] of Object.entries(linear) as Array<[Perspective.Attribute, number]>) {
          const head = heads.get(attribute)
          const z = logits[attribute]
          if (head === undefined || z === undefined || !Number.isFinite(z)) continue
          out[attribute] = combine(head, z, p)
        }
        return out
      })
    const waiting = () => Math.max(0, Option.getOrElse(queue.unsafeSize(), () => 0))
    return { status, attributes: [...heads.keys()], waiting, routes, judge }
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
