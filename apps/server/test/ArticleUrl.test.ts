/**
 * `inittopic` with a URL through the real server process and the real (safe) fetcher, against a
 * content server on loopback.
 */
import { createServer, type Server } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Running, startServe, stop } from "./process.js"

const ARTICLE = `<!doctype html><html><head><title>Bees and the almond harvest</title></head><body>
<nav>Home | About | Subscribe</nav>
<article><h1>Bees and the almond harvest</h1>
<p>California's almond orchards rent millions of honeybee colonies every February for pollination.</p>
<p>Beekeepers truck their hives across the country, and colony losses over winter have made pollination fees rise.</p>
</article><footer>Copyright</footer></body></html>`

let content: Server
let contentUrl: string
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "decorum-url-"))
  content = createServer((req, res) => {
    if (req.url === "/article") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      res.end(ARTICLE)
    } else if (req.url === "/notes.md") {
      res.writeHead(200, { "content-type": "text/markdown" })
      res.end("# Tram timetable\n\nThe **number 9 tram** now runs every six minutes on weekdays.")
    } else if (req.url === "/logo.png") {
      res.writeHead(200, { "content-type": "image/png" })
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    } else {
      res.writeHead(404, { "content-type": "text/plain" })
      res.end("not here")
    }
  })
  await new Promise<void>((resolve) => content.listen(0, "127.0.0.1", resolve))
  const address = content.address()
  if (address === null || typeof address === "string") throw new Error("no address")
  contentUrl = `http://127.0.0.1:${address.port}`
})

afterAll(async () => {
  await new Promise((resolve) => content.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

const keyOf = (server: Running) => /^\s+(dk_\S+)\s*$/m.exec(server.output())![1]!

const call = (server: Running, path: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(server.url + path, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json", "x-user-email": "admin@localhost", "x-api-key": keyOf(server) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {})
  })

describe("inittopic with a URL", () => {
  it("creates contexts from HTML and Markdown pages when private addresses are allowed", async () => {
    const server = await startServe(["--db", join(dir, "allowed.db")], { DECORUM_FETCH_ALLOW_PRIVATE: "true" })
    try {
      const res = await call(server, "/v0.2/inittopic", { body: { url: `${contentUrl}/article` } })
      assert.strictEqual(res.status, 200)
      const { article_id } = await res.json()
      const view = await (await call(server, `/v0.2/article-contexts/${article_id}`, { method: "GET" })).json()
      assert.strictEqual(view.title, "Bees and the almond harvest")
      assert.strictEqual(view.source_url, `${contentUrl}/article`)
      const terms = view.keywords.map((k: { term: string }) => k.term).join(" ")
      assert.match(terms, /almond/)
      assert.notMatch(terms, /subscrib|copyright/)

      const md = await call(server, "/v0.2/inittopic", { body: { url: `${contentUrl}/notes.md` } })
      assert.strictEqual(md.status, 200)

      const relevance = await call(server, "/v0.2/commentrelevance", {
        body: { article_context_id: article_id, comment: "Pollination fees for almond growers keep rising because of colony losses." }
      })
      assert.isTrue((await relevance.json()).on_topic.on_topic)

      const missing = await call(server, "/v0.2/inittopic", { body: { url: `${contentUrl}/gone` } })
      assert.strictEqual(missing.status, 400)
      assert.include((await missing.json()).message, "404")

      const image = await call(server, "/v0.2/inittopic", { body: { url: `${contentUrl}/logo.png` } })
      assert.strictEqual(image.status, 415)
      assert.deepInclude(await image.json(), { error: "Unsupported Media Type", code: 415 })

      const scheme = await call(server, "/v0.2/inittopic", { body: { url: "file:///etc/passwd" } })
      assert.strictEqual(scheme.status, 400)
    } finally {
      await stop(server)
    }
  })

  it("refuses a loopback URL by default", async () => {
    const server = await startServe(["--db", join(dir, "default.db")])
    try {
      const res = await call(server, "/v0.2/inittopic", { body: { url: `${contentUrl}/article` } })
      assert.strictEqual(res.status, 400)
      expect(await res.json()).toMatchObject({ code: 400, message: expect.stringMatching(/private|loopback|not allowed|refused/i) })
    } finally {
      await stop(server)
    }
  })
})
