/**
 * The LLM port: one structured completion (chat messages in, one JSON value out, shaped by a JSON
 * schema). It knows nothing about comments; the evaluators (`LlmEvaluators.ts`) own the prompts,
 * validation and resilience, so any provider that can fill this port (the openai SDK here; another
 * SDK or a test double elsewhere) gets them all.
 *
 * An adapter makes exactly one attempt per `complete` call (no retries of its own), classifies its
 * failures as `LlmError`s and stops when interrupted (timeouts interrupt it).
 */
import { Context, Data, type Effect } from "effect"

export interface LlmMessage {
  readonly role: "system" | "user"
  readonly content: string
}

/** A JSON schema (draft 2020-12 subset accepted by structured-output providers), self-contained. */
export type JsonSchemaObject = { readonly [key: string]: unknown }

export interface LlmRequest {
  readonly messages: ReadonlyArray<LlmMessage>
  /** The expected answer: `name` matches `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly schema: { readonly name: string; readonly jsonSchema: JsonSchemaObject }
  /** Upper bound on the answer's length, in tokens. */
  readonly maxTokens?: number
}

export type LlmErrorKind =
  /** The provider did not answer in time (the adapter's own deadline). */
  | "timeout"
  /** 429. `retryAfterMs` when the provider said how long to wait. */
  | "rate_limited"
  /** 5xx, 408, 409. */
  | "server"
  /** The connection failed or was reset before an answer arrived. */
  | "connection"
  /** 4xx other than the above: the request itself is wrong (bad key, unknown model, ...). */
  | "rejected"
  /** The answer is not JSON, was cut off, or does not fit the schema. */
  | "malformed"
  /** The model declined to answer (a refusal or a content filter). */
  | "refused"
  /** Not attempted: the circuit breaker is open (set by the evaluators, never by an adapter). */
  | "unavailable"

/** A failed completion. Internal to the LLM path: evaluators turn it into a `ProviderFailure`. */
export class LlmError extends Data.TaggedError("LlmError")<{
  readonly kind: LlmErrorKind
  readonly message: string
  readonly status?: number
  readonly retryAfterMs?: number
}> {
  /** Whether trying again soon may help: rate limits, server errors and dropped connections. */
  get transient(): boolean {
    return this.kind === "rate_limited" || this.kind === "server" || this.kind === "connection"
  }
}

export interface LlmClientService {
  /** Names the provider and model in provenance, e.g. `openai:gpt-4o-mini`. */
  readonly model: string
  /** One attempt at a structured completion; the answer is parsed JSON (not yet validated). */
  readonly complete: (request: LlmRequest) => Effect.Effect<unknown, LlmError>
}

export class LlmClient extends Context.Tag("@decorum/openai/LlmClient")<LlmClient, LlmClientService>() {}
