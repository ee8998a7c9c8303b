/**
 * The weights file `finetune.py` reads and writes (finetuneData.ts writes the package's weights in
 * it; `encoder convert --from DIR` builds the ONNX model from it): `weights.json` (TF weight name ->
 * shape and offset in floats), `weights.bin` (float32, little-endian), and optionally `source.txt`,
 * one line saying how the weights were made (the model's doc string and metadata).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Weight } from "./convert.js"

/** `weights.json` (name -> shape and float offset) + `weights.bin` (float32, little-endian). */
export const writeWeights = (dir: string, weights: Map<string, Weight>): void => {
  const index: Record<string, { shape: ReadonlyArray<number>; offset: number }> = {}
  let total = 0
  for (const [name, w] of weights) {
    index[name] = { shape: w.shape, offset: total }
    total += w.data.length
  }
  const all = new Float32Array(total)
  for (const [name, w] of weights) all.set(w.data, index[name]!.offset)
  writeFileSync(join(dir, "weights.bin"), new Uint8Array(all.buffer))
  writeFileSync(join(dir, "weights.json"), JSON.stringify(index, null, 1) + "\n")
}

/** The inverse of writeWeights. */
export const readWeightsFile = (dir: string): Map<string, Weight> => {
  const index = JSON.parse(readFileSync(join(dir, "weights.json"), "utf8")) as Record<string, { shape: Array<number>; offset: number }>
  const bytes = readFileSync(join(dir, "weights.bin"))
  const all = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  const out = new Map<string, Weight>()
  for (const [name, { shape, offset }] of Object.entries(index)) {
    const n = shape.reduce((a, b) => a * b, 1)
    if (offset + n > all.length) throw new Error(`weights.bin too short for ${name}`)
    out.set(name, { shape, data: all.slice(offset, offset + n) })
  }
  return out
}

/** The one-line description of how the weights were made, when the directory has one. */
export const readSource = (dir: string): string | undefined => {
  const file = join(dir, "source.txt")
  return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined
}
