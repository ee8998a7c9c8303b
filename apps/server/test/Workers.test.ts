/**
 * `decorum serve --workers 2`: two processes on one port, the banner printed once, `/metrics` for
 * the whole server, the store created and migrated by the primary before any worker, a worker that
 * dies replaced, and SIGTERM lets an in-flight request finish before everything exits with 0 (the
 * request is known to be in a worker's hands from the server's own "100 Continue", not from a timer).
 * Linux only (worker processes are found through /proc).
 */
import { readdirSync, readFileSync } from "node:fs"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { type Running, START_DEADLINE_MS, startServe, stop, waitForOutput } from "./process.js"

const dir = mkdtempSync(join(tmpdir(), "decorum-workers-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The live child processes of `pid`. */
const children = (pid: number): Array<number> =>
  readdirSync("/proc").filter((d) => /^\d+$/.test(d)).flatMap((d) => {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      return Number(fields[1]) === pid && fields[0] !== "Z" ? [Number(d)] : []
    } catch {
      return []
    }
  })

/** Whether process `pid` still runs (not gone, not a zombie). */
const alive = (pid: number) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ")
  } catch {
    return false
  }
}

/**
 * An analyze request known to be in a worker's hands while `meanwhile` runs: it asks
 * `Expect: 100-continue`, a worker writes "100 Continue" when it hands the request to the app (the
 * drain counts it from then on), and only once `meanwhile` is done is the rest of the body sent.
 * Resolves with the answer's status.
 */
const analyzeInFlight = (server: Running, meanwhile: () => Promise<void>) =>
  new Promise<number>((resolve, reject) => {
    const key = /^\s+(dk_\S+)\s*$/m.exec(server.output())![1]!
    const body = JSON.stringify({ comment: { text: "you are an idiot" }, requestedAttributes: { TOXICITY: {} } })
    const req = request(`${server.url}/v1alpha1/comments:analyze?key=${key}`, {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), expect: "100-continue" }
    }, (res) => {
      res.resume()
      res.on("end", () => resolve(res.statusCode!))
    })
    req.on("error", reject)
    req.once("continue", () => {
      req.write(body.slice(0, 10))
      meanwhile().then(() => req.end(body.slice(10)), reject)
    })
    req.flushHeaders()
  })

/** Waits, yielding to the event loop, until `check` holds. */
const until = async (check: () => boolean, what: string, limitMs = START_DEADLINE_MS) => {
  const deadline = Date.now() + limitMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe.runIf(process.platform === "linux")("decorum serve --workers 2", () => {
  it("serves from two processes, replaces one that dies, and drains on SIGTERM with exit 0", async () => {
    const server = await startServe(["--db", join(dir, "workers.db"), "--workers", "2"])
    let exited: number | null | undefined
    server.child.on("exit", (code) => (exited = code))
    try {
      const pid = server.child.pid!
      // The banner comes once both workers listen.
      assert.lengthOf(children(pid), 2)
      assert.lengthOf(server.output().match(/listening on/g)!, 1)
      assert.include(server.output(), "workers: 2 processes")
      assert.strictEqual((await fetch(`${server.url}/healthz`)).status, 200)

      // A worker dies: another takes its place and the port keeps answering.
      const [victim] = children(pid)
      process.kill(victim!, "SIGKILL")
      await until(() => /starting another/.test(server.output()), "the restart message")
      await until(() => children(pid).length === 2 && !children(pid).includes(victim!), "a replacement worker")
      for (let i = 0; i < 10; i++) assert.strictEqual((await fetch(`${server.url}/healthz`)).status, 200)

      // A request whose body is still arriving when SIGTERM comes is answered, then all exit 0. No
      // timer decides when the request is in flight: it asks `Expect: 100-continue`, and a worker
      // writes "100 Continue" when it hands the request to the app (the drain counts it from then
      // on). Only then comes SIGTERM, and only once a worker has logged that it drains one request
      // is the rest of the body sent.
      const answered = analyzeInFlight(server, async () => {
        server.child.kill("SIGTERM")
        await waitForOutput(server, /Shutdown: draining 1 request\(s\) in flight/)
      })
      assert.strictEqual(await answered, 200)
      await until(() => exited !== undefined, "the primary to exit")
      assert.strictEqual(exited, 0)
      assert.deepStrictEqual(children(pid), [])
    } finally {
      await stop(server)
    }
  }, START_DEADLINE_MS + 90_000)

  it("answers /metrics on any worker with the whole server's figures, as valid Prometheus text", async () => {
    const server = await startServe(["--db", join(dir, "metrics.db"), "--workers", "2"], { DECORUM_METRICS: "true" })
    try {
      assert.lengthOf(children(server.child.pid!), 2)
      // Each on a connection of its own, so the primary hands them to both workers in turn.
      const get = (path: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          request(`${server.url}${path}`, { agent: false }, (res) => {
            let body = ""
            res.on("data", (c: Buffer) => (body += c.toString()))
            res.on("end", () => resolve({ status: res.statusCode!, body }))
          }).on("error", reject).end()
        })
      const N = 20
      for (let i = 0; i < N; i++) assert.strictEqual((await get("/healthz")).status, 200)
      for (let scrape = 0; scrape < 4; scrape++) {
        const { status, body } = await get("/metrics")
        assert.strictEqual(status, 200)
        const lines = body.trimEnd().split("\n")
        // Valid exposition text: one TYPE line per family, each series once, every sample a number.
        const types = lines.filter((l) => l.startsWith("# TYPE "))
        assert.strictEqual(new Set(types).size, types.length)
        const samples = lines.filter((l) => !l.startsWith("#"))
        for (const line of samples) assert.match(line, /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/)
        const names = samples.map((l) => l.slice(0, l.lastIndexOf(" ")))
        assert.strictEqual(new Set(names).size, names.length)
        // Every request, whichever worker answered it.
        const answered = samples
          .filter((l) => l.startsWith("decorum_http_requests_total{") && l.includes("status=\"200\""))
          .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0)
        assert.strictEqual(answered, N)
        assert.include(body, "decorum_model_info{")
      }
    } finally {
      await stop(server)
    }
  }, START_DEADLINE_MS + 90_000)

  it("has the primary create and migrate a new SQLite store before it forks any worker (first-start race)", async () => {
    // A module preloaded into the primary (NODE_OPTIONS, inherited by the workers, which ignore it)
    // looks at the database file at the moment of the first fork, when no worker exists yet. The
    // workers used to create the file and switch it to WAL together, and SQLite refused one of them.
    const db = join(dir, "first-start.db")
    const probe = join(dir, "fork-probe.mjs")
    const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
    writeFileSync(probe, `
      import cluster from "node:cluster"
      import { existsSync } from "node:fs"
      import { createRequire } from "node:module"
      if (cluster.isPrimary) cluster.once("fork", () => {
        let state = "missing"
        if (existsSync(${JSON.stringify(db)})) {
          const Database = createRequire(${JSON.stringify(pathToFileURL(join(root, "package.json")).href)})("better-sqlite3")
          const sqlite = new Database(${JSON.stringify(db)}, { readonly: true })
          const mode = sqlite.pragma("journal_mode", { simple: true })
          const tables = sqlite.prepare("select count(*) as n from sqlite_master where type = 'table' and name = 'score_suggestions'").get().n
          sqlite.close()
          state = "journal=" + mode + " migrated=" + (tables === 1)
        }
        process.stderr.write("fork-probe: " + state + "\\n")
      })
    `)
    const server = await startServe(["--db", db, "--workers", "2"], { NODE_OPTIONS: `--import=${pathToFileURL(probe).href}` })
    try {
      assert.strictEqual(/fork-probe: (.*)/.exec(server.output())?.[1], "journal=wal migrated=true")
      assert.lengthOf(server.output().match(/fork-probe/g)!, 1)
    } finally {
      await stop(server)
    }
  })

  it("kills a worker still alive 2 s past its drain limit after SIGTERM, so the primary always exits (never twice the limit)", async () => {
    // A worker whose server has stopped but whose process does not end, as a listen that completed
    // after shutdown once kept one alive (CI then waited on the primary until its time ran out).
    // A worker now exits through NodeRuntime.runMain's process.exit, so the stub swallows that too.
    const keeper = join(dir, "keep-alive.mjs")
    writeFileSync(keeper, `import cluster from "node:cluster"\nif (cluster.isWorker) {\n  process.exit = () => {}\n  setInterval(() => {}, 1 << 30)\n}\n`)
    const server = await startServe(["--db", join(dir, "stuck.db"), "--workers", "2"], {
      NODE_OPTIONS: `--import=${pathToFileURL(keeper).href}`,
      DECORUM_DRAIN_TIMEOUT_MS: "0"
    })
    const workers = children(server.child.pid!)
    try {
      assert.lengthOf(workers, 2)
      const sent = Date.now()
      assert.strictEqual(await stop(server), 0)
      assert.isAtLeast(Date.now() - sent, 2_000)
      assert.match(server.output(), /still running 2000 ms after SIGTERM; killing it/)
      await until(() => !workers.some(alive), "the killed workers to be gone", 10_000)
    } finally {
      // Kept alive on purpose, these workers would outlive a failed run of this test for good.
      for (const p of [server.child.pid!, ...workers]) if (alive(p)) process.kill(p, "SIGKILL")
    }
  })

  it("finishes its in-flight request and exits 0, quietly, when every process gets SIGTERM twice (pkill on `npx decorum serve`)", async () => {
    // `pkill -f "decorum serve"` signals every process (as a terminal's Ctrl-C signals the group);
    // `npx`, signalled too, forwards it to the primary once more, and the primary's own stop sends
    // each worker another. A second signal used to end a process in the middle of its drain: a
    // worker dropped its in-flight request, or the primary died and its workers printed
    // "write EPIPE" stack traces telling it they disconnect. No timer orders the signals: the
    // second ones are sent once the primary has said it stops and a worker that it drains.
    const server = await startServe(["--db", join(dir, "twice.db"), "--workers", "2"], {}, { detached: true })
    const pid = server.child.pid!
    const workers = children(pid)
    assert.lengthOf(workers, 2)
    const closed = new Promise<void>((resolve) => server.child.once("close", () => resolve()))
    const answered = analyzeInFlight(server, async () => {
      process.kill(-pid, "SIGTERM")
      await Promise.all([
        waitForOutput(server, /stopping: waiting for 2 server processes/),
        waitForOutput(server, /Shutdown: draining 1 request\(s\) in flight/)
      ])
      for (const p of [pid, ...workers]) process.kill(p, "SIGTERM")
    })
    assert.strictEqual(await answered, 200)
    await closed
    assert.strictEqual(server.child.exitCode, 0)
    assert.notMatch(server.output(), /EPIPE|ERR_IPC|Error \[|\n\s+at /)
    assert.deepStrictEqual(workers.filter(alive), [])
  })
})
