/**
 * Effect's metrics (the default registry, `Metric.snapshot`) in the Prometheus text exposition
 * format 0.0.4: counters, gauges, histograms (cumulative `_bucket{le}`, `_sum`, `_count`),
 * summaries (quantiles, `_sum`, `_count`) and frequencies (one counter series per value).
 *
 * A snapshot is first made plain data (`Series`, JSON-safe), so that the snapshots of several
 * processes (`decorum serve --workers N`) can be sent to one place and `merge`d into the figures
 * of the whole server: counters, histogram buckets, sums and counts, and frequencies are added;
 * a gauge is the largest value any process reports; a summary's quantiles cannot be combined, so
 * merged from more than one process they are `NaN` (its sum and count are added).
 */
import { Effect, Metric, type MetricPair, MetricState, Option } from "effect"

export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

const NAME = /[^a-zA-Z0-9_:]/g
const metricName = (name: string) => name.replace(NAME, "_").replace(/^([0-9])/, "_$1")
const labelName = (name: string) => name.replace(/[^a-zA-Z0-9_]/g, "_").replace(/^([0-9])/, "_$1")
const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, "\\\"")
const escapeHelp = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")

const number = (n: number | bigint): string =>
  typeof n === "bigint" ? n.toString() : Number.isNaN(n) ? "NaN" : n === Infinity ? "+Inf" : n === -Infinity ? "-Inf" : String(n)

/** A number as JSON carries it: the non-finite ones as their Prometheus spelling. */
type Num = number | "NaN" | "+Inf" | "-Inf"
const toNum = (n: number | bigint): Num => (typeof n === "bigint" ? Number(n) : Number.isFinite(n) ? n : (number(n) as Num))
const fromNum = (n: Num): number => (typeof n === "number" ? n : n === "NaN" ? Number.NaN : n === "+Inf" ? Infinity : -Infinity)

const labels = (pairs: ReadonlyArray<readonly [string, string]>): string =>
  pairs.length === 0 ? "" : `{${pairs.map(([k, v]) => `${labelName(k)}="${escapeLabel(v)}"`).join(",")}}`

/** One series of a snapshot as plain data: its metric's name, help and labels, and its state. */
export interface Series {
  readonly name: string
  readonly help: string | undefined
  readonly tags: ReadonlyArray<readonly [string, string]>
  readonly state:
    | { readonly type: "counter"; readonly count: number }
    | { readonly type: "gauge"; readonly value: Num }
    | { readonly type: "histogram"; readonly buckets: ReadonlyArray<readonly [Num, number]>; readonly count: number; readonly sum: Num }
    | { readonly type: "summary"; readonly quantiles: ReadonlyArray<readonly [number, Num]>; readonly count: number; readonly sum: Num }
    | { readonly type: "frequency"; readonly occurrences: ReadonlyArray<readonly [string, number]> }
}

/** Metric pairs as series (those of a state this format has no place for are left out). */
export const toSeries = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): Array<Series> =>
  pairs.flatMap((pair): Array<Series> => {
    const base = {
      name: pair.metricKey.name,
      help: Option.getOrUndefined(pair.metricKey.description),
      tags: pair.metricKey.tags.map((t) => [t.key, t.value] as const)
    }
    const state = pair.metricState
    if (MetricState.isCounterState(state)) return [{ ...base, state: { type: "counter", count: Number(state.count) } }]
    if (MetricState.isGaugeState(state)) return [{ ...base, state: { type: "gauge", value: toNum(state.value) } }]
    if (MetricState.isHistogramState(state)) {
      const buckets = state.buckets.map(([bound, cumulative]) => [toNum(bound), cumulative] as const)
      return [{ ...base, state: { type: "histogram", buckets, count: state.count, sum: toNum(state.sum) } }]
    }
    if (MetricState.isSummaryState(state)) {
      const quantiles = state.quantiles.map(([q, value]) => [q, Option.match(value, { onNone: () => "NaN" as const, onSome: toNum })] as const)
      return [{ ...base, state: { type: "summary", quantiles, count: state.count, sum: toNum(state.sum) } }]
    }
    if (MetricState.isFrequencyState(state)) return [{ ...base, state: { type: "frequency", occurrences: [...state.occurrences] } }]
    return []
  })

const seriesKey = (s: Series) => `${s.name}\u0000${s.tags.map(([k, v]) => `${k}\u0001${v}`).join("\u0000")}`

const add = (a: Num, b: Num): Num => toNum(fromNum(a) + fromNum(b))

/** Two snapshots' states of one series combined (see the module's comment); undefined when their types differ. */
const combine = (a: Series["state"], b: Series["state"]): Series["state"] | undefined => {
  if (a.type === "counter" && b.type === "counter") return { type: "counter", count: a.count + b.count }
  if (a.type === "gauge" && b.type === "gauge") return { type: "gauge", value: toNum(Math.max(fromNum(a.value), fromNum(b.value))) }
  if (a.type === "histogram" && b.type === "histogram") {
    const counts = new Map<string, [Num, number]>()
    for (const [bound, n] of [...a.buckets, ...b.buckets]) {
      const key = number(fromNum(bound))
      const seen = counts.get(key)
      counts.set(key, [bound, (seen?.[1] ?? 0) + n])
    }
    const buckets = [...counts.values()].sort(([x], [y]) => fromNum(x) - fromNum(y))
    return { type: "histogram", buckets, count: a.count + b.count, sum: add(a.sum, b.sum) }
  }
  if (a.type === "summary" && b.type === "summary") {
    return { type: "summary", quantiles: a.quantiles.map(([q]) => [q, "NaN"] as const), count: a.count + b.count, sum: add(a.sum, b.sum) }
  }
  if (a.type === "frequency" && b.type === "frequency") {
    const counts = new Map(a.occurrences)
    for (const [value, n] of b.occurrences) counts.set(value, (counts.get(value) ?? 0) + n)
    return { type: "frequency", occurrences: [...counts] }
  }
  return undefined
}

/** The snapshots of several processes as one: each series (name and labels) combined across them. */
export const merge = (snapshots: ReadonlyArray<ReadonlyArray<Series>>): Array<Series> => {
  const out = new Map<string, Series>()
  for (const snapshot of snapshots) {
    for (const series of snapshot) {
      const key = seriesKey(series)
      const seen = out.get(key)
      if (seen === undefined) out.set(key, series)
      else {
        const state = combine(seen.state, series.state)
        if (state !== undefined) out.set(key, { ...seen, state })
      }
    }
  }
  return [...out.values()]
}

interface Family {
  type: "counter" | "gauge" | "histogram" | "summary"
  help: string | undefined
  lines: Array<string>
}

/** Renders series; series of the same name are grouped under one `# TYPE` line. */
export const renderSeries = (all: ReadonlyArray<Series>): string => {
  const families = new Map<string, Family>()
  const family = (name: string, type: Family["type"], help: string | undefined) => {
    let f = families.get(name)
    if (f === undefined) {
      f = { type, help, lines: [] }
      families.set(name, f)
    }
    return f
  }
  for (const series of all) {
    const name = metricName(series.name)
    const { help, tags, state } = series
    if (state.type === "counter") {
      family(name, "counter", help).lines.push(`${name}${labels(tags)} ${number(state.count)}`)
    } else if (state.type === "gauge") {
      family(name, "gauge", help).lines.push(`${name}${labels(tags)} ${number(fromNum(state.value))}`)
    } else if (state.type === "histogram") {
      const f = family(name, "histogram", help)
      let sawInf = false
      for (const [bound, cumulative] of state.buckets) {
        if (fromNum(bound) === Infinity) sawInf = true
        f.lines.push(`${name}_bucket${labels([...tags, ["le", number(fromNum(bound))]])} ${cumulative}`)
      }
      if (!sawInf) f.lines.push(`${name}_bucket${labels([...tags, ["le", "+Inf"]])} ${state.count}`)
      f.lines.push(`${name}_sum${labels(tags)} ${number(fromNum(state.sum))}`)
      f.lines.push(`${name}_count${labels(tags)} ${state.count}`)
    } else if (state.type === "summary") {
      const f = family(name, "summary", help)
      for (const [q, value] of state.quantiles) f.lines.push(`${name}${labels([...tags, ["quantile", String(q)]])} ${number(fromNum(value))}`)
      f.lines.push(`${name}_sum${labels(tags)} ${number(fromNum(state.sum))}`)
      f.lines.push(`${name}_count${labels(tags)} ${state.count}`)
    } else {
      const f = family(name, "counter", help)
      for (const [value, count] of state.occurrences) f.lines.push(`${name}${labels([...tags, ["value", value]])} ${count}`)
    }
  }
  const out: Array<string> = []
  for (const [name, f] of [...families].sort(([a], [b]) => a.localeCompare(b))) {
    if (f.help !== undefined) out.push(`# HELP ${name} ${escapeHelp(f.help)}`)
    out.push(`# TYPE ${name} ${f.type}`)
    out.push(...f.lines)
  }
  return out.join("\n") + "\n"
}

/** Renders metric pairs. */
export const render = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => renderSeries(toSeries(pairs))

/** Every metric of the default registry, as series. */
export const snapshot: Effect.Effect<Array<Series>> = Effect.map(Metric.snapshot, toSeries)

/** Every metric of the default registry, rendered. */
export const scrape: Effect.Effect<string> = Effect.map(snapshot, renderSeries)
