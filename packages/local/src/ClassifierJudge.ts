/**
 * Bring your own model (issue 27): an operator's ONNX sequence classifier (a Detoxify or MiniLM
 * export, say) with its Hugging Face `tokenizer.json`, served as a `JudgeBackend`. A small mapping
 * file (JSON; docs/bring-your-own-model.md) says where the model and tokenizer are, what the
 * graph's inputs and outputs are called, which output column is which attribute and how to read
 * it (sigmoid, softmax, probability; Platt calibration), the longest row and how a longer comment
 * is windowed (window, stride, max or mean pooling), and how each attribute joins the linear score
 * (`combine`: "replace", "average" or explicit weights).
 *
 * `load` checks everything before the backend serves: the files, the mapping's fields (an error
 * names the field), the graph's inputs and outputs, and one probe run. The judge falls back to its
 * built-in backend when it fails, and says why (`ClassifierJudgeError.message`).
 */
import { Effect, type Layer, type Scope } from "effect"
import * as Judge from "./Judge.js"
import type { JudgeBackend } from "./JudgeBackend.js"
import { type ClassifierJudgeError, loadClassifier, type LoadOptions } from "./internal/classifier/load.js"

export { Mapping } from "./internal/classifier/mapping.js"
/** Why an operator's classifier did not load: `part` (mapping, tokenizer or model), `path`, `reason`. */
export { ClassifierJudgeError, type LoadOptions } from "./internal/classifier/load.js"

/**
 * The classifier of the mapping file at `mappingPath`, checked and ready; the caller closes it
 * (`JudgeBackend.close`). Model and tokenizer paths in the mapping are relative to its directory.
 */
export const load = (mappingPath: string, options?: LoadOptions): Effect.Effect<JudgeBackend, ClassifierJudgeError> =>
  loadClassifier(mappingPath, options)

/** `load`, with the session released when the scope closes. */
export const make = (mappingPath: string, options?: LoadOptions): Effect.Effect<JudgeBackend, ClassifierJudgeError, Scope.Scope> =>
  Effect.map(source(mappingPath, options), (s) => s.backend)

/** The judge's source: the backend and the cascade band of each attribute whose mapping gives one. */
export const source = (mappingPath: string, options?: LoadOptions): Effect.Effect<Judge.Source, ClassifierJudgeError, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(loadClassifier(mappingPath, options), (backend) => Effect.promise(() => backend.close())),
    (backend) => ({ backend, cascade: Object.fromEntries(backend.bands) })
  )

/**
 * The judge's source when the operator names a classifier (`DECORUM_JUDGE_MODEL`): theirs when it
 * loads; otherwise `builtIn`, with one warning and the reason in `/readyz` (`judge.fallback`). Only
 * when neither starts is the judge unavailable, and the engine serves the linear models.
 */
export const orBuiltIn = (
  mappingPath: string,
  builtIn: Effect.Effect<Judge.Source, Judge.JudgeUnavailable, Scope.Scope>,
  options?: LoadOptions
): Effect.Effect<Judge.Source, Judge.JudgeUnavailable, Scope.Scope> =>
  source(mappingPath, options).pipe(
    Effect.map((s): Judge.Source => ({ ...s, status: { backend: "operator" } })),
    Effect.catchAll((error) => {
      const fallback = `DECORUM_JUDGE_MODEL=${mappingPath} did not load (${error.message})`
      return Effect.logWarning(`${fallback}: the built-in judge serves instead`).pipe(
        Effect.zipRight(builtIn),
        Effect.map((s): Judge.Source => ({ ...s, status: { backend: "built-in", fallback } })),
        Effect.mapError((u) => new Judge.JudgeUnavailable({ reason: `${fallback}, and the built-in judge is unavailable: ${u.reason}` }))
      )
    })
  )

/**
 * The judge on the operator's classifier alone (no built-in fallback): unavailable, naming why,
 * when it does not load. The engine uses `orBuiltIn`; this is for a host that wants only theirs.
 */
export const layer = (mappingPath: string, options: Judge.Options & LoadOptions): Layer.Layer<Judge.Judge> =>
  Judge.layer(Effect.mapError(source(mappingPath, options), (e) => new Judge.JudgeUnavailable({ reason: e.message })), options)
