import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { combine } from "@decorum/local/JudgeBackend"
import type * as D from "../data.js"
import { pairedAuc } from "../delong.js"
import { rocAuc } from "../fit.js"
import { decodeJudgeFile, encodeJudgeFile, headLogit, judged, JUDGE_FILE, routes, type JudgeFile } from "../encoder/judgeFile.js"
import { judgeFrom } from "../encoder/judgeScore.js"
import { calibrateMean, fitHead, MEAN, sampleWeight, servedLogit } from "../encoder/judgeHeads.js"
import { fitLogistic } from "../encoder/logistic.js"

const MODELS = join(__dirname, "../../local/models")

const tiny = (): JudgeFile => ({
  release: "judge-test",
  encoder: { file: "enc.onnx", sha256: "a".repeat(64), vocab: "vocab.json", maxTokens: 128 },
  linearRelease: "local-test",
  dimensions: 3,
  heads: {
    TOXICITY: { weights: [0.1234567891234, -2, 1e-12], bias: -0.5, combine: MEAN },
    THREAT: { weights: [1, 2, 3], bias: 0.25, combine: { head: 1, linear: 0, bias: 0 } }
  },
  cascade: { TOXICITY: [0.05, 0.8], THREAT: [0, 1] }
})

/** Rows on a line in 2-D: label 1 above x0 + x1 = 0 (with 10% flipped), one source per half. */
const synthetic = (n: number) => {
  const X = new Float32Array(n * 2)
  const rows: Array<D.Example> = []
  let seed = 12345
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0), seed / 2 ** 32)
  for (let i = 0; i < n; i++) {
    const a = 2 * rand() - 1
    const b = 2 * rand() - 1
    X[2 * i] = a
    X[2 * i + 1] = b
    const y = (a + b > 0 ? 1 : 0) ^ (rand() < 0.1 ? 1 : 0)
    rows.push({ text: `row ${i}`, source: i % 2 === 0 ? "jigsaw-toxic-comment-2018-random-11k" : "convabuse", id: String(i), labels: { TOXICITY: y } })
  }
  return { X, rows }
}

describe("the judge file (models/encoder/judge.json)", () => {
  it("round-trips and is written byte for byte the same", () => {
    const text = encodeJudgeFile(tiny())
    assert.strictEqual(encodeJudgeFile(decodeJudgeFile(text)), text)
    const back = decodeJudgeFile(text)
    assert.deepStrictEqual(back.heads.TOXICITY!.weights, [0.123456789, -2, 1e-12])
    assert.deepStrictEqual(back.cascade.TOXICITY, [0.05, 0.8])
    assert.strictEqual(back.linearRelease, "local-test")
    assert.include(text, `"weights": [0.123456789,-2,1e-12]`)
  })

  it("refuses a head of the wrong width, a band outside [0, 1] and a bad encoder hash", () => {
    const good = tiny()
    assert.throws(() => decodeJudgeFile(JSON.stringify({ ...good, heads: { ...good.heads, THREAT: { ...good.heads.THREAT!, weights: [1, 2] } } })), /THREAT: weights/)
    assert.throws(() => decodeJudgeFile(JSON.stringify({ ...good, cascade: { TOXICITY: [0.8, 0.05] } })), /band/)
    assert.throws(() => decodeJudgeFile(JSON.stringify({ ...good, cascade: { INSULT: [0, 1] } })), /no head/)
    assert.throws(() => decodeJudgeFile(JSON.stringify({ ...good, encoder: { ...good.encoder, sha256: "xyz" } })), /encoder/)
  })

  it("routes a comment in cascade mode when one requested attribute is in its band, and serves JudgeBackend.combine for every judged attribute of it", () => {
    const f = { ...tiny(), cascade: { TOXICITY: [0.05, 0.8] as const, THREAT: [1, 1] as const } }
    const X = Float32Array.from([1, 0.5, 2])
    const z = headLogit(f.heads.TOXICITY!, X, 0)
    assert.closeTo(z, 0.1234567891234 - 1 + 2e-12 - 0.5, 1e-6)
    assert.strictEqual(judged(f, "TOXICITY", z, 0.9), combine(MEAN, z, 0.9))
    assert.strictEqual(judged(f, "INSULT", z, 0.3), 0.3) // no head: linear
    const linear = (p: Record<string, number>) => (l: string) => p[l]!
    assert.isFalse(routes(f, "cascade", ["TOXICITY", "THREAT"], linear({ TOXICITY: 0.9, THREAT: 0.5 })))
    assert.isTrue(routes(f, "cascade", ["TOXICITY", "THREAT"], linear({ TOXICITY: 0.3, THREAT: 0.5 })))
    assert.isFalse(routes(f, "cascade", ["THREAT"], linear({ TOXICITY: 0.3, THREAT: 0.5 }))) // TOXICITY not requested
    assert.isTrue(routes(f, "neural", ["THREAT"], linear({ THREAT: 0.999 })))
    assert.isFalse(routes(f, "neural", ["INSULT"], linear({ INSULT: 0.5 })))
    // the eval's scores: a routed comment is judged on every attribute, the others stay linear
    const file: JudgeFile = { ...f, dimensions: 3 }
    const s = judgeFrom(file, ["TOXICITY", "THREAT"], Float32Array.from([1, 0.5, 2, 1, 0.5, 2]), new Map([["TOXICITY", Float64Array.from([0.3, 0.9])], ["THREAT", Float64Array.from([0.5, 0.5])]]))
    assert.deepStrictEqual(Array.from(s.routed), [1, 0])
    assert.strictEqual(s.cascade.get("THREAT")![0], combine(f.heads.THREAT!.combine, headLogit(f.heads.THREAT!, X, 0), 0.5))
    assert.strictEqual(s.cascade.get("THREAT")![1], 0.5)
    assert.strictEqual(s.neural.get("TOXICITY")![1], combine(MEAN, z, 0.9))
  })
})

describe("the judge's head fit", () => {
  it("weights a row as that many copies of it", () => {
    const { X, rows } = synthetic(200)
    const idx = rows.map((_, i) => i)
    const y = rows.map((e) => e.labels.TOXICITY!)
    const weighted = fitLogistic({ X, dim: 2 }, idx, y, 1e-3, 200, idx.map((i) => (i < 50 ? 3 : 1)))
    const copies = [...idx, ...idx.slice(0, 50), ...idx.slice(0, 50)]
    const repeated = fitLogistic({ X, dim: 2 }, copies, copies.map((i) => y[i]!), 1e-3)
    for (let j = 0; j < 3; j++) assert.closeTo(weighted[j]!, repeated[j]!, 1e-4)
  })

  it("learns a synthetic boundary with label masking, sample weights and Platt on the held-out rows", () => {
    const { X, rows } = synthetic(2000)
    // rows whose dataset does not label TOXICITY, placed to mislead the fit if they were read
    const masked: Array<D.Example> = Array.from({ length: 500 }, (_, i) => ({ text: `m ${i}`, source: "convabuse", id: `m${i}`, labels: { INSULT: 1 } }))
    const Xall = new Float32Array((rows.length + masked.length) * 2)
    Xall.set(X)
    for (let i = 0; i < masked.length; i++) Xall.set([-1, -1], (rows.length + i) * 2)
    const all = [...rows, ...masked]
    const heldOut = (e: D.Example) => Number(e.id.replace("m", "")) % 10 === 0
    const h = fitHead(Xall, 2, all, "TOXICITY", { heldOut })
    assert.strictEqual(h.fitRows + h.plattRows, rows.length)
    assert.strictEqual(h.plattRows, 200)
    assert.isAbove(h.weights[0]!, 1)
    assert.closeTo(h.weights[0]! / h.weights[1]!, 1, 0.25)
    const z = rows.map((_, i) => h.weights[0]! * X[2 * i]! + h.weights[1]! * X[2 * i + 1]! + h.bias)
    assert.isAbove(rocAuc(z, rows.map((e) => e.labels.TOXICITY!)), 0.85)
    // Platt on the held-out rows: the mean probability there is their positive rate
    const held = rows.map((e, i) => [e, i] as const).filter(([e]) => heldOut(e))
    const meanP = held.reduce((a, [, i]) => a + 1 / (1 + Math.exp(-z[i]!)), 0) / held.length
    const rate = held.reduce((a, [e]) => a + e.labels.TOXICITY!, 0) / held.length
    assert.closeTo(meanP, rate, 1e-3)
    // Platt at a prevalence: the re-weighted mean probability of the held-out rows is that prevalence
    const shifted = fitHead(Xall, 2, all, "TOXICITY", { heldOut, prevalence: 0.1 })
    let sw = 0
    let sp = 0
    for (const [e, i] of held) {
      const w = e.labels.TOXICITY! === 1 ? 0.1 / rate : 0.9 / (1 - rate)
      sw += w
      sp += w / (1 + Math.exp(-(shifted.weights[0]! * X[2 * i]! + shifted.weights[1]! * X[2 * i + 1]! + shifted.bias)))
    }
    assert.closeTo(sp / sw, 0.1, 1e-3)
    assert.isBelow(shifted.bias, h.bias)
    assert.strictEqual(sampleWeight(rows[0]!, "TOXICITY"), 3)
    assert.strictEqual(sampleWeight({ ...rows[0]!, source: "davidson-hate-offensive" }, "TOXICITY"), 0.1)
    assert.strictEqual(sampleWeight({ ...rows[0]!, source: "davidson-hate-offensive" }, "THREAT"), 0.5)
  })
})

describe("the combination's calibration", () => {
  it("keeps the mean's 1:1 ratio and fits the scale the soft targets ask for", () => {
    // targets exactly sigmoid(2 m - 1) of the mean m = 0.5 z + 0.5 logit(p): the map recovers a = 2, c = -1
    const z = Array.from({ length: 200 }, (_, i) => -4 + (8 * i) / 199)
    const p = z.map((v, i) => 1 / (1 + Math.exp(-(0.3 * v + (i % 7) - 3))))
    const t = z.map((v, i) => 1 / (1 + Math.exp(-(2 * (0.5 * v + 0.5 * servedLogit(p[i]!)) - 1))))
    const c = calibrateMean(z, p, t)
    assert.closeTo(c.head, 1, 1e-3)
    assert.closeTo(c.linear, 1, 1e-3)
    assert.closeTo(c.bias, -1, 1e-3)
    assert.closeTo(combine(c, z[17]!, p[17]!), t[17]!, 1e-4)
  })
})

describe("pairedAuc (DeLong)", () => {
  it("gives the ROC AUC of each scorer and no noise between identical scorers", () => {
    const y = [1, 1, 1, 0, 0, 0, 0, 1]
    const a = [0.9, 0.8, 0.3, 0.1, 0.4, 0.2, 0.3, 0.7]
    const b = [0.2, 0.8, 0.3, 0.1, 0.9, 0.2, 0.6, 0.7]
    const d = pairedAuc(a, b, y)
    assert.closeTo(d.a, rocAuc(a, y), 1e-12)
    assert.closeTo(d.b, rocAuc(b, y), 1e-12)
    assert.isAbove(d.se, 0)
    assert.strictEqual(pairedAuc(a, a, y).se, 0)
  })
})

describe("the shipped judge file", () => {
  it("names the shipped encoder by its sha256 and the shipped linear release, with a head and a band per toxicity attribute", () => {
    const f = decodeJudgeFile(readFileSync(join(MODELS, "encoder", JUDGE_FILE), "utf8"))
    const sha = createHash("sha256").update(readFileSync(join(MODELS, "encoder", f.encoder.file))).digest("hex")
    assert.strictEqual(f.encoder.sha256, sha)
    assert.strictEqual(f.encoder.file, "use-lite.fp16.onnx")
    assert.strictEqual(f.linearRelease, JSON.parse(readFileSync(join(MODELS, "manifest.json"), "utf8")).version)
    assert.strictEqual(f.dimensions, 512)
    for (const l of ["TOXICITY", "SEVERE_TOXICITY", "INSULT", "PROFANITY", "THREAT", "IDENTITY_ATTACK"]) {
      assert.strictEqual(f.heads[l]!.weights.length, 512)
      assert.isDefined(f.cascade[l])
    }
  })
})
