/**
 * The second stage of attribute scoring (issue 27): a model that reads the whole comment (a
 * pretrained encoder with heads, or an operator's own ONNX classifier) and answers, for a batch of
 * texts, one log-odds per attribute it judges. The judge (`Judge`) combines that log-odds with the
 * linear model's served probability, per attribute:
 *
 *     p = sigmoid(combine.head * z + combine.linear * logit(p_linear) + combine.bias)
 *
 * so a backend that replaces the linear model states `{ head: 1, linear: 0, bias: 0 }`, and one
 * averaged with it `{ head: 0.5, linear: 0.5, bias: 0 }`. A backend is asynchronous and batched:
 * the judge groups concurrent requests into one call.
 *
 * Off the serving thread: onnxruntime-node's `session.run` returns a promise but computes on the
 * calling thread (1.30), so a backend on onnxruntime runs its session on a worker thread
 * (`internal/judge/ortWorker.ts`, which `EncoderJudge` uses); otherwise a batch would hold the
 * server's event loop for its whole run.
 *
 * Providing one: a backend reaches the engine as a `Judge.Source` (the backend, and for cascade mode
 * the band of each attribute; `Judge.DEFAULT_BAND` for those it leaves out), through
 * `Judge.layer(source, { mode })` or `Judge.make`: `source` is an effect that starts the backend in
 * the layer's scope and fails with `Judge.JudgeUnavailable` (the reason `/readyz` shows) when it
 * cannot. The built-in backend is `EncoderJudge.make`; `EncoderJudge.layer` wires it with the
 * served `AttributeModel`. `close` is called when that scope closes.
 */
import type { Perspective } from "@decorum/domain"

/** How a backend's log-odds for one attribute is combined with the linear model's probability. */
export interface JudgeCombination {
  readonly head: number
  readonly linear: number
  readonly bias: number
}

export interface JudgeBackend {
  /** The model that produced the scores, named in every answer's provenance (e.g. `judge-2026.11.28`). */
  readonly model: string
  /** The attributes it judges, each with its combination with the linear model. */
  readonly heads: ReadonlyMap<Perspective.Attribute, JudgeCombination>
  /** Log-odds per judged attribute for each text of the batch, in the batch's order. */
  readonly logits: (texts: ReadonlyArray<string>) => Promise<ReadonlyArray<Readonly<Partial<Record<Perspective.Attribute, number>>>>>
  /** Releases the runtime's session. */
  readonly close: () => Promise<void>
}

const logit = (p: number): number => {
  const q = Math.min(Math.max(p, 1e-7), 1 - 1e-7)
  return Math.log(q / (1 - q))
}

/**
 * The judged probability of one attribute: the backend's log-odds `z` combined with the linear
 * model's served probability (the formula above). Training and evaluation call this too, so the
 * figures they print are the ones the server serves.
 */
export const combine = (combination: JudgeCombination, z: number, linearProbability: number): number =>
  1 / (1 + Math.exp(-(combination.head * z + combination.linear * logit(linearProbability) + combination.bias)))
