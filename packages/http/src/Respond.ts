/**
 * Building responses: JSON bodies, provenance headers, and errors through `ErrorMapping`.
 */
import type { DecorumError, Evaluated, Provenance } from "@decorum/domain"
import { HttpServerResponse } from "@effect/platform"
import { Cause, Effect } from "effect"
import { type Family, render, renderDefect } from "./ErrorMapping.js"

/**
 * A JSON answer. The body is kept as the JSON text (a raw string body with its type and byte length)
 * rather than encoded to bytes: Node's server then writes the status line, the headers and the body
 * in one `write` (a string body is appended to the head), where a byte body goes out as a second
 * chunk (`writev`); and nothing is encoded twice. The bytes on the wire are the same.
 */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => {
  const text = JSON.stringify(body)
  return HttpServerResponse.raw(text, { status, headers, contentType: "application/json", contentLength: Buffer.byteLength(text) })
}

/** `X-Model-Version` (and `X-Decorum-Fallback`) for the results that made up an answer. */
export const provenanceHeaders = (sections: ReadonlyArray<readonly [string, Provenance]>): Record<string, string> => {
  const headers: Record<string, string> = {}
  const models = [...new Set(sections.map(([, p]) => p.model))]
  if (models.length > 0) headers["x-model-version"] = models.join(", ")
  const fallbacks = sections.filter(([, p]) => p.fallbackFrom !== undefined).map(([name, p]) => `${name}=${p.fallbackFrom}`)
  if (fallbacks.length > 0) headers["x-decorum-fallback"] = fallbacks.join(", ")
  return headers
}

/** A single evaluation's answer. */
export const evaluated = <A>(section: string, result: Evaluated<A>) =>
  json(result.value, 200, provenanceHeaders([[section, result.provenance]]))

export const errorResponse = (family: Family, error: DecorumError) => {
  const rendered = render(family, error)
  return json(rendered.body, rendered.status, rendered.headers)
}

/**
 * A defect (a bug) while answering in `family`: logged with its cause, then a 500 in the family's
 * envelope. The one rule for routes (`inFamily`), the whole app (`HttpApp.envelope`) and the Node
 * fast path.
 */
export const defectResponse = (family: Family, cause: Cause.Cause<unknown>) =>
  Effect.logError("Unhandled defect", cause).pipe(Effect.as(json(renderDefect(family).body, 500)))

/**
 * Runs a handler in a family: typed errors answer in the family's envelope; defects (bugs) are
 * logged and answer 500 in the same envelope.
 */
export const inFamily = <R>(family: Family, effect: Effect.Effect<HttpServerResponse.HttpServerResponse, DecorumError, R>) =>
  effect.pipe(
    Effect.catchAll((error) => Effect.succeed(errorResponse(family, error))),
    Effect.catchAllCause((cause) => (Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : defectResponse(family, cause)))
  )
