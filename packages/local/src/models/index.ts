/**
 * The model sets behind the `AttributeModel` port: the trained set (`TrainedModel`, loading
 * `packages/local/models/`) and the cue model (`CueModel`, hand-written cues, no files).
 */
export { ModelSet, ModelSetAnalysis } from "./ModelSet.js"
export { defaultModelDirectory, fromModelSet, loadModelSet, TrainedModel } from "./TrainedModel.js"
export type { LoadOptions } from "./TrainedModel.js"
export { FALLACY_MANIFEST, fallacyModelIn, FallacyDetector, fromFallacyWeights, loadFallacyWeights } from "./FallacyDetector.js"
export { fromSpanWeights, loadSpanWeights, SPAN_MANIFEST, spanModelIn, SpanTagger } from "./SpanTagger.js"
export { AITEXT_MANIFEST, AiTextDetector, aiTextModelIn, fromAiTextWeights, loadAiTextWeights } from "./AiTextDetector.js"
export { DOGWHISTLE_MANIFEST, DogWhistleDetector, dogWhistleModelIn, fromDogWhistleScorer, loadDogWhistleScorer } from "./DogWhistleDetector.js"
export { CUE_MODEL_VERSION, CueModel, makeCueModel } from "./CueModel.js"
export { defaultLanguageDirectory, LANGUAGE_INDEX, LanguageModelSets, makeLanguageModels, readLanguageIndex } from "./LanguageModelSets.js"
export type { LanguageIndex, LanguageModelsOptions } from "./LanguageModelSets.js"
