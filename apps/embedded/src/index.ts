export * as Engine from "./Engine.js"
