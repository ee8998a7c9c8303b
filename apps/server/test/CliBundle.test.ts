/**
 * The bundled `decorum` command (scripts/bundle-cli.mjs, built by `npm ci` and run by the shim):
 * the same command as the TypeScript build, in a few files, so it starts at once (issue 26). The
 * bundle is built here into a temporary folder from the current sources, then run as a user runs it:
 * it answers `--version`, keeps keys in a SQLite file (the native driver stays outside the bundle),
 * and scores with the shipped models, which it finds beside the sources although it lives elsewhere
 * (the `import.meta.url` rewrite), in this process and in worker threads started on the bundle.
 */
import { ENGINE_VERSION } from "@decorum/core"
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll } from "vitest"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const work = mkdtempSync(join(tmpdir(), "decorum-cli-bundle-"))
// Inside the repository, as the real bundle is, so that the native driver (outside the bundle)
// resolves from node_modules.
const outdir = join(root, "node_modules", ".cache", "decorum-test", `cli-${process.pid}`)
const entry = join(outdir, "decorum.js")

const run = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [entry, ...args], {
    cwd: work,
    encoding: "utf8",
    timeout: 120_000,
    // The bundle must find the shipped models itself: no DECORUM_MODEL_DIR from the outside.
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "DECORUM_MODEL_DIR")), NO_COLOR: "1", ...env }
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

beforeAll(() => {
  const r = spawnSync(process.execPath, [join(root, "scripts/bundle-cli.mjs"), "--outdir", outdir], { encoding: "utf8", timeout: 120_000 })
  if (r.status !== 0) throw new Error(`bundle-cli failed:\n${r.stdout}${r.stderr}`)
}, 180_000)

afterAll(() => {
  rmSync(work, { recursive: true, force: true })
  rmSync(outdir, { recursive: true, force: true })
})

describe("the bundled decorum command", () => {
  it("is a few files, not a tree of modules, and answers --version", () => {
    assert.isTrue(existsSync(entry))
    const r = run(["--version"])
    assert.strictEqual(r.status, 0, r.stderr)
    assert.strictEqual(r.stdout.trim(), ENGINE_VERSION)
  })

  it("creates and lists keys in a SQLite file", () => {
    const db = join(work, "keys.db")
    const created = run(["keys", "create", "--email", "bundle@localhost", "--db", db])
    assert.strictEqual(created.status, 0, created.stderr)
    const key = /dk_[a-z0-9]+_[A-Za-z0-9_-]+/.exec(created.stdout)?.[0]
    assert.isDefined(key)
    const listed = run(["keys", "list", "--db", db, "--json"])
    assert.strictEqual(listed.status, 0, listed.stderr)
    const keys = JSON.parse(listed.stdout) as ReadonlyArray<{ readonly key_id: string; readonly email: string }>
    assert.deepStrictEqual(keys.map((k) => [k.key_id, k.email]), [[key!.split("_")[1]!, "bundle@localhost"]])
  })

  it("scores with the shipped models, inline and in worker threads", () => {
    const manifest = JSON.parse(readFileSync(join(root, "packages/local/models/manifest.json"), "utf8")) as { readonly version: string }
    const judge = JSON.parse(readFileSync(join(root, "packages/local/models/encoder/judge.json"), "utf8")) as { readonly release: string }
    const input = join(work, "comments.csv")
    writeFileSync(input, "id,text\n1,you are a complete idiot\n2,thank you for the careful article\n")
    for (const workers of ["1", "2"]) {
      const r = run(["score", input, "--attributes", "TOXICITY", "--workers", workers])
      assert.strictEqual(r.status, 0, r.stderr)
      const rows = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { readonly id: string; readonly TOXICITY: number; readonly model: string })
      // The default judge (cascade) re-judges the insult, whose linear scores are inside its bands,
      // and leaves the thanks to the linear models: the bundle runs the encoder too.
      assert.deepStrictEqual(rows.map((row) => [row.id, row.model]), [["1", `${manifest.version}+${judge.release}`], ["2", manifest.version]])
      assert.isAbove(rows[0]!.TOXICITY, 0.5)
      assert.isBelow(rows[1]!.TOXICITY, 0.5)
    }
  })
})
