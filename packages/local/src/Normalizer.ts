/**
 * Text normalisation that undoes obfuscation (respellings, masked letters, scripts), as the
 * featurisers apply it; `buildRespellMap` builds the manifest's respelling table.
 */
export { Normalizer, buildRespellMap } from "./internal/model/normalize.js"
export type { ScriptOptions } from "./internal/model/normalize.js"
