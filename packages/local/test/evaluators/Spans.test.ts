/**
 * Objectionable phrases from the shipped toxic-span tagger (`spans.json` + `spans.bin`) through
 * the comment scorer as the engine wires it: the smallest verbatim spans, in any script or markup,
 * only in comments the toxicity heads find objectionable (or where the tagger is confident); and
 * the heads' own cuts when a models directory has no tagger.
 */
import { CommentScorer } from "@decorum/core"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Logger, Option } from "effect"
import { copyFileSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { scoreComment } from "../../src/evaluators/LocalCommentScorer.js"
import * as LocalEngine from "../../src/LocalEngine.js"
import type { Manifest } from "../../src/internal/model/format.js"
import { spanModelIn } from "../../src/models/SpanTagger.js"
import { defaultModelDirectory, fromModelSet, loadModelSet } from "../../src/models/TrainedModel.js"
import { article } from "./fixtures.js"
import { scratchDir } from "../scratch.js"

const dir = defaultModelDirectory()
const model = fromModelSet(loadModelSet(dir))
const tagger = Option.getOrThrow(Effect.runSync(spanModelIn(dir)))

const quotes = (comment: string, withTagger = true) =>
  scoreComment(model, { comment, replyTo: null, article }, undefined, withTagger ? { spans: tagger } : {}).objectionable_phrases.map((o) => o.quoted_objectionable_phrase)

describe("objectionable phrases from the toxic-span tagger", () => {
  it("quote the word that carries the insult, not the sentence around it", () => {
    assert.deepStrictEqual(quotes("You are an idiot and nobody listens to you."), ["idiot"])
    assert.deepStrictEqual(quotes("What a bunch of morons run this city."), ["morons"])
    // "lying" scores 2.3 below "stupid": left out beside it (spans-2026.11.3's relative limit)
    assert.deepStrictEqual(quotes("Shut up, you stupid lying clown."), ["stupid", "clown"])
    assert.deepStrictEqual(quotes("The mayor is a corrupt pathetic liar and a disgrace."), ["corrupt pathetic liar"])
    // the heads' cuts also quoted words that carry nothing
    assert.deepStrictEqual(quotes("What a bunch of morons run this city.", false), ["morons", "bunch"])
  })

  it("are verbatim in any script, around emoji, entities and markup", () => {
    const texts = [
      "<p>Honestly, <b>you moron</b> &amp; your <i>stupid</i> plan&nbsp;— no.</p>",
      "🙄🙄 What an idiot, this mayor. Ça suffit, imbécile!",
      "Zoë said the council are a bunch of morons 😤 and I agree",
      "ＦＵＬＬＷＩＤＴＨ idiot\u00a0and\u200b moron, e\u0301tonnant",
      "Only a complete fool would write «this» — shut up, loser."
    ]
    for (const text of texts) {
      const found = quotes(text)
      assert.isAbove(found.length, 0, text)
      for (const q of found) {
        assert.isTrue(text.includes(q), `${q} in ${text}`)
        assert.strictEqual(q.trim(), q, q)
        assert.isBelow(q.length, 30, q)
      }
    }
    assert.deepStrictEqual(quotes("Zoë said the council are a bunch of morons 😤 and I agree"), ["morons"])
    // a known miss: in markup "moron" scores 1.26 below "stupid", just past the relative limit (1.25)
    assert.deepStrictEqual(quotes("<p>Honestly, <b>you moron</b> &amp; your <i>stupid</i> plan&nbsp;— no.</p>"), ["stupid"])
  })

  it("quote nothing in a comment the heads find civil", () => {
    for (const text of ["I support the new tram lines, they cut my commute in half.", "The council's report is thorough; the costs are on page 4.", "Great work, thanks!"]) {
      assert.deepStrictEqual(quotes(text), [], text)
    }
  })

  it("leave the 1-5 grade as the heads' evidence set it, however the quotes are cut", () => {
    const civil = "I read the council's report carefully, and the numbers on page 4 show the tram extension pays for itself within ten years, because congestion costs every commuter time. For example, the 14 bus is always late and the new lanes would fix that. "
    // a long comment whose toxicity stays under the grade's caps, so the phrase count matters
    for (const comment of [`${civil}The mayor is a liar, and a pathetic clown.`, `${civil}Shut up, you stupid lying clown.`]) {
      const withTagger = scoreComment(model, { comment, replyTo: null, article }, undefined, { spans: tagger })
      const without = scoreComment(model, { comment, replyTo: null, article })
      assert.notStrictEqual(withTagger.objectionable_phrases.length, without.objectionable_phrases.length, comment)
      assert.strictEqual(withTagger.overall_score, without.overall_score, comment)
    }
  })

  it.effect("come from the tagger the engine finds beside the models, and from the heads' cuts without it", () =>
    Effect.gen(function*() {
      const comment = "What a bunch of morons run this city."
      const score = (d: string) =>
        Effect.flatMap(CommentScorer, (s) => s.score({ comment, replyTo: null, article })).pipe(
          Effect.map((r) => r.value.objectionable_phrases.map((o) => o.quoted_objectionable_phrase)),
          Effect.provide(LocalEngine.layer({ model: { directory: d } }))
        )
      assert.deepStrictEqual(yield* score(dir), ["morons"])
      // a models directory without spans.json: the heads' cuts, as before the tagger
      const bare = scratchDir("decorum-nospans-")
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest
      for (const f of ["manifest.json", ...manifest.families.map((x) => x.file)]) copyFileSync(join(dir, f), join(bare, f))
      assert.deepStrictEqual(yield* score(bare), ["morons", "bunch"])
    }).pipe(Effect.provide(Layer.empty)))

  it.effect("fall back to the heads' cuts, with one warning, when the tagger's files are damaged", () => Effect.gen(function*() {
    const comment = "What a bunch of morons run this city."
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest
    const spansManifest = readFileSync(join(dir, "spans.json"), "utf8")
    const weightsFile = (JSON.parse(spansManifest) as { file: string }).file
    const weights = readFileSync(join(dir, weightsFile))
    for (const [what, bin] of [["weight file truncated", weights.subarray(0, 1000)], ["weight file missing", undefined]] as const) {
      const damaged = scratchDir("decorum-badspans-")
      for (const f of ["manifest.json", ...manifest.families.map((x) => x.file)]) copyFileSync(join(dir, f), join(damaged, f))
      writeFileSync(join(damaged, "spans.json"), spansManifest)
      if (bin !== undefined) writeFileSync(join(damaged, weightsFile), bin)
      const lines: Array<string> = []
      const logger = Logger.replace(Logger.defaultLogger, Logger.make(({ logLevel, message }) => lines.push(`${logLevel.label} ${String(message)}`)))
      // run on its own, as a host does: nothing of the test's context reaches the engine
      const quoted = yield* Effect.flatMap(CommentScorer, (s) => s.score({ comment, replyTo: null, article })).pipe(
          Effect.map((r) => r.value.objectionable_phrases.map((o) => o.quoted_objectionable_phrase)),
          Effect.provide(LocalEngine.layer({ model: { directory: damaged } })),
          Effect.provide(logger)
        )
      assert.deepStrictEqual(quoted, ["morons", "bunch"], what)
      assert.strictEqual(lines.length, 1, what)
      assert.match(lines[0]!, /^WARN toxic-span tagger in .* not loaded \(.+\): objectionable phrases are cut from the toxicity heads' explanations/, what)
    }
  }))
})
