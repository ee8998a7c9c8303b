/**
 * `npm run bench:adapters`: what a site adapter costs one analyze (issue 27 item 4), in process,
 * without HTTP, on the engine `decorum serve` builds (`DECORUM_JUDGE=cascade`: the judge's encoder
 * serves encoder adapters). Three accounts: none adapted, one with a hashed adapter, one with an
 * encoder adapter (stored directly: what applying costs does not depend on the weights fitted).
 * For each, TOXICITY on generated comments, one request at a time: the effect path
 * (`Analyze.analyze`) and the synchronous one (`analyzeNow`, which leaves the encoder account's
 * requests to the effect path, as it does comments the cascade routes to the judge). Mean wall and
 * CPU time per request, deferred ones included (`process.cpuUsage`, the encoder's worker thread
 * included); the load average beside each row.
 * Options (env): BENCH_COMMENTS (default 2,000).
 */
import { loadavg } from "node:os"
import { Adaptation, Analyze, Auth, MemoryStores } from "@decorum/core"
import type { Account, Perspective } from "@decorum/domain"
import { LocalEngine } from "@decorum/local"
import { Effect, Layer, ManagedRuntime } from "effect"
import { benchComments } from "./comments.js"

const n = Number(process.env["BENCH_COMMENTS"] ?? 2_000)
const texts = benchComments(n)
const TOXICITY = "TOXICITY" as Perspective.Attribute
const report = { attribute: TOXICITY, corrections: 0, positives: 0, kind: null, cvAucBefore: null, cvAucAfter: null, adopted: true, adapterId: null, reason: "bench", leftOutRevokedKey: 0 }

/** Weights on the hashed features of the bench comments' words (and on every dimension of the embedding). */
const params = (embedder: Adaptation.Embedder["Type"] | undefined): Adaptation.AdapterParams => {
  const weights: Record<string, number> = {}
  for (const text of texts.slice(0, 200)) for (const f of Adaptation.features(text)) weights[String(f)] = ((f % 7) - 3) / 10
  if (embedder !== undefined) for (let d = 0; d < embedder.dimensions; d++) weights[String(Adaptation.DENSE_OFFSET + d)] = ((d % 5) - 2) / 5
  return {
    kind: embedder === undefined ? "logistic" : "encoder",
    scale: 1.1,
    bias: -0.2,
    weights,
    maxShift: Adaptation.MAX_SHIFT,
    maxShiftUnfamiliar: Adaptation.MAX_SHIFT_UNFAMILIAR,
    ...(embedder === undefined ? {} : { encoder: { sha256: embedder.sha256, dimensions: embedder.dimensions } })
  }
}

const main = async () => {
  const runtime = ManagedRuntime.make(
    Adaptation.layer({ poll: "1 hour" }).pipe(Layer.provideMerge(Layer.merge(MemoryStores.layer, LocalEngine.layer({ judge: "cascade" }))))
  )
  try {
    const embedder = await runtime.runPromise(Effect.serviceOption(Adaptation.Embedder))
    if (embedder._tag === "None") throw new Error("the judge's encoder did not start: no encoder adapter can be served")
    const account = async (email: string, fit?: Adaptation.AdapterParams, fallback?: Adaptation.AdapterParams) => {
      const { account } = await runtime.runPromise(Auth.createKey(email))
      if (fit !== undefined) {
        await runtime.runPromise(Effect.flatMap(Adaptation.AdapterStore, (s) =>
          s.save({ accountId: account.id, attribute: TOXICITY, params: fit, ...(fallback === undefined ? {} : { fallback }), report })))
      }
      return account
    }
    const plain = await account("plain@example.com")
    const hashed = await account("hashed@example.com", params(undefined))
    const dense = await account("encoder@example.com", params(embedder.value), params(undefined))
    await runtime.runPromise(Effect.flatMap(Adaptation.SiteAdapters, (s) => s.refresh))
    const services = await runtime.runPromise(Analyze.nowServices)
    const request = (i: number) => ({ comment: { text: texts[i % n]! }, requestedAttributes: { TOXICITY: {} }, languages: ["en"] })

    const measure = async (name: string, step: (i: number) => Promise<string | undefined> | string | undefined) => {
      for (let i = 0; i < 100; i++) await step(i)
      const cpu = process.cpuUsage()
      const start = process.hrtime.bigint()
      let model: string | undefined
      let answered = 0
      for (let i = 0; i < n; i++) {
        const answer = await step(i)
        if (answer === undefined) continue
        answered++
        model = answer
      }
      const micros = Number(process.hrtime.bigint() - start) / n / 1000
      const used = process.cpuUsage(cpu)
      console.log(
        `| ${name} | ${micros.toFixed(0)} µs | ${((used.user + used.system) / n).toFixed(0)} µs | ${answered} of ${n} | ${model ?? "-"} | ${loadavg()[0]!.toFixed(1)} |`
      )
    }
    console.log(`${n} generated comments, TOXICITY, DECORUM_JUDGE=cascade, one request at a time.\n`)
    console.log("| account, path | wall per request | CPU per request | answered (analyzeNow: the others deferred to the effect path) | model of an answer | load |")
    console.log("|---|---|---|---|---|---|")
    for (const [label, who] of [["no adapter", plain], ["hashed adapter", hashed], ["encoder adapter", dense]] as ReadonlyArray<readonly [string, Account]>) {
      await measure(`${label}, analyze (effect)`, (i) => runtime.runPromise(Analyze.analyze(request(i), "google", who)).then((r) => r.provenance.model))
      await measure(`${label}, analyzeNow`, (i) => {
        const answer = Analyze.analyzeNow(services, request(i), "google", who)
        return answer === undefined ? undefined : answer._tag === "Right" ? answer.right.provenance.model : answer.left._tag
      })
    }
  } finally {
    await runtime.dispose()
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
