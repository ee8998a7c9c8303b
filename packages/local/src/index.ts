export * from "./AttributeModel.js"
export * from "./heuristics/index.js"
export * from "./relevance/index.js"
