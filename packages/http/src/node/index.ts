/**
 * `@decorum/http/node`: what only the Node server host uses (the fast path, which builds on
 * `@effect/platform-node`), apart from the package's main entry point so that the other hosts
 * (Lambda, in-process) do not load the Node server code.
 */
export * as FastPath from "../FastPath.js"
export * as Listen from "../Listen.js"
