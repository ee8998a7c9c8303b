/**
 * The local relevance checker caches article models per checker (its layer), not per process: two
 * engines in one process (the embedded host next to a server, tests) never see each other's
 * articles, even when two stores hand out the same id at the same millisecond.
 */
import type { ArticleContext } from "@decorum/domain"
import { AccountId, ArticleContextId } from "@decorum/domain"
import { RelevanceChecker } from "@decorum/core"
import { buildProfile, LocalRelevance } from "@decorum/local"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"

const BIKES = "The city council approved protected bike lanes along Main Street. Cyclists and shop owners debated parking and loading zones for deliveries."
const VOLCANO = "The volcano erupted overnight, sending ash over the island. Geologists measured lava flows and warned villagers about sulphur gas."

const id = ArticleContextId.make(globalThis.crypto.randomUUID())
const createdAt = new Date()
const article = (text: string): ArticleContext => ({
  id,
  accountId: AccountId.make(1),
  text,
  title: null,
  topicDescription: null,
  sourceUrl: null,
  profile: buildProfile({ text, title: null, topicDescription: null }),
  createdAt
})

const onTopic = (text: string) =>
  Effect.gen(function*() {
    const checker = yield* RelevanceChecker
    const answer = yield* checker.check({ comment: "The bike lanes on Main Street will help cyclists, but shops need loading zones.", article: article(text), bannedTopics: [], replyTo: null })
    return answer.value.on_topic.on_topic
  }).pipe(Effect.provide(LocalRelevance.layer()))

describe("LocalRelevanceChecker: article models per checker", () => {
  it.effect("two checkers with the same article id and time judge each by its own text", () =>
    Effect.gen(function*() {
      assert.isTrue(yield* onTopic(BIKES))
      // A second checker (another engine) whose store gave the same id to another article.
      assert.isFalse(yield* onTopic(VOLCANO))
    }))
})
