export * from "./AttributeModel.js"
export * from "./heuristics/index.js"
