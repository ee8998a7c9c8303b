/**
 * `@decorum/engine`: the one engine configuration (`EngineConfig`) and the composition root
 * (`Engine`) every host builds on, and the archive scorer (`Archive`, what `decorum score` runs)
 * with its CSV reader (`Csv`, `Utf8`; also `@decorum/engine/csv`, without the engine). Between the
 * adapters (local, openai, store-sql) and the apps.
 */
export * from "./EngineConfig.js"
export * as Engine from "./Engine.js"
export type { EngineServices } from "./Engine.js"
export * as RefitWorker from "./RefitWorker.js"
export * as Archive from "./Archive.js"
export * as Csv from "./Csv.js"
export * as Utf8 from "./Utf8.js"
