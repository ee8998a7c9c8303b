/**
 * The playground page as HTTP serves it (the browser test in apps/server drives it for real): the
 * page and its assets come from this server only, under a CSP that allows nothing else, and the
 * script never turns response text into HTML.
 */
import { Playground } from "@decorum/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
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
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const csp = res.headers.get("content-security-policy")!
    const directives = Object.fromEntries(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]))
    expect(directives["default-src"]).toEqual(["'none'"])
    expect(directives["script-src"]).toEqual(["'self'"])
    expect(directives["style-src"]).toEqual(["'self'"])
    expect(directives["connect-src"]).toEqual(["'self'"])
    expect(directives["frame-ancestors"]).toEqual(["'none'"])
    expect(res.headers.get("x-content-type-options")).toBe("nosniff")
    const html = await res.text()
    // No inline code or style for the CSP to have to allow, and nothing from another origin.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i)
    expect(html).not.toMatch(/\son[a-z]+=/i)
    expect(html).not.toMatch(/\sstyle=/i)
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i)
    const assets = [...html.matchAll(/(?:src|href)="(\/playground\/[^"]+)"/g)].map((m) => m[1]!)
    expect(assets.sort()).toEqual([Playground.STYLE_PATH, Playground.SCRIPT_PATH, Playground.ICON_PATH].sort())
    for (const path of assets) expect((await get(path)).status).toBe(200)
    const script = await get(Playground.SCRIPT_PATH)
    expect(script.status).toBe(200)
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    const css = await get(Playground.STYLE_PATH)
    expect(css.status).toBe(200)
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8")
    expect(await css.text()).not.toMatch(/@import|url\(/)
  })

  it("has a label for every form control", async () => {
    const html = await (await get("/playground")).text()
    const ids = [...html.matchAll(/<(?:input|select|textarea)\b[^>]*\bid="([^"]+)"[^>]*>/g)].map((m) => m[1]!)
    const wrapped = [...html.matchAll(/<label>\s*<input\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]!)
    const labelled = new Set([...html.matchAll(/<label for="([^"]+)"/g)].map((m) => m[1]!).concat(wrapped))
    expect(ids.length).toBeGreaterThan(10)
    expect(ids.filter((id) => !labelled.has(id))).toEqual([])
  })

  it("ships a script that never inserts HTML and keeps credentials out of URLs", async () => {
    const script = await (await get(Playground.SCRIPT_PATH)).text()
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/)
    expect(script).toContain("sessionStorage")
    expect(script).not.toContain("localStorage")
    expect(script).toContain('"X-API-Key"')
    // It parses: a syntax error would leave the page dead in every browser.
    expect(() => new Function(script)).not.toThrow()
  })

  it("offers dog whistles and machine-written text: flags, the site's lists, and a section for each answer", async () => {
    const html = await (await get("/playground")).text()
    for (const id of ["run-dogwhistle-check", "run-llm-detect", "sensitive-topics", "dogwhistle-examples", "dogwhistle-section", "llm-section"]) {
      expect(html).toContain(`id="${id}"`)
    }
    const script = await (await get(Playground.SCRIPT_PATH)).text()
    for (const field of ["run_dogwhistle_check", "run_llm_detect", "sensitive_topics", "dogwhistle_examples", "body.dogwhistle_check", "body.llm_detection"]) {
      expect(script).toContain(field)
    }
  })

  it("answers /playground/ too, and is linked from the API reference", async () => {
    const res = await get("/playground/")
    expect(res.status).toBe(200)
    expect(res.headers.get("content-security-policy")).toBe(Playground.CONTENT_SECURITY_POLICY)
    const spec = await (await get("/openapi.json")).json()
    expect(spec.info.description).toContain("](/playground)")
    expect(spec.paths["/playground"]).toBeUndefined()
  })
})
