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
 *   (`encodeFirst`, what the judge runs) against encoding it whole; and an operator model's
 *   tokenizer (`DECORUM_JUDGE_MODEL`, docs/bring-your-own-model.md), which reads the whole comment
 *   on the serving thread: a BERT-style `tokenizer.json` (BERT normaliser and pre-tokenizer,
 *   WordPiece) over a generated 12,000-word vocabulary, on 500 to 20,480 characters.
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

/** A BERT-style tokenizer.json over `words` (WordPiece, lower-casing), as an operator's model might ship. */
const bertTokenizerJson = (words: ReadonlyArray<string>, letters: string) => {
  const vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", ...new Set(words), ...letters.split("").map((c) => `##${c}`), ...letters.split("")]
  const special = (t: string) => ({ SpecialToken: { id: t, type_id: 0 } })
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: vocab.slice(0, 4).map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [special("[CLS]"), { Sequence: { id: "A", type_id: 0 } }, special("[SEP]")],
      pair: [special("[CLS]"), { Sequence: { id: "A", type_id: 0 } }, special("[SEP]"), { Sequence: { id: "B", type_id: 1 } }, special("[SEP]")],
      special_tokens: { "[CLS]": { id: "[CLS]", ids: [2], tokens: ["[CLS]"] }, "[SEP]": { id: "[SEP]", ids: [3], tokens: ["[SEP]"] } }
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab: Object.fromEntries(vocab.map((t, id) => [t, id])) }
  }
}

/** An operator model's tokenizer on comments of 500 to 20,480 characters (the whole comment, as ClassifierJudge reads it). */
const operatorTokenizer = async () => {
  const { Tokenizer } = (await import("@huggingface/tokenizers")) as unknown as {
    Tokenizer: new(json: unknown, config: unknown) => { encode: (t: string, o: { add_special_tokens: boolean }) => { ids: ReadonlyArray<number> } }
  }
  let seed = 7
  const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32
  const letters = "etaoinshrdlucmfwypvbgkqjxz"
  const words = Array.from({ length: 15000 }, () => Array.from({ length: 2 + Math.floor(random() * 8) }, () => letters[Math.floor(random() ** 2 * 26)]).join(""))
  const tokenizer = new Tokenizer(bertTokenizerJson(words.slice(0, 12000), letters), {})
  let text = ""
  while (text.length < Limits.commentMaxLength) text += `${words[Math.floor(random() * words.length)]}${random() < 0.1 ? ". " : " "}`
  for (const length of [500, 2000, Limits.commentMaxLength]) {
    const t = text.slice(0, length)
    const ids = tokenizer.encode(t, { add_special_tokens: false }).ids.length
    const t0 = performance.now()
    for (let i = 0; i < 20; i++) tokenizer.encode(t, { add_special_tokens: false })
    console.log(`operator tokenizer (BERT-style, 12,000 words), ${length} characters (${ids} tokens): ${((performance.now() - t0) / 20).toFixed(2)} ms   load ${loadavg()[0]!.toFixed(1)}`)
  }
}

main().then(firstStage).then(longComment).then(operatorTokenizer).catch((e) => {
  console.error(e)
  process.exitCode = 1
})
