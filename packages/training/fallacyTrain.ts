/**
 * `node packages/training/run.mjs fallacy [--out DIR] [--check] [--C 1] [--weight 10] [--bits 17]
 * [--chars 3-5|none] [--detector-excludes a,b] [--typer-C 2] [--typer-balance none|type]
 * [--source-weights reddit-informal-fallacies=4,...] [--cross] [--dry]` (also run by `npm run train`, with its options): trains the fallacy detector and typer on the corpora in
 * ../shared/data (CoCoLoFa's train articles and every other corpus), chooses the detector's
 * threshold on CoCoLoFa's dev articles for F1, prints the dev figures, and writes
 * `fallacy.json` + `fallacy.bin` into the models directory. Reads no test article.
 */
import { createHash } from "node:crypto"
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { bestF1Threshold, detection, FALLACY_DEFAULTS, fallacyManifest, type FallacyOptions, splitOf, trainFallacy, type TyperBalance, weightsOf } from "./fallacy.js"
import { fallacyCorpora } from "./fallacyData.js"
import { dataDir, MODELS_DIR } from "./pipeline.js"
import { splitSentences } from "@decorum/core"

export const FALLACY_VERSION = "fallacy-2026.11.2"

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const log = (s: string) => process.stderr.write(s + "\n")

const main = () => {
  const dir = dataDir()
  const check = process.argv.includes("--check")
  const out = check ? mkdtempSync(join(tmpdir(), "decorum-fallacy-")) : (arg("--out") ?? MODELS_DIR)
  const options: FallacyOptions = {
    ...FALLACY_DEFAULTS,
    C: Number(arg("--C") ?? FALLACY_DEFAULTS.C),
    typerC: Number(arg("--typer-C") ?? arg("--C") ?? FALLACY_DEFAULTS.typerC ?? FALLACY_DEFAULTS.C),
    inDomainWeight: Number(arg("--weight") ?? FALLACY_DEFAULTS.inDomainWeight),
    bits: Number(arg("--bits") ?? FALLACY_DEFAULTS.bits),
    chars: arg("--chars") === undefined ? FALLACY_DEFAULTS.chars : arg("--chars") === "none" ? null : (arg("--chars")!.split("-").map(Number) as [number, number]),
    detectorExcludes: arg("--detector-excludes")?.split(",") ?? FALLACY_DEFAULTS.detectorExcludes ?? [],
    typerBalance: (arg("--typer-balance") as TyperBalance | undefined) ?? FALLACY_DEFAULTS.typerBalance ?? "none",
    sourceWeights: arg("--source-weights") === undefined
      ? (FALLACY_DEFAULTS.sourceWeights ?? {})
      : Object.fromEntries(arg("--source-weights")!.split(",").filter((e) => e !== "").map((e) => [e.split("=")[0]!, Number(e.split("=")[1])])),
    log
  }
  const all = fallacyCorpora(dir)
  const counts = new Map<string, { rows: number; fallacious: number; typed: number }>()
  for (const r of all) {
    const c = counts.get(r.source) ?? { rows: 0, fallacious: 0, typed: 0 }
    c.rows++
    c.fallacious += r.fallacy
    if (r.type !== undefined) c.typed++
    counts.set(r.source, c)
  }
  for (const [s, c] of counts) log(`${s}: ${c.rows} rows, ${c.fallacious} fallacious, ${c.typed} typed`)
  // --cross: the cross-corpus protocol's recipe check (train without CoCoLoFa, score its dev articles)
  const cross = process.argv.includes("--cross")
  const train = all.filter((r) => splitOf(r) === "train" && !(cross && r.source === "cocolofa"))
  const dev = all.filter((r) => splitOf(r) === "dev")
  log(`training on ${train.length} rows (C=${options.C}, in-domain weight ${options.inDomainWeight}, 2^${options.bits} slots, characters ${JSON.stringify(options.chars)}, typer C=${options.typerC} balance ${options.typerBalance} source weights ${JSON.stringify(options.sourceWeights)}); dev: ${dev.length} CoCoLoFa comments`)
  const trained = trainFallacy(train, options)
  const w = weightsOf(trained)
  const scored = dev.map((r) => w.analyse(r.text, splitSentences(r.text), undefined, true))
  const scores = scored.map((s) => s.score)
  const { threshold, f1 } = bestF1Threshold(scores, dev.map((r) => r.fallacy))
  const d = detection(dev, scores, scored.map((s) => s.type), threshold)
  console.log(`dev (CoCoLoFa dev articles, ${d.rows} comments, ${d.positives} fallacious): threshold ${threshold.toFixed(3)} (log-odds), P ${d.precision.toFixed(3)} R ${d.recall.toFixed(3)} F1 ${f1.toFixed(3)}, type accuracy ${d.typeAccuracy.toFixed(3)}, reported with the right type ${d.reportedRightType.toFixed(3)}`)
  if (process.argv.includes("--dry")) return
  mkdirSync(out, { recursive: true })
  const manifest = fallacyManifest(trained, Math.round(threshold * 1e4) / 1e4, FALLACY_VERSION, {
    dev: { comments: d.rows, precision: round(d.precision), recall: round(d.recall), f1: round(d.f1), typeAccuracy: round(d.typeAccuracy) },
    options: { bits: options.bits, chars: options.chars, C: options.C, typerC: options.typerC, inDomainWeight: options.inDomainWeight, minTypeRows: options.minTypeRows, detectorExcludes: options.detectorExcludes, typerBalance: options.typerBalance, sourceWeights: options.sourceWeights },
    typeRows: Object.fromEntries(trained.typeRows)
  })
  writeFileSync(join(out, "fallacy.bin"), trained.bytes)
  writeFileSync(join(out, "fallacy.json"), JSON.stringify(manifest, null, 2) + "\n")
  log(`wrote ${join(out, "fallacy.json")} and fallacy.bin (${(trained.bytes.length / 1048576).toFixed(1)} MB)`)
  if (check) {
    const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex")
    const same = sha(join(out, "fallacy.bin")) === sha(join(MODELS_DIR, "fallacy.bin"))
    console.log(`fallacy.bin ${same ? "matches" : "DIFFERS FROM"} the shipped file`)
    if (!same) process.exitCode = 1
  }
}

const round = (x: number) => Math.round(x * 1e4) / 1e4

main()
