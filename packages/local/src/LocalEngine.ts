/**
 * The embedded default engine, composed once: the local evaluators on a model set, the topic
 * profiler and relevance checker, and the safe article fetcher. Hosts take this layer (through
 * `@decorum/engine`) and may put the LLM modes on top of it.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { Adaptation, type DogWhistleChecker, type LlmDetector } from "@decorum/core"
import { Effect, Layer } from "effect"
import { AttributeModel } from "./AttributeModel.js"
import * as ClassifierJudge from "./ClassifierJudge.js"
import * as EncoderJudge from "./EncoderJudge.js"
import { JudgedAttributeScorer, LocalDogWhistleChecker, LocalEvaluators, LocalLlmDetector } from "./evaluators/index.js"
import * as Judge from "./Judge.js"
import { LanguageIdentification } from "./language/LanguageIdentification.js"
import {
  AITEXT_MANIFEST,
  AiTextDetector,
  CueModel,
  defaultModelDirectory,
  DOGWHISTLE_MANIFEST,
  DogWhistleDetector,
  FallacyDetector,
  LanguageModelSets,
  SpanTagger,
  TrainedModel
} from "./models/index.js"
import { LocalRelevance, SafeArticleFetcher, type SafeArticleFetcherOptions } from "./relevance/index.js"

export type FetchOptions = SafeArticleFetcherOptions

/** Which model set scores text: the shipped trained models (default), the cue model (`"lexicon"`, hand-written cues, no files), or a directory of retrained models. */
export type ModelChoice = "trained" | "lexicon" | { readonly directory: string }

export interface LocalEngineOptions {
  readonly fetch?: FetchOptions
  readonly model?: ModelChoice
  /** The judge's mode (`DECORUM_JUDGE`): `linear`, `cascade` (default) or `neural`. */
  readonly judge?: Judge.Mode
  /** The operator's classifier (`DECORUM_JUDGE_MODEL`): its mapping file (docs/bring-your-own-model.md). */
  readonly judgeModel?: string
  /** The judge's latency budget per comment (`DECORUM_JUDGE_BUDGET_MS`, ms; 0: none; default `Judge.DEFAULT_BUDGET_MS`). */
  readonly judgeBudgetMs?: number
}

/**
 * The judge (issue 27) on the built-in encoder heads of the models directory (`encoder/judge.json`;
 * the shipped one for the cue model and a retrained set without one, whose version the heads then
 * refuse), or on the operator's classifier (`judgeModel`, a mapping file: ClassifierJudge) with the
 * built-in heads as its fallback: off in `linear` mode, unavailable (scoring linear, `/readyz` says
 * why) when neither can start.
 */
const judgeLayer = (
  options: Pick<LocalEngineOptions, "model" | "judge" | "judgeModel" | "judgeBudgetMs">
): Layer.Layer<Judge.Judge, never, AttributeModel> => {
  const { judgeModel, model: choice = "trained", judge: mode = "cascade" } = options
  const budget = options.judgeBudgetMs === undefined ? {} : { budgetMs: options.judgeBudgetMs }
  const directory = detectorDirectory(choice, EncoderJudge.JUDGE_FILE)
  if (judgeModel === undefined) return EncoderJudge.layer({ mode, directory, ...budget })
  return Layer.scoped(
    Judge.Judge,
    Effect.flatMap(AttributeModel, (model) =>
      Judge.make(ClassifierJudge.orBuiltIn(judgeModel, EncoderJudge.make({ linearVersion: model.version, directory })), { mode, ...budget }))
  )
}

const modelLayer = (choice: ModelChoice = "trained"): Layer.Layer<AttributeModel> =>
  choice === "lexicon" ? CueModel : choice === "trained" ? TrainedModel.layer : TrainedModel.layerFrom(choice.directory)

/**
 * The trained fallacy detector of the chosen models directory, when it has one (`fallacy.json`)
 * that loads; none for the cue model, when the flagged files were deleted, or (with a warning)
 * when they are damaged: the comment scorer then falls back to the fallacy patterns.
 */
const fallacyLayer = (choice: ModelChoice = "trained"): Layer.Layer<never> =>
  choice === "lexicon" ? Layer.empty : FallacyDetector.layerIn(choice === "trained" ? defaultModelDirectory() : choice.directory)

/**
 * The toxic-span tagger of the chosen models directory, when it has one (`spans.json`) that loads;
 * none for the cue model, or (with a warning) when its files are damaged: the comment scorer then
 * cuts objectionable phrases from the heads' explanations.
 */
const spanLayer = (choice: ModelChoice = "trained"): Layer.Layer<never> =>
  choice === "lexicon" ? Layer.empty : SpanTagger.layerIn(choice === "trained" ? defaultModelDirectory() : choice.directory)

/**
 * Where a detector beside the attribute models is read from: a directory of retrained models when
 * it holds the detector's own files (`manifest`), else the shipped directory (the cue model and a
 * retrained attribute set keep the shipped detectors).
 */
export const detectorDirectory = (choice: ModelChoice, manifest: string): string =>
  typeof choice === "object" && existsSync(join(choice.directory, manifest)) ? choice.directory : defaultModelDirectory()

/**
 * The dog-whistle checker and the LLM-text detector, each on its trained detector when the models
 * directory holds one that loads (without it, each answers the provider's failure, saying so).
 */
const detectorsLayer = (choice: ModelChoice = "trained"): Layer.Layer<DogWhistleChecker | LlmDetector> =>
  Layer.merge(
    LocalDogWhistleChecker.pipe(Layer.provide(DogWhistleDetector.layerIn(detectorDirectory(choice, DOGWHISTLE_MANIFEST)))),
    LocalLlmDetector.pipe(Layer.provide(AiTextDetector.layerIn(detectorDirectory(choice, AITEXT_MANIFEST))))
  )

/**
 * The per-language model sets (issue 28): the shipped ones beside the trained English set
 * (`models/languages/`), a retrained directory's own `languages/` folder, none for the cue model.
 * Only their small index is read at start; a language's weights load on its first comment.
 */
const languageLayer = (choice: ModelChoice = "trained"): Layer.Layer<never> =>
  choice === "lexicon" ? Layer.empty : choice === "trained" ? LanguageModelSets.layer : LanguageModelSets.layerIn(join(choice.directory, "languages"))

/**
 * The language identifier (issue 28): `langid.bin` of a models directory when it has one (bundles
 * ship the models directory whole and name it with DECORUM_MODEL_DIR), else the shipped one.
 */
const identifierLayer = (choice: ModelChoice = "trained"): Layer.Layer<never> =>
  LanguageIdentification.layerFirstOf(typeof choice === "object" ? [choice.directory, defaultModelDirectory()] : [defaultModelDirectory()])

/**
 * The judge's encoder as `Adaptation.Embedder` (site adapters on encoder features), when the judge
 * started the built-in one; otherwise nothing, and accounts get their hashed adapters.
 */
const judgeEmbedder: Layer.Layer<never, never, Judge.Judge> = Layer.unwrapEffect(
  Effect.map(Judge.Judge, (judge): Layer.Layer<never> => (judge.embedder === undefined ? Layer.empty : Layer.succeed(Adaptation.Embedder, judge.embedder)))
)

/**
 * The encoder of the model set's directory as `Adaptation.Embedder`, on a session of its own, for
 * fitting site adapters where no judge runs (`decorum adapt`, a refit worker). Nothing when it
 * does not start (adapters are then fitted on hashed words alone).
 */
export const layerEmbedder = (options: Pick<LocalEngineOptions, "model"> = {}): Layer.Layer<never> =>
  EncoderJudge.layerEmbedder({ directory: detectorDirectory(options.model ?? "trained", EncoderJudge.JUDGE_FILE) })

/**
 * Every local port: CommentScorer, SpamChecker, AttributeScorer, RelevanceChecker, DogWhistleChecker,
 * LlmDetector, TopicProfiler, ArticleFetcher, LanguageIdentifier, the AttributeModel and the Judge.
 */
export const layer = (options: LocalEngineOptions = {}) =>
  Layer.mergeAll(
    LocalEvaluators.judged,
    detectorsLayer(options.model),
    LocalRelevance.layer(),
    SafeArticleFetcher.layer(options.fetch ?? {}),
    identifierLayer(options.model),
    judgeEmbedder
  ).pipe(
    Layer.provide(languageLayer(options.model)),
    Layer.provide(fallacyLayer(options.model)),
    Layer.provide(spanLayer(options.model)),
    Layer.provideMerge(judgeLayer(options)),
    Layer.provideMerge(modelLayer(options.model))
  )

/**
 * Only what `Analyze.analyze` reads: the attribute scorer on the model set and its per-language
 * sets, the language identifier, and the AttributeModel (the same layers as `layer`, without the
 * comment scorer, detectors, relevance and fetcher, whose models a pure analyzer never reads).
 */
export const analyzeLayer = (options: Pick<LocalEngineOptions, "model" | "judge" | "judgeModel" | "judgeBudgetMs"> = {}) =>
  Layer.merge(JudgedAttributeScorer, identifierLayer(options.model)).pipe(
    Layer.provide(languageLayer(options.model)),
    Layer.provideMerge(judgeLayer(options)),
    Layer.provideMerge(modelLayer(options.model))
  )

/** Only what creating an article context needs: the topic profiler and the URL fetcher. */
export const layerTopic = (options: LocalEngineOptions = {}) =>
  Layer.merge(LocalRelevance.layer(), SafeArticleFetcher.layer(options.fetch ?? {}))
