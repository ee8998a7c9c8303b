/**
 * The mapping file of an operator's ONNX sequence classifier (issue 27, "bring your own model"):
 * where the model and its tokenizer are, what the graph's inputs and outputs are called, which
 * output column is which attribute and how to read it (activation, calibration), how long a row
 * may be and how a longer comment is windowed, and how each attribute's score joins the linear
 * model's. docs/bring-your-own-model.md is the operator's description of the same fields.
 *
 * Decoding rejects unknown fields (a misspelt "activaton" is an error, not a silent default) and
 * names the field of the first problem (`describeMappingError`).
 */
import { Perspective } from "@decorum/domain"
import { Either, ParseResult, Schema } from "effect"

const Int = (min: number) => Schema.Int.pipe(Schema.greaterThanOrEqualTo(min))

/** A message that replaces Schema's own for the whole of a union ("Expected X" names only its first member). */
const expects = (what: string) => ({ message: () => ({ message: `must be ${what}`, override: true }) })

/** The attributes Decorum serves, by their canonical names. */
export const AttributeName = Schema.Literal(...Perspective.CoreAttributes, ...Perspective.LegacyAttributes, ...Perspective.BridgingAttributes).annotations(
  expects(`an attribute Decorum serves: one of ${Perspective.Attributes.join(", ")}`)
)

/**
 * How the classifier's log-odds `z` joins the linear model's probability (JudgeBackend.combine):
 * "replace" is `{ head: 1, linear: 0, bias: 0 }`, "average" `{ head: 0.5, linear: 0.5, bias: 0 }`.
 */
export const Combination = Schema.Union(
  Schema.Literal("replace", "average"),
  Schema.Struct({
    head: Schema.Finite,
    linear: Schema.Finite,
    bias: Schema.optionalWith(Schema.Finite, { default: () => 0 })
  })
).annotations(expects(`"replace", "average" or { "head": number, "linear": number, "bias"?: number }`))

/**
 * How a column reads: "sigmoid", a logit of its own (multi-label heads such as Detoxify's);
 * "softmax", the logit of a class among all the output's columns (a single-label classifier, the
 * column being the positive class); "probability", already a probability.
 */
export const Activation = Schema.Literal("sigmoid", "softmax", "probability").annotations(expects(`"sigmoid", "softmax" or "probability"`))
export type Activation = typeof Activation.Type

export const AttributeMapping = Schema.Struct({
  attribute: AttributeName,
  /** The output tensor (default: the mapping's `output`). */
  output: Schema.optional(Schema.NonEmptyString),
  /** The column of that output, counted from 0. */
  index: Int(0),
  activation: Activation,
  /** Platt scaling of the log-odds: `z' = a z + b`. */
  calibration: Schema.optional(Schema.Struct({ a: Schema.Finite, b: Schema.Finite })),
  combine: Schema.optionalWith(Combination, { default: () => "replace" as const }),
  /**
   * In cascade mode (DECORUM_JUDGE=cascade), the linear probabilities `[low, high]` whose comments
   * this classifier judges (default: the judge's band).
   */
  band: Schema.optional(
    Schema.Tuple(Schema.Number.pipe(Schema.between(0, 1)), Schema.Number.pipe(Schema.between(0, 1))).pipe(
      Schema.filter(([low, high]) => low <= high || "must be [low, high] with low <= high")
    )
  )
})
export type AttributeMapping = typeof AttributeMapping.Type

export const Window = Schema.Struct({
  /** Tokens of the comment per window (the model's special tokens are added around each). */
  size: Int(1),
  /** Tokens between the starts of two windows; at most `size`, so no token is skipped. */
  stride: Int(1),
  /** How a comment's windows join: the highest score, or the mean probability. */
  pool: Schema.optionalWith(Schema.Literal("max", "mean").annotations(expects(`"max" or "mean"`)), { default: () => "max" as const }),
  /** Windows of one comment at most: a longer comment gets this many, spread evenly over it. */
  limit: Schema.optionalWith(Int(1), { default: () => 16 })
}).pipe(Schema.filter((w) => w.stride <= w.size || { path: ["stride"], message: `must be at most size (${w.size}), or tokens between windows are never read` }))
export type Window = typeof Window.Type

export const Inputs = Schema.Struct({
  ids: Schema.optionalWith(Schema.NonEmptyString, { default: () => "input_ids" }),
  mask: Schema.optionalWith(Schema.NonEmptyString, { default: () => "attention_mask" }),
  /** Only for a graph that takes segment ids (BERT exports usually do; RoBERTa's do not). */
  tokenTypes: Schema.optional(Schema.NonEmptyString)
})

export const Mapping = Schema.Struct({
  format: Schema.optionalWith(Schema.Literal(1), { default: () => 1 as const }),
  /** The model's name in every answer's provenance (default: the model file's name). */
  name: Schema.optional(Schema.NonEmptyString),
  /** The ONNX model, relative to the mapping file. */
  model: Schema.NonEmptyString,
  /** Its Hugging Face `tokenizer.json`, relative to the mapping file. */
  tokenizer: Schema.NonEmptyString,
  /** Its `tokenizer_config.json`, if the tokenizer needs it. */
  tokenizerConfig: Schema.optional(Schema.NonEmptyString),
  inputs: Schema.optionalWith(Inputs, { default: () => ({ ids: "input_ids", mask: "attention_mask" }) }),
  output: Schema.optionalWith(Schema.NonEmptyString, { default: () => "logits" }),
  /** The padding token's id (default: the tokenizer's padding token, else [PAD], <pad>, else 0). */
  padId: Schema.optional(Int(0)),
  /** The most tokens one row holds, special tokens included (the model's position limit). */
  maxLength: Schema.optionalWith(Int(2), { default: () => 512 }),
  /** Without it a longer comment is cut to its first `maxLength` tokens. */
  window: Schema.optional(Window),
  attributes: Schema.NonEmptyArray(AttributeMapping)
}).pipe(Schema.filter((m) => {
  const seen = new Set<string>()
  for (const [i, a] of m.attributes.entries()) {
    if (seen.has(a.attribute)) return { path: ["attributes", i, "attribute"], message: `${a.attribute} is mapped twice` }
    seen.add(a.attribute)
  }
  return true
}))
export type Mapping = typeof Mapping.Type

const decode = Schema.decodeUnknownEither(Mapping, { onExcessProperty: "error", errors: "first" })

/** The first problem of a decoding, with its field path (`attributes.1.activation: ...`). */
export const describeMappingError = (error: ParseResult.ParseError): string => {
  const first = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  if (first === undefined) return "does not match the mapping format"
  return first.path.length > 0 ? `${first.path.map(String).join(".")}: ${first.message}` : first.message
}

/** The mapping in `json` (parsed), or what is wrong with it, naming the field. */
export const decodeMapping = (json: unknown): Either.Either<Mapping, string> =>
  Either.mapLeft(decode(json), describeMappingError)

/** The combination's three weights. */
export const weightsOf = (c: Mapping["attributes"][number]["combine"]): { readonly head: number; readonly linear: number; readonly bias: number } =>
  c === "replace" ? { head: 1, linear: 0, bias: 0 } : c === "average" ? { head: 0.5, linear: 0.5, bias: 0 } : c
