/**
 * The playground page as HTTP serves it (the browser test in apps/server drives it for real): the
 * page and its assets come from this server only, under a CSP that allows nothing else, and the
 * script never turns response text into HTML.
 */
import { Playground } from "@decorum/http"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { startHttpHost, type TestHost } from "./harness.js"

let host: TestHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

const get = (path: string) => fetch(host.url + path, { redirect: "manual" })

describe("GET /playground", () => {
  it("serves the page with a CSP that allows only its own assets, and every asset it references", async () => {
    const res = await get("/playground")
    assert.strictEqual(res.status, 200)
    assert.strictEqual(res.headers.get("content-type"), "text/html; charset=utf-8")
    const csp = res.headers.get("content-security-policy")!
    const directives = Object.fromEntries(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]))
    assert.deepStrictEqual(directives["default-src"], ["'none'"])
    assert.deepStrictEqual(directives["script-src"], ["'self'"])
    assert.deepStrictEqual(directives["style-src"], ["'self'"])
    assert.deepStrictEqual(directives["connect-src"], ["'self'"])
    assert.deepStrictEqual(directives["frame-ancestors"], ["'none'"])
    assert.strictEqual(res.headers.get("x-content-type-options"), "nosniff")
    const html = await res.text()
    // No inline code or style for the CSP to have to allow, and nothing from another origin.
    assert.notMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i)
    assert.notMatch(html, /\son[a-z]+=/i)
    assert.notMatch(html, /\sstyle=/i)
    assert.notMatch(html, /(src|href)="(https?:)?\/\//i)
    const assets = [...html.matchAll(/(?:src|href)="(\/playground\/[^"]+)"/g)].map((m) => m[1]!)
    assert.deepStrictEqual(assets.sort(), [Playground.STYLE_PATH, Playground.SCRIPT_PATH, Playground.ICON_PATH].sort())
    for (const path of assets) assert.strictEqual((await get(path)).status, 200)
    const script = await get(Playground.SCRIPT_PATH)
    assert.strictEqual(script.status, 200)
    assert.strictEqual(script.headers.get("content-type"), "text/javascript; charset=utf-8")
    const css = await get(Playground.STYLE_PATH)
    assert.strictEqual(css.status, 200)
    assert.strictEqual(css.headers.get("content-type"), "text/css; charset=utf-8")
    assert.notMatch(await css.text(), /@import|url\(/)
  })

  it("has a label for every form control", async () => {
    const html = await (await get("/playground")).text()
    const ids = [...html.matchAll(/<(?:input|select|textarea)\b[^>]*\bid="([^"]+)"[^>]*>/g)].map((m) => m[1]!)
    const wrapped = [...html.matchAll(/<label>\s*<input\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]!)
    const labelled = new Set([...html.matchAll(/<label for="([^"]+)"/g)].map((m) => m[1]!).concat(wrapped))
    assert.isAbove(ids.length, 10)
    assert.deepStrictEqual(ids.filter((id) => !labelled.has(id)), [])
  })

  it("ships a script that never inserts HTML and keeps credentials out of URLs", async () => {
    const script = await (await get(Playground.SCRIPT_PATH)).text()
    assert.notMatch(script, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/)
    assert.include(script, "sessionStorage")
    assert.notInclude(script, "localStorage")
    assert.include(script, '"X-API-Key"')
    // It parses: a syntax error would leave the page dead in every browser.
    assert.doesNotThrow(() => new Function(script))
  })

  it("offers dog whistles and machine-written text: flags, the site's lists, and a section for each answer", async () => {
    const html = await (await get("/playground")).text()
    for (const id of ["run-dogwhistle-check", "run-llm-detect", "sensitive-topics", "dogwhistle-examples", "dogwhistle-section", "llm-section"]) {
      assert.include(html, `id="${id}"`)
    }
    const script = await (await get(Playground.SCRIPT_PATH)).text()
    for (const field of ["run_dogwhistle_check", "run_llm_detect", "sensitive_topics", "dogwhistle_examples", "body.dogwhistle_check", "body.llm_detection"]) {
      assert.include(script, field)
    }
  })

  it("answers /playground/ too, and is linked from the API reference", async () => {
    const res = await get("/playground/")
    assert.strictEqual(res.status, 200)
    assert.strictEqual(res.headers.get("content-security-policy"), Playground.CONTENT_SECURITY_POLICY)
    const spec = await (await get("/openapi.json")).json()
    assert.include(spec.info.description, "](/playground)")
    assert.isUndefined(spec.paths["/playground"])
  })
})
