/**
 * The LLM port on the `openai` SDK: Chat Completions with a JSON-schema response format, for
 * OpenAI, Azure OpenAI (v1 endpoint) and OpenAI-compatible servers (vLLM, Ollama, llama.cpp).
 *
 * The SDK's own retries are off (`maxRetries: 0`): the evaluators' policy decides what is retried.
 * A provider without structured output is driven through JSON mode (`json_object`) with the schema
 * in the prompt; in `auto` mode the adapter switches once, for good, the first time the provider
 * rejects a `json_schema` request.
 */
import { Effect, Layer, Redacted, Ref } from "effect"
import OpenAI from "openai"
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions"
import { LlmClient, type LlmClientService, LlmError, type LlmRequest } from "./LlmClient.js"

export type StructuredOutput = "json_schema" | "json_object" | "auto"

export interface OpenAiClientOptions {
  /** Not needed by most self-hosted servers; required for OpenAI and Azure OpenAI. */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  /** Default `https://api.openai.com/v1`. Azure OpenAI: `https://<resource>.openai.azure.com/openai/v1/`. */
  readonly baseURL?: string | undefined
  /** The model (Azure: the deployment name). */
  readonly model: string
  /** The SDK's own deadline per request, a backstop behind the evaluators' timeout. */
  readonly timeoutMs: number
  /** Default `auto`. */
  readonly structuredOutput?: StructuredOutput | undefined
  /** Sent only when set (reasoning models accept only their default). */
  readonly temperature?: number | undefined
  /** Extra headers for every request (a gateway's own key, an organisation header, ...). */
  readonly headers?: Readonly<Record<string, string>> | undefined
}

export const DEFAULT_BASE_URL = "https://api.openai.com/v1"

/** `https://user:secret@host/v1?key=x` -> `https://host/v1`: safe to log. */
export const redactUrl = (url: string): string => {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname}`
  } catch {
    return "<invalid url>"
  }
}

/** Milliseconds to wait according to `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export const retryAfterMs = (headers: Headers | undefined, now: number = Date.now()): number | undefined => {
  if (!headers) return undefined
  const ms = headers.get("retry-after-ms")
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  const ra = headers.get("retry-after")
  if (ra === null || ra.trim() === "") return undefined
  if (Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000)
  const date = Date.parse(ra)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

const classify = (error: unknown): LlmError => {
  if (error instanceof LlmError) return error
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new LlmError({ kind: "timeout", message: "The LLM provider did not answer in time." })
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new LlmError({ kind: "connection", message: `Connection to the LLM provider failed: ${error.message}` })
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status
    const message = `The LLM provider answered ${status ?? "an error"}: ${error.message}`.slice(0, 500)
    if (status === 429) {
      const wait = retryAfterMs(error.headers)
      return new LlmError({ kind: "rate_limited", status, message, ...(wait === undefined ? {} : { retryAfterMs: wait }) })
    }
    if (status !== undefined && (status >= 500 || status === 408 || status === 409)) {
      const wait = retryAfterMs(error.headers)
      return new LlmError({ kind: "server", status, message, ...(wait === undefined ? {} : { retryAfterMs: wait }) })
    }
    if (status === undefined) return new LlmError({ kind: "connection", message })
    return new LlmError({ kind: "rejected", status, message })
  }
  return new LlmError({ kind: "malformed", message: `Unreadable answer from the LLM provider: ${String(error)}`.slice(0, 500) })
}

/** Parses a model's answer: plain JSON, JSON in a Markdown fence, or JSON with chatter around it. */
export const parseJsonAnswer = (content: string): unknown => {
  const trimmed = content.trim()
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed)
  const body = fenced ? fenced[1]! : trimmed
  try {
    return JSON.parse(body)
  } catch {
    const start = body.indexOf("{")
    const end = body.lastIndexOf("}")
    if (start >= 0 && end > start) {
      try {
        return JSON.parse(body.slice(start, end + 1))
      } catch {
        // fall through
      }
    }
    throw new LlmError({ kind: "malformed", message: "The LLM answered something that is not JSON." })
  }
}

/** Servers known to take `max_completion_tokens`; the others get the older `max_tokens`. */
const takesMaxCompletionTokens = (baseURL: string) => /(^|\.)openai\.com$|\.openai\.azure\.com$/.test(safeHost(baseURL))
const safeHost = (url: string) => {
  try {
    return new URL(url).hostname
  } catch {
    return ""
  }
}

export const make = (options: OpenAiClientOptions): Effect.Effect<LlmClientService> =>
  Effect.gen(function*() {
    const baseURL = options.baseURL ?? DEFAULT_BASE_URL
    const client = new OpenAI({
      // Keyless servers (Ollama, llama.cpp, vLLM without --api-key) ignore the header.
      apiKey: options.apiKey ? Redacted.value(options.apiKey) : "unused",
      baseURL,
      maxRetries: 0,
      timeout: options.timeoutMs,
      ...(options.headers ? { defaultHeaders: { ...options.headers } } : {})
    })
    const configured = options.structuredOutput ?? "auto"
    const format = yield* Ref.make<"json_schema" | "json_object">(configured === "json_object" ? "json_object" : "json_schema")
    const tokensParam = takesMaxCompletionTokens(baseURL) ? "max_completion_tokens" : "max_tokens"

    const params = (request: LlmRequest, mode: "json_schema" | "json_object"): ChatCompletionCreateParamsNonStreaming => {
      const messages = request.messages.map((m) => ({ role: m.role, content: m.content }))
      if (mode === "json_object") {
        // JSON mode has no schema of its own: put it in the prompt (and the word JSON, which OpenAI requires).
        messages.push({
          role: "system",
          content: `Answer with one JSON object, and nothing else, that validates against this JSON schema:\n${
            JSON.stringify(request.schema.jsonSchema)
          }`
        })
      }
      return {
        model: options.model,
        messages,
        response_format: mode === "json_schema"
          ? { type: "json_schema", json_schema: { name: request.schema.name, schema: { ...request.schema.jsonSchema }, strict: true } }
          : { type: "json_object" },
        ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
        ...(request.maxTokens === undefined ? {} : { [tokensParam]: request.maxTokens })
      }
    }

    const attempt = (request: LlmRequest, mode: "json_schema" | "json_object") =>
      Effect.tryPromise({
        try: (signal) => client.chat.completions.create(params(request, mode), { signal, maxRetries: 0, timeout: options.timeoutMs }),
        catch: classify
      }).pipe(
        Effect.flatMap((completion) =>
          Effect.try({
            try: () => {
              const choice = completion.choices?.[0]
              if (!choice) throw new LlmError({ kind: "malformed", message: "The LLM answered no choices." })
              if (choice.message?.refusal) {
                throw new LlmError({ kind: "refused", message: `The model declined: ${choice.message.refusal}`.slice(0, 300) })
              }
              if (choice.finish_reason === "content_filter") {
                throw new LlmError({ kind: "refused", message: "The provider's content filter stopped the answer." })
              }
              if (choice.finish_reason === "length") {
                throw new LlmError({ kind: "malformed", message: "The LLM's answer was cut off (token limit)." })
              }
              const content = choice.message?.content
              if (typeof content !== "string" || content.trim() === "") {
                throw new LlmError({ kind: "malformed", message: "The LLM answered no content." })
              }
              return parseJsonAnswer(content)
            },
            catch: classify
          })
        )
      )

    const complete = (request: LlmRequest) =>
      Effect.flatMap(Ref.get(format), (mode) =>
        attempt(request, mode).pipe(
          Effect.catchIf(
            (e) => configured === "auto" && mode === "json_schema" && e.kind === "rejected" && (e.status === 400 || e.status === 422),
            (e) =>
              // The provider may not know `json_schema`: try JSON mode; keep it if that works.
              attempt(request, "json_object").pipe(
                Effect.tap(() =>
                  Ref.set(format, "json_object").pipe(
                    Effect.zipRight(Effect.logWarning("LLM provider rejected json_schema; using JSON mode from now on", {
                      baseURL: redactUrl(baseURL),
                      rejection: e.message
                    }))
                  )
                ),
                Effect.mapError((second) => (second.kind === "rejected" ? e : second))
              )
          )
        ))

    return LlmClient.of({ model: `openai:${options.model}`, complete })
  })

/** The LLM port on the openai SDK. */
export const layer = (options: OpenAiClientOptions): Layer.Layer<LlmClient> => Layer.effect(LlmClient, make(options))
