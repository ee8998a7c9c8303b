/**
 * Every native answer of every engine path (local, llm, cascade, and the local fallback when the
 * LLM fails) parses in the hosted original's official Python client: the same checks as the
 * contract suite (`packages/http/test/respectify.ts`), against the real engine a host assembles,
 * served on a loopback socket, with the LLM played by a chat-completions server on loopback.
 */
import { Auth } from "@decorum/core"
import { Engine } from "@decorum/engine"
import { HttpApp, HttpConfig, Prometheus } from "@decorum/http"
import { FakeChatServer } from "@decorum/openai/testing"
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Metric } from "effect"
import { createServer } from "node:http"
import { expectOfficialClientParses } from "../../../packages/http/test/contract.js"
import * as Respectify from "../../../packages/http/test/respectify.js"

type Path = "local" | "llm" | "cascade" | "fallback"

/** The fake LLM: a valid answer for every prompt, or (fallback) a 500 every time. */
const fakeLlm = (path: Path) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      FakeChatServer.start(
        path === "fallback"
          ? () => ({ type: "status", status: 500, body: { error: { message: "down", type: "server_error" } } })
          : (r) => ({ type: "answer", content: FakeChatServer.goodAnswer(r.body) })
      )
    ),
    (server) => Effect.promise(() => server.close())
  )

const serve = (path: Path, llmUrl: string) => {
  const mode = path === "local" ? "local" : path === "cascade" ? "cascade" : "llm"
  const engine = Engine.layerOptions({
    db: "memory",
    llm: { mode, baseURL: llmUrl, apiKey: "test", maxRetries: 0, baseBackoffMs: 1, breakerThreshold: 1000 }
  })
  return HttpApiBuilder.serve().pipe(
    Layer.provide(HttpApp.layer),
    Layer.provideMerge(Layer.mergeAll(engine, HttpConfig.layer({ publicBaseUrl: null }))),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
  )
}

const COMMENT = "You always ignore the budget, you idiot. It has always been done this way, so leave it."
const CODED = "Those urban thugs from the inner city again, you know the type. The budget should go to the police."
const MACHINE =
  "Furthermore, it is important to note that the library budget represents a multifaceted opportunity. Firstly, it enhances access. " +
  "Secondly, it fosters lifelong learning. Ultimately, it is a testament to forward-thinking governance."

const run = (path: Path) =>
  Effect.gen(function*() {
    const llm = yield* fakeLlm(path)
    const context = yield* Layer.build(serve(path, llm.url))
    const address = (yield* Effect.provide(HttpServer.HttpServer, context)).address
    if (address._tag !== "TcpAddress") return yield* Effect.die("expected a TCP address")
    const base = `http://127.0.0.1:${address.port}`
    const email = "client@example.com"
    const { key } = yield* Effect.provide(Auth.createKey(email), context)
    const headers = { "content-type": "application/json", "x-user-email": email, "x-api-key": key }
    const checked = new Set<string>()
    const call = (route: string, body?: unknown, extra: Record<string, string> = {}) =>
      Effect.promise(async () => {
        const res = await fetch(base + route, body === undefined ? { headers } : { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify(body) })
        assert.strictEqual(res.status, 200, `${route}: ${await res.clone().text()}`)
        const seen = await expectOfficialClientParses(route, res)
        if (seen) checked.add(seen)
        return { headers: res.headers, body: await res.json() }
      })

    const topic = yield* call("/v0.2/inittopic", { text: "The council approved a budget for parks and libraries. Residents debated library hours." })
    const article_context_id = topic.body.article_id as string
    // Full detail makes the cascade consult the LLM for this comment.
    const score = yield* call("/v0.2/commentscore", { article_context_id, comment: COMMENT }, { "x-decorum-detail": "full" })
    yield* call("/v0.2/antispam", { comment: COMMENT })
    yield* call("/v0.2/commentrelevance", { article_context_id, comment: COMMENT, banned_topics: ["politics"] })
    // check_dogwhistle and check_llm_likeness as the client sends them.
    const dogwhistle = yield* call("/v0.2/dogwhistle", {
      comment: CODED,
      article_context_id,
      sensitive_topics: ["crime"],
      dogwhistle_examples: ["you know the type"]
    }, { "x-decorum-detail": "full" })
    const llmdetect = yield* call("/v0.2/llmdetect", { comment: MACHINE }, { "x-decorum-detail": "full" })
    // megacall with all six flags (include_* = True), lists and thread as the client sends them.
    const mega = yield* call("/v0.2/megacall", {
      comment: COMMENT,
      run_spam_check: true,
      run_relevance_check: true,
      run_comment_score: true,
      run_dogwhistle_check: true,
      run_perspective: true,
      run_llm_detect: true,
      article_context_id,
      banned_topics: ["politics"],
      sensitive_topics: ["crime"],
      dogwhistle_examples: ["you know the type"],
      reply_to_comment: "What do you think of the budget?",
      context_comments: ["The library hours matter."],
      requested_attributes: ["TOXICITY"]
    }, { "x-decorum-detail": "full" })
    // The WordPress plugin with its defaults: author header, spam + comment score + relevance +
    // dog whistles, every flag sent, the site's lists set and banned topics null.
    const plugin = yield* call("/v0.2/megacall", {
      comment: `Author: Pat Example\nAuthor email: pat@example.com\n\n${CODED}`,
      article_context_id,
      banned_topics: null,
      reply_to_comment: null,
      sensitive_topics: ["crime", "immigration"],
      dogwhistle_examples: ["you know the type"],
      run_spam_check: true,
      run_comment_score: true,
      run_relevance_check: true,
      run_dogwhistle_check: true,
      run_perspective: false,
      run_llm_detect: false
    })
    yield* call("/v0.2/usercheck")
    yield* call("/v0.2/perspective-compat/analyse", { comment: { text: COMMENT }, requestedAttributes: { TOXICITY: {} }, spanAnnotations: true })
    yield* call("/v0.2/perspective-compat/suggestscore", { comment: { text: COMMENT }, attributeScores: { TOXICITY: { summaryScore: { value: 1 } } } })
    return { checked, score, mega, plugin, dogwhistle, llmdetect, llmRequests: llm.requests.length }
  }).pipe(Effect.scoped, Logger.withMinimumLogLevel(LogLevel.Error))

/** The value of one series in the registry's Prometheus rendering (0 when absent). */
const series = Effect.map(Metric.snapshot, (pairs) => {
  const text = Prometheus.render(pairs)
  return (name: string) => Number(text.split("\n").find((l) => l.startsWith(`${name} `))?.slice(name.length + 1) ?? 0)
})

describe("the official Python client's checks on every engine path", () => {
  for (const path of ["local", "llm", "cascade", "fallback"] as const) {
    it.live(path, () =>
      Effect.gen(function*() {
        const before = yield* series
        const { checked, dogwhistle, llmRequests, llmdetect, mega, plugin, score } = yield* run(path)
        const after = yield* series
        const delta = (name: string) => after(name) - before(name)
        assert.deepStrictEqual([...checked].sort(), Object.keys(Respectify.modelFor).sort())
        // Not vacuous: the comment score has a fallacy and an objectionable phrase to hold.
        assert.isAbove(score.body.logical_fallacies.length, 0)
        assert.deepStrictEqual(mega.body.comment_score.logical_fallacies.length, score.body.logical_fallacies.length)
        // Every requested section, and only those.
        assert.deepStrictEqual(Object.keys(mega.body).sort(), ["comment_score", "dogwhistle_check", "llm_detection", "perspective", "relevance_check", "spam_check"])
        assert.deepStrictEqual(Object.keys(plugin.body).sort(), ["comment_score", "dogwhistle_check", "relevance_check", "spam_check"])
        // Quotes are the comment's own words (of the text after the plugin's header).
        for (const term of dogwhistle.body.details?.dogwhistle_terms ?? []) assert.include(CODED, term)
        for (const term of plugin.body.dogwhistle_check.details?.dogwhistle_terms ?? []) assert.include(CODED, term)
        for (const s of llmdetect.body.signals_detected) assert.include(MACHINE, s.quoted_text)
        // The local detector finds the coded terms itself (the fake LLM answers "none").
        if (path === "local" || path === "fallback") {
          assert.isTrue(dogwhistle.body.detection.dogwhistles_detected)
          assert.isTrue(plugin.body.dogwhistle_check.detection.dogwhistles_detected)
        }
        if (path === "llm" || path === "cascade") {
          assert.include(dogwhistle.headers.get("x-model-version") ?? "", "dogwhistle-v1")
          assert.include(llmdetect.headers.get("x-model-version") ?? "", "llm-detect-v1")
        }
        if (path === "fallback") {
          assert.include(dogwhistle.headers.get("x-decorum-fallback") ?? "", "dogwhistle_check=")
          assert.include(llmdetect.headers.get("x-decorum-fallback") ?? "", "llm_detection=")
        }
        // Each path is the one it claims: the LLM was asked (or not), and the fallback was taken.
        assert.strictEqual(llmRequests > 0, path !== "local")
        const model = score.headers.get("x-model-version") ?? ""
        if (path === "llm" || path === "cascade") assert.include(model, "comment-score")
        if (path === "fallback") assert.include(score.headers.get("x-decorum-fallback") ?? "", "comment_score")
        else assert.isNull(score.headers.get("x-decorum-fallback"))
        // The metrics say the same: which engine answered, and what the LLM was asked.
        const answered = path === "local" ? "local" : path === "fallback" ? "fallback" : "llm"
        assert.isAtLeast(delta(`decorum_evaluations_total{section="comment_score",engine="${answered}"}`), 2)
        const ok = delta(`decorum_llm_calls_total{evaluation="comment_score",outcome="ok"}`)
        const failed = delta(`decorum_llm_calls_total{evaluation="comment_score",outcome="server"}`)
        assert.deepStrictEqual([ok > 0, failed > 0], [path === "llm" || path === "cascade", path === "fallback"])
      }))
  }
})
