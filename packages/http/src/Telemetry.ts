/**
 * OpenTelemetry export over OTLP/HTTP (JSON) through `@effect/opentelemetry`: the spans of every
 * request (`http.server ...` with the module spans under it: `Evaluations.scoreComment`,
 * `LlmEvaluators.comment_score`, `SqlStores.*`, ...), the metrics of `Metrics` and the log lines.
 * On when the standard `OTEL_EXPORTER_OTLP_ENDPOINT` is set (see `EngineConfig`); the exporter posts
 * to `<endpoint>/v1/traces`, `/v1/metrics` and `/v1/logs`.
 *
 * Provide it *below* the server layer (`Layer.provide`), so the server's fibers carry its tracer.
 */
import * as Otlp from "@effect/opentelemetry/Otlp"
import { FetchHttpClient } from "@effect/platform"
import { Duration, Layer } from "effect"

export interface TelemetryOptions {
  /** `OTEL_EXPORTER_OTLP_ENDPOINT`, e.g. `http://otel-collector:4318`. */
  readonly endpoint: string
  /** `OTEL_SERVICE_NAME`; default `decorum`. */
  readonly serviceName?: string | undefined
  readonly serviceVersion?: string | undefined
  /** `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,key2=value2`), e.g. a vendor's API key. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** How often buffered spans, metrics and logs are sent. Default 5 s. */
  readonly exportInterval?: Duration.DurationInput | undefined
}

/** The exporters, or nothing when `options` is null (no endpoint configured). */
export const layer = (options: TelemetryOptions | null): Layer.Layer<never> => {
  if (options === null) return Layer.empty
  const interval = options.exportInterval ?? Duration.seconds(5)
  return Otlp.layerJson({
    baseUrl: options.endpoint.replace(/\/+$/, ""),
    resource: { serviceName: options.serviceName ?? "decorum", serviceVersion: options.serviceVersion },
    headers: options.headers,
    tracerExportInterval: interval,
    metricsExportInterval: interval,
    loggerExportInterval: interval
  }).pipe(Layer.provide(FetchHttpClient.layer))
}

/** `OTEL_EXPORTER_OTLP_HEADERS`: comma-separated `key=value` pairs, values URL-encoded (the OpenTelemetry spec). */
export const parseHeaders = (raw: string): Record<string, string> | string => {
  const headers: Record<string, string> = {}
  for (const part of raw.split(",")) {
    if (part.trim() === "") continue
    const eq = part.indexOf("=")
    if (eq <= 0) return `"${part.trim().split("=")[0]}" is not key=value`
    try {
      headers[part.slice(0, eq).trim()] = decodeURIComponent(part.slice(eq + 1).trim())
    } catch {
      return `the value of ${part.slice(0, eq).trim()} is not URL-encoded`
    }
  }
  return headers
}
