/**
 * Effect's metrics (the default registry, `Metric.snapshot`) in the Prometheus text exposition
 * format 0.0.4: counters, gauges, histograms (cumulative `_bucket{le}`, `_sum`, `_count`),
 * summaries (quantiles, `_sum`, `_count`) and frequencies (one counter series per value).
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

const labels = (pairs: ReadonlyArray<readonly [string, string]>): string =>
  pairs.length === 0 ? "" : `{${pairs.map(([k, v]) => `${labelName(k)}="${escapeLabel(v)}"`).join(",")}}`

interface Family {
  type: "counter" | "gauge" | "histogram" | "summary"
  help: string | undefined
  lines: Array<string>
}

/** Renders metric pairs; series of the same name are grouped under one `# TYPE` line. */
export const render = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const families = new Map<string, Family>()
  const family = (name: string, type: Family["type"], help: string | undefined) => {
    let f = families.get(name)
    if (f === undefined) {
      f = { type, help, lines: [] }
      families.set(name, f)
    }
    return f
  }
  for (const pair of pairs) {
    const name = metricName(pair.metricKey.name)
    const help = Option.getOrUndefined(pair.metricKey.description)
    const tags = pair.metricKey.tags.map((t) => [t.key, t.value] as const)
    const state = pair.metricState
    if (MetricState.isCounterState(state)) {
      family(name, "counter", help).lines.push(`${name}${labels(tags)} ${number(state.count)}`)
    } else if (MetricState.isGaugeState(state)) {
      family(name, "gauge", help).lines.push(`${name}${labels(tags)} ${number(state.value)}`)
    } else if (MetricState.isHistogramState(state)) {
      const f = family(name, "histogram", help)
      let sawInf = false
      for (const [bound, cumulative] of state.buckets) {
        if (bound === Infinity) sawInf = true
        f.lines.push(`${name}_bucket${labels([...tags, ["le", number(bound)]])} ${cumulative}`)
      }
      if (!sawInf) f.lines.push(`${name}_bucket${labels([...tags, ["le", "+Inf"]])} ${state.count}`)
      f.lines.push(`${name}_sum${labels(tags)} ${number(state.sum)}`)
      f.lines.push(`${name}_count${labels(tags)} ${state.count}`)
    } else if (MetricState.isSummaryState(state)) {
      const f = family(name, "summary", help)
      for (const [q, value] of state.quantiles) {
        f.lines.push(`${name}${labels([...tags, ["quantile", String(q)]])} ${Option.match(value, { onNone: () => "NaN", onSome: number })}`)
      }
      f.lines.push(`${name}_sum${labels(tags)} ${number(state.sum)}`)
      f.lines.push(`${name}_count${labels(tags)} ${state.count}`)
    } else if (MetricState.isFrequencyState(state)) {
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

/** Every metric of the default registry, rendered. */
export const scrape: Effect.Effect<string> = Effect.map(Metric.snapshot, render)
