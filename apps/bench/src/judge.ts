/**
 * `npm run bench:judge`: the built-in judge's own costs (issue 27), apart from HTTP:
 * - start-up: `EncoderJudge.make` (judge.json, the model file's sha256, the worker thread and its
 *   onnxruntime session), the time the engine's start spends on the judge;
 * - the backend's wall time per comment on generated forum comments, in calls of 1, 8 and 32
 *   comments, with 1 and 2 intra-op threads (the choice of `EncoderJudge.DEFAULT_THREADS`), and the
 *   CPU time of the whole process per comment (the worker thread's included);
 * - how long the serving thread's event loop is held at most during those calls (the encoder runs
 *   on its worker thread: this should stay near zero).
 * - the first stage on the serving thread: `analyzeNow` with one attribute on comments the cascade
 *   does not route, with the linear scorer and with the judged one (what cascade adds to every
 *   English analyze);
 * - the tokenizer on the longest comment analyze accepts: the encoder's first 128 tokens
 *   (`encodeFirst`, what the judge runs) against encoding it whole.
 * The one-minute load average is printed beside each row: the machine may be shared.
 * Options (env): BENCH_COMMENTS (default 256).
 */
import { loadavg } from "node:os"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { AttributeScorer } from "@decorum/core"
import { Limits } from "@decorum/domain"
import { EncoderJudge, JudgedAttributeScorer, LocalAttributeScorer, TrainedModel } from "@decorum/local"
import { SentencePiece, type Vocabulary } from "@decorum/local/SentencePiece"
import { Effect, Exit, Layer, Scope } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { defaultModelDirectory } from "@decorum/local"
import { benchComments } from "./comments.js"

const n = Number(process.env["BENCH_COMMENTS"] ?? 256)
const texts = benchComments(n)
const version = (JSON.parse(readFileSync(join(defaultModelDirectory(), "manifest.json"), "utf8")) as { readonly version: string }).version

const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

const main = async () => {
  console.log(`${n} generated comments; load average ${loadavg()[0]!.toFixed(1)}\n`)
  for (const threads of [1, 2]) {
    const scope = Effect.runSync(Scope.make())
    const t0 = performance.now()
    const source = await Effect.runPromise(Scope.extend(EncoderJudge.make({ linearVersion: version, threads }), scope))
    console.log(`threads ${threads}: start-up ${(performance.now() - t0).toFixed(0)} ms (judge.json, sha256 of the model, worker thread, session)`)
    await source.backend.logits(texts.slice(0, 32)) // warm-up
    for (const batch of [1, 8, 32]) {
      const delay = monitorEventLoopDelay({ resolution: 1 })
      delay.enable()
      const wall0 = performance.now()
      const cpu0 = cpuMs()
      for (let i = 0; i < n; i += batch) await source.backend.logits(texts.slice(i, i + batch))
      const wall = performance.now() - wall0
      const cpu = cpuMs() - cpu0
      delay.disable()
      console.log(
        `  calls of ${String(batch).padStart(2)}: ${(wall / n).toFixed(2)} ms/comment wall, ${(cpu / n).toFixed(2)} ms/comment CPU (process), ` +
          `event loop held at most ${(delay.max / 1e6).toFixed(1)} ms   load ${loadavg()[0]!.toFixed(1)}`
      )
    }
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/** CPU µs per `analyzeNow` of a one-attribute request, linear and cascade, on the comments the cascade does not route. */
const firstStage = () =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const models = yield* Layer.build(TrainedModel.layer)
    const linear = yield* Effect.provide(AttributeScorer, yield* Layer.build(LocalAttributeScorer.pipe(Layer.provide(Layer.succeedContext(models)))))
    const cascade = yield* Effect.provide(
      AttributeScorer,
      yield* Layer.build(JudgedAttributeScorer.pipe(Layer.provideMerge(EncoderJudge.layer({ mode: "cascade" })), Layer.provideMerge(Layer.succeedContext(models))))
    )
    const input = (text: string) => ({ text, attributes: ["TOXICITY" as const], spans: [{ begin: 0, end: text.length }], context: { article: null, parent: null, entries: [] }, language: "en" })
    const unrouted = texts.filter((t) => cascade.analyzeNow(input(t)) !== undefined)
    const rounds = Math.ceil(50_000 / Math.max(1, unrouted.length))
    for (const [name, scorer] of [["linear", linear], ["cascade", cascade]] as const) {
      for (let warm = 0; warm < 2; warm++) for (const t of unrouted) scorer.analyzeNow(input(t))
      const cpu0 = cpuMs()
      for (let r = 0; r < rounds; r++) for (const t of unrouted) scorer.analyzeNow(input(t))
      const us = ((cpuMs() - cpu0) * 1000) / (rounds * unrouted.length)
      console.log(`first stage, ${name}: ${us.toFixed(2)} µs CPU per analyzeNow (TOXICITY, the ${unrouted.length} comments cascade does not route)   load ${loadavg()[0]!.toFixed(1)}`)
    }
  })))

/** The tokenizer on the longest comment analyze accepts. */
const longComment = () => {
  const vocabulary = JSON.parse(readFileSync(join(defaultModelDirectory(), "encoder", "vocab.json"), "utf8")) as Vocabulary
  const tokenizer = new SentencePiece(vocabulary)
  const text = texts.join(" ").repeat(Math.ceil(Limits.commentMaxLength / texts.join(" ").length)).slice(0, Limits.commentMaxLength)
  for (const [name, run] of [["encodeFirst(text, 128)", () => tokenizer.encodeFirst(text, 128)], ["encode(text) whole", () => tokenizer.encode(text)]] as const) {
    run()
    const t0 = performance.now()
    for (let i = 0; i < 20; i++) run()
    console.log(`tokenizer, ${text.length} characters, ${name}: ${((performance.now() - t0) / 20).toFixed(2)} ms   load ${loadavg()[0]!.toFixed(1)}`)
  }
}

main().then(firstStage).then(longComment).catch((e) => {
  console.error(e)
  process.exitCode = 1
})
