/**
 * Runs the real `decorum` command as a child process, bundled from the TypeScript sources with
 * esbuild (npm packages stay external), so these tests never depend on a stale `dist/`.
 */
import { build } from "esbuild"
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, vi } from "vitest"
import { sourceAliasesWithSubpaths } from "../../../scripts/workspaces.mjs"

/**
 * How long a server may take to print its banner (its own signal that it listens). Generous: on a
 * loaded 2-core machine (CI) bundling, loading the models and migrating a store can take far more
 * than the usual second or two, and a deadline exists only so that a server that never starts fails
 * the test instead of hanging it.
 */
export const START_DEADLINE_MS = 180_000

// Every test file that starts servers through this module gets room for that deadline, on top of
// what its tests do once the server is up (vitest's 30 s default would cut a slow start short).
vi.setConfig({ testTimeout: START_DEADLINE_MS + 60_000, hookTimeout: START_DEADLINE_MS + 60_000 })

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const outDir = join(root, "node_modules", ".cache", "decorum-test")

let bundled: Promise<string> | undefined

/** Bundles apps/server/src/bin.ts once per test process; returns the path of the bundle. */
export const bundleCli = (): Promise<string> =>
  (bundled ??= (async () => {
    mkdirSync(outDir, { recursive: true })
    const outfile = join(outDir, `decorum-${process.pid}.mjs`)
    await build({
      entryPoints: [join(root, "apps/server/src/bin.ts")],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node22",
      packages: "external",
      alias: sourceAliasesWithSubpaths(),
      logLevel: "error"
    })
    return outfile
  })())

export interface Running {
  readonly child: ChildProcessWithoutNullStreams
  readonly url: string
  readonly output: () => string
}

/**
 * Starts `decorum serve` and resolves once it has printed its banner. `detached` makes it the leader
 * of a process group of its own, so a test can signal it and its workers at once, as Ctrl-C in a
 * terminal or `pkill` does.
 */
export const startServe = async (args: ReadonlyArray<string>, env: Record<string, string> = {}, options: { readonly detached?: boolean } = {}): Promise<Running> => {
  const cli = await bundleCli()
  // One process unless a test asks for workers: the suite stays light on CI's two cores.
  const workers = args.includes("--workers") ? [] : ["--workers", "1"]
  const child = spawn(process.execPath, [cli, "serve", "--port", "0", "--host", "127.0.0.1", ...workers, ...args], {
    cwd: root,
    detached: options.detached ?? false,
    // The bundle lives elsewhere than the sources, so point it at the shipped model files.
    // No judge latency budget unless a test sets one: with it, whether a routed comment is judged
    // or shed depends on how busy the machine is, and these tests compare answers over time.
    env: { ...process.env, DECORUM_ENGINE: "local", DECORUM_MODEL_DIR: join(root, "packages/local/models"), DECORUM_JUDGE_BUDGET_MS: "0", ...env }
  })
  let out = ""
  child.stdout.on("data", (c: Buffer) => (out += c.toString()))
  child.stderr.on("data", (c: Buffer) => (out += c.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not print its banner within ${START_DEADLINE_MS / 1000} s:\n${out}`)), START_DEADLINE_MS)
    const check = () => {
      const m = /listening on (http:\/\/localhost:\d+)/.exec(out)
      if (m && /(curl -s|keys create)/.test(out)) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    }
    child.stdout.on("data", check)
    child.on("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${out}`))
    })
  })
  return { child, url, output: () => out }
}

/**
 * Runs a `decorum` command to completion, without blocking this process (a server started by the
 * same test keeps answering). A command still running after `START_DEADLINE_MS` is killed and the
 * test fails saying so: a command that never ends must fail its test, not hang the whole suite (a
 * blocking spawnSync of a `serve` that never exited once held CI until its time ran out).
 */
export const runCli = async (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const cli = await bundleCli()
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: root,
    env: { ...process.env, DECORUM_MODEL_DIR: join(root, "packages/local/models"), ...env }
  })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()))
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()))
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    child.kill("SIGKILL")
  }, START_DEADLINE_MS)
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve))
  clearTimeout(timer)
  if (timedOut) {
    throw new Error(`decorum ${args.join(" ")} did not exit within ${START_DEADLINE_MS / 1000} s:\n${stdout}${stderr}`)
  }
  return { code, stdout, stderr }
}

export const stop = (running: Running, signal: NodeJS.Signals = "SIGTERM") =>
  new Promise<number | null>((resolve) => {
    if (running.child.exitCode !== null) return resolve(running.child.exitCode)
    running.child.once("exit", (code) => resolve(code))
    running.child.kill(signal)
  })

/** Resolves once the server's output (every worker's included) matches `pattern`; rejects if it exits first. */
export const waitForOutput = (server: Running, pattern: RegExp) =>
  new Promise<void>((resolve, reject) => {
    const check = () => {
      if (!pattern.test(server.output())) return
      server.child.stdout.off("data", check)
      server.child.stderr.off("data", check)
      resolve()
    }
    server.child.stdout.on("data", check)
    server.child.stderr.on("data", check)
    server.child.once("exit", () => reject(new Error(`server exited before printing ${pattern}:\n${server.output()}`)))
    check()
  })

/** The server's exit code, once it has exited. */
export const exitOf = (server: Running) =>
  new Promise<number | null>((resolve) => {
    if (server.child.exitCode !== null) return resolve(server.child.exitCode)
    server.child.once("exit", (code) => resolve(code))
  })

/**
 * `startServe` for a suite that starts servers it may leave running when a test fails: registers an
 * `afterEach` that kills every server still running, so a failure never hangs the run.
 */
export const startServeKilledAfterEach = () => {
  const started: Array<Running> = []
  afterEach(() => {
    for (const server of started.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL")
  })
  return async (args: ReadonlyArray<string>, env: Record<string, string>) => {
    const server = await startServe(args, env)
    started.push(server)
    return server
  }
}
