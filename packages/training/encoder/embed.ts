/**
 * Sentence embeddings of many texts through the converted encoder (onnxruntime-node, one thread),
 * cached in training/.cache/ (git-ignored) under the sha256 of the model file and the texts.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { SentencePiece, type Vocabulary } from "@decorum/local/SentencePiece"
import { CACHE_DIR } from "../pipeline.js"
import { DEFAULT_OUT, MAX_TOKENS } from "./convert.js"
import { loadOrt, requireEncoderPackages } from "./optional.js"

export const DIM = 512

export interface Encoder {
  readonly file: string
  readonly embed: (texts: ReadonlyArray<string>, log?: (s: string) => void) => Promise<Float32Array>
}

/** The converted encoder `use-lite.<weights>.onnx` (or the model file `file`) with the vocabulary beside it. */
export const openEncoder = async (weights: string, file: string = join(DEFAULT_OUT, `use-lite.${weights}.onnx`)): Promise<Encoder> => {
  requireEncoderPackages(["onnxruntime-node"])
  const ort = await loadOrt()
  const bytes = readFileSync(file)
  const modelHash = createHash("sha256").update(bytes).digest("hex").slice(0, 12)
  const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: "sequential" })
  const sp = new SentencePiece(JSON.parse(readFileSync(join(dirname(file), "vocab.json"), "utf8")) as Vocabulary)
  const embed = async (texts: ReadonlyArray<string>, log: (s: string) => void = () => {}): Promise<Float32Array> => {
    const hash = createHash("sha256").update(`encoder ${modelHash}\n`)
    for (const t of texts) hash.update(`${t}\u0000`)
    const cache = join(CACHE_DIR, `embeddings-${hash.digest("hex").slice(0, 16)}.f32`)
    if (existsSync(cache)) {
      const b = readFileSync(cache)
      return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4).slice()
    }
    const out = new Float32Array(texts.length * DIM)
    const tokens = texts.map((t) => sp.encodeFirst(t, MAX_TOKENS))
    // batches of similar length (little padding)
    const order = Array.from(texts.keys()).sort((a, b) => tokens[a]!.length - tokens[b]!.length)
    const t0 = Date.now()
    for (let i = 0; i < order.length; i += 32) {
      const batch = order.slice(i, i + 32)
      const width = Math.max(1, ...batch.map((r) => tokens[r]!.length))
      const ids = new BigInt64Array(batch.length * width)
      const mask = new Float32Array(batch.length * width)
      batch.forEach((r, b) => tokens[r]!.forEach((id, t) => {
        ids[b * width + t] = BigInt(id)
        mask[b * width + t] = 1
      }))
      const result = await session.run({ ids: new ort.Tensor("int64", ids, [batch.length, width]), mask: new ort.Tensor("float32", mask, [batch.length, width]) })
      const data = result.embedding!.data as Float32Array
      batch.forEach((r, b) => out.set(data.subarray(b * DIM, (b + 1) * DIM), r * DIM))
      if ((i / 32) % 200 === 0) log(`  embedded ${i + batch.length}/${texts.length} in ${((Date.now() - t0) / 1000).toFixed(0)} s`)
    }
    log(`  embedded ${texts.length} texts in ${((Date.now() - t0) / 1000).toFixed(0)} s`)
    mkdirSync(CACHE_DIR, { recursive: true })
    writeFileSync(cache, out)
    return out
  }
  return { file, embed }
}
