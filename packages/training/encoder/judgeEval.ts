/**
 * The neural judge's part of `npm run eval` (issue 27): `models/encoder/judge.json` in both modes
 * (`DECORUM_JUDGE=cascade`, the default, and `neural`) beside the plain baseline and the shipped
 * linear release, scored as the server scores them (judgeScore.ts: the shipped encoder, the file's
 * heads and bands, JudgeBackend.combine with the served linear probability), on every toxicity head
 * in-domain and cross-domain, on Wikipedia CAT beside Perspective's own scores, and on the
 * functional suite (balanced accuracy and ROC AUC).
 *
 * The release rule (issue 27, item 6; fixed before the test split was read): the judge (cascade,
 * the served default) ships when, on the split it was not tuned on,
 * 1. overall: its mean ROC AUC difference against the shipped linear release over the verdict cells
 *    (each head's natural, enriched and cross-domain-mean AUC) is above zero, and
 * 2. nowhere worse than noise: no evaluation set of any head, nor Wikipedia CAT, nor the functional
 *    suite, has a difference below -1.96 x its paired DeLong standard error.
 */
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { ModelLabel } from "@decorum/local"
import { sigmoid } from "@decorum/local/Calibration"
import type { PlainBaseline } from "../baseline.js"
import type * as D from "../data.js"
import { pairedAuc } from "../delong.js"
import { agreement, rocAuc, spearman } from "../fit.js"
import { FUNCTIONAL_SUITE } from "../functional.js"
import { labelled, recordTestRead, testReads, type EvalSet, type Split } from "../protocols.js"
import { baselineScorer, printTable } from "../versus.js"
import { openEncoder } from "./embed.js"
import { decodeJudgeFile, JUDGE_FILE, type JudgeFile } from "./judgeFile.js"
import { judgeScorer, type JudgeScores, type LinearRelease } from "./judgeScore.js"

const f3 = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(3))
const signed = (x: number) => (Number.isNaN(x) ? "n/a" : `${x >= 0 ? "+" : ""}${x.toFixed(3)}`)
const pct = (x: number) => `${(100 * x).toFixed(1)}%`
const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, v) => a + v, 0) / xs.length

/** The judge file of a model directory (`encoder/judge.json`), checked against its encoder's sha256; undefined when there is none. */
export const loadJudge = (modelsDir: string): { file: JudgeFile; encoderPath: string } | undefined => {
  const path = join(modelsDir, "encoder", JUDGE_FILE)
  if (!existsSync(path)) return undefined
  const file = decodeJudgeFile(readFileSync(path, "utf8"))
  const encoderPath = join(modelsDir, "encoder", file.encoder.file)
  const sha = createHash("sha256").update(readFileSync(encoderPath)).digest("hex")
  if (sha !== file.encoder.sha256) throw new Error(`${path}: encoder ${file.encoder.file} has sha256 ${sha}, the file names ${file.encoder.sha256}`)
  return { file, encoderPath }
}

export interface JudgeEvalInput {
  readonly modelsDir: string
  /** Where the test-read counter lives (models/test-reads.json of the repository). */
  readonly countersDir: string
  readonly split: Split
  readonly sets: ReadonlyArray<EvalSet>
  readonly cat: ReadonlyArray<D.Example>
  readonly linear: LinearRelease
  readonly baseline: PlainBaseline
  readonly labels: ReadonlyArray<ModelLabel>
  readonly log: (s: string) => void
  /**
   * A candidate judge (`--judge-candidate DIR`: DIR/encoder/judge.json and its encoder) to set
   * against the shipped one under the release rule: it ships when its cascade beats the shipped
   * judge's cascade overall and loses nowhere beyond noise.
   */
  readonly candidateDir?: string | undefined
}

/** One evaluation set's AUC of the candidate judge against the shipped judge. */
interface Versus {
  readonly label: ModelLabel
  readonly what: string
  readonly cell: string | undefined
  readonly n: number
  readonly positives: number
  readonly shippedNeural: number
  readonly shipped: number
  readonly candidateNeural: number
  readonly candidate: number
  readonly noise: number
}

interface Row {
  readonly kind: "head" | "cat" | "functional"
  readonly label: ModelLabel
  readonly protocol: string
  readonly set: string
  readonly positives: number
  readonly n: number
  readonly baseline: number
  readonly linear: number
  readonly neural: number
  readonly cascade: number
  /** 1.96 x the paired DeLong standard error of cascade - linear. */
  readonly noise: number
}

export const evaluateJudge = async (input: JudgeEvalInput): Promise<void> => {
  const { split, sets, labels, linear, log } = input
  const loaded = loadJudge(input.modelsDir)
  if (loaded === undefined) {
    console.log(`## Neural judge\n\nNo ${JUDGE_FILE} in ${input.modelsDir}/encoder: nothing to evaluate.\n`)
    return
  }
  const { file, encoderPath } = loaded
  const encoder = await openEncoder("fp16", encoderPath)
  const scorer = judgeScorer(file, encoder, linear, labels, log)
  const candidate = input.candidateDir === undefined ? undefined : loadJudge(input.candidateDir)
  if (input.candidateDir !== undefined && candidate === undefined) throw new Error(`no ${JUDGE_FILE} in ${input.candidateDir}/encoder`)
  const candidateScorer = candidate === undefined ? undefined : judgeScorer(candidate.file, await openEncoder("fp16", candidate.encoderPath), linear, labels, log)
  const versus: Array<Versus> = []
  const compare = (label: ModelLabel, what: string, cell: string | undefined, shipped: JudgeScores, cand: JudgeScores, pick: (m: Map<ModelLabel, Float64Array>) => Array<number>, y: ReadonlyArray<number>) => {
    const d = pairedAuc(pick(cand.cascade), pick(shipped.cascade), y)
    versus.push({
      label, what, cell, n: y.length, positives: y.reduce<number>((a, v) => a + v, 0),
      shippedNeural: rocAuc(pick(shipped.neural), y), shipped: d.b, candidateNeural: rocAuc(pick(cand.neural), y), candidate: d.a, noise: 1.96 * d.se
    })
  }
  const base = baselineScorer(input.baseline)
  const reads = split === "test" ? recordTestRead(input.countersDir, file.release) : (testReads(input.countersDir)[file.release] ?? 0)
  console.log(`## Neural judge ${file.release}, ${split} split\n`)
  console.log(
    `Heads over the encoder ${file.encoder.file} (sha256 ${file.encoder.sha256.slice(0, 12)}...), combined with the served probability of ${file.linearRelease}` +
      `${file.linearRelease === linear.version ? "" : ` (WARNING: evaluated against ${linear.version})`}. ` +
      `neural = every comment judged; cascade (the default) = a comment is judged when the served linear probability of one of the six ` +
      `toxicity attributes (an analyze request of all six) is in that attribute's band ` +
      `(${labels.filter((l) => file.cascade[l] !== undefined).map((l) => `${l} [${file.cascade[l]!.join(", ")}]`).join(", ")}), linear elsewhere. ` +
      `Test split of ${file.release} read ${reads} time${reads === 1 ? "" : "s"}${split === "test" ? " (this run included)" : ""}.\n`
  )

  const rows: Array<Row> = []
  const scored: Array<JudgeScores> = []
  for (const set of sets) {
    const texts = set.rows.map((e) => e.text)
    const s = await scorer(texts)
    scored.push(s)
    const c = candidateScorer === undefined ? undefined : await candidateScorer(texts)
    const b = base(texts)
    for (const label of labels) {
      const { rows: r, y } = labelled(set, label)
      const positives = y.reduce((a, v) => a + v, 0)
      if (positives < 5 || positives === y.length) continue
      const pick = (m: Map<ModelLabel, Float64Array>) => r.map((i) => m.get(label)![i]!)
      if (c !== undefined) compare(label, `${set.protocol} ${set.name}`, set.name === "natural" || set.name === "enriched" ? set.name : set.protocol === "cross-domain" ? "cross-domain (mean)" : undefined, s, c, pick, y)
      const d = pairedAuc(pick(s.cascade), pick(s.linear), y)
      rows.push({
        kind: "head", label, protocol: set.protocol, set: set.name, positives, n: y.length,
        baseline: rocAuc(pick(b), y), linear: d.b, neural: rocAuc(pick(s.neural), y), cascade: d.a, noise: 1.96 * d.se
      })
    }
  }

  // routed shares
  const natural = sets.findIndex((s) => s.name === "natural")
  const share = (ks: ReadonlyArray<number>) => {
    let any = 0
    let n = 0
    for (const k of ks) {
      const s = scored[k]!
      for (const v of s.routed) any += v
      n += sets[k]!.rows.length
    }
    return any / n
  }
  const pooled = sets.map((_, k) => k).filter((k) => sets[k]!.name !== "natural")
  console.log(
    `Cascade: the encoder runs for ${pct(share([natural]))} of the natural-prevalence comments and ${pct(share(pooled))} of all the split's comments ` +
      `(an analyze of the six toxicity attributes; any attribute in its band).\n`
  )

  console.log(`### Per evaluation set: ROC AUC (noise = 1.96 x the paired DeLong standard error of cascade - ${linear.version})\n`)
  const verdictOf = (r: Row) => (r.cascade - r.linear >= 0 ? "better" : r.cascade - r.linear >= -r.noise ? "worse, within noise" : "**WORSE beyond noise**")
  printTable(
    ["head", "protocol", "set", "rows", "positives", "plain baseline", linear.version, "judge neural", "judge cascade", "cascade - linear", "noise", ""],
    rows.map((r) => [r.label, r.protocol, r.set, r.n, r.positives, f3(r.baseline), f3(r.linear), f3(r.neural), f3(r.cascade), signed(r.cascade - r.linear), f3(r.noise), verdictOf(r)])
  )

  // verdict cells: natural, enriched, cross-domain mean
  const cells: Array<{ label: ModelLabel; cell: string; baseline: number; linear: number; neural: number; cascade: number }> = []
  for (const label of labels)
    for (const [cell, pickRows] of [
      ["natural", (r: Row) => r.set === "natural"],
      ["enriched", (r: Row) => r.set === "enriched"],
      ["cross-domain (mean)", (r: Row) => r.protocol === "cross-domain"]
    ] as const) {
      const rs = rows.filter((r) => r.label === label && pickRows(r))
      if (rs.length === 0) continue
      cells.push({ label, cell, baseline: mean(rs.map((r) => r.baseline)), linear: mean(rs.map((r) => r.linear)), neural: mean(rs.map((r) => r.neural)), cascade: mean(rs.map((r) => r.cascade)) })
    }
  console.log(`### Per head (the model card's cells): ROC AUC\n`)
  printTable(
    ["head", "protocol", "plain baseline", linear.version, "judge neural", "judge cascade", "cascade - linear"],
    cells.map((c) => [c.label, c.cell, f3(c.baseline), f3(c.linear), f3(c.neural), f3(c.cascade), signed(c.cascade - c.linear)])
  )
  const overall = {
    baseline: mean(cells.map((c) => c.baseline)), linear: mean(cells.map((c) => c.linear)), neural: mean(cells.map((c) => c.neural)), cascade: mean(cells.map((c) => c.cascade))
  }
  console.log(`Mean over the ${cells.length} cells: plain baseline ${f3(overall.baseline)}, ${linear.version} ${f3(overall.linear)}, judge neural ${f3(overall.neural)}, judge cascade ${f3(overall.cascade)}.\n`)

  // Wikipedia CAT report half beside Perspective
  {
    const texts = input.cat.map((e) => e.text)
    const human = input.cat.map((e) => e.labels.TOXICITY!)
    const api = input.cat.map((e) => Number(e.extra!.api))
    const s = await scorer(texts)
    const b = Array.from(base(texts).get("TOXICITY")!, (z) => sigmoid(z))
    const of = (m: Map<ModelLabel, Float64Array>) => Array.from(m.get("TOXICITY")!)
    const y = human.map((v) => (v >= 0.5 ? 1 : 0))
    if (candidateScorer !== undefined) compare("TOXICITY", "Wikipedia CAT report half", undefined, s, await candidateScorer(texts), of, y)
    const d = pairedAuc(of(s.cascade), of(s.linear), y)
    rows.push({ kind: "cat", label: "TOXICITY", protocol: "Wikipedia CAT", set: "report half", positives: y.reduce<number>((a, v) => a + v, 0), n: y.length, baseline: rocAuc(b, human), linear: d.b, neural: rocAuc(of(s.neural), human), cascade: d.a, noise: 1.96 * d.se })
    console.log(`### Wikipedia CAT report half (${texts.length} comments): TOXICITY beside Perspective's own scores\n`)
    const line = (name: string, v: ReadonlyArray<number>) => [name, f3(rocAuc(v, human)), f3(spearman(v, api)), pct(agreement(v, api, 0.5)), f3(mean(v))]
    printTable(
      ["scorer", "ROC AUC (human label)", "Spearman with Perspective", "agreement with Perspective at 0.5", "mean score"],
      [line("Perspective (historical api score)", api), line("plain baseline (its own sigmoid)", b), line(linear.version, of(s.linear)), line("judge neural", of(s.neural)), line("judge cascade", of(s.cascade))]
    )
  }

  // functional suite: balanced accuracy and ROC AUC
  {
    const cases = FUNCTIONAL_SUITE
    const texts = cases.map((c) => c.text)
    const s = await scorer(texts)
    const b = base(texts)
    const y = cases.map((c) => (c.toxic ? 1 : 0))
    const pick = (get: (l: ModelLabel, i: number) => number) => cases.map((c, i) => get(c.label, i))
    const measure = (name: string, probs: ReadonlyArray<number>) => {
      const tp = probs.filter((v, i) => y[i] === 1 && v > 0.5).length
      const tn = probs.filter((v, i) => y[i] === 0 && v <= 0.5).length
      const pos = y.filter((v) => v === 1).length
      const neg = y.length - pos
      return [name, `${tp}/${pos}`, `${tn}/${neg}`, f3(0.5 * (tp / pos + tn / neg)), f3(rocAuc(probs, y))]
    }
    const lin = pick((l, i) => s.linear.get(l)![i]!)
    const cas = pick((l, i) => s.cascade.get(l)![i]!)
    if (candidateScorer !== undefined) {
      const c = await candidateScorer(texts)
      const of = (m: Map<ModelLabel, Float64Array>) => pick((l, i) => m.get(l)![i]!)
      compare("TOXICITY", "functional suite", undefined, s, c, of, y)
      console.log(`Functional suite, candidate ${candidate!.file.release}: ${measure("judge neural", of(c.neural)).slice(1).join(" | ")} (neural); ${measure("judge cascade", of(c.cascade)).slice(1).join(" | ")} (cascade): toxic caught | non-toxic passed | balanced accuracy | ROC AUC.\n`)
      // per functionality: where the candidate gains and loses answers (above 0.5 on the case's head)
      const shippedCascade = of(s.cascade)
      const candidateCascade = of(c.cascade)
      const byFunctionality = new Map<string, { n: number; toxic: boolean; shipped: number; candidate: number }>()
      cases.forEach((k, i) => {
        const row = byFunctionality.get(k.functionality) ?? { n: 0, toxic: k.toxic, shipped: 0, candidate: 0 }
        row.n++
        if (shippedCascade[i]! > 0.5 === k.toxic) row.shipped++
        if (candidateCascade[i]! > 0.5 === k.toxic) row.candidate++
        byFunctionality.set(k.functionality, row)
      })
      printTable(
        ["functionality", "cases", "expected", `right: ${file.release} cascade`, `right: ${candidate!.file.release} cascade`],
        [...byFunctionality].map(([f, r]) => [f, r.n, r.toxic ? "toxic" : "not toxic", r.shipped, r.candidate])
      )
    }
    const d = pairedAuc(cas, lin, y)
    rows.push({ kind: "functional", label: "TOXICITY", protocol: "functional suite", set: "all cases", positives: y.reduce<number>((a, v) => a + v, 0), n: y.length, baseline: Number.NaN, linear: d.b, neural: Number.NaN, cascade: d.a, noise: 1.96 * d.se })
    console.log(`### Functional suite (${cases.length} cases, ${y.filter((v) => v === 1).length} toxic; toxic = above 0.5 on the case's head)\n`)
    printTable(
      ["scorer", "toxic caught", "non-toxic passed", "balanced accuracy", "ROC AUC"],
      [
        measure("plain baseline (its own sigmoid)", pick((l, i) => sigmoid(b.get(l)![i]!))),
        measure(linear.version, lin),
        measure("judge neural", pick((l, i) => s.neural.get(l)![i]!)),
        measure("judge cascade", cas)
      ]
    )
  }

  // the release rule
  const beyond = rows.filter((r) => r.cascade - r.linear < -r.noise)
  const extra = rows.filter((r) => r.kind !== "head")
  console.log(`### Release rule: judge cascade against ${linear.version}, ${split} split\n`)
  printTable(
    ["check", "result"],
    [
      [`overall: mean cascade - linear over the ${cells.length} head cells > 0`, `${signed(overall.cascade - overall.linear)} (${overall.cascade - overall.linear > 0 ? "pass" : "FAIL"})`],
      ...extra.map((r) => [`${r.protocol}: cascade - linear (noise ${f3(r.noise)})`, `${signed(r.cascade - r.linear)} (${verdictOf(r)})`]),
      [`sets worse beyond noise (of ${rows.length})`, beyond.length === 0 ? "none (pass)" : beyond.map((r) => `${r.label} ${r.set} ${signed(r.cascade - r.linear)} (noise ${f3(r.noise)})`).join("; ") + " (FAIL)"]
    ]
  )
  const ships = overall.cascade - overall.linear > 0 && beyond.length === 0
  console.log(`Release rule on the ${split} split: ${file.release} ${ships ? "SHIPS (beats the linear release overall and loses nowhere beyond noise)" : "does NOT ship"}.\n`)
  if (candidate !== undefined) candidateVerdict(file, candidate.file, split, input.countersDir, versus)
}

/** The release rule for a candidate judge against the shipped one (the same rule, judge against judge). */
const candidateVerdict = (shipped: JudgeFile, candidate: JudgeFile, split: Split, countersDir: string, versus: ReadonlyArray<Versus>): void => {
  const reads = split === "test" ? recordTestRead(countersDir, candidate.release) : (testReads(countersDir)[candidate.release] ?? 0)
  console.log(`## Candidate judge ${candidate.release} against the shipped ${shipped.release}, ${split} split\n`)
  console.log(
    `Candidate encoder ${candidate.encoder.file} (sha256 ${candidate.encoder.sha256.slice(0, 12)}...), bands ` +
      `${Object.entries(candidate.cascade).map(([l, b]) => `${l} [${b.join(", ")}]`).join(", ")}. ` +
      `Test split of ${candidate.release} read ${reads} time${reads === 1 ? "" : "s"}${split === "test" ? " (this run included)" : ""}. ` +
      `noise = 1.96 x the paired DeLong standard error of candidate cascade - shipped cascade.\n`
  )
  const verdictOf = (v: Versus) => (v.candidate - v.shipped >= 0 ? "better" : v.candidate - v.shipped >= -v.noise ? "worse, within noise" : "**WORSE beyond noise**")
  printTable(
    ["head", "set", "rows", "positives", "shipped neural", "shipped cascade", "candidate neural", "candidate cascade", "candidate - shipped (cascade)", "noise", ""],
    versus.map((v) => [v.label, v.what, v.n, v.positives, f3(v.shippedNeural), f3(v.shipped), f3(v.candidateNeural), f3(v.candidate), signed(v.candidate - v.shipped), f3(v.noise), verdictOf(v)])
  )
  const cells = new Map<string, Array<Versus>>()
  for (const v of versus) if (v.cell !== undefined) cells.set(`${v.label} ${v.cell}`, [...(cells.get(`${v.label} ${v.cell}`) ?? []), v])
  const cellMeans = [...cells.values()].map((vs) => ({ shipped: mean(vs.map((v) => v.shipped)), candidate: mean(vs.map((v) => v.candidate)), shippedNeural: mean(vs.map((v) => v.shippedNeural)), candidateNeural: mean(vs.map((v) => v.candidateNeural)) }))
  const overall = mean(cellMeans.map((c) => c.candidate - c.shipped))
  const beyond = versus.filter((v) => v.candidate - v.shipped < -v.noise)
  console.log(
    `Mean over the ${cellMeans.length} head cells: shipped cascade ${f3(mean(cellMeans.map((c) => c.shipped)))}, candidate cascade ${f3(mean(cellMeans.map((c) => c.candidate)))} ` +
      `(neural: shipped ${f3(mean(cellMeans.map((c) => c.shippedNeural)))}, candidate ${f3(mean(cellMeans.map((c) => c.candidateNeural)))}).\n`
  )
  const ships = overall > 0 && beyond.length === 0
  console.log(
    `Release rule on the ${split} split: overall ${signed(overall)} (${overall > 0 ? "pass" : "FAIL"}); worse beyond noise: ` +
      `${beyond.length === 0 ? "none (pass)" : beyond.map((v) => `${v.label} ${v.what} ${signed(v.candidate - v.shipped)} (noise ${f3(v.noise)})`).join("; ") + " (FAIL)"}. ` +
      `${candidate.release} ${ships ? "SHIPS in place of " + shipped.release : "does NOT ship"}.\n`
  )
}
