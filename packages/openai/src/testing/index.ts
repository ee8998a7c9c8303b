/** Test doubles of the LLM side, for tests and benchmarks only: `@decorum/openai/testing`. */
export * as FakeChatServer from "./FakeChatServer.js"
export * as LocalStub from "./LocalStub.js"
