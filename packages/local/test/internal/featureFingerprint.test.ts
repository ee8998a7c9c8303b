/**
 * The trained heads read these features: a model trained on them (the shipped one, and the one in
 * training) is only valid while not one bit of them changes. The fingerprint below is the SHA-256
 * of the normaliser's and the featuriser's outputs (tokens, ranges, flags, slots, values in their
 * emission order, occurrence records) over the golden texts and a few hundred varied ones, recorded
 * with the featuriser as it was before it was optimised for speed. A change that moves any of
 * them fails here; a deliberate change of the features is a retrain and a new fingerprint.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import { Featurizer } from "../../src/internal/model/features.js"
import type { Manifest } from "../../src/internal/model/format.js"
import { Normalizer } from "../../src/internal/model/normalize.js"
import { GOLDEN_TEXTS } from "../models/goldenTexts.js"
import { variedTexts } from "../models/variedTexts.js"

const manifest = JSON.parse(readFileSync(new URL("../../models/manifest.json", import.meta.url), "utf8")) as Manifest
const TEXTS = [...GOLDEN_TEXTS, ...variedTexts(300)]

const fingerprint = (track: boolean): string => {
  const f = new Featurizer(manifest.features, new Normalizer({ respell: manifest.respell }))
  const hash = createHash("sha256")
  for (const text of TEXTS) {
    const nnz = f.run(text, track)
    const norm = f.normalizer
    const n = norm.count
    hash.update(JSON.stringify([n, norm.tokens.slice(0, n), norm.begins.slice(0, n), norm.ends.slice(0, n), norm.flags.slice(0, n)]))
    hash.update(new Uint8Array(f.idx.buffer, 0, nnz * 4))
    hash.update(new Uint8Array(f.val.buffer, 0, nnz * 4))
    const blocks = new Uint8Array(nnz)
    for (let p = 0; p < nnz; p++) blocks[p] = f.block(p)
    hash.update(blocks)
    if (track) {
      hash.update(new Uint8Array(f.occSlot.buffer, 0, f.occ * 4))
      hash.update(new Uint8Array(f.tokenStart.buffer, 0, (n + 1) * 4))
    }
  }
  return hash.digest("hex")
}

describe("the features the trained heads read", () => {
  it("are bit for bit those recorded before the featuriser was optimised", () => {
    assert.isAbove(TEXTS.length, 400)
    assert.strictEqual(fingerprint(true), "295881c1753c0add60a4743ecdd69b6fdb49bd9491627106e3d81faafddb0a79")
  })

  it("are the same without occurrence tracking (the score-only path)", () => {
    assert.strictEqual(fingerprint(false), "2f2b68e1fba65680928679336f09f3fac7701cf588bcf3f7abe63c84702e2811")
  })
})
