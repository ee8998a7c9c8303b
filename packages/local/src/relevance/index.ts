/**
 * Relevance, locally: topic profiles of article contexts, on-topic and banned-topic checks, and
 * the safe URL fetcher behind `inittopic` with `url`. See docs/relevance.md.
 */
import { Layer } from "effect"
import { LocalRelevanceChecker, type LocalRelevanceOptions } from "./Checker.js"
import { LocalTopicProfiler } from "./Profiler.js"

export { canonicalAddress, refusedAddressReason } from "./Address.js"
export { analyseBannedTopics, compileTopic } from "./BannedTopics.js"
export { checkRelevance, judgeBannedTopics, judgeOnTopic, LocalRelevanceChecker, RELEVANCE_MODEL, Thresholds } from "./Checker.js"
export type { BannedResult, LocalRelevanceOptions, OnTopicResult } from "./Checker.js"
export { FetchDefaults, makeFetcher, SafeArticleFetcher } from "./Fetcher.js"
export type { ResolvedAddress, SafeArticleFetcherOptions } from "./Fetcher.js"
export { htmlMainText } from "./MainText.js"
export { buildProfile, extractEntities, idf, LocalTopicProfiler, PROFILE_VERSION, summarise } from "./Profiler.js"
export type { ProfileInput } from "./Profiler.js"

/** The local profiler and relevance checker together. */
export const LocalRelevance = {
  layer: (options: LocalRelevanceOptions = {}) => Layer.merge(LocalTopicProfiler.layer, LocalRelevanceChecker.layer(options))
}
