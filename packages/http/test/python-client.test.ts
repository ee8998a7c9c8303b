/**
 * Google's own Python client (google-api-python-client; Debian's python3-googleapi) against a
 * real Decorum socket: built from Decorum's discovery URL with a key, it calls analyze (spans,
 * languages, HTML), suggestscore, a batch of several requests (one invalid), and meets Google's
 * errors. The driver is `clients/google_client.py`; this file asserts on what the client returned.
 *
 * When no Python with `googleapiclient` is found the tests do not pass: they are reported as
 * skipped, with the reason printed (CI installs the package, see `.ci/run`).
 */
import { execFile, spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHttpHost, type TestHost } from "./harness.js"

const DRIVER = fileURLToPath(new URL("./clients/google_client.py", import.meta.url))

/** The first Python that can import the client: $DECORUM_PYTHON, python3 on PATH, Debian's own. */
const findPython = (): string | null => {
  const candidates = [process.env["DECORUM_PYTHON"], "python3", "/usr/bin/python3"].filter((c): c is string => !!c)
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ["-c", "import googleapiclient"], { stdio: "ignore", timeout: 10_000 })
    if (probe.status === 0) return candidate
  }
  return null
}

const python = findPython()
if (python === null) {
  console.warn(
    "SKIPPED: Google Python client tests: no python3 can `import googleapiclient`. " +
      "Install Debian's python3-googleapi (apt-get install -y python3-googleapi) or set DECORUM_PYTHON."
  )
}

interface Score {
  value: number
  type: string
}
interface Analysis {
  attributeScores?: Record<string, { summaryScore: Score; spanScores?: Array<{ begin: number; end: number; score: Score }> }>
  languages: Array<string>
  clientToken?: string
  detectedLanguages?: unknown
}
interface HttpErrorSeen {
  status: number
  reason: string
  body: { error: { code: number; message: string; status: string; details?: Array<Record<string, unknown>> } }
}
type Outcome<A> = { ok: A; httpError?: undefined } | { httpError: HttpErrorSeen; ok?: undefined }
interface DriverOutput {
  clientVersion: string
  text: string
  analyze: Outcome<Analysis>
  analyzeHtml: Outcome<Analysis>
  analyzeEmpty: Outcome<Analysis>
  analyzeUnsupported: Outcome<Analysis>
  analyzeRequestedUnsupported: Outcome<Analysis>
  analyzeUndetected: Outcome<Analysis>
  analyzeGerman: Outcome<Analysis>
  suggest: Outcome<Record<string, unknown>>
  batchTexts: Record<string, string>
  batch: Record<string, Outcome<Analysis & Record<string, unknown>>>
  badKey: Outcome<Analysis>
}

const runDriver = (interpreter: string, url: string, key: string) =>
  new Promise<DriverOutput>((resolve, reject) => {
    // Asynchronous on purpose: the server under test runs in this process.
    execFile(interpreter, [DRIVER, url, key], { timeout: 60_000, env: { ...process.env, PYTHONIOENCODING: "utf-8" } }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`google_client.py failed: ${error.message}\n${stderr}`))
      try {
        resolve(JSON.parse(stdout) as DriverOutput)
      } catch {
        reject(new Error(`google_client.py printed no JSON:\n${stdout}\n${stderr}`))
      }
    })
  })

describe("Google's Python client (googleapiclient) against Decorum", () => {
  let host: TestHost
  let out: DriverOutput
  const email = "python@example.com"

  beforeAll(async () => {
    if (python === null) return
    host = await startHttpHost()
    const key = await host.createKey(email)
    out = await runDriver(python, host.url, key)
  })
  afterAll(async () => {
    await host?.close()
  })

  it.runIf(python !== null)("builds from the discovery URL and analyzes with sentence spans, languages and NAME@VERSION", () => {
    const analysis = out.analyze.ok!
    assert.isUndefined(out.analyze.httpError)
    assert.deepStrictEqual(Object.keys(analysis.attributeScores!).sort(), ["INSULT@2", "TOXICITY"])
    const tox = analysis.attributeScores!["TOXICITY"]!
    assert.strictEqual(tox.summaryScore.type, "PROBABILITY")
    assert.isAbove(tox.summaryScore.value, 0.4)
    // The offsets are UTF-16 units into the text the client sent (JavaScript string indices).
    const sentences = tox.spanScores!.map((s) => out.text.slice(s.begin, s.end))
    assert.deepStrictEqual(sentences, ["You are an idiot.", "The park plan is good!", "Thanks 😀"])
    assert.strictEqual(tox.spanScores![2]!.end, out.text.length)
    assert.isAbove(tox.spanScores![0]!.score.value, tox.spanScores![1]!.score.value)
    assert.deepStrictEqual(analysis.languages, ["en"])
    assert.deepStrictEqual(analysis.detectedLanguages, ["en"])
    assert.strictEqual(analysis.clientToken, "py-1")
  })

  it.runIf(python !== null)("analyzes HTML with offsets into the reduced text", () => {
    const analysis = out.analyzeHtml.ok!
    const spans = analysis.attributeScores!["TOXICITY"]!.spanScores!
    // Paragraphs become a blank line; entities are decoded: the offsets count in this text.
    const reduced = "Fish & chips <3\n\nWhat an idiot"
    assert.deepStrictEqual(spans.map((s) => reduced.slice(s.begin, s.end)), ["Fish & chips <3", "What an idiot"])
    assert.deepStrictEqual(analysis.languages, ["en"])
  })

  it.runIf(python !== null)("raises HttpError with Google's status and message for an empty comment and a wrong key", () => {
    const empty = out.analyzeEmpty.httpError!
    assert.strictEqual(empty.status, 400)
    assert.strictEqual(empty.reason, "Comment must be non-empty.")
    assert.deepInclude(empty.body.error.details!, { "@type": "type.googleapis.com/google.commentanalyzer.v1alpha1.Error", errorType: "COMMENT_EMPTY" })
    const bad = out.badKey.httpError!
    assert.strictEqual(bad.status, 400)
    assert.strictEqual(bad.reason, "API key not valid. Please pass a valid API key.")
    expect(bad.body.error.details).toContainEqual(expect.objectContaining({ reason: "API_KEY_INVALID" }))
  })

  it.runIf(python !== null)("meets Perspective's language errors as HttpError, with Perspective's details, and detectedLanguages otherwise (issue 28)", () => {
    const PERSPECTIVE_ERROR = "type.googleapis.com/google.commentanalyzer.v1alpha1.Error"
    const detected = out.analyzeUnsupported.httpError!
    assert.strictEqual(detected.status, 400)
    assert.strictEqual(detected.reason, "Attribute TOXICITY does not support request languages: sv")
    assert.strictEqual(detected.body.error.status, "INVALID_ARGUMENT")
    assert.deepStrictEqual(detected.body.error.details, [{
      "@type": PERSPECTIVE_ERROR,
      errorType: "LANGUAGE_NOT_SUPPORTED_BY_ATTRIBUTE",
      languageNotSupportedByAttributeError: { detectedLanguages: ["sv"], attribute: "TOXICITY" }
    }])
    const requested = out.analyzeRequestedUnsupported.httpError!
    assert.strictEqual(requested.reason, "Attribute TOXICITY does not support request languages: cs")
    expect(requested.body.error.details![0]).toMatchObject({ languageNotSupportedByAttributeError: { requestedLanguages: ["cs"], attribute: "TOXICITY" } })
    const undetected = out.analyzeUndetected.httpError!
    assert.strictEqual(undetected.status, 400)
    assert.strictEqual(undetected.reason, "Unable to detect language.")
    assert.deepStrictEqual(undetected.body.error.details, [{ "@type": PERSPECTIVE_ERROR, errorType: "LANGUAGE_DETECTION_FAILED" }])
    expect(out.analyzeGerman.ok).toMatchObject({ languages: ["de"], detectedLanguages: ["de"] })
  })

  it.runIf(python !== null)("suggestscore answers the client and stores the suggestion with its account", async () => {
    assert.deepStrictEqual(out.suggest.ok, { clientToken: "py-suggest-1", detectedLanguages: ["en"], requestedLanguages: ["en"] })
    const stored = await host.listSuggestions(email)
    const mine = stored.find((s) => s.clientToken === "py-suggest-1")
    expect(mine).toMatchObject({
      email,
      commentText: "This comment is fine, really.",
      attributeScores: { TOXICITY: 0 },
      languages: ["en"],
      communityId: "py-community",
      sessionId: "py-session"
    })
  })

  it.runIf(python !== null)("sends a batch: every part answered under its own id, the invalid one with its own error", async () => {
    assert.deepStrictEqual(Object.keys(out.batch).sort(), ["b1", "b2", "b3", "bad", "s1"])
    for (const id of ["b1", "b2", "b3"]) {
      const analysis = out.batch[id]!.ok!
      const text = out.batchTexts[id]!
      const tox = analysis.attributeScores!["TOXICITY"]!
      assert.deepStrictEqual(analysis.languages, ["en"])
      for (const span of tox.spanScores!) assert.strictEqual(text.slice(span.begin, span.end).trim(), text.slice(span.begin, span.end))
      if (id === "b3") assert.deepStrictEqual(tox.spanScores!.map((s) => text.slice(s.begin, s.end)), ["Second sentence here.", "And a third one"])
    }
    // Each part was scored on its own text, not mixed up with another part's.
    assert.isAbove(out.batch["b2"]!.ok!.attributeScores!["TOXICITY"]!.summaryScore.value, out.batch["b1"]!.ok!.attributeScores!["TOXICITY"]!.summaryScore.value)
    const bad = out.batch["bad"]!.httpError!
    assert.strictEqual(bad.status, 400)
    assert.strictEqual(bad.reason, "Unknown requested attribute: NOT_AN_ATTRIBUTE")
    assert.deepStrictEqual<unknown>(out.batch["s1"]!.ok, { clientToken: "py-batch-suggest", detectedLanguages: ["en"] })
    const stored = await host.listSuggestions(email)
    expect(stored.find((s) => s.clientToken === "py-batch-suggest")).toMatchObject({ attributeScores: { INSULT: 1 } })
  })
})
