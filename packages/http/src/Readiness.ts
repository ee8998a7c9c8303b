/**
 * Whether the host is shutting down: `/readyz` then answers 503 (`status: "unavailable"`) at once,
 * so a load balancer stops sending new requests while the ones already sent are answered. A host
 * that drains provides it; without it the server is ready whenever its store answers.
 */
import { Context, Layer } from "effect"

export class Readiness extends Context.Tag("@decorum/http/Readiness")<Readiness, { readonly stopping: () => boolean }>() {}

/** Readiness from a host's own flag. */
export const layer = (stopping: () => boolean) => Layer.succeed(Readiness, { stopping })
