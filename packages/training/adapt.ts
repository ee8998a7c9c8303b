/**
 * `npm run eval:adapt`: simulates sites whose norms the shipped models do not know. For each
 * labelled corpus (none of which trained the shipped TOXICITY head; see docs/models.md), a
 * stratified half is sent as corrections through the HTTP API (alternating the Google-shaped and
 * the external-compat suggestscore), `decorum adapt` fits the site's adapter, and the other half
 * is scored through the HTTP API before and after. Prints ROC AUC before/after per corpus.
 *
 * Needs `../shared/data` beside the repository (DECORUM_DATA to point elsewhere); the data stay
 * there. EVAL_ADAPT_N: corrections per corpus (default 2000), the same number is scored.
 */
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Adaptation } from "@decorum/core"
import { corpora, split } from "./adaptSites.js"

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, "..", "..", "..")
const bin = join(root, "apps", "server", "dist", "bin.js")
const data = process.env["DECORUM_DATA"] ?? join(root, "..", "shared", "data")
const N = Number(process.env["EVAL_ADAPT_N"] ?? 2000)
const env = { ...process.env, DECORUM_ENGINE: "local", DECORUM_MODEL_DIR: join(root, "packages/local/models") }

const cli = (args: ReadonlyArray<string>) => {
  const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: "utf8" })
  if (r.status !== 0) throw new Error(`decorum ${args.join(" ")} failed:\n${r.stderr}`)
  return r.stdout
}

const startServer = (db: string) =>
  new Promise<{ url: string; stop: () => void }>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--host", "127.0.0.1", "--workers", "1", "--db", db], { env })
    let out = ""
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000)
    const onData = (c: Buffer) => {
      out += c.toString()
      const m = /listening on (http:\/\/localhost:\d+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve({ url: m[1]!, stop: () => child.kill("SIGTERM") })
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.on("exit", (code) => {
      if (code !== 0 && code !== null) console.error(`server exited with ${code}:\n${out}`)
      reject(new Error(`server exited with ${code}`))
    })
  })

/** Runs `f` over `items` with `width` requests in flight. */
const pool = async <A, B>(items: ReadonlyArray<A>, width: number, f: (a: A, i: number) => Promise<B>) => {
  const out = new Array<B>(items.length)
  let next = 0
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await f(items[i]!, i)
    }
  }))
  return out
}

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  // A kept-alive socket the server has just closed fails the request before it is sent: retry it.
  const send = (attempt: number): Promise<Response> =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }).catch((e) =>
      attempt < 3 ? send(attempt + 1) : Promise.reject(e)
    )
  const response = await send(1)
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${text}`)
  return { body: JSON.parse(text) as any, model: response.headers.get("x-model-version") ?? "" }
}

const main = async () => {
  if (!existsSync(data)) {
    console.error(`eval:adapt needs the labelled corpora in ${data} (set DECORUM_DATA).`)
    process.exit(1)
  }
  const dir = mkdtempSync(join(tmpdir(), "decorum-eval-adapt-"))
  const db = join(dir, "eval.db")
  const results: Array<Record<string, unknown>> = []
  const server = await startServer(db)
  try {
    for (const [index, corpus] of corpora.entries()) {
      const email = `site${index}@eval.example`
      const { key } = JSON.parse(cli(["keys", "create", "--email", email, "--json", "--db", db])) as { key: string }
      const { train, test } = split(corpus.load(data), N)
      // Corrections: a moderator's decision is 1 (unacceptable here) or 0; alternate both paths.
      await pool(train, 8, (row, i) => {
        const body = { comment: { text: row.text }, attributeScores: { TOXICITY: { summaryScore: { value: row.label ? 1 : 0 } } } }
        return i % 2 === 0
          ? post(`${server.url}/v1alpha1/comments:suggestscore?key=${encodeURIComponent(key)}`, body)
          : post(`${server.url}/v0.2/external-compat/suggestscore`, body, { "x-user-email": email, "x-api-key": key })
      })
      const score = () =>
        pool(test, 8, async (row) => {
          const r = await post(`${server.url}/v1alpha1/comments:analyze?key=${encodeURIComponent(key)}`, {
            comment: { text: row.text },
            // Both corpora are English; a short or odd comment is refused when its language is detected.
            languages: ["en"],
            requestedAttributes: { TOXICITY: {} }
          })
          return { value: r.body.attributeScores.TOXICITY.summaryScore.value as number, model: r.model }
        })
      const before = await score()
      const started = performance.now()
      const report = JSON.parse(cli(["adapt", "--email", email, "--db", db])) as { attributes: Array<Record<string, unknown>> }
      const adaptSeconds = (performance.now() - started) / 1000
      const toxicity = report.attributes.find((a) => a["attribute"] === "TOXICITY")!
      // The server picks the adapter up by itself (poll); wait for it, at most 15 s.
      const deadline = performance.now() + 15_000
      let after = await score()
      while (toxicity["adopted"] === true && !after[0]!.model.includes("+site.") && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250))
        after = await score()
      }
      const labels = test.map((r) => r.label)
      results.push({
        corpus: corpus.name,
        norm: corpus.norm,
        corrections: train.length,
        scored: test.length,
        positives: labels.filter(Boolean).length,
        aucBefore: Number(Adaptation.auc(before.map((s) => s.value), labels).toFixed(4)),
        aucAfter: Number(Adaptation.auc(after.map((s) => s.value), labels).toFixed(4)),
        cvAucBefore: toxicity["cvAucBefore"],
        cvAucAfter: toxicity["cvAucAfter"],
        adopted: toxicity["adopted"],
        kind: toxicity["kind"],
        // With the encoder, the other fit's cross-validated AUC (hashed words alone, or the encoder adapter).
        compared: toxicity["compared"] ?? null,
        modelAfter: after[0]!.model,
        adaptSeconds: Number(adaptSeconds.toFixed(1))
      })
      console.error(JSON.stringify(results.at(-1)))
    }
  } finally {
    server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  console.log("| corpus | corrections | held-out scored (positives) | AUC before | AUC after | CV AUC before -> after | adopted (kind) | other fit's CV AUC | `decorum adapt` |")
  console.log("|---|---|---|---|---|---|---|---|---|")
  for (const r of results) {
    const compared = r["compared"] as { kind: string; cvAucAfter: number | null } | null
    console.log(
      `| ${r["corpus"]} | ${r["corrections"]} | ${r["scored"]} (${r["positives"]}) | ${r["aucBefore"]} | ${r["aucAfter"]} | ${r["cvAucBefore"]} -> ${r["cvAucAfter"]} | ${r["adopted"]} (${r["kind"]}) | ${
        compared === null ? "-" : `${compared.cvAucAfter} (${compared.kind})`
      } | ${r["adaptSeconds"]} s |`
    )
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
