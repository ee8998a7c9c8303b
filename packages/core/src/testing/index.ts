/** Test doubles of the core's ports, for tests and benchmarks only: `@decorum/core/testing`. */
export * as TestProviders from "./TestProviders.js"
export * as AdaptationCorpus from "./AdaptationCorpus.js"
export * as FakeEmbedder from "./FakeEmbedder.js"
