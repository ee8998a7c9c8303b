/**
 * JSON schemas for structured output, derived from `effect/Schema` types. Strict structured
 * output wants every object closed (`additionalProperties: false`) with every property required,
 * and no external references; fields that are optional when decoding (with a default) are
 * therefore still listed as required here, so the model always fills them in.
 *
 * Numeric and length constraints (`minimum`, `maxLength`, ...) are not in every provider's subset,
 * so they move into the description; the evaluators clamp and check the values themselves.
 */
import { JSONSchema, type Schema } from "effect"
import type { JsonSchemaObject } from "./LlmClient.js"

type Json = { [key: string]: unknown }

const UNPORTABLE = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems"
] as const

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v)

const strictify = (node: unknown, defs: Json, depth = 0): unknown => {
  if (depth > 64) throw new Error("JSON schema too deep (recursive schema?)")
  if (Array.isArray(node)) return node.map((n) => strictify(n, defs, depth + 1))
  if (!isObject(node)) return node
  if (typeof node.$ref === "string" && node.$ref.startsWith("#/$defs/")) {
    const target = defs[node.$ref.slice("#/$defs/".length)]
    return strictify(target, defs, depth + 1)
  }
  const out: Json = {}
  for (const [k, v] of Object.entries(node)) {
    if (k === "$schema" || k === "$defs" || k === "title") continue
    out[k] = k === "properties" && isObject(v)
      ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, strictify(s, defs, depth + 1)]))
      : strictify(v, defs, depth + 1)
  }
  const lo = out.minimum
  const hi = out.maximum
  for (const k of UNPORTABLE) delete out[k]
  if (typeof lo === "number" || typeof hi === "number") {
    const range = typeof lo === "number" && typeof hi === "number" ? `from ${lo} to ${hi}` : typeof lo === "number" ? `at least ${lo}` : `at most ${hi}`
    out.description = typeof out.description === "string" ? `${out.description} (${range})` : range
  }
  if (out.type === "object" && isObject(out.properties)) {
    out.required = Object.keys(out.properties)
    out.additionalProperties = false
  }
  return out
}

/** A self-contained, strict JSON schema for the encoded side of `schema`. */
export const strictJsonSchema = <A, I>(schema: Schema.Schema<A, I, never>): JsonSchemaObject => {
  const made = JSONSchema.make(schema) as unknown as Json
  const defs = isObject(made.$defs) ? made.$defs : {}
  return strictify(made, defs) as JsonSchemaObject
}
