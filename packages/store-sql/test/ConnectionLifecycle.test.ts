/**
 * The SQLite connection's lifecycle under the garbage collector, in a child process, because the
 * failure this guards against is not an exception but an abort of the whole process.
 *
 * better-sqlite3 12 (a `node::ObjectWrap` addon) aborted Node 24 whenever the collector finalised a
 * prepared statement: its destructor asks Node for the current environment, and V8 13 runs those
 * finalisers with no context entered (`RemoveEnvironmentCleanupHook ... (env) != nullptr`, exit
 * 134). The server and CLI drop statements all the time (every unprepared statement, the migrations,
 * the prepare cache of a closed connection), so `decorum keys create` and `decorum serve` died at
 * random. better-sqlite3 13 is a Node-API addon, whose finalisers do not depend on that.
 */
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { sourceAliases } from "../../../scripts/workspaces.mjs"
import { sqliteUnsupported } from "../src/internal/driverSupport.js"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const dir = mkdtempSync(join(tmpdir(), "decorum-store-lifecycle-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Bundles the fixture from the TypeScript sources (npm packages stay external, so the real driver loads). */
const bundle = async () => {
  const outDir = join(root, "node_modules", ".cache", "decorum-test")
  mkdirSync(outDir, { recursive: true })
  const outfile = join(outDir, `connection-churn-${process.pid}.mjs`)
  await build({
    entryPoints: [join(root, "packages/store-sql/test/fixtures/connection-churn.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    alias: sourceAliases(),
    logLevel: "error"
  })
  return outfile
}

describe("SqliteStore connection lifecycle", () => {
  it("opening, using and closing the store repeatedly while the GC finalises dropped statements never aborts the process", async () => {
    const script = await bundle()
    const rounds = 20
    // A small young generation makes the collector run often, as it does under a server's load.
    const r = spawnSync(process.execPath, ["--max-semi-space-size=1", script, join(dir, "churn.db"), String(rounds)], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000
    })
    assert.deepStrictEqual({ status: r.status, signal: r.signal, stderr: r.stderr.slice(0, 2_000) }, { status: 0, signal: null, stderr: "" })
    assert.strictEqual(r.stdout, `ok ${rounds}\n`)
  })
})

describe("SqliteStore on an unsupported Node.js", () => {
  it("names the Node.js versions the driver needs instead of letting it crash the process", () => {
    assert.strictEqual(sqliteUnsupported("20.20.2"), "the SQLite store needs Node.js 22 or newer; this is Node.js v20.20.2")
    assert.isUndefined(sqliteUnsupported("22.0.0"))
    assert.isUndefined(sqliteUnsupported("v24.21.0"))
  })
})
