/**
 * A judge backend for tests: answers a fixed log-odds per attribute, counts its calls and the texts
 * of each, and can be held (`gate`) so that a call stays in flight until the test releases it.
 */
import type { Perspective } from "@decorum/domain"
import type { JudgeBackend } from "../../src/JudgeBackend.js"

export interface FakeBackend extends JudgeBackend {
  /** The texts of each call, in order. */
  readonly calls: Array<ReadonlyArray<string>>
  /** Holds every later call until `release()`. */
  readonly hold: () => void
  readonly release: () => void
  /** Makes every later call fail. */
  readonly breakIt: (message: string) => void
}

export const fakeBackend = (
  logits: Readonly<Partial<Record<Perspective.Attribute, number>>> = { TOXICITY: 3, INSULT: -3 },
  model = "judge-test"
): FakeBackend => {
  const calls: Array<ReadonlyArray<string>> = []
  let held: Promise<void> | undefined
  let open: (() => void) | undefined
  let broken: string | undefined
  return {
    model,
    heads: new Map(Object.keys(logits).map((a) => [a as Perspective.Attribute, { head: 1, linear: 0, bias: 0 }])),
    calls,
    hold: () => {
      held = new Promise((resolve) => (open = resolve))
    },
    release: () => {
      held = undefined
      open?.()
    },
    breakIt: (message) => {
      broken = message
    },
    logits: async (texts) => {
      calls.push([...texts])
      if (held !== undefined) await held
      if (broken !== undefined) throw new Error(broken)
      return texts.map(() => ({ ...logits }))
    },
    close: () => Promise.resolve()
  }
}
