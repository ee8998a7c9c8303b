/**
 * `@decorum/engine`: the one engine configuration (`EngineConfig`) and the composition root
 * (`Engine`) every host builds on. Between the adapters (local, openai, store-sql) and the apps.
 */
export * from "./EngineConfig.js"
export * as Engine from "./Engine.js"
export type { EngineServices } from "./Engine.js"
export * as RefitWorker from "./RefitWorker.js"
