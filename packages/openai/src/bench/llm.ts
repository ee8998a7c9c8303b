/**
 * `npm run bench:llm`: the combined evaluation with all three LLM sections against a Chat
 * Completions server that answers after 300 ms, compared with a single section. The sections run
 * concurrently, so the ratio should stay close to 1 (the acceptance bar is < 1.3).
 *
 * BENCH_ITERATIONS (default 10) and BENCH_DELAY_MS (default 300) adjust the run.
 */
import { AccountStore, ArticleContextStore, EngineModes, Megacall, MemoryStores } from "@decorum/core"
import { ArticleContextId } from "@decorum/domain"
import { Effect, Layer, Logger, LogLevel } from "effect"
import * as OpenAiEvaluation from "../OpenAiEvaluation.js"
import * as FakeChatServer from "../testing/FakeChatServer.js"
import * as LocalStub from "../testing/LocalStub.js"

const iterations = Number(process.env.BENCH_ITERATIONS ?? 10)
const delayMs = Number(process.env.BENCH_DELAY_MS ?? 300)

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

const program = Effect.gen(function*() {
  const server = yield* FakeChatServer.make((r) => ({ type: "answer", content: FakeChatServer.goodAnswer(r.body), delayMs }))
  const engine = EngineModes.layer({ mode: "llm" }).pipe(Layer.provide(OpenAiEvaluation.layer({
    baseURL: server.url,
    apiKey: "bench",
    model: "bench-model",
    timeoutMs: 10_000,
    cacheSize: 0 // every iteration pays for its calls
  })), Layer.provide(LocalStub.make().layer))

  return yield* Effect.gen(function*() {
    const account = yield* (yield* AccountStore).ensureAccount("bench@example.com")
    const a = LocalStub.article()
    const { id } = yield* (yield* ArticleContextStore).insert(ArticleContextId.make(globalThis.crypto.randomUUID()), {
      accountId: account.id,
      text: a.text,
      title: a.title,
      topicDescription: a.topicDescription,
      sourceUrl: null,
      profile: a.profile
    })
    const comment = "Trams never work anywhere. Only a fool would pay for this."
    const timed = (flags: Record<string, boolean>) =>
      Effect.gen(function*() {
        const started = performance.now()
        const result = yield* Megacall.megacall(account, { comment, article_context_id: id, banned_topics: ["politics"], ...flags })
        const elapsed = performance.now() - started
        const sections = [result.comment_score, result.spam_check, result.relevance_check].filter((s) => s !== undefined)
        if (Object.keys(result.failures).length > 0 || sections.some((s) => s.provenance.fallbackFrom !== undefined)) {
          return yield* Effect.dieMessage(`a section did not answer from the LLM: ${JSON.stringify(result)}`)
        }
        return elapsed
      })
    const single = { run_comment_score: true }
    const combined = { run_comment_score: true, run_spam_check: true, run_relevance_check: true }
    yield* timed(single)
    yield* timed(combined) // warm-up: connections, JIT
    const singles: Array<number> = []
    const combineds: Array<number> = []
    for (let i = 0; i < iterations; i++) {
      singles.push(yield* timed(single))
      combineds.push(yield* timed(combined))
    }
    return { single: median(singles), combined: median(combineds), maxInFlight: server.maxInFlight(), requests: server.requests.length }
  }).pipe(Effect.provide(Layer.merge(engine, MemoryStores.layer)))
})

Effect.runPromise(program.pipe(Effect.scoped, Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))).then(
  ({ combined, maxInFlight, requests, single }) => {
    const ratio = combined / single
    console.log(`LLM server delay:              ${delayMs} ms, ${iterations} iterations (median)`)
    console.log(`single section (comment_score): ${single.toFixed(1)} ms`)
    console.log(`combined, three LLM sections:   ${combined.toFixed(1)} ms`)
    console.log(`ratio combined / single:        ${ratio.toFixed(3)} (${ratio < 1.3 ? "ok, < 1.3" : "TOO HIGH, >= 1.3"})`)
    console.log(`requests served: ${requests}, most in flight at once: ${maxInFlight}`)
    process.exitCode = ratio < 1.3 ? 0 : 1
  },
  (error) => {
    console.error(error)
    process.exitCode = 1
  }
)
