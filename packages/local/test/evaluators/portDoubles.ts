/**
 * Small test doubles of the two model ports (`DogWhistleModel`, `AiTextModel`), for the evaluator
 * tests: they record what the evaluator asked and answer a scripted analysis, so the mapping onto
 * the wire is tested on its own, whatever the trained detectors answer.
 */
import { AiTextModel, type AiTextAnalysis, DogWhistleModel, type DogWhistleAnalysis, type DogWhistleInput } from "@decorum/local"
import { Layer } from "effect"

export const DOG_VERSION = "dogwhistle-test-1"
export const AI_VERSION = "aitext-test-1"

/** A dog-whistle model that answers `script(input)` and records every input. */
export const dogWhistleDouble = (script: (input: DogWhistleInput) => DogWhistleAnalysis) => {
  const inputs: Array<DogWhistleInput> = []
  const layer = Layer.succeed(DogWhistleModel, {
    version: DOG_VERSION,
    analyse: (input) => {
      inputs.push(input)
      return script(input)
    }
  })
  return { inputs, layer }
}

/** An AI-text model that answers `script(text)`. */
export const aiTextDouble = (script: (text: string) => AiTextAnalysis) =>
  Layer.succeed(AiTextModel, { version: AI_VERSION, analyse: script })

/** A hit on the first occurrence of `term` in `comment` (offsets as the port promises). */
export const hitOn = (comment: string, term: string, category: string, probability = 0.9) => {
  const begin = comment.indexOf(term)
  if (begin < 0) throw new Error(`${term} is not in the comment`)
  return { term, begin, end: begin + term.length, root: term.toLowerCase(), category, meaning: `${term} is coded`, probability, source: "glossary" as const }
}
