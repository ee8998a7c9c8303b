/**
 * `@decorum/lambda`: the AWS Lambda host. The deployable handler is `handler.ts` (bundled by
 * `npm run bundle:lambda`); this entry exports the pieces for tests and custom wiring.
 */
export * as Events from "./Events.js"
export * as Handler from "./Handler.js"
export * as Settings from "./Settings.js"
