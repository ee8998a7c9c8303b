/**
 * What `finetune.py` (issue 27, item 2, second part: fine-tuning the encoder itself) reads, written
 * by Node so that Python sees exactly the rows, tokens and weights the judge's recipe uses:
 *
 *   node packages/training/run.mjs finetune data [--out DIR]   (default training/.cache/finetune)
 *
 * - `weights.json` + `weights.bin`: every float32 weight of the package's TF.js graph by its TF name
 *   (`convert.ts` readWeights), the starting point; `finetune.py` writes its result in the same form
 *   and `encoder convert --from DIR` builds the ONNX model from it.
 * - `train.*`: the judge's training rows (`toxTrain`, rows with a toxicity label), tokenised as the
 *   server tokenises (SentencePiece.encodeFirst, at most 128 ids), the six labels (NaN where the
 *   row's dataset does not label one: label masking) and the linear recipe's sample weights; the
 *   held-out tenth the judge's Platt step uses (judgeHeads.heldOut) is flagged, and `finetune.py`
 *   never trains on it, so the heads' calibration stays out of sample.
 * - `dev.*`: the calibration pool (`toxCalib`, never trained on), for the progress AUC.
 * - `reference.*`: the fp32 ONNX model's embedding of the first 64 training rows, which
 *   `finetune.py` checks its PyTorch copy of the graph against before training.
 *
 * Row files: `<set>.tokens.i32` (ids, concatenated), `<set>.offsets.i32` (N+1), `<set>.labels.f32`
 * and `<set>.weights.f32` (N x 6, TOXICITY_LABELS order), `<set>.heldout.u8` (N).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { SentencePiece, type Vocabulary } from "@decorum/local/SentencePiece"
import { CACHE_DIR, dataDir, loadSplits, TOXICITY_LABELS } from "../pipeline.js"
import type * as D from "../data.js"
import { buildModel, MAX_TOKENS, packageDist, readWeights, type Weight } from "./convert.js"
import { writeWeights } from "./weightsFile.js"
import { hasLabel, heldOut, sampleWeight } from "./judgeHeads.js"
import { loadOrt } from "./optional.js"

export const FINETUNE_DIR = join(CACHE_DIR, "finetune")

/** One set's row files: token ids, labels (NaN = not labelled) and sample weights in TOXICITY_LABELS order, held-out flags. */
export const writeRows = (
  dir: string,
  set: string,
  rows: { readonly tokens: ReadonlyArray<ReadonlyArray<number>>; readonly labels: Float32Array; readonly weights: Float32Array; readonly heldOut: Uint8Array }
): void => {
  const offsets = new Int32Array(rows.tokens.length + 1)
  rows.tokens.forEach((t, i) => (offsets[i + 1] = offsets[i]! + t.length))
  const ids = new Int32Array(offsets[rows.tokens.length]!)
  rows.tokens.forEach((t, i) => ids.set(t, offsets[i]!))
  const write = (suffix: string, a: ArrayBufferView) => writeFileSync(join(dir, `${set}.${suffix}`), new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
  write("tokens.i32", ids)
  write("offsets.i32", offsets)
  write("labels.f32", rows.labels)
  write("weights.f32", rows.weights)
  write("heldout.u8", rows.heldOut)
}

const exampleRows = (rows: ReadonlyArray<D.Example>, sp: SentencePiece) => {
  const L = TOXICITY_LABELS.length
  const labels = new Float32Array(rows.length * L).fill(Number.NaN)
  const weights = new Float32Array(rows.length * L)
  rows.forEach((e, i) =>
    TOXICITY_LABELS.forEach((l, j) => {
      if (!hasLabel(e, l)) return
      labels[i * L + j] = e.labels[l]!
      weights[i * L + j] = sampleWeight(e, l)
    })
  )
  return { tokens: rows.map((e) => sp.encodeFirst(e.text, MAX_TOKENS)), labels, weights, heldOut: Uint8Array.from(rows, (e) => (heldOut(e) ? 1 : 0)) }
}

/** The fp32 ONNX model's embeddings of `tokens` (one padded batch), as `reference.f32`. */
export const writeReference = async (dir: string, weights: Map<string, Weight>, tokens: ReadonlyArray<ReadonlyArray<number>>): Promise<Float32Array> => {
  const ort = await loadOrt()
  const session = await ort.InferenceSession.create(buildModel(weights, { weights: "fp32" }), { intraOpNumThreads: 1, interOpNumThreads: 1 })
  const width = Math.max(...tokens.map((t) => t.length))
  const ids = new BigInt64Array(tokens.length * width)
  const mask = new Float32Array(tokens.length * width)
  tokens.forEach((t, b) => t.forEach((id, k) => ((ids[b * width + k] = BigInt(id)), (mask[b * width + k] = 1))))
  const result = await session.run({ ids: new ort.Tensor("int64", ids, [tokens.length, width]), mask: new ort.Tensor("float32", mask, [tokens.length, width]) })
  const embedding = (result.embedding!.data as Float32Array).slice()
  writeFileSync(join(dir, "reference.f32"), new Uint8Array(embedding.buffer))
  return embedding
}

export const finetuneData = async (args: ReadonlyArray<string>, log: (s: string) => void): Promise<void> => {
  const i = args.lastIndexOf("--out")
  const out = i >= 0 ? args[i + 1]! : FINETUNE_DIR
  mkdirSync(out, { recursive: true })
  const splits = loadSplits(dataDir(), log)
  const dist = packageDist()
  const sp = new SentencePiece(JSON.parse(readFileSync(join(dist, "vocab.json"), "utf8")) as Vocabulary)
  const train = splits.toxTrain.filter((e) => TOXICITY_LABELS.some((l) => hasLabel(e, l)))
  const dev = splits.toxCalib.filter((e) => TOXICITY_LABELS.some((l) => hasLabel(e, l)))
  const trainRows = exampleRows(train, sp)
  writeRows(out, "train", trainRows)
  writeRows(out, "dev", exampleRows(dev, sp))
  const weights = readWeights(dist)
  writeWeights(out, weights)
  // the fp32 ONNX model's embeddings of the first 64 training rows: the PyTorch copy's check
  await writeReference(out, weights, trainRows.tokens.slice(0, 64))
  log(`wrote ${out}: train ${train.length} rows (held out ${train.filter(heldOut).length}), dev ${dev.length}, ${weights.size} weights, reference embeddings of 64 rows`)
}
