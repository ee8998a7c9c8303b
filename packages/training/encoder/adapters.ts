/**
 * `npm run eval:adapt-encoder`: do site adapters learn more from the shipped encoder's sentence
 * embedding than from hashed words? For the simulated sites of `npm run eval:adapt` (the same
 * corpora, the same stratified halves, the same EVAL_ADAPT_N), fits with the core's own adapter code
 * (`Adaptation.fitAttribute`, 5-fold CV and the 0.005 AUC bar; `Adaptation.fitParams` for the
 * final fit) on the corrections half:
 *   (a) today's recipe: hashed word and word-pair features;
 *   (b) the same recipe with the 512-d embedding (unit length) of `use-lite.fp16.onnx` as features;
 *   (c) both feature sets;
 * and reports, per site, the held-out half's ROC AUC of the shipped score and of each adapter
 * (fitted whether or not CV would adopt it), each one's CV decision, and the paired (DeLong)
 * difference of (b) and (c) from (a) on the held-out half with its standard error.
 * The shipped score is the served linear release's TOXICITY probability, the base `decorum adapt`
 * fits on (docs/adaptation.md). Needs the corpora (DECORUM_DATA, default ../shared/data) and
 * onnxruntime-node; embeddings are cached in packages/training/.cache.
 */
import { join } from "node:path"
import { loadavg } from "node:os"
import { Adaptation, Hashing } from "@decorum/core"
import { loadModelSet } from "@decorum/local"
import { corpora, split } from "../adaptSites.js"
import { pairedAuc } from "../delong.js"
import { MODELS_DIR } from "../pipeline.js"
import { DIM, openEncoder } from "./embed.js"
import { DEFAULT_OUT } from "./convert.js"

/** Dense features are numbered past every hashed bucket, as the core's encoder adapters number them. */
const denseIds = Array.from({ length: DIM }, (_, d) => Adaptation.DENSE_OFFSET + d)

const log = (s: string) => console.error(s)
const load = () => loadavg().map((l) => l.toFixed(1)).join(" ")

const main = async () => {
  const data = process.env["DECORUM_DATA"] ?? join(process.cwd(), "..", "shared", "data")
  const N = Number(process.env["EVAL_ADAPT_N"] ?? 2000)
  const linear = loadModelSet(MODELS_DIR)
  const encoder = await openEncoder("fp16", join(DEFAULT_OUT, "use-lite.fp16.onnx"))
  log(`N=${N}, data ${data}, encoder ${encoder.file}, load ${load()}`)
  const rows: Array<string> = []
  for (const corpus of corpora) {
    const t0 = Date.now()
    const { train, test } = split(corpus.load(data), N)
    // As `decorum adapt` reads them: a text's latest correction wins, ordered by a hash of the text.
    const latest = new Map<string, number>()
    for (const r of train) {
      latest.delete(r.text)
      latest.set(r.text, r.label ? 1 : 0)
    }
    const corrections = [...latest].sort((a, b) => Hashing.fnv1a(a[0]) - Hashing.fnv1a(b[0]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    const texts = [...corrections.map((c) => c[0]), ...test.map((r) => r.text)]
    const shipped = texts.map((t) => linear.predict(t, ["TOXICITY"])["TOXICITY"]!)
    const X = await encoder.embed(texts, log)
    const dense = texts.map((_, i) => {
      const v = Array.from(X.subarray(i * DIM, (i + 1) * DIM))
      const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1
      return v.map((x) => x / norm)
    })
    const hashed = texts.map((t) => Adaptation.features(t))
    const embedSeconds = (Date.now() - t0) / 1000
    const variants: Record<string, (i: number) => Pick<Adaptation.Sample, "features" | "values" | "embedding">> = {
      "(a) hashed words": (i) => ({ features: hashed[i]! }),
      "(b) encoder": (i) => ({ features: denseIds, values: dense[i]! }),
      // What the core fits and serves as an encoder adapter.
      "(c) both": (i) => ({ features: hashed[i]!, embedding: dense[i]! })
    }
    const labels = test.map((r) => r.label)
    const offset = corrections.length
    const shippedAuc = Adaptation.auc(test.map((_, j) => shipped[offset + j]!), labels)
    const cells: Array<string> = []
    const heldOutScores: Array<Array<number>> = []
    for (const [name, featuresOf] of Object.entries(variants)) {
      const f0 = Date.now()
      const samples = corrections.map(([, target], i) => ({ base: shipped[i]!, target, ...featuresOf(i) }))
      const fitted = Adaptation.fitAttribute("TOXICITY", samples)
      const params = Adaptation.fitParams(samples)
      const after = test.map((_, j) => {
        const f = featuresOf(offset + j)
        return Adaptation.applyParams(params, shipped[offset + j]!, f.features, f.values, f.embedding)
      })
      const heldOut = Adaptation.auc(after, labels)
      heldOutScores.push(after)
      const r = fitted.report
      log(`${corpus.name} ${name}: held-out ${heldOut.toFixed(4)} (shipped ${shippedAuc.toFixed(4)}), CV ${r.cvAucBefore} -> ${r.cvAucAfter}, adopted ${r.adopted}, fit ${((Date.now() - f0) / 1000).toFixed(1)} s, load ${load()}`)
      cells.push(`${heldOut.toFixed(4)} (CV ${r.cvAucBefore} -> ${r.cvAucAfter}, ${r.adopted ? "adopted" : "not adopted"})`)
    }
    const y = labels.map((l) => (l ? 1 : 0))
    const versusA = [1, 2].map((k) => {
      const d = pairedAuc(heldOutScores[k]!, heldOutScores[0]!, y)
      return `${(d.a - d.b >= 0 ? "+" : "") + (d.a - d.b).toFixed(4)} ± ${d.se.toFixed(4)}`
    })
    rows.push(`| ${corpus.name} | ${corrections.length} | ${test.length} (${labels.filter(Boolean).length}) | ${shippedAuc.toFixed(4)} | ${cells.join(" | ")} | ${versusA.join(" | ")} |`)
    log(`${corpus.name}: shipped scores and embeddings of ${texts.length} texts in ${embedSeconds.toFixed(0)} s`)
  }
  console.log(`| corpus | corrections | held-out (positives) | shipped | ${["(a) hashed words", "(b) encoder", "(c) both"].join(" | ")} | (b) - (a) | (c) - (a) |`)
  console.log("|---|---|---|---|---|---|---|---|---|")
  for (const r of rows) console.log(r)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
