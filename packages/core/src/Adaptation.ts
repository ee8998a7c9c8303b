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
 * version counter moves (polled off the request path), and applies them in `Analyze`.
 */
import { type Account, type AccountId, Perspective, type StoreFailure } from "@decorum/domain"
import { Context, type Duration, Effect, Layer, Option, Schedule } from "effect"
import { AttributeScorer } from "./Providers.js"
import { SuggestionStore } from "./Stores.js"

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

/** What an adapter stores: enough to apply it, nothing about the texts it was fitted on. */
export interface AdapterParams {
  readonly kind: "platt" | "logistic"
  readonly scale: number
  readonly bias: number
  /** Hashed feature bucket -> weight (non-zero only). */
  readonly weights: Readonly<Record<string, number>>
  readonly maxShift: number
  readonly maxShiftUnfamiliar: number
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

const fnv1a = (s: string) => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

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

interface Sample {
  readonly base: number
  readonly target: number
  readonly features: ReadonlyArray<number>
}

/** Deterministic full-batch gradient descent on the regularised cross-entropy. */
const fitModel = (samples: ReadonlyArray<Sample>, withFeatures: boolean): AdapterParams => {
  const n = samples.length
  let scale = 1
  let bias = 0
  const weights = new Map<number, number>()
  const lambdaPlatt = 1 / n
  const lambdaW = 4 / n
  const xs = samples.map((s) => logit(s.base))
  const norms = samples.map((s) => (s.features.length > 0 ? 1 / Math.sqrt(s.features.length) : 0))
  const iterations = withFeatures ? 300 : 200
  // Per-parameter AdaGrad keeps rare words from being under-trained without tuning a rate.
  const g2 = new Map<number, number>()
  let g2s = 1e-8
  let g2b = 1e-8
  const rate = 0.5
  for (let it = 0; it < iterations; it++) {
    let gs = lambdaPlatt * (scale - 1)
    let gb = 0
    const gw = new Map<number, number>()
    for (let i = 0; i < n; i++) {
      const s = samples[i]!
      let z = scale * xs[i]! + bias
      if (withFeatures) for (const f of s.features) z += (weights.get(f) ?? 0) * norms[i]!
      const err = (sigmoid(z) - s.target) / n
      gs += err * xs[i]!
      gb += err
      if (withFeatures) for (const f of s.features) gw.set(f, (gw.get(f) ?? 0) + err * norms[i]!)
    }
    g2s += gs * gs
    g2b += gb * gb
    scale -= (rate * gs) / Math.sqrt(g2s)
    bias -= (rate * gb) / Math.sqrt(g2b)
    for (const [f, g] of gw) {
      const w = weights.get(f) ?? 0
      const grad = g + lambdaW * w
      const acc = (g2.get(f) ?? 1e-8) + grad * grad
      g2.set(f, acc)
      weights.set(f, w - (rate * grad) / Math.sqrt(acc))
    }
  }
  const kept: Record<string, number> = {}
  for (const [f, w] of weights) if (Math.abs(w) > 1e-4) kept[String(f)] = Math.round(w * 1e5) / 1e5
  return {
    kind: withFeatures ? "logistic" : "platt",
    scale,
    bias,
    weights: kept,
    maxShift: MAX_SHIFT,
    maxShiftUnfamiliar: MAX_SHIFT_UNFAMILIAR
  }
}

/** Applies an adapter to a shipped score. Pure; bounded by `maxShift`. */
export const applyParams = (params: AdapterParams, base: number, featureList: ReadonlyArray<number>): number => {
  const x = logit(base)
  let z = params.scale * x + params.bias
  let familiar = false
  const norm = featureList.length > 0 ? 1 / Math.sqrt(featureList.length) : 0
  for (const f of featureList) {
    const w = params.weights[String(f)]
    if (w !== undefined) {
      familiar = true
      z += w * norm
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
}

export interface Fitted {
  readonly report: Omit<AttributeReport, "adapterId">
  readonly params: AdapterParams | null
}

const round = (x: number) => Math.round(x * 10000) / 10000

/** Fits one attribute's adapter and decides whether to adopt it. Pure and deterministic. */
export const fitAttribute = (attribute: Perspective.Attribute, samples: ReadonlyArray<Sample>): Fitted => {
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
    const params = fitModel(train, withFeatures)
    samples.forEach((s, i) => {
      if (fold[i] === k) outOfFold[i] = applyParams(params, s.base, s.features)
    })
  }
  const before = auc(samples.map((s) => s.base), labels)
  const after = auc(outOfFold, labels)
  const adopted = after > before + MIN_GAIN
  return {
    params: adopted ? fitModel(samples, withFeatures) : null,
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

// ---------------------------------------------------------------------------------------------
// The store port and the live set

export class AdapterStore extends Context.Tag("@decorum/core/AdapterStore")<
  AdapterStore,
  {
    /** Stores an adopted adapter; it replaces the account's previous one for that attribute. */
    readonly save: (adapter: {
      readonly accountId: AccountId
      readonly attribute: Perspective.Attribute
      readonly params: AdapterParams
      readonly report: AttributeReport
    }) => Effect.Effect<number, StoreFailure>
    /** Returns the account (or one attribute of it) to the shipped scores. */
    readonly reset: (accountId: AccountId, attribute?: Perspective.Attribute) => Effect.Effect<void, StoreFailure>
    /** The adopted adapters of every account (the latest per account and attribute). */
    readonly active: Effect.Effect<ReadonlyArray<StoredAdapter>, StoreFailure>
    /** A counter that moves whenever `save` or `reset` runs: cheap to poll. */
    readonly version: Effect.Effect<number, StoreFailure>
  }
>() {}

/** The adapters in force, per account. Absent from an engine, every account gets the shipped scores. */
export class SiteAdapters extends Context.Tag("@decorum/core/SiteAdapters")<
  SiteAdapters,
  {
    readonly forAccount: (accountId: AccountId) => ReadonlyMap<Perspective.Attribute, StoredAdapter>
    /** Reloads now (the poll does it within its interval anyway). */
    readonly refresh: Effect.Effect<void, StoreFailure>
  }
>() {}

type Index = ReadonlyMap<AccountId, ReadonlyMap<Perspective.Attribute, StoredAdapter>>

const index = (adapters: ReadonlyArray<StoredAdapter>): Index => {
  const out = new Map<AccountId, Map<Perspective.Attribute, StoredAdapter>>()
  for (const a of adapters) {
    const m = out.get(a.accountId) ?? new Map()
    m.set(a.attribute, a)
    out.set(a.accountId, m)
  }
  return out
}

const EMPTY: ReadonlyMap<Perspective.Attribute, StoredAdapter> = new Map()

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

/** Applies an account's adapter for `attribute` to a shipped score of `text`. */
export const adaptScore = (adapter: StoredAdapter, base: number, text: string) => applyParams(adapter.params, base, features(text))

export interface AdaptReport {
  readonly email: string
  readonly attributes: ReadonlyArray<AttributeReport>
}

const NO_CONTEXT = { article: null, parent: null, entries: [] as ReadonlyArray<string> }

/**
 * Fits an account's adapters from its corrections (all attributes it corrected, or one) and
 * stores those that are adopted; an attribute whose new fit is not adopted returns to the shipped
 * scores. Scores the corrected texts with the shipped model, so it costs a model call per text.
 */
export const adapt = Effect.fn("Adaptation.adapt")(function*(account: Account, only?: Perspective.Attribute) {
  const suggestions = yield* (yield* SuggestionStore).list({ email: account.email })
  const store = yield* AdapterStore
  const scorer = yield* AttributeScorer
  // The latest correction of a text wins: a moderator may change their mind.
  const byAttribute = new Map<Perspective.Attribute, Map<string, number>>()
  for (const s of suggestions) {
    for (const [name, value] of Object.entries(s.attributeScores)) {
      const attribute = Perspective.resolveAttribute(name)
      if (attribute === undefined || (only !== undefined && attribute !== only)) continue
      const m = byAttribute.get(attribute) ?? new Map<string, number>()
      m.set(s.commentText, value)
      byAttribute.set(attribute, m)
    }
  }
  if (only !== undefined && !byAttribute.has(only)) byAttribute.set(only, new Map())
  const reports: Array<AttributeReport> = []
  for (const [attribute, corrections] of [...byAttribute].sort((a, b) => a[0].localeCompare(b[0]))) {
    const samples: Array<Sample> = []
    for (const [text, target] of corrections) {
      const scored = yield* scorer.analyze({ text, attributes: [attribute], spans: [], context: NO_CONTEXT })
      const base = scored.value[attribute]?.summary
      if (base === undefined) continue
      samples.push({ base, target, features: features(text) })
    }
    const fitted = fitAttribute(attribute, samples)
    let adapterId: number | null = null
    if (fitted.params !== null) {
      adapterId = yield* store.save({ accountId: account.id, attribute, params: fitted.params, report: { ...fitted.report, adapterId: null } })
    } else if (samples.length >= MIN_CORRECTIONS) {
      // A refit that no longer beats the shipped model retires the previous adapter.
      yield* store.reset(account.id, attribute)
    }
    reports.push({ ...fitted.report, adapterId })
  }
  const optionalRefresh = yield* Effect.serviceOption(SiteAdapters)
  if (Option.isSome(optionalRefresh)) yield* optionalRefresh.value.refresh
  return { email: account.email, attributes: reports } satisfies AdaptReport
})

/** `decorum adapt --reset`: the account returns to the shipped scores. */
export const reset = Effect.fn("Adaptation.reset")(function*(account: Account, only?: Perspective.Attribute) {
  yield* (yield* AdapterStore).reset(account.id, only)
  const optionalRefresh = yield* Effect.serviceOption(SiteAdapters)
  if (Option.isSome(optionalRefresh)) yield* optionalRefresh.value.refresh
})
