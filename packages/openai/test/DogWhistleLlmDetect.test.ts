/**
 * Dog-whistle detection and machine-written-text detection through the LLM (prompts
 * `dogwhistle-v1`, `llm-detect-v1`) against a real Chat Completions server on loopback: the answers
 * are schema-checked, every quote is verbatim (repaired or dropped), an unusable answer falls back
 * to the local model, and the cascade asks the LLM only in the uncertain band.
 */
import { assert, describe, it } from "@effect/vitest"
import { DogWhistleChecker, EngineModes, LlmDetector } from "@decorum/core"
import type { DogWhistleCheckInput } from "@decorum/domain"
import { OpenAiEvaluation } from "@decorum/openai"
import { FakeChatServer, LocalStub } from "@decorum/openai/testing"
import { Effect, Layer, Logger, LogLevel } from "effect"

const COMMENT = "The Globalists are buying up the council again. We all know who they are, if you catch my drift."
const TEXT = "Furthermore, it is important to note that the tram line is a rich tapestry of benefits.\n\n- Cost\n- Time"

const dogInput = (overrides: Partial<DogWhistleCheckInput> = {}): DogWhistleCheckInput => ({
  comment: COMMENT,
  article: LocalStub.article(),
  sensitiveTopics: ["finance", "immigration"],
  examples: ["catch my drift"],
  replyTo: "Who is behind the tram vote?",
  contextComments: ["The vote was close."],
  ...overrides
})

const engine = (server: FakeChatServer.FakeChatServer, mode: EngineModes.EngineMode = "llm", local = LocalStub.make()) =>
  EngineModes.layer({ mode }).pipe(
    Layer.provide(OpenAiEvaluation.layer({ baseURL: server.url, apiKey: "sk-test", model: "test-model", timeoutMs: 3_000, baseBackoffMs: 10, maxRetries: 0 })),
    Layer.provide(local.layer)
  )

const quiet = Logger.minimumLogLevel(LogLevel.None)
const dog = (input = dogInput()) => Effect.flatMap(DogWhistleChecker, (c) => c.check(input))
const llmText = (comment = TEXT, detail?: "full") => Effect.flatMap(LlmDetector, (d) => d.detect({ comment, ...(detail ? { detail } : {}) }))

const dogAnswer = (overrides: Record<string, unknown> = {}) => ({
  reasoning: "\"Globalists\" is an antisemitic code for Jewish people here.",
  dogwhistles_detected: true,
  confidence: 0.92,
  dogwhistle_terms: ["\"globalists\"", "catch my drift", "rootless cosmopolitans"],
  categories: ["antisemitic", " antisemitic ", ""],
  subtlety_level: 0.6,
  harm_potential: 1.4,
  ...overrides
})

describe("dog whistles through the LLM", () => {
  it.scopedLive("sends the site's lists and the thread, repairs near-quotes, drops invented terms, clamps numbers", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(() => ({ type: "answer", content: dogAnswer() }))
      const result = yield* dog().pipe(Effect.provide(engine(server)), Effect.provide(quiet))
      assert.deepStrictEqual(result.provenance, { model: "openai:test-model@dogwhistle-v1" })
      assert.deepStrictEqual(result.value.details, {
        dogwhistle_terms: ["Globalists", "catch my drift"],
        categories: ["antisemitic"],
        subtlety_level: 0.6,
        harm_potential: 1
      })
      for (const t of result.value.details!.dogwhistle_terms) assert.include(COMMENT, t)
      const body = server.requests[0]!.body
      assert.nestedInclude(body.response_format, { type: "json_schema", "json_schema.name": "dogwhistle", "json_schema.strict": true })
      assert.strictEqual(FakeChatServer.tagged(body, "comment"), COMMENT)
      assert.strictEqual(FakeChatServer.tagged(body, "sensitive_topics"), "- finance\n- immigration")
      assert.strictEqual(FakeChatServer.tagged(body, "known_coded_terms"), "- catch my drift")
      assert.strictEqual(FakeChatServer.tagged(body, "replying_to"), "Who is behind the tram vote?")
      assert.strictEqual(FakeChatServer.tagged(body, "thread"), "- The vote was close.")
    }))

  it.scopedLive("answers details: null when nothing is detected, whatever terms the model listed", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(() => ({ type: "answer", content: dogAnswer({ dogwhistles_detected: false, confidence: 0.8 }) }))
      const result = yield* dog(dogInput({ sensitiveTopics: [], examples: [], replyTo: null, contextComments: [], article: null })).pipe(
        Effect.provide(engine(server)),
        Effect.provide(quiet)
      )
      assert.isString(result.value.detection.reasoning)
      assert.deepStrictEqual(result.value, { detection: { reasoning: result.value.detection.reasoning, dogwhistles_detected: false, confidence: 0.8 }, details: null })
      // Empty lists and a missing thread are left out of the prompt.
      const body = server.requests[0]!.body
      for (const tag of ["sensitive_topics", "known_coded_terms", "replying_to", "thread", "article"]) assert.isUndefined(FakeChatServer.tagged(body, tag))
    }))

  it.scopedLive("asks again when 'detected' names no term of the comment, then falls back to the local model (X-Decorum-Fallback)", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(() => ({ type: "answer", content: dogAnswer({ dogwhistle_terms: ["not in the comment"] }) }))
      const local = LocalStub.make()
      const result = yield* dog().pipe(Effect.provide(engine(server, "llm", local)), Effect.provide(quiet))
      assert.deepStrictEqual(result.provenance, { model: LocalStub.MODEL, fallbackFrom: "openai:test-model@dogwhistle-v1" })
      assert.lengthOf(server.requests, 2)
      assert.strictEqual(local.calls.dogwhistle_check, 1)
    }))
})

describe("machine-written text through the LLM", () => {
  it.scopedLive("keeps signals of the four types with verbatim quotes, and offers the types as an enum", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(() => ({
        type: "answer",
        content: {
          llm_likelihood: 0.88,
          confidence: 1.2,
          signals_detected: [
            { signal_type: "word_frequency", description: "Overused LLM word.", quoted_text: "TAPESTRY" },
            { signal_type: "epistemic", description: "Hedged framing.", quoted_text: "it is important to note" },
            { signal_type: "structural", description: "A bullet list in a comment.", quoted_text: "- Cost\n- Time" },
            { signal_type: "vibes", description: "Unknown type.", quoted_text: "tram" },
            { signal_type: "stylistic", description: "Invented quote.", quoted_text: "as a large language model" }
          ],
          reasoning: "Several machine-written signals."
        }
      }))
      const result = yield* llmText().pipe(Effect.provide(engine(server)), Effect.provide(quiet))
      assert.deepStrictEqual(result.provenance, { model: "openai:test-model@llm-detect-v1" })
      assert.strictEqual(result.value.confidence, 1)
      assert.deepStrictEqual(result.value.signals_detected.map((s) => [s.signal_type, s.quoted_text]), [
        ["word_frequency", "tapestry"],
        ["epistemic", "it is important to note"],
        ["structural", "- Cost\n- Time"]
      ])
      for (const s of result.value.signals_detected) assert.include(TEXT, s.quoted_text)
      const schema = JSON.stringify(server.requests[0]!.body.response_format!.json_schema!.schema)
      assert.include(schema, "\"enum\":[\"word_frequency\",\"structural\",\"stylistic\",\"epistemic\"]")
    }))

  it.scopedLive("falls back to the local model when the LLM is down", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(() => ({ type: "status", status: 500 }))
      const result = yield* llmText().pipe(Effect.provide(engine(server)), Effect.provide(quiet))
      assert.deepStrictEqual(result.provenance, { model: LocalStub.MODEL, fallbackFrom: "openai:test-model@llm-detect-v1" })
    }))
})

describe("cascade", () => {
  it.scopedLive("asks the LLM only for uncertain local verdicts (or full detail); a failing LLM leaves the local answer", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make()
      const local = LocalStub.make({ llmLikelihood: 0.05, dogwhistleConfidence: 0.95 })
      yield* Effect.gen(function*() {
        assert.deepStrictEqual((yield* llmText()).provenance, { model: LocalStub.MODEL })
        assert.deepStrictEqual((yield* dog()).provenance, { model: LocalStub.MODEL })
        assert.lengthOf(server.requests, 0)

        assert.deepStrictEqual((yield* llmText(TEXT, "full")).provenance, { model: "openai:test-model@llm-detect-v1" })
        local.settings.llmLikelihood = 0.5
        assert.deepStrictEqual((yield* llmText("Another comment, uncertain.")).provenance, { model: "openai:test-model@llm-detect-v1" })
        local.settings.dogwhistleConfidence = 0.6
        assert.deepStrictEqual((yield* dog()).provenance, { model: "openai:test-model@dogwhistle-v1" })
        assert.lengthOf(server.requests, 3)

        server.setScript(() => ({ type: "status", status: 500 }))
        const kept = yield* dog(dogInput({ comment: "Something else entirely." }))
        assert.deepStrictEqual(kept.provenance, { model: LocalStub.MODEL, fallbackFrom: "openai:test-model@dogwhistle-v1" })
        assert.strictEqual(kept.value.detection.confidence, 0.6)
      }).pipe(Effect.provide(engine(server, "cascade", local)), Effect.provide(quiet))
    }))
})
