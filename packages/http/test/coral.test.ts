/**
 * Coral Talk's Perspective integration, reproduced exactly as its server calls the service: the
 * admin's "custom endpoint" (e.g. `http://host/v1alpha1`) joined with `/comments:analyze` and
 * `?key=`, its request body, its time budget (800 ms), the one field it reads
 * (`attributeScores[MODEL].summaryScore.value` > threshold, 0.8 by default), and its feedback call
 * to `/comments:suggestscore` whose answer it reads only through `res.ok`. On any failure Coral
 * logs and lets the comment through, so a failure here must be visible as a non-2xx status.
 */
import path from "node:path"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHttpHost, type TestHost } from "./harness.js"

/** Coral's locale -> Perspective language mapping (everything else is "en"). */
const convertLanguage = (locale: string) => ({ "en-US": "en", es: "es", "fr-FR": "fr", de: "de", "pt-BR": "pt" } as Record<string, string>)[locale] ?? "en"

interface CoralSettings {
  readonly endpoint: string
  readonly key: string
  readonly threshold?: number
  readonly doNotStore?: boolean
  readonly locale?: string
  /** Coral's two joining rules: `path.join` on a parsed URL (current), template string (older releases). */
  readonly joining: "path.join" | "template"
}

const TIMEOUT_MS = 800
const MODEL = "TOXICITY"

const coralUrl = (settings: CoralSettings, operation: "comments:analyze" | "comments:suggestscore") => {
  if (settings.joining === "template") return `${settings.endpoint}/${operation}?key=${settings.key}`
  const url = new URL(settings.endpoint.trim())
  url.pathname = path.join(url.pathname, `/${operation}`)
  url.searchParams.set("key", settings.key.trim())
  return url.toString()
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(TIMEOUT_MS) })

/** Coral's toxic phase: the score it reads, and whether it withholds the comment. */
const coralToxicPhase = async (settings: CoralSettings, text: string) => {
  try {
    const res = await post(coralUrl(settings, "comments:analyze"), {
      comment: { text },
      doNotStore: settings.doNotStore ?? true,
      requestedAttributes: { [MODEL]: {} },
      languages: [convertLanguage(settings.locale ?? "en-US")]
    })
    if (!res.ok) return { withheld: false, failure: `status ${res.status}` }
    const data = (await res.json()) as any
    const score = data.attributeScores[MODEL].summaryScore.value as number
    return { withheld: score > (settings.threshold ?? 0.8), score }
  } catch (err) {
    // Coral logs "could not determine comment toxicity" and lets the comment through.
    return { withheld: false, failure: String(err) }
  }
}

/** Coral's feedback when a moderator approves or rejects: only `res.ok` is read. */
const coralFeedback = async (settings: CoralSettings, comment: { id: string; parentId?: string; text: string; storyURL: string; tenantURL: string; rejected: boolean }) => {
  const res = await post(coralUrl(settings, "comments:suggestscore"), {
    comment: { text: comment.text },
    context: {
      entries: [{ text: JSON.stringify({ url: `${comment.storyURL}?commentID=${comment.id}`, reply_to_id_Coral_comment_id: comment.parentId, Coral_comment_id: comment.id }) }]
    },
    attributeScores: { [MODEL]: { summaryScore: { value: comment.rejected ? 1 : 0 } } },
    languages: [convertLanguage("en-US")],
    communityId: `Coral:${comment.tenantURL}`,
    clientToken: `comment:${comment.id}`
  })
  return res.ok
}

describe("Coral Talk's Perspective integration against Decorum", () => {
  let host: TestHost
  let key: string
  const email = "coral@example.com"

  beforeAll(async () => {
    host = await startHttpHost()
    key = await host.createKey(email)
  })
  afterAll(async () => {
    await host?.close()
  })

  const settings = (extra: Partial<CoralSettings> = {}): CoralSettings => ({ endpoint: `${host.url}/v1alpha1`, key, joining: "path.join", ...extra })

  it("withholds a toxic comment and lets a civil one through, within 800 ms, with either joining rule", async () => {
    for (const joining of ["path.join", "template"] as const) {
      const toxic = await coralToxicPhase(settings({ joining }), "You stupid idiot, nobody wants you here.")
      assert.isUndefined(toxic.failure)
      assert.deepInclude(toxic, { withheld: true })
      const civil = await coralToxicPhase(settings({ joining }), "Thanks for the thoughtful article.")
      assert.isUndefined(civil.failure)
      assert.isFalse(civil.withheld)
      assert.isBelow(civil.score!, 0.8)
    }
  })

  it("accepts the endpoint with a trailing slash and whitespace (path.join and trim normalise it)", async () => {
    const result = await coralToxicPhase(settings({ endpoint: ` ${host.url}/v1alpha1/ ` }), "You idiot.")
    assert.isUndefined(result.failure)
    assert.isAbove(result.score!, 0)
  })

  it("honours the tenant's threshold and doNotStore setting, and answers for every Coral language", async () => {
    const low = await coralToxicPhase(settings({ threshold: 0.3, doNotStore: false }), "What an idiot.")
    assert.deepInclude(low, { withheld: true })
    for (const locale of ["es", "fr-FR", "de", "pt-BR", "en-US"]) {
      const r = await coralToxicPhase(settings({ locale }), "Un comentario amable.")
      assert.isUndefined(r.failure)
      assert.strictEqual(typeof r.score, "number")
    }
  })

  it("makes a wrong key visible as a non-2xx answer (Coral then lets the comment through)", async () => {
    const r = await coralToxicPhase(settings({ key: "not-a-key" }), "You idiot.")
    assert.deepStrictEqual(r, { withheld: false, failure: "status 400" })
  })

  it("stores the moderator's feedback with Coral's community id, client token and context", async () => {
    const ok = await coralFeedback(settings(), {
      id: "c-123",
      text: "You idiot.",
      storyURL: "https://news.example/story",
      tenantURL: "https://news.example",
      rejected: true
    })
    assert.isTrue(ok)
    const stored = (await host.listSuggestions(email)).find((s) => s.clientToken === "comment:c-123")
    expect(stored).toMatchObject({ communityId: "Coral:https://news.example", attributeScores: { TOXICITY: 1 }, languages: ["en"], commentText: "You idiot." })
    assert.deepStrictEqual(JSON.parse(JSON.parse(stored!.contextJson!).entries[0].text), { url: "https://news.example/story?commentID=c-123", Coral_comment_id: "c-123" })
  })
})
