/**
 * Per-account adapters: each site's own norms, learned from its moderators' corrections
 * (`comments:suggestscore` on either family, `decorum feedback import`).
 *
 * An adapter sits on top of the shipped model for one account and one attribute:
 *
 *   adapted logit = a * base logit + b + sum(w_h * hashed word features)
 *
 * fitted by L2-regularised logistic regression on the account's corrections (the corrected score
 * is the soft target). With few corrections only `a` and `b` are fitted (Platt scaling). An adapter
 * is adopted only when its cross-validated AUC on the account's own corrections beats the shipped
 * model's; how far it may move a score is bounded, and bounded tighter for texts that share no
 * feature with any correction.
 *
 * `SiteAdapters` holds every account's adopted adapters in memory, reloads them when the store's
 * version counter moves (polled off the request path), and applies them in `Analyze`. `Refits`
 * refits an account in the background after every N new corrections (`DECORUM_ADAPT_EVERY`).
 * Corrections sent with a key since revoked are left out of every fit.
 *
 * Word features are hashed from this module's own tokenizer, not from the local model set's
 * analysis: an adapter applies on top of whatever answers (an LLM mode, a retrained or cue model
 * set), and its stored weights must mean the same thing after the model set changes.
 */
import { type Account, type AccountId, Perspective, type ProviderFailure, RefitFailure, type StoreFailure } from "@decorum/domain"
import { Clock, Context, Data, Duration, Effect, Layer, Option, Queue, Schedule } from "effect"
import * as Hashing from "./Hashing.js"
import { AttributeScorer } from "./Providers.js"
import { AccountStore, SuggestionStore } from "./Stores.js"

// ---------------------------------------------------------------------------------------------
// The model

/** Fewer corrections than this (or fewer of either class) and nothing is fitted. */
export const MIN_CORRECTIONS = 20
export const MIN_PER_CLASS = 5
/** Below this many corrections only the Platt terms are fitted (no word features). */
export const MIN_FOR_FEATURES = 100
/** The largest move of a logit, for texts sharing features with the corrections and for others. */
export const MAX_SHIFT = 3
export const MAX_SHIFT_UNFAMILIAR = 1
/** The cross-validated AUC must beat the shipped model's by this much. */
export const MIN_GAIN = 0.005
const FOLDS = 5
const BUCKETS = 1 << 18

/**
 * Dense features (a sentence embedding's dimensions) are numbered from here, past every hashed
 * bucket, so that one weight table holds both.
 */
export const DENSE_OFFSET = 1 << 20

/** What an adapter stores: enough to apply it, nothing about the texts it was fitted on. */
export interface AdapterParams {
  /**
   * `platt`: scale and bias; `logistic`: and hashed words; `encoder` (a dense adapter): and the
   * sentence embedding of the encoder named in `encoder`, dimension d being feature DENSE_OFFSET + d.
   */
  readonly kind: "platt" | "logistic" | "encoder"
  readonly scale: number
  readonly bias: number
  /** Feature (hashed bucket, or DENSE_OFFSET + dimension) -> weight (non-zero only). */
  readonly weights: Readonly<Record<string, number>>
  readonly maxShift: number
  readonly maxShiftUnfamiliar: number
  /** A dense adapter's encoder: the sha256 of its model file and its embedding's dimension. */
  readonly encoder?: { readonly sha256: string; readonly dimensions: number }
}

/** An adopted adapter as the store keeps it. */
export interface StoredAdapter {
  readonly id: number
  readonly accountId: AccountId
  readonly attribute: Perspective.Attribute
  readonly params: AdapterParams
  readonly createdAt: Date
}

const logit = (p: number) => {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p))
  return Math.log(q / (1 - q))
}
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z))

const { fnv1a } = Hashing

/** Hashed lower-cased word unigrams and bigrams of a text (each bucket once). */
export const features = (text: string): ReadonlyArray<number> => {
  const words = text.toLowerCase().normalize("NFKC").match(/[\p{L}\p{N}']+/gu) ?? []
  const out = new Set<number>()
  for (let i = 0; i < words.length; i++) {
    out.add(fnv1a(words[i]!) % BUCKETS)
    if (i + 1 < words.length) out.add(fnv1a(`${words[i]} ${words[i + 1]}`) % BUCKETS)
  }
  return [...out]
}

/** The sentence encoder did not embed (not loaded, or it failed). */
export class EmbedderFailure extends Data.TaggedError("EmbedderFailure")<{ readonly message: string }> {}

/**
 * The sentence encoder a dense adapter reads (a port: the local engine provides the judge's
 * encoder). Optional: without it, fits are hashed only and dense adapters are not applied.
 */
export class Embedder extends Context.Tag("@decorum/core/Embedder")<
  Embedder,
  {
    /** The sha256 of the encoder's model file: a dense adapter applies only with the encoder it was fitted on. */
    readonly sha256: string
    readonly dimensions: number
    /** The unit-length embeddings of `texts`, row after row (`texts.length * dimensions`). */
    readonly embed: (texts: ReadonlyArray<string>) => Effect.Effect<Float32Array, EmbedderFailure>
  }
>() {}

/** One corrected text: its shipped score, the moderator's score and the text's features. */
export interface Sample {
  readonly base: number
  readonly target: number
  readonly features: ReadonlyArray<number>
  /**
   * Each feature's value, parallel to `features` (real-valued features, e.g. a sentence
   * embedding; the experiment of docs/experiments/neural-judge.md). Absent, as for every stored
   * adapter, each feature is worth 1 / sqrt(number of features).
   */
  readonly values?: ReadonlyArray<number>
  /**
   * A sentence embedding (unit length) beside the hashed `features`: dimension d is feature
   * DENSE_OFFSET + d, worth its value. Fitted as `features` and `values` holding both would be (the
   * same arithmetic in the same order), without a per-text copy of the embedding.
   */
  readonly embedding?: ArrayLike<number>
}

/**
 * Deterministic full-batch gradient descent on the regularised cross-entropy. A generator that
 * yields after every iteration, so that a fit running inside a server can let requests in between
 * (`fitAttributeCooperative`); run to the end at once, it is the same computation.
 */
function* fitModel(samples: ReadonlyArray<Sample>, withFeatures: boolean): Generator<void, AdapterParams> {
  const n = samples.length
  let scale = 1
  let bias = 0
  const lambdaPlatt = 1 / n
  const lambdaW = 4 / n
  const xs = samples.map((s) => logit(s.base))
  const norms = samples.map((s) => (s.values !== undefined ? 1 : s.features.length > 0 ? 1 / Math.sqrt(s.features.length) : 0))
  const iterations = withFeatures ? 300 : 200
  // The hashed buckets present, numbered in the order they first occur (the order the weights are
  // reported in), so that each iteration indexes typed arrays rather than hash maps (about ten
  // times faster; the same arithmetic in the same order, so the same adapter).
  const index = new Map<number, number>()
  const buckets: Array<number> = []
  const offsets = new Int32Array(n + 1)
  const flat: Array<number> = []
  // Each occurrence's value, when some sample gives values (1 for a sample that does not); the
  // hashed-only fit keeps its loop free of them (a third faster).
  const dense = samples.some((s) => s.values !== undefined)
  const flatValues: Array<number> = []
  for (let i = 0; i < n; i++) {
    offsets[i] = flat.length
    if (withFeatures) {
      const { features: list, values } = samples[i]!
      for (let position = 0; position < list.length; position++) {
        const f = list[position]!
        if (dense) flatValues.push(values === undefined ? 1 : values[position]!)
        let k = index.get(f)
        if (k === undefined) {
          k = buckets.length
          index.set(f, k)
          buckets.push(f)
        }
        flat.push(k)
      }
    }
  }
  offsets[n] = flat.length
  const ks = Int32Array.from(flat)
  const vs = Float64Array.from(flatValues)
  // The embedding's dimensions, when samples carry one: weights of their own, indexed by dimension.
  const dimensions = withFeatures ? samples.reduce((m, s) => Math.max(m, s.embedding?.length ?? 0), 0) : 0
  const denseWeights = new Float64Array(dimensions)
  const g2d = new Float64Array(dimensions).fill(1e-8)
  const gd = new Float64Array(dimensions)
  const weights = new Float64Array(buckets.length)
  // Per-parameter AdaGrad keeps rare words from being under-trained without tuning a rate.
  const g2 = new Float64Array(buckets.length).fill(1e-8)
  const gw = new Float64Array(buckets.length)
  let g2s = 1e-8
  let g2b = 1e-8
  const rate = 0.5
  for (let it = 0; it < iterations; it++) {
    let gs = lambdaPlatt * (scale - 1)
    let gb = 0
    gw.fill(0)
    gd.fill(0)
    for (let i = 0; i < n; i++) {
      let z = scale * xs[i]! + bias
      const norm = norms[i]!
      if (dense) {
        for (let j = offsets[i]!; j < offsets[i + 1]!; j++) z += weights[ks[j]!]! * norm * vs[j]!
      } else {
        for (let j = offsets[i]!; j < offsets[i + 1]!; j++) z += weights[ks[j]!]! * norm
      }
      const embedding = dimensions > 0 ? samples[i]!.embedding : undefined
      if (embedding !== undefined) for (let d = 0; d < embedding.length; d++) z += denseWeights[d]! * embedding[d]!
      const err = (sigmoid(z) - samples[i]!.target) / n
      if (embedding !== undefined) for (let d = 0; d < embedding.length; d++) gd[d] = gd[d]! + err * embedding[d]!
      gs += err * xs[i]!
      gb += err
      if (dense) {
        for (let j = offsets[i]!; j < offsets[i + 1]!; j++) {
          const k = ks[j]!
          gw[k] = gw[k]! + err * norm * vs[j]!
        }
      } else {
        for (let j = offsets[i]!; j < offsets[i + 1]!; j++) {
          const k = ks[j]!
          gw[k] = gw[k]! + err * norm
        }
      }
    }
    g2s += gs * gs
    g2b += gb * gb
    scale -= (rate * gs) / Math.sqrt(g2s)
    bias -= (rate * gb) / Math.sqrt(g2b)
    for (let k = 0; k < buckets.length; k++) {
      const w = weights[k]!
      const grad = gw[k]! + lambdaW * w
      const acc = g2[k]! + grad * grad
      g2[k] = acc
      weights[k] = w - (rate * grad) / Math.sqrt(acc)
    }
    for (let d = 0; d < dimensions; d++) {
      const w = denseWeights[d]!
      const grad = gd[d]! + lambdaW * w
      const acc = g2d[d]! + grad * grad
      g2d[d] = acc
      denseWeights[d] = w - (rate * grad) / Math.sqrt(acc)
    }
    yield
  }
  const kept: Record<string, number> = {}
  buckets.forEach((f, k) => {
    const w = weights[k]!
    if (Math.abs(w) > 1e-4) kept[String(f)] = Math.round(w * 1e5) / 1e5
  })
  denseWeights.forEach((w, d) => {
    if (Math.abs(w) > 1e-4) kept[String(DENSE_OFFSET + d)] = Math.round(w * 1e5) / 1e5
  })
  return {
    kind: withFeatures ? "logistic" : "platt",
    scale,
    bias,
    weights: kept,
    maxShift: MAX_SHIFT,
    maxShiftUnfamiliar: MAX_SHIFT_UNFAMILIAR
  }
}

/** Runs a step generator to its end at once. */
const runSteps = <A>(steps: Generator<void, A>): A => {
  for (;;) {
    const next = steps.next()
    if (next.done === true) return next.value
  }
}

/**
 * The adapter `fitAttribute` would adopt from these samples, fitted whether or not it would be
 * adopted (for experiments that measure it on held-out texts; serving never calls it).
 */
export const fitParams = (samples: ReadonlyArray<Sample>): AdapterParams => runSteps(fitModel(samples, samples.length >= MIN_FOR_FEATURES))

/**
 * Applies an adapter to a shipped score, from a text's features (and their values, or its
 * embedding: `Sample`). Pure; bounded by `maxShift`.
 */
export const applyParams = (
  params: AdapterParams,
  base: number,
  featureList: ReadonlyArray<number>,
  values?: ReadonlyArray<number>,
  embedding?: ArrayLike<number>
): number => {
  const x = logit(base)
  let z = params.scale * x + params.bias
  let familiar = false
  const norm = values !== undefined ? 1 : featureList.length > 0 ? 1 / Math.sqrt(featureList.length) : 0
  for (let position = 0; position < featureList.length; position++) {
    const w = params.weights[String(featureList[position]!)]
    if (w !== undefined) {
      familiar = true
      z += w * norm * (values === undefined ? 1 : values[position]!)
    }
  }
  if (embedding !== undefined) {
    for (let d = 0; d < embedding.length; d++) {
      const w = params.weights[String(DENSE_OFFSET + d)]
      if (w !== undefined) {
        familiar = true
        z += w * embedding[d]!
      }
    }
  }
  const bound = familiar ? params.maxShift : params.maxShiftUnfamiliar
  const shifted = Math.max(x - bound, Math.min(x + bound, z))
  return sigmoid(shifted)
}

/** ROC AUC of scores against binary labels (ties count half). NaN with one class only. */
export const auc = (scores: ReadonlyArray<number>, labels: ReadonlyArray<boolean>): number => {
  const order = scores.map((s, i) => [s, labels[i]!] as const).sort((a, b) => a[0] - b[0])
  let pos = 0
  let neg = 0
  let rankSum = 0
  let i = 0
  while (i < order.length) {
    let j = i
    while (j < order.length && order[j]![0] === order[i]![0]) j++
    const avgRank = (i + j + 1) / 2
    for (let k = i; k < j; k++) if (order[k]![1]) rankSum += avgRank
    i = j
  }
  for (const [, l] of order) l ? pos++ : neg++
  if (pos === 0 || neg === 0) return Number.NaN
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg)
}

/** One attribute's line of the `decorum adapt` report. */
export interface AttributeReport {
  readonly attribute: Perspective.Attribute
  readonly corrections: number
  readonly positives: number
  readonly kind: AdapterParams["kind"] | null
  readonly cvAucBefore: number | null
  readonly cvAucAfter: number | null
  readonly adopted: boolean
  readonly adapterId: number | null
  readonly reason: string
  /** Corrections of this attribute left out because the key that sent them has been revoked. */
  readonly leftOutRevokedKey: number
  /**
   * With an encoder (`Embedder`), the other fit of the same corrections: hashed words alone when
   * the encoder adapter is reported, the encoder adapter when hashed words are.
   */
  readonly compared?: { readonly kind: AdapterParams["kind"]; readonly cvAucAfter: number | null }
}

export interface Fitted {
  readonly report: Omit<AttributeReport, "adapterId" | "leftOutRevokedKey">
  /** The adapter adopted, if any. */
  readonly params: AdapterParams | null
  /**
   * Beside an adopted encoder adapter, what applies where the encoder is not available: the hashed
   * adapter of the same corrections if it is adopted on its own, else null (the shipped scores).
   */
  readonly fallback?: AdapterParams | null
}

const round = (x: number) => Math.round(x * 10000) / 10000

function* fitAttributeSteps(attribute: Perspective.Attribute, samples: ReadonlyArray<Sample>): Generator<void, Fitted> {
  const labels = samples.map((s) => s.target >= 0.5)
  const positives = labels.filter(Boolean).length
  const negatives = samples.length - positives
  const base = { attribute, corrections: samples.length, positives }
  if (samples.length < MIN_CORRECTIONS || positives < MIN_PER_CLASS || negatives < MIN_PER_CLASS) {
    return {
      params: null,
      report: {
        ...base,
        kind: null,
        cvAucBefore: null,
        cvAucAfter: null,
        adopted: false,
        reason: `too few corrections: need at least ${MIN_CORRECTIONS}, with ${MIN_PER_CLASS} scored >= 0.5 and ${MIN_PER_CLASS} below; have ${samples.length} (${positives} >= 0.5, ${negatives} below). Shipped scores are kept.`
      }
    }
  }
  const withFeatures = samples.length >= MIN_FOR_FEATURES
  // Stratified folds, assigned in order within each class: deterministic, balanced.
  const fold = new Array<number>(samples.length)
  let p = 0
  let q = 0
  labels.forEach((l, i) => (fold[i] = l ? p++ % FOLDS : q++ % FOLDS))
  const outOfFold = new Array<number>(samples.length)
  for (let k = 0; k < FOLDS; k++) {
    const train = samples.filter((_, i) => fold[i] !== k)
    const params = yield* fitModel(train, withFeatures)
    samples.forEach((s, i) => {
      if (fold[i] === k) outOfFold[i] = applyParams(params, s.base, s.features, s.values, s.embedding)
    })
  }
  const before = auc(samples.map((s) => s.base), labels)
  const after = auc(outOfFold, labels)
  const adopted = after > before + MIN_GAIN
  return {
    params: adopted ? yield* fitModel(samples, withFeatures) : null,
    report: {
      ...base,
      kind: withFeatures ? "logistic" : "platt",
      cvAucBefore: round(before),
      cvAucAfter: round(after),
      adopted,
      reason: adopted
        ? `adopted: cross-validated AUC ${round(before)} -> ${round(after)}`
        : `not adopted: cross-validated AUC ${round(after)} does not beat the shipped model's ${round(before)} by ${MIN_GAIN}. Shipped scores are kept.`
    }
  }
}

/** Fits one attribute's adapter and decides whether to adopt it. Pure and deterministic. */
export const fitAttribute = (attribute: Perspective.Attribute, samples: ReadonlyArray<Sample>): Fitted =>
  runSteps(fitAttributeSteps(attribute, samples))

/** How long a fit computes before it lets other work (requests) run. */
const SLICE_MILLIS = 10

/**
 * `fitAttribute` as an effect that gives the event loop back every few milliseconds (a timer
 * turn, so pending I/O runs too): a fit inside a server never holds a request for long. Same result.
 */
export const fitAttributeCooperative = (attribute: Perspective.Attribute, samples: ReadonlyArray<Sample>): Effect.Effect<Fitted> =>
  Effect.suspend(() => {
    const steps = fitAttributeSteps(attribute, samples)
    const slice = (): Effect.Effect<Fitted> => {
      const start = Date.now()
      for (;;) {
        const next = steps.next()
        if (next.done === true) return Effect.succeed(next.value)
        if (Date.now() - start >= SLICE_MILLIS) return Effect.zipRight(Effect.sleep(Duration.zero), Effect.suspend(slice))
      }
    }
    return slice()
  })

// ---------------------------------------------------------------------------------------------
// The store port and the live set

export class AdapterStore extends Context.Tag("@decorum/core/AdapterStore")<
  AdapterStore,
  {
    /**
     * Stores an adopted adapter (one fit); it replaces the account's previous fit for that
     * attribute. Returns the id of `params`' row. With `fallback` the fit is two rows: `params`
     * first, then the fallback (a kind every release applies, or `null`: the shipped scores),
     * linked to it. Readers apply the rows of the latest fit whose kinds they know; a release that
     * reads only the latest row (before fits had several) sees the fallback.
     */
    readonly save: (adapter: {
      readonly accountId: AccountId
      readonly attribute: Perspective.Attribute
      readonly params: AdapterParams
      readonly fallback?: AdapterParams | null
      readonly report: AttributeReport
    }) => Effect.Effect<number, StoreFailure>
    /** Returns the account (or one attribute of it) to the shipped scores. */
    readonly reset: (accountId: AccountId, attribute?: Perspective.Attribute) => Effect.Effect<void, StoreFailure>
    /**
     * The adopted adapters of every account: per account and attribute, the rows of the latest
     * fit (none after a reset), whatever their kind (`SiteAdapters` keeps the kinds it knows).
     */
    readonly active: Effect.Effect<ReadonlyArray<StoredAdapter>, StoreFailure>
    /** A counter that moves whenever `save` or `reset` runs: cheap to poll. */
    readonly version: Effect.Effect<number, StoreFailure>
    /** How many corrections the account has stored since the last recorded fit (`recordFit`). */
    readonly pending: (accountId: AccountId) => Effect.Effect<number, StoreFailure>
    /** Records that a fit read the account's corrections up to suggestion id `through` (never moves back). */
    readonly recordFit: (accountId: AccountId, through: number) => Effect.Effect<void, StoreFailure>
    /**
     * Claims the account's refit for `owner` for `leaseMillis` (or extends its own claim): true when
     * no other owner holds an unexpired claim. Atomic across every instance sharing the store.
     */
    readonly claim: (accountId: AccountId, owner: string, leaseMillis: number) => Effect.Effect<boolean, StoreFailure>
    /** Gives up `owner`'s claim (a no-op if it holds none). */
    readonly release: (accountId: AccountId, owner: string) => Effect.Effect<void, StoreFailure>
  }
>() {}

/** The adapters in force, per account. Absent from an engine, every account gets the shipped scores. */
export class SiteAdapters extends Context.Tag("@decorum/core/SiteAdapters")<
  SiteAdapters,
  {
    readonly forAccount: (accountId: AccountId) => ReadonlyMap<Perspective.Attribute, InForce>
    /** Reloads now (the poll does it within its interval anyway). */
    readonly refresh: Effect.Effect<void, StoreFailure>
  }
>() {}

/**
 * An account's adapters in force for one attribute (the rows of its latest fit this release
 * applies): `hashed`, applied everywhere, and `dense`, an encoder adapter, applied where the
 * encoder it names is served (`denseApplies`), to whole comments (spans keep `hashed`).
 */
export interface InForce {
  readonly hashed?: StoredAdapter
  readonly dense?: StoredAdapter
}

type Index = ReadonlyMap<AccountId, ReadonlyMap<Perspective.Attribute, InForce>>

/**
 * The kinds this release applies. A row of another kind (written by a later release) is skipped:
 * applying only its scale and bias would misstate the site's adapter; the rows of a kind known here
 * of the same fit stay in force.
 */
export const KNOWN_KINDS: ReadonlySet<string> = new Set<AdapterParams["kind"]>(["platt", "logistic", "encoder"])

const isDense = (params: AdapterParams) => params.kind === "encoder"

/** Whether this release can apply a stored row (an encoder row must name its encoder). */
export const isKnown = (adapter: StoredAdapter): boolean => {
  const { encoder, kind } = adapter.params
  if (!KNOWN_KINDS.has(kind)) return false
  return kind !== "encoder" || (typeof encoder?.sha256 === "string" && typeof encoder.dimensions === "number" && encoder.dimensions > 0)
}

/** Per account and attribute, the latest row of each kind this release applies (hashed and dense). */
export const index = (adapters: ReadonlyArray<StoredAdapter>): Index => {
  const out = new Map<AccountId, Map<Perspective.Attribute, InForce>>()
  for (const a of adapters) {
    if (!isKnown(a)) continue
    const m = out.get(a.accountId) ?? new Map<Perspective.Attribute, InForce>()
    const held = m.get(a.attribute) ?? {}
    const slot = isDense(a.params) ? "dense" : "hashed"
    const previous = held[slot]
    if (previous === undefined || previous.id < a.id) m.set(a.attribute, { ...held, [slot]: a })
    out.set(a.accountId, m)
  }
  return out
}

/** Whether an account's encoder adapter applies with `embedder` (the encoder it was fitted on, served). */
export const denseApplies = (inForce: InForce, embedder: Embedder["Type"] | undefined): inForce is InForce & { readonly dense: StoredAdapter } =>
  inForce.dense !== undefined && embedder !== undefined && inForce.dense.params.encoder?.sha256 === embedder.sha256 &&
  inForce.dense.params.encoder.dimensions === embedder.dimensions

const EMPTY: ReadonlyMap<Perspective.Attribute, InForce> = new Map()

/** Loads the adapters, then polls the store's version every `poll` and reloads when it moves. */
export const makeSiteAdapters = (options: { readonly poll: Duration.DurationInput }) =>
  Effect.gen(function*() {
    const store = yield* AdapterStore
    // Read synchronously on the request path: a plain reference, swapped by `load`.
    let current: { version: number; index: Index } = { version: -1, index: new Map() }
    const load = Effect.gen(function*() {
      const version = yield* store.version
      if (version === current.version) return
      const adapters = yield* store.active
      current = { version, index: index(adapters) }
    })
    yield* load
    yield* load.pipe(
      Effect.catchAll((e) => Effect.logWarning("SiteAdapters: reload failed; keeping the adapters in force", e.message)),
      Effect.repeat(Schedule.spaced(options.poll)),
      Effect.forkScoped
    )
    return SiteAdapters.of({
      forAccount: (accountId) => current.index.get(accountId) ?? EMPTY,
      refresh: load
    })
  })

export const layer = (options: { readonly poll: Duration.DurationInput } = { poll: "2 seconds" }) =>
  Layer.scoped(SiteAdapters, makeSiteAdapters(options))

// ---------------------------------------------------------------------------------------------
// Applying and fitting

/** The provenance suffix for the adapters used: `+site.<id>[.<id>...]`. */
export const provenanceSuffix = (ids: ReadonlyArray<number>) => (ids.length === 0 ? "" : `+site.${[...new Set(ids)].sort((a, b) => a - b).join(".")}`)

/** Applies an account's (hashed) adapter for `attribute` to a shipped score of `text`. */
export const adaptScore = (adapter: StoredAdapter, base: number, text: string) => applyParams(adapter.params, base, features(text))

/** Applies an encoder adapter to a shipped score, from the text's hashed features and its unit-length embedding. */
export const adaptScoreDense = (adapter: StoredAdapter, base: number, hashed: ReadonlyArray<number>, embedding: ArrayLike<number>) =>
  applyParams(adapter.params, base, hashed, undefined, embedding)

export interface AdaptReport {
  readonly email: string
  /** Corrections (suggestions) left out because the key that sent them has been revoked. */
  readonly leftOutRevokedKey: number
  readonly attributes: ReadonlyArray<AttributeReport>
}

const NO_CONTEXT = { article: null, parent: null, entries: [] as ReadonlyArray<string> }

/** A corrected text and the score a moderator gave it. */
export type Correction = readonly [text: string, target: number]

/**
 * The most corrections of one attribute a fit reads (the latest texts corrected). Its cost grows
 * with them (a model call per text, then the fit: docs/adaptation.md); past a few thousand the
 * adapter barely changes.
 */
export const MAX_FIT_CORRECTIONS = 20_000

/** How many texts one call of the `Embedder` embeds while fitting. */
const EMBED_BATCH = 64

/** The embeddings of `texts`, a batch at a time, giving the event loop back between batches. */
const embedAll = (embedder: Embedder["Type"], texts: ReadonlyArray<string>, breathe: Effect.Effect<void>) =>
  Effect.gen(function*() {
    const out = new Float32Array(texts.length * embedder.dimensions)
    for (let start = 0; start < texts.length; start += EMBED_BATCH) {
      const batch = texts.slice(start, start + EMBED_BATCH)
      const rows = yield* embedder.embed(batch)
      if (rows.length !== batch.length * embedder.dimensions) {
        return yield* new EmbedderFailure({ message: `the encoder answered ${rows.length} values for ${batch.length} texts of ${embedder.dimensions}` })
      }
      out.set(rows, start * embedder.dimensions)
      yield* breathe
    }
    return out
  })

/**
 * Of a hashed fit and an encoder fit (hashed words and the embedding) of the same corrections, the
 * one adopted with the better cross-validated AUC; an adopted encoder adapter keeps the hashed one
 * (if adopted on its own) as its fallback.
 */
export const chooseFit = (hashed: Fitted, dense: Fitted, encoder: NonNullable<AdapterParams["encoder"]>): Fitted => {
  const denseAuc = dense.report.cvAucAfter
  const hashedAuc = hashed.report.cvAucAfter
  const denseWins = dense.params !== null && denseAuc !== null && (hashed.params === null || hashedAuc === null || denseAuc > hashedAuc)
  if (!denseWins) return { ...hashed, report: { ...hashed.report, compared: { kind: "encoder", cvAucAfter: denseAuc } } }
  const fallback = hashed.params
  return {
    params: { ...dense.params!, kind: "encoder", encoder },
    fallback,
    report: {
      ...dense.report,
      kind: "encoder",
      compared: { kind: hashed.report.kind ?? "logistic", cvAucAfter: hashedAuc },
      reason: `${dense.report.reason} with the encoder's features (hashed words alone: ${hashedAuc}${
        fallback === null ? ", not adopted: where the encoder is unavailable the shipped scores are kept" : ", adopted: applied where the encoder is unavailable"
      })`
    }
  }
}

/**
 * The heavy part of a refit: scores the corrected texts with the shipped model and fits. With
 * `cooperative` it gives the event loop back every few milliseconds (for a fit on a thread that
 * also serves); without, it computes straight through (on a thread of its own). With an
 * `Embedder` and enough corrections for word features, it also fits an encoder adapter and keeps
 * the better (`chooseFit`); if the encoder fails, the hashed fit stands.
 */
export const fitCorrections = (attribute: Perspective.Attribute, corrections: ReadonlyArray<Correction>, cooperative: boolean) =>
  Effect.gen(function*() {
    const scorer = yield* AttributeScorer
    const embedder = yield* Effect.serviceOption(Embedder)
    const breathe = cooperative ? breather() : Effect.void
    const samples: Array<Sample> = []
    const texts: Array<string> = []
    for (const [text, target] of corrections) {
      const scored = yield* scorer.analyze({ text, attributes: [attribute], spans: [], context: NO_CONTEXT })
      const base = scored.value[attribute]?.summary
      if (base === undefined) continue
      samples.push({ base, target, features: features(text) })
      texts.push(text)
      yield* breathe
    }
    const fit = (of: ReadonlyArray<Sample>) => (cooperative ? fitAttributeCooperative(attribute, of) : Effect.sync(() => fitAttribute(attribute, of)))
    const hashed = yield* fit(samples)
    if (Option.isNone(embedder) || hashed.report.kind !== "logistic") return hashed
    const { dimensions, sha256 } = embedder.value
    const embedded = yield* embedAll(embedder.value, texts, breathe).pipe(
      Effect.asSome,
      Effect.catchAll((e) => Effect.as(Effect.logWarning("Adaptation: the encoder failed; fitting on hashed words only", e.message), Option.none()))
    )
    if (Option.isNone(embedded)) return hashed
    const dense = samples.map((s, i) => ({ ...s, embedding: embedded.value.subarray(i * dimensions, (i + 1) * dimensions) }))
    return chooseFit(hashed, yield* fit(dense), { sha256, dimensions })
  })

/**
 * Where refits read and compute (a port: the core does not know threads). Absent, `adapt` runs
 * `fitAccount` on the calling fiber, cooperatively; a Node host runs it on a worker thread with
 * its own connection to the store (`@decorum/engine`'s `RefitWorker`), so a refit never takes the
 * serving thread's time, not even to read the corrections.
 */
export class FitRunner extends Context.Tag("@decorum/core/FitRunner")<
  FitRunner,
  {
    /** In words, for the logs ("a worker thread"). */
    readonly where: string
    /** `fitAccount` (reading the stores itself), elsewhere. */
    readonly fitAccount: (account: Account, only: Perspective.Attribute | undefined) => Effect.Effect<AccountFit, RefitFailure | StoreFailure | ProviderFailure>
  }
>() {}

/** Gives the event loop a timer turn when the fiber has computed for `SLICE_MILLIS`. */
const breather = () => {
  let since = Date.now()
  return Effect.suspend(() => {
    if (Date.now() - since < SLICE_MILLIS) return Effect.void
    return Effect.zipRight(Effect.sleep(Duration.zero), Effect.sync(() => (since = Date.now())))
  })
}

/** What reading an account's corrections and fitting each attribute gives, before anything is stored. */
export interface AccountFit {
  /** The id of the latest correction read. */
  readonly through: number
  /** Corrections left out because the key that sent them has been revoked. */
  readonly leftOutRows: number
  readonly attributes: ReadonlyArray<{
    readonly attribute: Perspective.Attribute
    readonly fitted: Fitted
    readonly leftOutRevokedKey: number
    /** Distinct texts corrected (the fit read at most `MAX_FIT_CORRECTIONS` of them). */
    readonly texts: number
  }>
}

/**
 * The heavy part of a refit, everything but storing: reads the account's corrections (revoked
 * keys' left out, the latest correction of a text winning), scores the texts with the shipped
 * model and fits each attribute. Reads the stores, writes nothing. With `cooperative` it gives
 * the event loop back every few milliseconds; without, it computes straight through (a thread of
 * its own).
 */
export const fitAccount = (account: Account, only: Perspective.Attribute | undefined, cooperative: boolean) =>
  Effect.gen(function*() {
    const suggestions = yield* (yield* SuggestionStore).list({ email: account.email })
    const revoked = new Set((yield* (yield* AccountStore).listKeys(account.email)).filter((k) => k.revokedAt !== null).map((k) => k.keyId))
    const breathe = cooperative ? breather() : Effect.void
    // The latest correction of a text wins: a moderator may change their mind.
    const byAttribute = new Map<Perspective.Attribute, Map<string, number>>()
    const leftOut = new Map<Perspective.Attribute, number>()
    let leftOutRows = 0
    let through = 0
    for (const s of suggestions) {
      through = Math.max(through, s.id)
      const fromRevoked = s.keyId !== null && revoked.has(s.keyId)
      let counted = false
      for (const [name, value] of Object.entries(s.attributeScores)) {
        const attribute = Perspective.resolveAttribute(name)
        if (attribute === undefined || (only !== undefined && attribute !== only)) continue
        if (fromRevoked) {
          leftOut.set(attribute, (leftOut.get(attribute) ?? 0) + 1)
          counted = true
          continue
        }
        const m = byAttribute.get(attribute) ?? new Map<string, number>()
        // Re-inserted, so the map is in the order of each text's latest correction.
        m.delete(s.commentText)
        m.set(s.commentText, value)
        byAttribute.set(attribute, m)
      }
      if (counted) leftOutRows++
    }
    for (const attribute of leftOut.keys()) if (!byAttribute.has(attribute)) byAttribute.set(attribute, new Map())
    if (only !== undefined && !byAttribute.has(only)) byAttribute.set(only, new Map())
    const attributes: Array<AccountFit["attributes"][number]> = []
    for (const [attribute, corrections] of [...byAttribute].sort((a, b) => a[0].localeCompare(b[0]))) {
      // The latest texts corrected, at most MAX_FIT_CORRECTIONS: a refit's cost is bounded.
      const latest = [...corrections].slice(-MAX_FIT_CORRECTIONS)
      // In an order that depends on the texts alone, not on the order requests happened to be stored
      // (clients send corrections concurrently): the folds, and so the report, are reproducible.
      const ordered = latest.sort((a, b) => fnv1a(a[0]) - fnv1a(b[0]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      yield* breathe
      const fitted = yield* fitCorrections(attribute, ordered, cooperative)
      attributes.push({ attribute, fitted, leftOutRevokedKey: leftOut.get(attribute) ?? 0, texts: corrections.size })
    }
    return { through, leftOutRows, attributes } satisfies AccountFit
  })

/**
 * Fits an account's adapters from its corrections (all attributes it corrected, or one) and
 * stores those that are adopted; an attribute whose new fit is not adopted returns to the shipped
 * scores. Corrections sent with a key that has since been revoked are left out (and counted in
 * the report); corrections without a key (`decorum feedback import`, the in-process API) count.
 * Scores the corrected texts with the shipped model, so it costs a model call per text; it gives
 * the event loop back every few milliseconds, so it can run inside a server.
 */
export const adapt = Effect.fn("Adaptation.adapt")(function*(account: Account, only?: Perspective.Attribute) {
  const runner = yield* Effect.serviceOption(FitRunner)
  const fitted = Option.isSome(runner) ? yield* runner.value.fitAccount(account, only) : yield* fitAccount(account, only, true)
  const store = yield* AdapterStore
  const reports: Array<AttributeReport> = []
  for (const { attribute, fitted: fit, leftOutRevokedKey, texts } of fitted.attributes) {
    let adapterId: number | null = null
    if (fit.params !== null) {
      adapterId = yield* store.save({
        accountId: account.id,
        attribute,
        params: fit.params,
        ...(fit.fallback === undefined ? {} : { fallback: fit.fallback }),
        report: { ...fit.report, adapterId: null, leftOutRevokedKey }
      })
    } else if (fit.report.corrections >= MIN_CORRECTIONS || leftOutRevokedKey > 0) {
      // A refit that no longer beats the shipped model retires the previous adapter, and so does
      // one whose corrections came from a key since revoked.
      yield* store.reset(account.id, attribute)
    }
    const capped = texts > MAX_FIT_CORRECTIONS ? ` (fitted on the latest ${MAX_FIT_CORRECTIONS} of ${texts} texts corrected)` : ""
    const reason = (leftOutRevokedKey === 0
      ? fit.report.reason
      : `${fit.report.reason} (${leftOutRevokedKey} correction${leftOutRevokedKey === 1 ? "" : "s"} left out: sent with a key since revoked)`) + capped
    reports.push({ ...fit.report, reason, adapterId, leftOutRevokedKey })
  }
  // Every correction up to `through` has now been considered: automatic refits count from here.
  if (only === undefined) yield* store.recordFit(account.id, fitted.through)
  const optionalRefresh = yield* Effect.serviceOption(SiteAdapters)
  if (Option.isSome(optionalRefresh)) yield* optionalRefresh.value.refresh
  return { email: account.email, leftOutRevokedKey: fitted.leftOutRows, attributes: reports } satisfies AdaptReport
})

/** `decorum adapt --reset`: the account returns to the shipped scores. */
export const reset = Effect.fn("Adaptation.reset")(function*(account: Account, only?: Perspective.Attribute) {
  yield* (yield* AdapterStore).reset(account.id, only)
  const optionalRefresh = yield* Effect.serviceOption(SiteAdapters)
  if (Option.isSome(optionalRefresh)) yield* optionalRefresh.value.refresh
})

// ---------------------------------------------------------------------------------------------
// Automatic refits (`DECORUM_ADAPT_EVERY`)

/** Told of every stored correction; refits an account's adapters in the background. */
export class Refits extends Context.Tag("@decorum/core/Refits")<
  Refits,
  {
    /** A correction of `account` was stored. Returns at once: the refit, if due, runs later. */
    readonly corrected: (account: Account) => Effect.Effect<void>
  }
>() {}

export interface RefitOptions {
  /** Refit an account once this many corrections have been stored since its last fit. */
  readonly every: number
  /** How long a claim holds without being renewed (a crashed instance's claim expires). Default 2 minutes. */
  readonly leaseMillis?: number
  /** This instance's name in claims. Default: a random one. */
  readonly owner?: string
  /** The least time between two refits of one account (a key holder cannot keep a server refitting). Default 5 minutes. */
  readonly minIntervalMillis?: number
  /** The longest a refit may run; past it, it is stopped and the adapters in force stay. Default 10 minutes. */
  readonly timeLimitMillis?: number
}

/** `RefitOptions.minIntervalMillis` by default. */
export const REFIT_MIN_INTERVAL_MILLIS = 5 * 60_000
/** `RefitOptions.timeLimitMillis` by default. */
export const REFIT_TIME_LIMIT_MILLIS = 10 * 60_000

/**
 * The background refitter: one fiber per instance takes accounts that received a correction, and
 * refits one when at least `every` corrections have been stored since its last fit (counted in the
 * store, so corrections received by other instances count too). Before fitting it claims the
 * account in the store: on several instances sharing a database only one refits an account at a
 * time, and the claim is renewed while the fit runs. When a fit ends the account is checked
 * again, so corrections that arrived meanwhile are not forgotten. Failures are logged; the
 * account keeps the adapters in force.
 */
export const makeRefits = (options: RefitOptions) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<AdapterStore | SuggestionStore | AccountStore | AttributeScorer>()
    const store = yield* AdapterStore
    const owner = options.owner ?? `decorum-${globalThis.crypto.randomUUID()}`
    const lease = options.leaseMillis ?? 120_000
    const queue = yield* Effect.acquireRelease(Queue.unbounded<Account>(), Queue.shutdown)
    const queued = new Set<AccountId>()
    const minInterval = options.minIntervalMillis ?? REFIT_MIN_INTERVAL_MILLIS
    const timeLimit = options.timeLimitMillis ?? REFIT_TIME_LIMIT_MILLIS
    /** When each account's last refit started here: at most one per `minInterval`. */
    const lastStarted = new Map<AccountId, number>()
    /** Accounts waiting out their interval (a fiber offers each again when it ends). */
    const waiting = new Set<AccountId>()
    const where = Option.match(Context.getOption(context, FitRunner), { onNone: () => "the serving thread", onSome: (r) => r.where })

    const refit = (account: Account) =>
      Effect.gen(function*() {
        const pending = yield* store.pending(account.id)
        if (pending < options.every) return false
        // Rate-limited per account: a refit due sooner than `minInterval` after the last one waits.
        const now = yield* Clock.currentTimeMillis
        const last = lastStarted.get(account.id)
        if (last !== undefined && now - last < minInterval) {
          if (!waiting.has(account.id)) {
            waiting.add(account.id)
            yield* Effect.logInfo("Adaptation: refit deferred (at most one per account per interval)", {
              email: account.email,
              inMillis: minInterval - (now - last)
            })
            yield* Effect.forkScoped(
              Effect.sleep(Duration.millis(minInterval - (now - last))).pipe(
                Effect.zipRight(Effect.sync(() => waiting.delete(account.id))),
                Effect.zipRight(offer(account))
              )
            )
          }
          return false
        }
        if (!(yield* store.claim(account.id, owner, lease))) return false
        lastStarted.set(account.id, now)
        yield* Effect.logInfo("Adaptation: refitting automatically", { email: account.email, corrections: pending, on: where })
        yield* Effect.gen(function*() {
          yield* store.claim(account.id, owner, lease).pipe(
            Effect.delay(Duration.millis(lease / 3)),
            Effect.forever,
            Effect.ignore,
            Effect.forkScoped
          )
          const report = yield* adapt(account).pipe(
            Effect.timeoutFail({
              duration: Duration.millis(timeLimit),
              onTimeout: () => new RefitFailure({ message: `the refit ran past its time limit of ${timeLimit} ms` })
            })
          )
          yield* Effect.logInfo("Adaptation: refitted automatically", {
            email: account.email,
            attributes: report.attributes.map((a) =>
              `${a.attribute}:${a.adopted ? `adopted ${a.adapterId} (${a.kind})` : "not adopted"}${
                a.compared === undefined ? "" : ` (${a.compared.kind} CV AUC ${a.compared.cvAucAfter})`
              }`
            ).join(" "),
            leftOutRevokedKey: report.leftOutRevokedKey
          })
        }).pipe(
          Effect.scoped,
          Effect.ensuring(Effect.ignore(store.release(account.id, owner)))
        )
        return true
      })

    yield* Queue.take(queue).pipe(
      Effect.tap((account) => Effect.sync(() => queued.delete(account.id))),
      Effect.flatMap((account) =>
        refit(account).pipe(
          Effect.provide(context),
          // Corrections may have arrived during the fit: look again.
          Effect.tap((refitted) => (refitted ? offer(account) : Effect.void)),
          Effect.catchAllCause((cause) => Effect.logWarning("Adaptation: automatic refit failed; the adapters in force stay", cause))
        )
      ),
      Effect.forever,
      Effect.forkScoped
    )

    function offer(account: Account): Effect.Effect<void> {
      return Effect.suspend(() => {
        if (queued.has(account.id)) return Effect.void
        queued.add(account.id)
        return Effect.asVoid(Queue.offer(queue, account))
      })
    }

    return Refits.of({ corrected: offer })
  })

/** `makeRefits` as a layer: the refitter runs for the layer's lifetime. */
export const layerRefits = (options: RefitOptions) => Layer.scoped(Refits, makeRefits(options))
