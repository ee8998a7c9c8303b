import { Limits } from "@decorum/domain"
import { Context, Layer } from "effect"

/** Settings of the HTTP layer. */
export class HttpConfig extends Context.Tag("@decorum/http/HttpConfig")<
  HttpConfig,
  {
    /** Largest accepted request body in bytes. */
    readonly bodyLimitBytes: number
    /**
     * The external base URL (e.g. `https://moderation.example.com/`) used for the discovery
     * document's `rootUrl`; when null it is derived from each request's Host and protocol.
     */
    readonly publicBaseUrl: string | null
    /**
     * IP addresses and CIDR ranges of reverse proxies in front of the server: only requests whose peer is one of them
     * have their `X-Forwarded-Host`/`-Proto` honoured (for `rootUrl`). Empty: no one's.
     */
    readonly trustProxy: ReadonlyArray<string>
    /**
     * Longest time one `POST /batch` may keep the server busy: parts still running then are stopped
     * and parts not started are not run; each answers 503.
     */
    readonly batchTimeLimitMs: number
  }
>() {
  static readonly defaults = { bodyLimitBytes: Limits.defaultBodyLimitBytes, publicBaseUrl: null, trustProxy: [], batchTimeLimitMs: 30_000 }
  static readonly layer = (options: Partial<HttpConfig["Type"]> = {}) =>
    Layer.succeed(HttpConfig, HttpConfig.of({ ...HttpConfig.defaults, ...options }))
}
