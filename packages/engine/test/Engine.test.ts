/**
 * The composition root with an LLM mode configured from the environment, against a real Chat
 * Completions server on loopback: the key is sent, the configuration is logged once, the key never.
 */
import { EngineInfo, SpamChecker } from "@decorum/core"
import { Engine } from "@decorum/engine"
import { FakeChatServer } from "@decorum/openai/testing"
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Logger } from "effect"

const KEY = "sk-test-0123456789abcdefSECRET"

describe("Engine.layerConfig", () => {
  it.scopedLive("reads the environment, sends the key, falls back to the local model, and never logs the key", () =>
    Effect.gen(function*() {
      const server = yield* FakeChatServer.make(() => ({ type: "status", status: 401, body: { error: { message: "Incorrect API key provided" } } }))
      const lines: Array<string> = []
      const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => lines.push(JSON.stringify(message))))
      const env = {
        DECORUM_DB: "memory",
        DECORUM_LOCAL_MODEL: "lexicon",
        DECORUM_ENGINE: "llm",
        OPENAI_API_KEY: KEY,
        OPENAI_BASE_URL: server.url,
        DECORUM_LLM_MODEL: "env-model",
        DECORUM_LLM_TIMEOUT_MS: "2000"
      }
      const layer = Engine.layerConfig.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
      const { info, result } = yield* Effect.gen(function*() {
        const result = yield* Effect.flatMap(SpamChecker, (s) => s.check({ comment: "Buy cheap watches now", article: null }))
        return { info: yield* EngineInfo, result }
      }).pipe(Effect.provide(layer), Effect.provide(capture))
      assert.strictEqual(info.modelVersion, "openai:env-model")
      assert.strictEqual(result.provenance.fallbackFrom, "openai:env-model@spam-check-v1")
      assert.strictEqual(server.requests[0]!.headers.authorization, `Bearer ${KEY}`)
      assert.isTrue(lines.some((l) => l.includes("Decorum evaluation engine")))
      assert.isTrue(lines.some((l) => l.includes("LLM evaluation failed")))
      assert.notInclude(lines.join("\n"), "SECRET")
    }))

  it.scopedLive("local mode builds no LLM client and names the local model set", () =>
    Effect.gen(function*() {
      const env = { DECORUM_DB: "memory", DECORUM_LOCAL_MODEL: "lexicon", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" }
      const layer = Engine.layerConfig.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
      const { info, result } = yield* Effect.gen(function*() {
        const result = yield* Effect.flatMap(SpamChecker, (s) => s.check({ comment: "Buy cheap watches now", article: null }))
        return { info: yield* EngineInfo, result }
      }).pipe(Effect.provide(layer))
      assert.notInclude(info.modelVersion, "openai")
      assert.strictEqual(result.provenance.model.includes("openai"), false)
      assert.isUndefined(result.provenance.fallbackFrom)
    }))
})
