/**
 * @decorum/local: the embedded evaluators, model sets and relevance. Only what is exported here
 * is public; `internal/` is implementation detail (see packages/local/README.md).
 */
export * from "./AttributeModel.js"
export * from "./AiTextModel.js"
export * from "./DogWhistleModel.js"
export * from "./FallacyModel.js"
export * as ClassifierJudge from "./ClassifierJudge.js"
export * as EncoderJudge from "./EncoderJudge.js"
export * as Judge from "./Judge.js"
export * as JudgeBackend from "./JudgeBackend.js"
export * as JudgeFile from "./JudgeFile.js"
export * from "./LanguageModels.js"
export { LANGUAGE_ID_MODEL, LanguageIdentification } from "./language/LanguageIdentification.js"
export * from "./SpanModel.js"
export * from "./evaluators/index.js"
export * from "./models/index.js"
export * from "./relevance/index.js"
export * as LocalEngine from "./LocalEngine.js"
