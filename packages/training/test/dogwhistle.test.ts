/**
 * The dog-whistle training code on fixtures of its own: the term resource built from glossary rows
 * (curation, flags, subtlety and harm), the by-term split, and the threshold rule.
 */
import { describe, expect, it } from "vitest"
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
    expect(forms("#Milk")).toEqual([{ text: "#Milk", hashOnly: true }, { text: "#milk", hashOnly: true }, { text: "#MilkTwitter", hashOnly: true }])
    expect(forms("bear emoji").map((f) => f.text)).toEqual(["🐻"])
    expect(forms("Google")).toEqual([{ text: "Googles", exact: true }])
    expect(forms("lifelong bachelor").map((f) => f.text)).toEqual(["lifelong bachelor", "confirmed bachelor"])
    expect(forms("triple parentheses").map((f) => f.text)).toEqual(["triple parentheses", "((()))", "(((echo)))"])
    expect(terms.find((t) => t.root === "triple parentheses")!.echo).toBe(true)
  })
  it("gives a form that is another term's name to that term only", () => {
    expect(forms("attacks on or imagery of Jewish financial leaders").map((f) => f.text)).toEqual(["Janet Yellen"])
    expect(forms("George Soros").map((f) => f.text)).toEqual(["George Soros", "Soros"])
  })
  it("rates subtlety from type and register, harm from type and in-group", () => {
    expect(subtletyOf("concept (policy)", "Formal/Offline")).toBeGreaterThan(subtletyOf("persona signal (symbol)", "Informal/Online"))
    expect(harmOf("arbitrary target group label", "antisemitic")).toBeGreaterThan(harmOf("concept (policy)", "conservative"))
    for (const t of terms) {
      expect(t.subtlety).toBeGreaterThanOrEqual(0)
      expect(t.subtlety).toBeLessThanOrEqual(1)
      expect(t.harm).toBeGreaterThanOrEqual(0)
      expect(t.harm).toBeLessThanOrEqual(1)
    }
  })
})

describe("termSplit", () => {
  it("puts every spelling of a term in one split, about 60 / 20 / 20", () => {
    expect(termSplit("George Soros")).toBe(termSplit("george soros"))
    expect(termSplit("black-on-black crime")).toBe(termSplit("Black on Black Crime"))
    const counts = { train: 0, dev: 0, test: 0 }
    for (let i = 0; i < 2000; i++) counts[termSplit(`term ${i}`)]++
    expect(counts.train / 2000).toBeGreaterThan(0.55)
    expect(counts.train / 2000).toBeLessThan(0.65)
    expect(counts.test / 2000).toBeGreaterThan(0.16)
    expect(counts.dev / 2000).toBeGreaterThan(0.16)
  })
})

describe("chooseThreshold", () => {
  it("takes the best F1 at or above 0.5 with no benign set over the limit", () => {
    const scores = [0.9, 0.8, 0.7, 0.6, 0.55, 0.4]
    const labels = [1, 1, 1, 0, 1, 0]
    // without benign comments: 0.55 keeps 4 of 4 coded at precision 0.8
    expect(chooseThreshold(scores, labels, [[]], 0.01).threshold).toBe(0.5)
    // a benign set with 1 of 10 at 0.65: the threshold must pass it
    const op = chooseThreshold(scores, labels, [[0.65, 0, 0, 0, 0, 0, 0, 0, 0, 0], []], 0.05)
    expect(op.threshold).toBeGreaterThan(0.65)
    expect(op.cleanFlagged).toBe(0)
    expect(op.recall).toBeCloseTo(0.75, 10)
  })
})
