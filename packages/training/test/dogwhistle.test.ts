/**
 * The dog-whistle training code on fixtures of its own: the term resource built from glossary rows
 * (curation, flags, subtlety and harm), the by-term split, and the threshold rule.
 */
import { assert, describe, it } from "@effect/vitest"
import { chooseThreshold } from "../dogwhistle.js"
import { buildTerms, harmOf, subtletyOf, termKey, termSplit } from "../dogwhistleData.js"

const row = (Dogwhistle: string, forms: string, group = "antisemitic", type = "concept (other)", register = "Formal/Offline") => ({
  term_key: termKey(Dogwhistle),
  Dogwhistle,
  "Surface Forms": forms,
  "Persona/In-Group": group,
  Type: type,
  Register: register,
  "Covert (in-group) meaning": "A covert meaning."
})

describe("buildTerms", () => {
  const terms = buildTerms([
    row("#Milk", "#Milk; #milk; #MilkTwitter", "white supremacist", "persona signal (self-referential)", "Informal/Online"),
    row("bear emoji", "🐻; bear emoji", "white supremacist", "persona signal (symbol)", "Informal/Online"),
    row("Google", "Google; Googles", "racist", "arbitrary target group label", "Informal/Online"),
    row("lifelong bachelor", "lifelong bachelor; single; confirmed bachelor", "homophobic", "stereotype-based target group label"),
    row("attacks on or imagery of Jewish financial leaders", "Janet Yellen; George Soros", "antisemitic", "representative (Bogeyman)"),
    row("George Soros", "George Soros; Soros", "antisemitic", "representative (Bogeyman)"),
    row("triple parentheses", "triple parentheses; echo; ((())); (((echo)))", "antisemitic", "arbitrary target group label", "Informal/Online")
  ])
  const forms = (root: string) => terms.find((t) => t.root === root)!.forms

  it("keeps the forms, drops descriptions and everyday words, and flags hashtag-only and exact forms", () => {
    assert.deepStrictEqual(forms("#Milk"), [{ text: "#Milk", hashOnly: true }, { text: "#milk", hashOnly: true }, { text: "#MilkTwitter", hashOnly: true }])
    assert.deepStrictEqual(forms("bear emoji").map((f) => f.text), ["🐻"])
    assert.deepStrictEqual(forms("Google"), [{ text: "Googles", exact: true }])
    assert.deepStrictEqual(forms("lifelong bachelor").map((f) => f.text), ["lifelong bachelor", "confirmed bachelor"])
    assert.deepStrictEqual(forms("triple parentheses").map((f) => f.text), ["triple parentheses", "((()))", "(((echo)))"])
    assert.isTrue(terms.find((t) => t.root === "triple parentheses")!.echo)
  })
  it("gives a form that is another term's name to that term only", () => {
    assert.deepStrictEqual(forms("attacks on or imagery of Jewish financial leaders").map((f) => f.text), ["Janet Yellen"])
    assert.deepStrictEqual(forms("George Soros").map((f) => f.text), ["George Soros", "Soros"])
  })
  it("rates subtlety from type and register, harm from type and in-group", () => {
    assert.isAbove(subtletyOf("concept (policy)", "Formal/Offline"), subtletyOf("persona signal (symbol)", "Informal/Online"))
    assert.isAbove(harmOf("arbitrary target group label", "antisemitic"), harmOf("concept (policy)", "conservative"))
    for (const t of terms) {
      assert.isAtLeast(t.subtlety, 0)
      assert.isAtMost(t.subtlety, 1)
      assert.isAtLeast(t.harm, 0)
      assert.isAtMost(t.harm, 1)
    }
  })
})

describe("termSplit", () => {
  it("puts every spelling of a term in one split, about 60 / 20 / 20", () => {
    assert.strictEqual(termSplit("George Soros"), termSplit("george soros"))
    assert.strictEqual(termSplit("black-on-black crime"), termSplit("Black on Black Crime"))
    const counts = { train: 0, dev: 0, test: 0 }
    for (let i = 0; i < 2000; i++) counts[termSplit(`term ${i}`)]++
    assert.isAbove(counts.train / 2000, 0.55)
    assert.isBelow(counts.train / 2000, 0.65)
    assert.isAbove(counts.test / 2000, 0.16)
    assert.isAbove(counts.dev / 2000, 0.16)
  })
})

describe("chooseThreshold", () => {
  it("takes the best F1 at or above 0.5 with no benign set over the limit", () => {
    const scores = [0.9, 0.8, 0.7, 0.6, 0.55, 0.4]
    const labels = [1, 1, 1, 0, 1, 0]
    // without benign comments: 0.55 keeps 4 of 4 coded at precision 0.8
    assert.strictEqual(chooseThreshold(scores, labels, [[]], 0.01).threshold, 0.5)
    // a benign set with 1 of 10 at 0.65: the threshold must pass it
    const op = chooseThreshold(scores, labels, [[0.65, 0, 0, 0, 0, 0, 0, 0, 0, 0], []], 0.05)
    assert.isAbove(op.threshold, 0.65)
    assert.strictEqual(op.cleanFlagged, 0)
    assert.closeTo(op.recall, 0.75, 5e-11)
  })
})
