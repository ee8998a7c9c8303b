/**
 * `node packages/training/run.mjs fallacytyper [--C 1,2,4] [--balance none,type] [--reddit 1,3]`:
 * the typer's recipe search on dev only. Featurises every training row once, then fits the type
 * heads of each variant and prints type accuracy on CoCoLoFa's dev articles in both protocols:
 * in-domain (CoCoLoFa's train articles + the other corpora) and cross-corpus (the other corpora
 * without the eval's held-out tenth, as `eval:commentscore` trains them). Reads no test article.
 */
import type { Fallacies } from "@decorum/domain"
import { fitLogistic, type TfidfMatrix } from "./baseline.js"
import * as D from "./data.js"
import { fallacyMatrix, FALLACY_DEFAULTS, splitOf, typerWeights, type TyperBalance } from "./fallacy.js"
import { fallacyCorpora, type FallacyRow } from "./fallacyData.js"
import { dataDir } from "./pipeline.js"

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const list = (name: string, fallback: string) => (arg(name) ?? fallback).split(",")
const log = (s: string) => process.stderr.write(s + "\n")

const main = () => {
  const all = fallacyCorpora(dataDir()).filter((r) => splitOf(r) !== "test")
  const dev = all.flatMap((r, i) => (r.source === "cocolofa" && splitOf(r) === "dev" && r.type !== undefined ? [i] : []))
  const heldOut = (r: FallacyRow) => D.hash32(`fallacy-cross:${r.group}`) % 10 === 0
  const protocols: Record<string, Array<number>> = {
    "in-domain": all.flatMap((r, i) => (splitOf(r) === "train" ? [i] : [])),
    cross: all.flatMap((r, i) => (r.source !== "cocolofa" && !heldOut(r) ? [i] : []))
  }
  const t0 = Date.now()
  const X: TfidfMatrix = fallacyMatrix(all.map((r) => r.text), FALLACY_DEFAULTS)
  log(`features of ${all.length} rows in ${((Date.now() - t0) / 1000).toFixed(0)} s; dev: ${dev.length} typed CoCoLoFa comments`)
  const score = (w: Float64Array, b: number, r: number) => {
    let s = b
    for (let k = X.rowPtr[r]!; k < X.rowPtr[r + 1]!; k++) s += w[X.col[k]!]! * X.val[k]!
    return s
  }
  for (const [protocol, rowsOf] of Object.entries(protocols)) {
    const rows = rowsOf.map((i) => all[i]!)
    for (const balance of list("--balance", "none,type") as Array<TyperBalance>) {
      for (const reddit of list("--reddit", "1").map(Number)) {
        for (const C of list("--C", "2").map(Number)) {
          const { types, weight } = typerWeights(rows, { ...FALLACY_DEFAULTS, typerBalance: balance, sourceWeights: { "reddit-informal-fallacies": reddit } })
          const sw = new Float64Array(all.length)
          rowsOf.forEach((i, k) => (sw[i] = weight[k]!))
          const typed = rowsOf.filter((i, k) => weight[k]! > 0)
          const best = new Array<Fallacies.FallacyType | undefined>(all.length)
          const top = new Float64Array(all.length).fill(Number.NEGATIVE_INFINITY)
          for (const type of types) {
            const y = Float64Array.from(all, (r) => (r.type === type ? 1 : 0))
            const fit = fitLogistic(X, typed, y, { C, sampleWeight: sw })
            for (const i of dev) {
              const s = score(fit.weights, fit.bias, i)
              if (s > top[i]!) (top[i] = s), (best[i] = type)
            }
          }
          const right = dev.filter((i) => best[i] === all[i]!.type).length
          console.log(`${protocol}\tbalance ${balance}\treddit ${reddit}\tC ${C}\ttype accuracy ${(right / dev.length).toFixed(3)} (${right}/${dev.length})`)
        }
      }
    }
  }
}

main()
