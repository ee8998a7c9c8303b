/**
 * `SafeArticleFetcher`: the `ArticleFetcher` port for `inittopic` with a `url`, on `node:http` and
 * `node:https`.
 *
 * - Only `http:` and `https:` URLs without credentials (`InvalidRequest` otherwise).
 * - The host name is resolved here, every resolved address is checked (`Address.ts`), and the
 *   connection goes to the checked address through a pinned `lookup`: a second DNS answer cannot
 *   swap in a private address (no DNS-rebinding window). TLS still verifies the host name.
 * - At most `maxRedirects` redirects, each hop checked again.
 * - One deadline for the whole fetch (`timeoutMs`) and a cap on the decoded body (`maxBytes`),
 *   enforced while streaming, including after gzip/deflate/brotli decoding.
 * - Upstream non-2xx: `FetchFailed` with `upstreamStatus`. HTML is reduced to its main text;
 *   Markdown and plain text are kept as they are; anything else (PDF included, for want of a
 *   small well-kept parser) is `UnsupportedContent`.
 */
import { ArticleFetcher, type FetchedArticle } from "@decorum/core"
import { FetchFailed, InvalidRequest, UnsupportedContent } from "@decorum/domain"
import { Duration, Effect, Layer } from "effect"
import { promises as dns, type LookupAddress } from "node:dns"
import http from "node:http"
import https from "node:https"
import { isIP, type LookupFunction } from "node:net"
import zlib from "node:zlib"
import { canonicalAddress, refusedAddressReason } from "./Address.js"
import { htmlMainText } from "./MainText.js"

export interface ResolvedAddress {
  readonly address: string
  readonly family: 4 | 6
}

export interface SafeArticleFetcherOptions {
  /** Allow private, loopback and link-local addresses (an operator's explicit choice). Default false. */
  readonly allowPrivate?: boolean
  /** Addresses allowed even though they are private (e.g. a test server's `127.0.0.1`). */
  readonly allowAddresses?: ReadonlyArray<string>
  /** Whole-fetch deadline, redirects included. Default 10 s. */
  readonly timeoutMs?: number
  /** Largest body accepted, after decompression. Default 5 MB. */
  readonly maxBytes?: number
  /** Default 5. */
  readonly maxRedirects?: number
  /** Name resolution; defaults to the system resolver (`dns.lookup`, all addresses). */
  readonly resolve?: (hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>
  /** `User-Agent` sent upstream. */
  readonly userAgent?: string
}

export const FetchDefaults = {
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  userAgent: "DecorumArticleFetcher/0.1 (+https://github.com/decorum; article context for comment moderation)"
} as const

type Failure = FetchFailed | UnsupportedContent | InvalidRequest

const systemResolve = async (hostname: string): Promise<ReadonlyArray<ResolvedAddress>> => {
  const found: Array<LookupAddress> = await dns.lookup(hostname, { all: true, verbatim: true })
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

type Kind = "html" | "markdown" | "text"

const kindOf = (contentType: string, url: URL): Kind | null | "sniff" => {
  const mime = contentType.split(";")[0]!.trim().toLowerCase()
  if (mime === "") return "sniff"
  if (mime === "text/html" || mime === "application/xhtml+xml") return "html"
  if (mime === "text/markdown" || mime === "text/x-markdown") return "markdown"
  if (mime === "text/plain") return /\.(md|markdown|mdown)$/i.test(url.pathname) ? "markdown" : "text"
  // Servers often label Markdown files as octet-stream; the extension and a text sniff decide.
  if (mime === "application/octet-stream" && /\.(md|markdown|mdown|txt)$/i.test(url.pathname)) return "sniff"
  return null
}

const charsetOf = (contentType: string, head: Buffer): string => {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1]
  if (fromHeader !== undefined) return fromHeader
  const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head.subarray(0, 2048).toString("latin1"))?.[1]
  return meta ?? "utf-8"
}

const decode = (body: Buffer, charset: string): string => {
  try {
    return new TextDecoder(charset).decode(body)
  } catch {
    return new TextDecoder("utf-8").decode(body)
  }
}

const looksBinary = (body: Buffer): boolean => {
  const sample = body.subarray(0, 4096)
  if (sample.includes(0)) return true
  return /^%PDF-|^\x89PNG|^GIF8|^\xff\xd8\xff|^PK\x03\x04/.test(sample.subarray(0, 8).toString("latin1"))
}

interface Response {
  readonly status: number
  readonly statusText: string
  readonly headers: http.IncomingHttpHeaders
  readonly body: Buffer | null
}

export const makeFetcher = (options: SafeArticleFetcherOptions = {}) => {
  const timeoutMs = options.timeoutMs ?? FetchDefaults.timeoutMs
  const maxBytes = options.maxBytes ?? FetchDefaults.maxBytes
  const maxRedirects = options.maxRedirects ?? FetchDefaults.maxRedirects
  const resolve = options.resolve ?? systemResolve
  const allowed = new Set((options.allowAddresses ?? []).map(canonicalAddress))
  const allowPrivate = options.allowPrivate ?? false

  const check = (original: string, address: string): void => {
    const reason = refusedAddressReason(address)
    if (reason === null || allowPrivate || allowed.has(canonicalAddress(address))) return
    throw new FetchFailed({
      url: original,
      message: `Refused to fetch ${original}: it resolves to ${address} (${reason}). Only public addresses may be fetched.`
    })
  }

  const parse = (original: string, raw: string, base?: URL): URL => {
    let url: URL
    try {
      url = base === undefined ? new URL(raw) : new URL(raw, base)
    } catch {
      throw new InvalidRequest({ message: `Not a valid URL: ${raw.slice(0, 200)}` })
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new InvalidRequest({ message: `Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, "")}: (${original.slice(0, 200)}).` })
    }
    if (url.username !== "" || url.password !== "") {
      throw new InvalidRequest({ message: "URLs with credentials (user:password@) are not fetched." })
    }
    return url
  }

  /** Resolves and checks the host of `url`, returning the address to connect to. */
  const pin = async (original: string, url: URL): Promise<ResolvedAddress> => {
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname
    if (isIP(host) !== 0) {
      check(original, host)
      return { address: host, family: isIP(host) === 6 ? 6 : 4 }
    }
    let addresses: ReadonlyArray<ResolvedAddress>
    try {
      addresses = await resolve(host)
    } catch (e) {
      throw new FetchFailed({ url: original, message: `Could not resolve ${host}: ${(e as Error).message ?? String(e)}` })
    }
    if (addresses.length === 0) throw new FetchFailed({ url: original, message: `Could not resolve ${host}: no addresses.` })
    // Every address must pass: a name that also points at a private address is refused.
    for (const a of addresses) check(original, a.address)
    return addresses[0]!
  }

  const request = (original: string, url: URL, target: ResolvedAddress, signal: AbortSignal): Promise<Response> =>
    new Promise<Response>((resolvePromise, reject) => {
      const lookup: LookupFunction = (_hostname, opts, callback) => {
        if ((opts as { all?: boolean }).all === true) {
          ;(callback as (err: Error | null, addresses: Array<LookupAddress>) => void)(null, [{ address: target.address, family: target.family }])
        } else callback(null, target.address, target.family)
      }
      const client = url.protocol === "https:" ? https : http
      const req = client.request(url, {
        method: "GET",
        lookup,
        signal,
        headers: {
          "user-agent": options.userAgent ?? FetchDefaults.userAgent,
          accept: "text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,*/*;q=0.1",
          "accept-encoding": "gzip, deflate, br"
        }
      })
      req.on("error", (e) => reject(signal.aborted ? signal.reason ?? e : e))
      req.on("response", (res) => {
        const status = res.statusCode ?? 0
        const base = { status, statusText: res.statusMessage ?? "", headers: res.headers }
        if (status < 200 || status >= 300) {
          res.resume()
          resolvePromise({ ...base, body: null })
          return
        }
        const contentType = String(res.headers["content-type"] ?? "")
        if (kindOf(contentType, url) === null) {
          res.destroy()
          reject(new UnsupportedContent({ url: original, contentType, message: `Cannot read ${contentType} (from ${url.href}): only HTML, Markdown and plain text are supported.` }))
          return
        }
        const declared = Number(res.headers["content-length"])
        const tooLarge = () =>
          new FetchFailed({ url: original, message: `The document at ${url.href} is larger than the limit of ${maxBytes} bytes.` })
        if (Number.isFinite(declared) && declared > maxBytes) {
          res.destroy()
          reject(tooLarge())
          return
        }
        const encoding = String(res.headers["content-encoding"] ?? "identity").trim().toLowerCase()
        let stream: NodeJS.ReadableStream = res
        if (encoding === "gzip" || encoding === "x-gzip") stream = res.pipe(zlib.createGunzip())
        else if (encoding === "deflate") stream = res.pipe(zlib.createInflate())
        else if (encoding === "br") stream = res.pipe(zlib.createBrotliDecompress())
        const chunks: Array<Buffer> = []
        let size = 0
        let done = false
        const fail = (e: unknown) => {
          if (done) return
          done = true
          res.destroy()
          reject(e)
        }
        stream.on("data", (chunk: Buffer) => {
          if (done) return
          size += chunk.length
          if (size > maxBytes) fail(tooLarge())
          else chunks.push(chunk)
        })
        stream.on("error", (e) => fail(signal.aborted ? signal.reason ?? e : new FetchFailed({ url: original, message: `Reading ${url.href} failed: ${e.message}` })))
        res.on("aborted", () => fail(new FetchFailed({ url: original, message: `The connection to ${url.href} was closed before the body was complete.` })))
        stream.on("end", () => {
          if (done) return
          done = true
          resolvePromise({ ...base, body: Buffer.concat(chunks, size) })
        })
      })
      req.end()
    })

  const run = async (original: string, signal: AbortSignal): Promise<FetchedArticle> => {
    let url = parse(original, original.trim())
    for (let hop = 0; ; hop++) {
      const target = await pin(original, url)
      if (signal.aborted) throw signal.reason
      let res: Response
      try {
        res = await request(original, url, target, signal)
      } catch (e) {
        if (e instanceof FetchFailed || e instanceof UnsupportedContent || e instanceof InvalidRequest) throw e
        if (signal.aborted) throw e
        const err = e as NodeJS.ErrnoException
        throw new FetchFailed({ url: original, message: `Could not fetch ${url.href}: ${err.code ?? err.message ?? String(e)}` })
      }
      if ([301, 302, 303, 307, 308].includes(res.status)) {
        const location = res.headers.location
        if (location === undefined || location.trim() === "") {
          throw new FetchFailed({ url: original, upstreamStatus: res.status, message: `${url.href} answered HTTP ${res.status} without a Location.` })
        }
        if (hop >= maxRedirects) {
          throw new FetchFailed({ url: original, upstreamStatus: res.status, message: `Too many redirects (more than ${maxRedirects}) from ${original}.` })
        }
        url = parse(original, location.trim(), url)
        continue
      }
      if (res.status < 200 || res.status >= 300 || res.body === null) {
        throw new FetchFailed({
          url: original,
          upstreamStatus: res.status,
          message: `The URL could not be fetched: ${url.href} answered HTTP ${res.status}${res.statusText ? ` (${res.statusText})` : ""}.`
        })
      }
      const contentType = String(res.headers["content-type"] ?? "")
      let kind = kindOf(contentType, url)
      if (kind === "sniff") {
        if (looksBinary(res.body)) {
          throw new UnsupportedContent({ url: original, contentType: contentType || "unknown", message: `Cannot read the binary document at ${url.href}.` })
        }
        const head = res.body.subarray(0, 1024).toString("latin1").trimStart().toLowerCase()
        kind = head.startsWith("<!doctype html") || head.startsWith("<html") || /<(head|body|p|div)\b/.test(head) ? "html" : /\.(md|markdown|mdown)$/i.test(url.pathname) ? "markdown" : "text"
      }
      const text = decode(res.body, charsetOf(contentType, res.body))
      const finalType = contentType.split(";")[0]!.trim().toLowerCase() || (kind === "html" ? "text/html" : kind === "markdown" ? "text/markdown" : "text/plain")
      if (kind === "html") {
        const main = htmlMainText(text)
        return { text: main.text, title: main.title, contentType: finalType, url: url.href }
      }
      const cleaned = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n")
      const heading = kind === "markdown" ? /^\s{0,3}#\s+(.+?)\s*#*\s*$/m.exec(cleaned)?.[1] ?? null : null
      return { text: cleaned, title: heading, contentType: finalType, url: url.href }
    }
  }

  const fetch = (url: string): Effect.Effect<FetchedArticle, Failure> =>
    Effect.tryPromise({
      try: (signal) => run(url, signal),
      catch: (e): Failure =>
        e instanceof FetchFailed || e instanceof UnsupportedContent || e instanceof InvalidRequest
          ? e
          : new FetchFailed({ url, message: `Could not fetch ${url}: ${(e as Error)?.message ?? String(e)}` })
    }).pipe(
      Effect.timeoutFail({
        duration: Duration.millis(timeoutMs),
        onTimeout: () => new FetchFailed({ url, message: `Fetching ${url} timed out after ${timeoutMs} ms.` })
      }),
      Effect.withSpan("SafeArticleFetcher.fetch", { attributes: { url } })
    )

  return { fetch }
}

/** The `ArticleFetcher` port, safe by default. */
export const SafeArticleFetcher = {
  make: makeFetcher,
  layer: (options: SafeArticleFetcherOptions = {}) => Layer.succeed(ArticleFetcher, makeFetcher(options))
}
