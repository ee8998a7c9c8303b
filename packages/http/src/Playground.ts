/**
 * The playground: one page (`GET /playground`) where a site owner pastes a comment and sees every
 * evaluation drawn. The page and its two assets are strings compiled into this package, so every
 * host serves them without a build step, a file system or a CDN. The page talks to the native and
 * compat endpoints from the browser with the user's own credentials; the server keeps no state for
 * it and an unused playground costs a request nothing (three extra routes in the router).
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { PAGE } from "./internal/playground/page.js"
import { SCRIPT } from "./internal/playground/script.js"
import { STYLE } from "./internal/playground/style.js"

export const PATH = "/playground"
export const SCRIPT_PATH = "/playground/playground.js"
export const STYLE_PATH = "/playground/playground.css"
export const ICON_PATH = "/playground/icon.svg"

/** A speech bubble with a check mark, so the browser asks for no `/favicon.ico`. */
const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="3" width="28" height="21" rx="5" fill="#1f4fbf"/>' +
  '<path d="M9 24l-2 6 8-6z" fill="#1f4fbf"/><path d="M10 13.5l4 4 8-8" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>'


/**
 * Only the page's own script and stylesheet run; it may call this server and nothing else; it can
 * be neither framed nor used to submit a form natively (forms are handled by the script).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

const SECURITY_HEADERS = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache"
}

const asset = (body: string, contentType: string) =>
  HttpServerResponse.text(body, { contentType, headers: SECURITY_HEADERS })

/** Adds `GET /playground` and its assets to the API's router. */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.all([
    router.get(PATH, Effect.succeed(asset(PAGE, "text/html; charset=utf-8"))),
    router.get(SCRIPT_PATH, Effect.succeed(asset(SCRIPT, "text/javascript; charset=utf-8"))),
    router.get(STYLE_PATH, Effect.succeed(asset(STYLE, "text/css; charset=utf-8"))),
    router.get(ICON_PATH, Effect.succeed(asset(ICON, "image/svg+xml")))
  ], { discard: true })
)
