/**
 * A comment analysed once per request: the text every evaluation of a request judges, and what the
 * evaluators derive from it (tokens, sentences, a model set's features and head sums), each derived
 * the first time an evaluator asks and then shared by every other evaluator of that request.
 *
 * The core's combined call (`Megacall`) builds one for the comment all its sections judge and hands
 * it to every section's evaluator in its input (`analysed`); an evaluator given none (a single
 * evaluation, a direct call) makes its own (`analysedOf`). The core knows nothing of what is
 * derived: each derivation is an `Analysis` constant of the package that owns it (the local models
 * define theirs), so the core stays model-agnostic. The value lives as long as the request's
 * inputs; nothing is cached across requests.
 */

/**
 * One thing derived from a text, typed; `by` is what derives it (a model set), so that one
 * analysis constant serves every model set (each set's result is kept apart). Compared by
 * identity: define each one once, as a module constant.
 */
export interface Analysis<A, By = undefined> {
  /** For messages and debugging. */
  readonly name: string
  readonly derive: (text: string, by: By) => A
}

/** An `Analysis`: `derive` must be a pure function of the text (and of `by`). */
export const analysis = <A, By = undefined>(name: string, derive: (text: string, by: By) => A): Analysis<A, By> => ({ name, derive })

export class AnalysedComment {
  /** What has been derived so far, by analysis and then by what derived it. */
  private readonly derived = new Map<Analysis<any, any>, Map<unknown, unknown>>()

  constructor(
    /** The text as the evaluators judge it; every offset they answer is into it. */
    readonly text: string
  ) {}

  /** `analysis` of the text (by `by`), derived on the first call and the same value on every later one. */
  get<A>(analysis: Analysis<A, undefined>): A
  get<A, By>(analysis: Analysis<A, By>, by: By): A
  get<A, By>(analysis: Analysis<A, By>, by?: By): A {
    let of = this.derived.get(analysis)
    if (of === undefined) {
      of = new Map()
      this.derived.set(analysis, of)
    }
    if (of.has(by)) return of.get(by) as A
    const value = analysis.derive(this.text, by as By)
    of.set(by, value)
    return value
  }

  /** `analysis` of the text when an evaluator already derived it, else undefined (nothing is derived). */
  peek<A, By>(analysis: Analysis<A, By>, by?: By): A | undefined {
    return this.derived.get(analysis)?.get(by) as A | undefined
  }
}

/**
 * The analysed comment an evaluator should read: the request's when the core handed one over (for
 * the same text), else one of its own (an evaluator called directly, as tests and tools do).
 */
export const analysedOf = (text: string, given: AnalysedComment | undefined): AnalysedComment =>
  given !== undefined && given.text === text ? given : new AnalysedComment(text)
