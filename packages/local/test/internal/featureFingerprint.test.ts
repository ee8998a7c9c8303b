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

const fingerprint = (track: boolean, f = new Featurizer(manifest.features, new Normalizer({ respell: manifest.respell })), texts = TEXTS): string => {
  const hash = createHash("sha256")
  for (const text of texts) {
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

/**
 * The language sets' features with the plain baseline's tokens (`FeatureConfig.plain`, issue 28
 * round 3): the shipped `local-<code>-2026.11.28.3` heads read them, so they are pinned the same way
 * (recorded with the release), over texts of every script the sets serve and awkward cases.
 */
const MULTILINGUAL = [
  "Tu es un connard et une ordure", "Eres un pendejo de mierda, cállate", "Ты тупой урод", "Sei un coglione di merda",
  "Vielen Dank für den hilfreichen Artikel", "İSTANBUL'DA çok güzel, ĞÜŞ", "Straße STRASSE ǅungla", "𝐇𝐞𝐥𝐥𝐨 😀 world 👍🏽",
  "你好，世界！我觉得你真是个傻逼", "मुझे लगता है तुम बेवकूफ़ हो।", "이 새끼야 ㅅㅂ 진짜", "أنت غبي جداً، ٣ مرات",
  "a_b c-d e.f 12 3", "http://x.y/z?q=1 @user #tag", "  leading and  trailing  ", "", "x", "x y", "бл*ть пид0р xуй"
]
const PLAIN_CONFIGS = [
  { bits: 20, charMin: 1, charMax: 5, negationScope: 0, globals: false, script: { accents: true }, plain: { charMin: 1, charMax: 5 } },
  { bits: 20, charMin: 3, charMax: 3, negationScope: 0, globals: true, script: { ideographs: true }, plain: { charMin: 1, charMax: 5 } },
  { bits: 20, charMin: 1, charMax: 5, negationScope: 0, globals: false, script: { cyrillic: true, accents: true }, plain: { charMin: 1, charMax: 5 } }
] as const

describe("the language sets' features with the plain baseline's tokens", () => {
  it("are bit for bit those the round-3 release was trained on, with and without tracking", () => {
    const prints = PLAIN_CONFIGS.flatMap((config) => [true, false].map((track) => fingerprint(track, new Featurizer(config), [...MULTILINGUAL, ...variedTexts(100)])))
    assert.deepStrictEqual(prints, [
      "959ea4097ee6bdd8a1de59a4aabe3f6b2a2ec1a504fcbaa2a2d4a6459b5c8c53",
      "58fdd129635b6dc215d4d72ca282a7612dfe6bde41209f13111bbb4b3c55d491",
      "8d4b29dce9bb7b34e804ee431f5f9f12447e9f4bcdaa2924de2a084291c40351",
      "5055b9861648e7be49033db0cf0685924f012e766577157b668ec823609b0886",
      "0d451b716c58d0b8b28233bba50b7129d4d1d73dc54da4191592e31e45e8d2f9",
      "7ce8f03fd58ccfaaa5372a4bd8a71c4379b56de01dbac0e3ca1c3d0740037991"
    ])
  })
})
