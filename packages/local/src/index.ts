export * from "./AttributeModel.js"
