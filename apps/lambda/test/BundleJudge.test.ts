/**
 * The Lambda bundle as deployed (scripts/bundle.mjs): onnxruntime-node is left out of it, so a
 * function deployed as built serves the linear models and `/readyz` says why the judge is
 * unavailable (docs/deploy-lambda.md, "The judge on Lambda"); with the addon resolvable beside
 * `handler.mjs` (a layer, or node_modules in the zip), the same bundle judges. The bundle is built
 * into a folder outside the repository, so nothing of the repository's node_modules is in reach,
 * and run in a process of its own, as Lambda runs it. That process is `node --input-type=module -e`,
 * a flag a worker thread inherits: the judge's worker must still load (its source is CommonJS).
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { toEvent } from "./aws.js"

const root = join(__dirname, "..", "..", "..")
const work = mkdtempSync(join(tmpdir(), "decorum-lambda-bundle-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const build = (dir: string) => {
  const r = spawnSync(process.execPath, [join(root, "apps/lambda/scripts/bundle.mjs"), "--outdir", dir, "--link-models"], { encoding: "utf8", timeout: 120_000 })
  if (r.status !== 0) throw new Error(`bundle.mjs failed:\n${r.stdout}${r.stderr}`)
}

/** GET /readyz through the bundle's `handler`, in a fresh process: the judge part of the answer. */
const readiness = (dir: string): { mode: string; state: string; reason?: string; model?: string } => {
  const event = join(dir, "readyz.json")
  const answer = join(dir, "answer.json")
  writeFileSync(event, JSON.stringify(toEvent("url", "/readyz")))
  // the answer goes to a file: the handler logs on standard output, as Lambda's runtime collects it
  const script = `import { readFileSync, writeFileSync } from "node:fs"
const { handler } = await import(${JSON.stringify(join(dir, "handler.mjs"))})
const result = await handler(JSON.parse(readFileSync(${JSON.stringify(event)}, "utf8")))
writeFileSync(${JSON.stringify(answer)}, JSON.stringify(result))
process.exit(0)`
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
    env: { PATH: process.env["PATH"] ?? "", DECORUM_DB: "memory", DECORUM_JUDGE: "cascade" }
  })
  if (r.status !== 0) throw new Error(`the handler failed:\n${r.stdout}${r.stderr}`)
  const result = JSON.parse(readFileSync(answer, "utf8")) as { statusCode: number; body: string; isBase64Encoded?: boolean }
  const body = result.isBase64Encoded ? Buffer.from(result.body, "base64").toString("utf8") : result.body
  return (JSON.parse(body) as { judge: { mode: string; state: string; reason?: string; model?: string } }).judge
}

describe("the Lambda bundle and the judge's runtime", () => {
  it("without onnxruntime-node beside it: the judge is unavailable and /readyz says why", () => {
    const dir = join(work, "plain")
    build(dir)
    const judge = readiness(dir)
    assert.strictEqual(judge.mode, "cascade")
    assert.strictEqual(judge.state, "unavailable")
    assert.match(judge.reason!, /onnxruntime-node is not installed/)
  }, 180_000)

  it("with onnxruntime-node in a node_modules beside handler.mjs: the same bundle judges", () => {
    const dir = join(work, "with-addon")
    build(dir)
    const installed = dirname(createRequire(join(root, "packages/local/package.json")).resolve("onnxruntime-node/package.json"))
    mkdirSync(join(dir, "node_modules"))
    symlinkSync(installed, join(dir, "node_modules", "onnxruntime-node"))
    const judge = readiness(dir)
    assert.strictEqual(judge.state, "ready", judge.reason)
    assert.match(judge.model!, /^judge-/)
  }, 180_000)
})
