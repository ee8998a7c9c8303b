/**
 * `models/encoder/judge.json`: the built-in judge's heads over the shipped sentence encoder, as
 * the training workspace writes them (`npm run train:judge`) and the server reads them: one schema
 * and one set of checks for both.
 *
 *     { "release": "judge-2026.11.28",
 *       "encoder": { "file": "use-lite.fp16.onnx", "sha256": "<hex>", "vocab": "vocab.json", "maxTokens": 128 },
 *       "linearRelease": "local-2026.11.3", "dimensions": 512,
 *       "heads": { "<ATTRIBUTE>": { "weights": [512 numbers], "bias": n, "combine": { "head": n, "linear": n, "bias": n } } },
 *       "cascade": { "<ATTRIBUTE>": [low, high] } }
 *
 * A head's log-odds is `weights . embedding + bias`; `combine` joins it with the linear model's
 * served probability (`JudgeBackend.combine`); `cascade` is the band of the linear served
 * probability sent to the encoder in cascade mode.
 */
import { Perspective } from "@decorum/domain"
import { Either, ParseResult, Schema } from "effect"

const Combination = Schema.Struct({ head: Schema.Number, linear: Schema.Number, bias: Schema.Number })

const Head = Schema.Struct({ weights: Schema.Array(Schema.Number), bias: Schema.Number, combine: Combination })

const Band = Schema.Tuple(Schema.Number, Schema.Number)

export const JudgeFile = Schema.Struct({
  release: Schema.String,
  encoder: Schema.Struct({ file: Schema.String, sha256: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)), vocab: Schema.String, maxTokens: Schema.Int.pipe(Schema.positive()) }),
  linearRelease: Schema.String,
  dimensions: Schema.Int.pipe(Schema.positive()),
  heads: Schema.Record({ key: Schema.String, value: Head }),
  cascade: Schema.optional(Schema.Record({ key: Schema.String, value: Band }))
})

export type JudgeFile = typeof JudgeFile.Type

const isAttribute = (name: string): name is Perspective.Attribute => Perspective.resolveAttribute(name) === name

/**
 * The file's content, checked: every head names a Perspective attribute and has `dimensions`
 * weights; every band lies in [0, 1] and belongs to a head.
 */
export const parseJudgeFile = (text: string): Either.Either<JudgeFile, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return Either.left(`judge.json is not JSON (${e instanceof Error ? e.message : String(e)})`)
  }
  const decoded = Schema.decodeUnknownEither(JudgeFile)(json)
  if (Either.isLeft(decoded)) return Either.left(`judge.json is not a judge file: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`)
  const file = decoded.right
  for (const [name, head] of Object.entries(file.heads)) {
    if (!isAttribute(name)) return Either.left(`judge.json: ${name} is not an attribute`)
    if (head.weights.length !== file.dimensions) return Either.left(`judge.json: ${name}: weights are ${head.weights.length} numbers, not ${file.dimensions}`)
  }
  for (const [name, [low, high]] of Object.entries(file.cascade ?? {})) {
    if (!(low >= 0 && low <= high && high <= 1)) return Either.left(`judge.json: the cascade band of ${name} is not 0 <= low <= high <= 1`)
    if (file.heads[name] === undefined) return Either.left(`judge.json: the cascade names ${name}, which has no head`)
  }
  return Either.right(file)
}
