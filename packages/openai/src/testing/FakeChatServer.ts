/**
 * A real HTTP server on loopback that speaks the Chat Completions wire format, scripted per
 * request. Tests and the benchmark point the openai SDK at it (`url`), so the SDK runs unmodified.
 * It records every request, and how many were in flight at once.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, type Scope } from "effect"

export type Reply =
  /** A completion whose message content is `content` (a string as is, anything else as JSON). */
  | { readonly type: "answer"; readonly content: unknown; readonly delayMs?: number; readonly finishReason?: string }
  /** Any status and body (an error, a 429 with `Retry-After`, ...). */
  | { readonly type: "status"; readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly body?: unknown; readonly delayMs?: number }
  /** The connection is reset (TCP RST) before any answer. */
  | { readonly type: "reset"; readonly delayMs?: number }

export interface RecordedRequest {
  readonly index: number
  readonly at: number
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: ChatRequestBody
}

export interface ChatRequestBody {
  readonly model?: string
  readonly messages?: ReadonlyArray<{ readonly role: string; readonly content: string }>
  readonly response_format?: { readonly type: string; readonly json_schema?: { readonly name: string; readonly schema: unknown } }
  readonly [key: string]: unknown
}

export type Script = (request: RecordedRequest) => Reply

export interface FakeChatServer {
  /** Base URL for the SDK, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string
  readonly requests: ReadonlyArray<RecordedRequest>
  readonly inFlight: () => number
  readonly maxInFlight: () => number
  /** Replace the script (the recordings stay). */
  readonly setScript: (script: Script) => void
  readonly close: () => Promise<void>
}

/** The text between `<tag>` and `</tag>` in the user message, as the prompts write it. */
export const tagged = (body: ChatRequestBody, tag: string): string | undefined => {
  const user = body.messages?.find((m) => m.role === "user")?.content ?? ""
  const m = new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(user)
  return m?.[1]
}

/** A plausible, valid answer for whichever prompt the request carries (by its schema name). */
export const goodAnswer = (body: ChatRequestBody): unknown => {
  const comment = tagged(body, "comment") ?? tagged(body, "text") ?? ""
  const firstWords = comment.split(/\s+/).slice(0, 3).join(" ")
  switch (body.response_format?.json_schema?.name ?? "") {
    case "comment-score":
      return {
        logical_fallacies: firstWords
          ? [{ fallacy_name: "hasty generalisation", quoted_logical_fallacy_example: firstWords, explanation_and_suggestions: "One case does not make a rule.", suggested_rewrite: "" }]
          : [],
        objectionable_phrases: [],
        negative_tone_phrases: [],
        appears_low_effort: false,
        overall_score: 4,
        toxicity_score: 0.1,
        toxicity_explanation: "Civil."
      }
    case "spam-check":
      return { reasoning: "A genuine opinion about the article.", is_spam: false, confidence: 0.95 }
    case "dogwhistle":
      return {
        reasoning: "No coded language: the words are used literally.",
        dogwhistles_detected: false,
        confidence: 0.9,
        dogwhistle_terms: [],
        categories: [],
        subtlety_level: 0,
        harm_potential: 0
      }
    case "llm-detect":
      return {
        llm_likelihood: 0.2,
        confidence: 0.6,
        signals_detected: firstWords ? [{ signal_type: "stylistic", description: "Polished opening.", quoted_text: firstWords }] : [],
        reasoning: "Reads as written by a person."
      }
    case "relevance":
      return {
        on_topic: { reasoning: "Discusses the article's subject.", on_topic: true, confidence: 0.9 },
        banned_topics: { reasoning: "No banned topic.", banned_topics: [], quantity_on_banned_topics: 0, confidence: 0.9 }
      }
    default: {
      const schema = body.response_format?.json_schema?.schema as { properties?: Record<string, unknown> } | undefined
      const sentences = (tagged(body, "sentences") ?? "").split("\n").filter((l) => /^\d+\. /.test(l)).length
      return Object.fromEntries(Object.keys(schema?.properties ?? {}).map((a) => [a, { summary: 0.2, spans: Array(sentences).fill(0.2) }]))
    }
  }
}

export const completion = (content: unknown, model = "fake-model", finishReason = "stop") => ({
  id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
  object: "chat.completion",
  created: Math.floor(Date.now() / 1000),
  model,
  choices: [{
    index: 0,
    message: { role: "assistant", content: typeof content === "string" ? content : JSON.stringify(content), refusal: null },
    logprobs: null,
    finish_reason: finishReason
  }],
  usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 }
})

/** Starts a server; `close` stops it and drops every open connection. */
export const start = (initial: Script = (r) => ({ type: "answer", content: goodAnswer(r.body) })): Promise<FakeChatServer> => {
  let script = initial
  const requests: Array<RecordedRequest> = []
  const timers = new Set<NodeJS.Timeout>()
  let inFlight = 0
  let maxInFlight = 0

  const later = (ms: number | undefined, f: () => void) => {
    if (!ms) return f()
    const t = setTimeout(() => {
      timers.delete(t)
      f()
    }, ms)
    timers.add(t)
  }

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      let body: ChatRequestBody = {}
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequestBody
      } catch {
        // recorded as empty
      }
      const recorded: RecordedRequest = { index: requests.length, at: Date.now(), path: req.url ?? "", headers: req.headers, body }
      requests.push(recorded)
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      let done = false
      const finish = () => {
        if (!done) {
          done = true
          inFlight--
        }
      }
      res.on("close", finish)
      let reply: Reply
      try {
        reply = script(recorded)
      } catch (e) {
        reply = { type: "status", status: 500, body: { error: { message: String(e), type: "server_error" } } }
      }
      later(reply.delayMs, () => {
        if (res.destroyed) return finish()
        switch (reply.type) {
          case "reset":
            req.socket.resetAndDestroy()
            return finish()
          case "status":
            res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
            res.end(JSON.stringify(reply.body ?? { error: { message: `status ${reply.status}`, type: "fake_error", code: null, param: null } }))
            return
          case "answer":
            res.writeHead(200, { "content-type": "application/json" })
            res.end(JSON.stringify(completion(reply.content, body.model ?? "fake-model", reply.finishReason ?? "stop")))
            return
        }
      })
    })
  }

  const server = createServer(handle)
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        requests,
        inFlight: () => inFlight,
        maxInFlight: () => maxInFlight,
        setScript: (s) => {
          script = s
        },
        close: () =>
          new Promise<void>((done) => {
            for (const t of timers) clearTimeout(t)
            timers.clear()
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })
}

/** `start` as a scoped resource. */
export const make = (script?: Script): Effect.Effect<FakeChatServer, never, Scope.Scope> =>
  Effect.acquireRelease(Effect.promise(() => start(script)), (s) => Effect.promise(() => s.close()))
