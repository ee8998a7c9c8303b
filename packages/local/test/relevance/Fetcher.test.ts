import { ArticleFetcher } from "@decorum/core"
import { refusedAddressReason, SafeArticleFetcher, type SafeArticleFetcherOptions } from "@decorum/local"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import http from "node:http"
import type { AddressInfo } from "node:net"
import zlib from "node:zlib"

// ---------------------------------------------------------------- a loopback test server

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void

const routes: Record<string, Handler> = {}
let hits: Record<string, number> = {}
let server: http.Server
let port = 0
let base = ""

const HTML = `<!doctype html><html><head><title>Harbor bike lanes | City News</title>
<script>var tracking = "should not appear";</script><style>.x{color:red}</style></head>
<body><header><nav><a href="/">Home</a> <a href="/sport">Sport news menu</a></nav></header>
<div class="cookie-banner">We use cookies to improve your experience.</div>
<main><article><h1>Council approves bike lanes</h1>
<p>The city council voted on Tuesday to approve protected bike lanes on Main Street &amp; Harbor Avenue.</p>
<p>Shop owners worry about parking, while cyclists welcome the concrete kerbs.</p>
<div class="share">Share on social media</div></article>
<aside>Related: ten best pizza places</aside></main>
<footer>Copyright City News. Contact us.</footer></body></html>`

beforeAll(async () => {
  routes["/article.html"] = (_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(HTML)
  routes["/gzip.html"] = (_req, res) => res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" }).end(zlib.gzipSync(HTML))
  routes["/notes.md"] = (_req, res) =>
    res.writeHead(200, { "content-type": "text/markdown; charset=utf-8" }).end("# Sourdough starters\n\nA **starter** is wild yeast in flour and water.\n")
  routes["/plain.txt"] = (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("Plain text about deep-sea mining and nodules.")
  routes["/missing"] = (_req, res) => res.writeHead(404, { "content-type": "text/plain" }).end("nope")
  routes["/image.png"] = (_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
  routes["/big"] = (_req, res) => {
    // No content-length: the limit must be enforced while streaming.
    res.writeHead(200, { "content-type": "text/plain" })
    const chunk = "x".repeat(16 * 1024)
    let sent = 0
    const push = () => {
      while (sent < 4 * 1024 * 1024) {
        sent += chunk.length
        if (!res.write(chunk)) return res.once("drain", push)
      }
      res.end()
    }
    push()
  }
  routes["/big-declared"] = (_req, res) => res.writeHead(200, { "content-type": "text/plain", "content-length": String(10 * 1024 * 1024) }).end()
  routes["/slow"] = (_req, res) => {
    // Headers, then nothing: only the deadline ends this.
    res.writeHead(200, { "content-type": "text/plain" })
    res.write("the beginning of a very slow article")
  }
  routes["/hang"] = () => {
    // Never answers at all.
  }
  routes["/redirect-ok"] = (_req, res) => res.writeHead(302, { location: "/article.html" }).end()
  routes["/redirect-private-v4"] = (_req, res) => res.writeHead(302, { location: "http://10.0.0.1/admin" }).end()
  routes["/redirect-private-v6"] = (_req, res) => res.writeHead(301, { location: `http://[::1]:${port}/article.html` }).end()
  routes["/redirect-metadata"] = (_req, res) => res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" }).end()
  routes["/redirect-other-loopback"] = (_req, res) => res.writeHead(302, { location: `http://internal.test:${port}/article.html` }).end()
  routes["/redirect-file"] = (_req, res) => res.writeHead(302, { location: "file:///etc/passwd" }).end()
  routes["/loop"] = (_req, res) => res.writeHead(302, { location: "/loop" }).end()

  server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!
    hits[path] = (hits[path] ?? 0) + 1
    const handler = routes[path]
    if (handler === undefined) res.writeHead(404).end()
    else handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.address() as AddressInfo).port
  base = `http://127.0.0.1:${port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

// ---------------------------------------------------------------- helpers

const fetchWith = (options: SafeArticleFetcherOptions, url: string) =>
  Effect.flatMap(ArticleFetcher, (f) => f.fetch(url)).pipe(Effect.provide(SafeArticleFetcher.layer(options)))

/** Plain fetch tests treat the loopback test server as allowed. */
const local = (path: string, options: SafeArticleFetcherOptions = {}) => fetchWith({ allowPrivate: true, timeoutMs: 5_000, ...options }, base + path)

/**
 * Policy tests: `article.test` resolves to the test server, and exactly that address is allowed.
 * Everything else private stays refused, so redirects to other private addresses can be tested.
 */
const policy: SafeArticleFetcherOptions = {
  timeoutMs: 5_000,
  allowAddresses: ["127.0.0.1"],
  resolve: async (hostname) => {
    if (hostname === "article.test") return [{ address: "127.0.0.1", family: 4 }]
    if (hostname === "internal.test") return [{ address: "127.0.0.2", family: 4 }]
    if (hostname === "mixed.test") return [{ address: "127.0.0.1", family: 4 }, { address: "10.1.2.3", family: 4 }]
    throw new Error(`ENOTFOUND ${hostname}`)
  }
}
const viaPolicy = (path: string, host = "article.test") => fetchWith(policy, `http://${host}:${port}${path}`)

const failure = <A, E>(exit: Exit.Exit<A, E>): E => {
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${JSON.stringify(exit.value)}`)
  const e = exit.cause._tag === "Fail" ? exit.cause.error : undefined
  if (e === undefined) throw new Error(`expected a typed failure, got ${String(exit.cause)}`)
  return e
}

// ---------------------------------------------------------------- tests

describe("SafeArticleFetcher: content", () => {
  it.live("reduces HTML to the article's main text and takes its title", () =>
    Effect.gen(function*() {
      const page = yield* local("/article.html")
      assert.strictEqual(page.title, "Harbor bike lanes | City News")
      assert.strictEqual(page.contentType, "text/html")
      assert.include(page.text, "Council approves bike lanes")
      assert.include(page.text, "Main Street & Harbor Avenue")
      assert.include(page.text, "cyclists welcome the concrete kerbs")
      for (const noise of ["tracking", "color:red", "Sport news menu", "cookies", "Share on social", "pizza", "Copyright"]) {
        assert.notInclude(page.text, noise)
      }
    }))

  it.live("decodes gzip", () =>
    Effect.gen(function*() {
      const page = yield* local("/gzip.html")
      assert.include(page.text, "cyclists welcome the concrete kerbs")
    }))

  it.live("keeps Markdown as it is, with its first heading as title", () =>
    Effect.gen(function*() {
      const page = yield* local("/notes.md")
      assert.strictEqual(page.text, "# Sourdough starters\n\nA **starter** is wild yeast in flour and water.\n")
      assert.strictEqual(page.title, "Sourdough starters")
      assert.strictEqual(page.contentType, "text/markdown")
    }))

  it.live("keeps plain text as it is", () =>
    Effect.gen(function*() {
      const page = yield* local("/plain.txt")
      assert.strictEqual(page.text, "Plain text about deep-sea mining and nodules.")
      assert.isNull(page.title)
      assert.strictEqual(page.url, `${base}/plain.txt`)
    }))

  it.live("follows a redirect and reports the final URL", () =>
    Effect.gen(function*() {
      const page = yield* viaPolicy("/redirect-ok")
      assert.strictEqual(page.url, `http://article.test:${port}/article.html`)
      assert.include(page.text, "Council approves bike lanes")
    }))

  it.live("reports the upstream status of an error page", () =>
    Effect.gen(function*() {
      const e = failure(yield* Effect.exit(local("/missing")))
      assert.strictEqual(e._tag, "FetchFailed")
      if (e._tag === "FetchFailed") {
        assert.strictEqual(e.upstreamStatus, 404)
        assert.include(e.message, "404")
      }
    }))

  it.live("refuses a type it cannot read as UnsupportedContent", () =>
    Effect.gen(function*() {
      const e = failure(yield* Effect.exit(local("/image.png")))
      assert.strictEqual(e._tag, "UnsupportedContent")
      if (e._tag === "UnsupportedContent") assert.strictEqual(e.contentType, "image/png")
    }))
})

describe("SafeArticleFetcher: limits", () => {
  it.live("stops reading a body over the size limit", () =>
    Effect.gen(function*() {
      const e = failure(yield* Effect.exit(local("/big", { maxBytes: 64 * 1024 })))
      assert.strictEqual(e._tag, "FetchFailed")
      assert.match(e.message, /larger than the limit of 65536 bytes/)
    }))

  it.live("refuses a declared length over the limit without reading it", () =>
    Effect.gen(function*() {
      const e = failure(yield* Effect.exit(local("/big-declared", { maxBytes: 1024 * 1024 })))
      assert.match(e.message, /larger than the limit/)
    }))

  it.live("times out on a server that stalls mid-body", () =>
    Effect.gen(function*() {
      const started = Date.now()
      const e = failure(yield* Effect.exit(local("/slow", { timeoutMs: 300 })))
      assert.strictEqual(e._tag, "FetchFailed")
      assert.match(e.message, /timed out after 300 ms/)
      assert.isBelow(Date.now() - started, 3_000)
    }))

  it.live("times out on a server that never answers", () =>
    Effect.gen(function*() {
      const e = failure(yield* Effect.exit(local("/hang", { timeoutMs: 300 })))
      assert.match(e.message, /timed out/)
    }))

  it.live("gives up after too many redirects", () =>
    Effect.gen(function*() {
      const e = failure(yield* Effect.exit(local("/loop")))
      assert.strictEqual(e._tag, "FetchFailed")
      assert.match(e.message, /Too many redirects/)
    }))
})

describe("SafeArticleFetcher: address policy", () => {
  it.live("refuses loopback by default", () =>
    Effect.gen(function*() {
      const e = failure(yield* Effect.exit(fetchWith({}, `${base}/article.html`)))
      assert.strictEqual(e._tag, "FetchFailed")
      assert.include(e.message, "it resolves to 127.0.0.1 (loopback)")
    }))

  it.live.each([
    ["/redirect-private-v4", /10\.0\.0\.1 \(private\)/],
    ["/redirect-private-v6", /::1 \(loopback\)/],
    ["/redirect-metadata", /metadata/],
    ["/redirect-other-loopback", /127\.0\.0\.2 \(loopback\)/]
  ] as const)("refuses a redirect %s to a private address before connecting", ([path, message]) =>
    Effect.gen(function*() {
      hits = {}
      const e = failure(yield* Effect.exit(viaPolicy(path)))
      assert.strictEqual(e._tag, "FetchFailed")
      assert.match(e.message, message)
      // The redirect was served, the target was never requested.
      assert.strictEqual(hits[path], 1)
      assert.isUndefined(hits["/article.html"])
    }))

  it.live("refuses a name that resolves to any private address", () =>
    Effect.gen(function*() {
      const e = failure(yield* Effect.exit(viaPolicy("/article.html", "mixed.test")))
      assert.match(e.message, /10\.1\.2\.3 \(private\)/)
    }))

  it.live("refuses a redirect to another scheme", () =>
    Effect.gen(function*() {
      const e = failure(yield* Effect.exit(viaPolicy("/redirect-file")))
      assert.strictEqual(e._tag, "InvalidRequest")
    }))

  it.live.each(["file:///etc/passwd", "ftp://example.com/article.txt", "gopher://example.com/", "not a url", "http://user:pw@example.com/"])(
    "refuses %s as an invalid request",
    (url) =>
      Effect.gen(function*() {
        const e = failure(yield* Effect.exit(fetchWith({}, url)))
        assert.strictEqual(e._tag, "InvalidRequest")
      })
  )

  it("classifies addresses", () => {
    for (const a of ["127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "100.64.0.1", "169.254.169.254", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd00:ec2::254", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "2002:0a00:0001::1"]) {
      assert.isNotNull(refusedAddressReason(a), a)
    }
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) assert.isNull(refusedAddressReason(a), a)
  })
})

describe("SafeArticleFetcher.layer (the settings EngineConfig reads from DECORUM_FETCH_*)", () => {
  const withEnv = (options: SafeArticleFetcherOptions) => SafeArticleFetcher.layer(options)

  it.live("allows private addresses only when the operator says so", () =>
    Effect.gen(function*() {
      const fetch = (url: string) => Effect.flatMap(ArticleFetcher, (f) => f.fetch(url))
      const refused = yield* Effect.exit(fetch(`${base}/plain.txt`).pipe(Effect.provide(withEnv({}))))
      assert.isTrue(Exit.isFailure(refused))
      const allowed = yield* fetch(`${base}/plain.txt`).pipe(Effect.provide(withEnv({ allowPrivate: true })))
      assert.include(allowed.text, "deep-sea mining")
      const small = yield* Effect.exit(
        fetch(`${base}/big`).pipe(Effect.provide(withEnv({ allowPrivate: true, maxBytes: 1000 })))
      )
      assert.match(failure(small).message, /limit of 1000 bytes/)
      const quick = yield* Effect.exit(
        fetch(`${base}/hang`).pipe(Effect.provide(withEnv({ allowPrivate: true, timeoutMs: 200 })))
      )
      assert.match(failure(quick).message, /timed out after 200 ms/)
    }))
})
