/**
 * Perspective's `comments:suggestscore`: a moderator's correction, stored durably with its
 * account and the id of the key that sent it, so that it can be exported (`decorum feedback
 * export`) and fitted into the account's adapters (`Adaptation`), leaving out keys since revoked.
 */
import { type Account, InvalidRequest, Perspective, UnsupportedAttribute } from "@decorum/domain"
import { Effect, Metric, Option } from "effect"
import { Refits } from "./Adaptation.js"
import { commentText, readContext } from "./Analyze.js"
import * as Metrics from "./Metrics.js"
import { LanguageIdentifier } from "./Providers.js"
import { SuggestionStore } from "./Stores.js"

/**
 * Stores a correction. `keyId` is the public id of the key that authenticated it (null where no
 * key did: the in-process API). When the host refits adapters automatically (`Adaptation.Refits`),
 * it is told, without waiting: the answer never waits for a fit.
 */
export const suggestScore = Effect.fn("Suggest.suggestScore", { captureStackTrace: false })(function*(account: Account, request: Perspective.SuggestCommentScoreRequest, keyId: string | null) {
  const text = yield* commentText(request.comment)
  // Same rule as analyze: `context.entries` or `context.articleAndParentComment`, not both.
  yield* readContext(request.context)
  const scores = request.attributeScores ?? {}
  const names = Object.keys(scores)
  if (names.length === 0) {
    return yield* new InvalidRequest({ message: "attributeScores must name at least one attribute." })
  }
  const values: Record<string, number> = {}
  for (const name of names) {
    if (Perspective.resolveAttribute(name) === undefined) {
      return yield* new UnsupportedAttribute({ attribute: name, message: `Unknown requested attribute: ${name}` })
    }
    const value = scores[name]?.summaryScore?.value
    if (value === undefined || value === null || !Number.isFinite(value) || value < 0 || value > 1) {
      return yield* new InvalidRequest({ message: `attributeScores.${name}.summaryScore.value must be a number between 0 and 1.` })
    }
    values[name] = value
  }
  const languages = request.languages ?? []
  yield* (yield* SuggestionStore).insert({
    accountId: account.id,
    commentText: text,
    contextJson: request.context ? JSON.stringify(request.context) : null,
    attributeScores: values,
    languages,
    clientToken: request.clientToken ?? null,
    sessionId: request.sessionId ?? null,
    communityId: request.communityId ?? null,
    keyId
  })
  yield* Metric.increment(Metrics.suggestionsStored)
  const refits = yield* Effect.serviceOption(Refits)
  if (Option.isSome(refits)) yield* refits.value.corrected(account)
  // Perspective identifies the comment's languages here too (`detectedLanguages`, most likely first).
  const identifier = yield* Effect.serviceOption(LanguageIdentifier)
  const response: Perspective.SuggestCommentScoreResponse = {
    ...(request.clientToken ? { clientToken: request.clientToken } : {}),
    ...(Option.isSome(identifier) ? { detectedLanguages: identifier.value.detect(text) } : {}),
    ...(request.languages && request.languages.length > 0 ? { requestedLanguages: request.languages } : {})
  }
  return response
})
