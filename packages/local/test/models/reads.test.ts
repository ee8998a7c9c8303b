/**
 * A trained head reading other heads, rectified (`LabelEntry.reads`, local-2026.12.7: TOXICITY
 * reads IDENTITY_ATTACK): `weight * max(0, z)` added to the head's raw log-odds before its
 * calibration, z the read head's calibrated log-odds. On a tiny fixture model (16 slots, zero
 * weights, so each head's raw log-odds is its bias and IDENTITY_ATTACK's score moves only with its
 * identity evidence, which fires on "Black people are animals." and not on the weather).
 */
import { assert, describe, it } from "@effect/vitest"
import type { ModelLabel } from "../../src/AttributeModel.js"
import { sigmoid, logit } from "../../src/internal/calibration.js"
import { DEFAULT_FEATURES } from "../../src/internal/model/features.js"
import { encodeWeights, type LabelEntry, type Manifest } from "../../src/internal/model/format.js"
import { ModelSet } from "../../src/models/ModelSet.js"

const BITS = 4
const HATE = "Black people are animals."
const BENIGN = "The weather is nice today."
const zeros = () => new Float32Array(1 << BITS)

const IA: LabelEntry = { kind: "trained", family: "tox", calibration: { kind: "platt", a: 0.5, b: -1 }, evidence: { kind: "identity", weight: 10 } }
const TOX: LabelEntry = { kind: "trained", family: "tox", calibration: { kind: "platt", a: 1, b: 0 } }
const INSULT: LabelEntry = { kind: "trained", family: "other", calibration: { kind: "pwl", x: [0, 1], y: [0.5, 0.9] } }

const setOf = (labels: Partial<Record<ModelLabel, LabelEntry>>, withOther = true): ModelSet => {
  const manifest: Manifest = {
    format: 1,
    version: "fixture",
    features: DEFAULT_FEATURES,
    respell: {},
    families: [
      { name: "tox", file: "tox.bin", sha256: "", bits: BITS, labels: ["TOXICITY", "IDENTITY_ATTACK"], sources: [] },
      { name: "other", file: "other.bin", sha256: "", bits: BITS, labels: ["INSULT"], sources: [] }
    ],
    labels
  }
  // raw log-odds: TOXICITY -1, IDENTITY_ATTACK -3, INSULT 0.5 (all exact in float32)
  const files = new Map([["tox.bin", encodeWeights(BITS, [zeros(), zeros()], [-1, -3])]])
  if (withOther) files.set("other.bin", encodeWeights(BITS, [zeros()], [0.5]))
  return new ModelSet(manifest, files)
}

const reading = (reads: NonNullable<Extract<LabelEntry, { kind: "trained" }>["reads"]>): LabelEntry => ({ ...TOX, reads })

describe("LabelEntry.reads", () => {
  it("a manifest without reads scores a head from its own log-odds, as before", () => {
    const set = setOf({ TOXICITY: TOX, IDENTITY_ATTACK: IA })
    for (const text of [HATE, BENIGN]) {
      assert.strictEqual(set.score(text, ["TOXICITY"]).TOXICITY, sigmoid(-1))
      assert.strictEqual(set.predict(set.analyse(text), ["TOXICITY"]).TOXICITY, sigmoid(-1))
    }
    // the identity head does move: z = 0.5 (-3 + 10) - 1 = 2.5 on the hateful text, 0.5 (-3) - 1 = -2.5 on the other
    assert.closeTo(set.score(HATE, ["IDENTITY_ATTACK"]).IDENTITY_ATTACK!, sigmoid(2.5), 5e-13)
    assert.closeTo(set.score(BENIGN, ["IDENTITY_ATTACK"]).IDENTITY_ATTACK!, sigmoid(-2.5), 5e-13)
  })

  it("adds weight * max(0, z) of the read head: up when it is confident, never down when it is not", () => {
    const plain = setOf({ TOXICITY: TOX, IDENTITY_ATTACK: IA })
    const set = setOf({ TOXICITY: reading([{ label: "IDENTITY_ATTACK", weight: 0.4 }]), IDENTITY_ATTACK: IA })
    // -1 + 0.4 * 2.5 = 0
    assert.closeTo(set.score(HATE, ["TOXICITY"]).TOXICITY!, 0.5, 5e-13)
    assert.isAbove(set.score(HATE, ["TOXICITY"]).TOXICITY!, plain.score(HATE, ["TOXICITY"]).TOXICITY!)
    // z = -2.5 < 0: nothing added, the same bits as without the read
    assert.strictEqual(set.score(BENIGN, ["TOXICITY"]).TOXICITY, plain.score(BENIGN, ["TOXICITY"]).TOXICITY)
    // the read head's own score does not change
    assert.deepStrictEqual(set.score(HATE, ["IDENTITY_ATTACK"]), plain.score(HATE, ["IDENTITY_ATTACK"]))
  })

  it("a request for the reading head alone gives the same bits as the analysis and as every label together", () => {
    const set = setOf({ TOXICITY: reading([{ label: "IDENTITY_ATTACK", weight: 0.4 }]), IDENTITY_ATTACK: IA, INSULT })
    for (const text of [HATE, BENIGN]) {
      const alone = set.score(text, ["TOXICITY"]).TOXICITY
      assert.isTrue(Object.is(alone, set.predict(set.analyse(text), ["TOXICITY"]).TOXICITY))
      assert.isTrue(Object.is(alone, set.score(text, set.labels).TOXICITY))
      assert.isTrue(Object.is(alone, set.predict(set.analyse(text), set.labels).TOXICITY))
    }
  })

  it("names the read head's strongest span in the reading head's explanation, weighted by what the read added", () => {
    const plain = setOf({ TOXICITY: TOX, IDENTITY_ATTACK: IA })
    const set = setOf({ TOXICITY: reading([{ label: "IDENTITY_ATTACK", weight: 0.4 }]), IDENTITY_ATTACK: IA })
    // zero weights: TOXICITY's own features name nothing; IDENTITY_ATTACK's strongest span is its pattern, "Black people are animals"
    assert.deepStrictEqual(plain.explain(HATE, "TOXICITY"), [])
    assert.deepStrictEqual(set.explain(HATE, "IDENTITY_ATTACK", 1), [{ begin: 0, end: 24, weight: 10 }])
    // the read added 0.4 * 2.5 = 1 to TOXICITY's log-odds
    assert.deepStrictEqual(set.explain(HATE, "TOXICITY"), [{ begin: 0, end: 24, weight: 1 }])
    assert.deepStrictEqual(set.explain(BENIGN, "TOXICITY"), [])
  })

  it("reads a head with a piecewise-linear calibration through the logit of its probability", () => {
    const set = setOf({ TOXICITY: reading([{ label: "INSULT", weight: 2 }]), IDENTITY_ATTACK: IA, INSULT })
    // INSULT: raw 0.5 maps to 0.7
    assert.closeTo(set.score(BENIGN, ["INSULT"]).INSULT!, 0.7, 5e-13)
    assert.closeTo(set.score(BENIGN, ["TOXICITY"]).TOXICITY!, sigmoid(-1 + 2 * logit(0.7)), 5e-13)
  })

  it("drops a head whose read head's weight file is missing, as it drops aliases", () => {
    const set = setOf({ TOXICITY: reading([{ label: "INSULT", weight: 2 }]), IDENTITY_ATTACK: IA, INSULT }, false)
    assert.deepStrictEqual<unknown>(set.labels, ["IDENTITY_ATTACK"])
  })

  it("refuses a head reading itself, a cycle, a read of a label that is not trained, and a negative weight", () => {
    assert.throws(() => setOf({ TOXICITY: reading([{ label: "TOXICITY", weight: 0.5 }]), IDENTITY_ATTACK: IA }), "model manifest: TOXICITY reads itself")
    assert.throws(() =>
      setOf({ TOXICITY: reading([{ label: "IDENTITY_ATTACK", weight: 0.5 }]), IDENTITY_ATTACK: { ...IA, reads: [{ label: "TOXICITY", weight: 0.1 }] } }), "model manifest: a cycle of reads (TOXICITY reads IDENTITY_ATTACK reads TOXICITY)")
    assert.throws(() =>
      setOf({ TOXICITY: reading([{ label: "OBSCENE", weight: 0.5 }]), IDENTITY_ATTACK: IA, INSULT, OBSCENE: { kind: "alias", of: "INSULT" } }), "model manifest: TOXICITY reads OBSCENE, which is not a trained head")
    assert.throws(() => setOf({ TOXICITY: reading([{ label: "IDENTITY_ATTACK", weight: -0.5 }]), IDENTITY_ATTACK: IA }), "must be finite and non-negative")
    // a hand-edited manifest whose reads is not a list
    const notAList = { ...TOX, reads: { label: "IDENTITY_ATTACK", weight: 1 } } as unknown as LabelEntry
    assert.throws(() => setOf({ TOXICITY: notAList, IDENTITY_ATTACK: IA }), "model manifest: TOXICITY's reads must be a list of { label, weight }")
  })
})
