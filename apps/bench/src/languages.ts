/**
 * `npm run bench:languages` (issue 28): what language identification costs an English site, and
 * what a server that has served every language holds in memory.
 *
 * 1. `Analyze.analyzeNow` (the Node fast path's analyze) on English comments of forum length, with
 *    the shipped identifier and without one (the same services, `identifier` left out), so the
 *    difference is the identification's cost per request; then the identifier alone.
 * 2. The identifier layer's start-up (the 1 MB n-gram table and franc-min).
 * 3. Memory (RSS and V8 heap, after a GC when run with --expose-gc) of the local engine after
 *    start, after English traffic, and after one comment in every language with a shipped model
 *    (each language's set loads on its first comment).
 *
 * Each timed step runs 500 times to warm up, then BENCH_ITERATIONS times (default 20,000), in
 * BENCH_ROUNDS alternating rounds (default 3), so a change of machine load hits both sides.
 */
import { Analyze, LanguageIdentifier } from "@decorum/core"
import { defaultLanguageDirectory, LanguageIdentification, LocalEngine, readLanguageIndex } from "@decorum/local"
import { Layer, ManagedRuntime, Option } from "effect"
import { benchComments } from "./comments.js"

const iterations = Number(process.env["BENCH_ITERATIONS"] ?? 20_000)
const rounds = Number(process.env["BENCH_ROUNDS"] ?? 3)

/** One comment per language, for the memory of a server that has served every language. */
const SAMPLES: Readonly<Record<string, string>> = {
  ar: "أنت غبي جدا ولا أحد يريد أن يقرأ تعليقاتك هنا",
  de: "Vielen Dank für den hilfreichen Artikel, das war sehr interessant",
  es: "Eres un pendejo de mierda, cállate de una vez por favor",
  fr: "Tu es un connard et une ordure, personne ne veut te lire ici",
  hi: "तुम बहुत बेवकूफ़ हो और कोई तुम्हारी बात नहीं सुनता",
  "hi-Latn": "bhai tu pagal hai kya, koi teri baat nahi sunta yaar",
  id: "Kamu memang bodoh sekali dan tidak ada yang mau membaca ini",
  it: "Sei un coglione di merda e nessuno ti vuole qui",
  ja: "この記事はとても面白かったです、ありがとうございます",
  ko: "이 기사 정말 재미있게 읽었습니다 감사합니다",
  pl: "Jesteś idiotą i nikt nie chce czytać twoich komentarzy",
  pt: "Você é um idiota e ninguém quer ler o que você escreve",
  ru: "Ты тупой урод и никто не хочет читать твои комментарии",
  tr: "Sen tam bir aptalsın ve kimse seni burada istemiyor",
  zh: "这篇文章写得很好，谢谢作者的分享"
}

const memory = (label: string) => {
  ;(globalThis as { gc?: () => void }).gc?.()
  const m = process.memoryUsage()
  console.log(`${label.padEnd(58)} RSS ${(m.rss / 1e6).toFixed(0).padStart(5)} MB   heap ${(m.heapUsed / 1e6).toFixed(0).padStart(5)} MB   external+buffers ${((m.external + m.arrayBuffers) / 1e6).toFixed(0).padStart(5)} MB`)
}

const main = async () => {
  memory("node, nothing loaded")
  const started = performance.now()
  const identifierRuntime = ManagedRuntime.make(LanguageIdentification.layer)
  const identifier = await identifierRuntime.runPromise(LanguageIdentifier)
  console.log(`identifier start-up (n-gram table + franc-min): ${(performance.now() - started).toFixed(0)} ms\n`)

  const runtime = ManagedRuntime.make(LocalEngine.layer({ model: "trained" }).pipe(Layer.provide(Layer.empty)))
  const services = await runtime.runPromise(Analyze.nowServices)
  memory("local engine started (English model, no language set)")
  const without: Analyze.NowServices = { ...services, identifier: Option.none() }
  const texts = benchComments(2_000)
  const body = (text: string) => ({ comment: { text }, requestedAttributes: { TOXICITY: {}, INSULT: {}, PROFANITY: {} } })

  const time = (step: (i: number) => void) => {
    for (let i = 0; i < 500; i++) step(i)
    const cpu = process.cpuUsage()
    for (let i = 0; i < iterations; i++) step(i)
    const used = process.cpuUsage(cpu)
    return (used.user + used.system) / iterations
  }
  const withId: Array<number> = []
  const withoutId: Array<number> = []
  const alone: Array<number> = []
  for (let r = 0; r < rounds; r++) {
    withoutId.push(time((i) => {
      const a = Analyze.analyzeNow(without, body(texts[i % texts.length]!), "google")
      if (a === undefined || a._tag === "Left") throw new Error("analyze failed")
    }))
    withId.push(time((i) => {
      const a = Analyze.analyzeNow(services, body(texts[i % texts.length]!), "google")
      if (a === undefined || a._tag === "Left") throw new Error("analyze failed")
    }))
    alone.push(time((i) => void identifier.detect(texts[i % texts.length]!)))
  }
  const f = (xs: ReadonlyArray<number>) => xs.map((x) => x.toFixed(1)).join(" / ")
  const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
  console.log(`CPU µs per call, ${rounds} rounds of ${iterations} English comments (3 attributes, no languages sent):`)
  console.log(`  analyzeNow without identification: ${f(withoutId)}   mean ${mean(withoutId).toFixed(1)}`)
  console.log(`  analyzeNow with identification:    ${f(withId)}   mean ${mean(withId).toFixed(1)}   (+${(100 * (mean(withId) / mean(withoutId) - 1)).toFixed(1)}%)`)
  console.log(`  the identifier alone:              ${f(alone)}   mean ${mean(alone).toFixed(1)}\n`)

  for (let i = 0; i < 2_000; i++) Analyze.analyzeNow(services, body(texts[i]!), "google")
  memory("after 2,000 English comments")
  const index = readLanguageIndex(defaultLanguageDirectory())
  const served: Array<string> = []
  for (const language of Object.keys(index)) {
    const text = SAMPLES[language]
    if (text === undefined) continue
    const answer = Analyze.analyzeNow(services, { comment: { text }, requestedAttributes: { TOXICITY: {} }, languages: [language] }, "google")
    if (answer !== undefined && answer._tag === "Right") served.push(language)
    else console.log(`  ${language}: ${answer === undefined ? "not synchronous" : JSON.stringify(answer.left)}`)
  }
  memory(`after one comment in each of ${served.length} languages (${served.join(", ")})`)
  await runtime.dispose()
  await identifierRuntime.dispose()
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
