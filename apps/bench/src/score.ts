/**
 * `npm run bench:score`: comments per second of `decorum score` on one file, with 1 worker and with
 * N (default: one per core), three attributes, as the command's own summary line reports them
 * (wall time and CPU time of every thread from the moment every worker had loaded its models),
 * with the one-minute load average before and after each run: the machine may be shared.
 *
 * The file is generated: BENCH_ROWS (default 100,000) comments of typical forum length, built
 * deterministically from sentence fragments (some polite, some rude), as CSV with an id column.
 * Options (env): BENCH_ROWS, BENCH_WORKERS (the N, default the number of cores),
 * BENCH_ATTRIBUTES (default TOXICITY,INSULT,PROFANITY).
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { availableParallelism, loadavg, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { benchComments } from "./comments.js"

const rows = Number(process.env["BENCH_ROWS"] ?? 100_000)
const workers = Number(process.env["BENCH_WORKERS"] ?? availableParallelism())
const attributes = process.env["BENCH_ATTRIBUTES"] ?? "TOXICITY,INSULT,PROFANITY"
// The command as users run it: the shim, which runs the bundle (and so do the workers it starts).
const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "server", "bin", "decorum.mjs")

const generate = (path: string) => {
  const lines = ["id,text", ...benchComments(rows).map((text, i) => `${i},"${text.replace(/"/g, "\"\"")}"`)]
  writeFileSync(path, lines.join("\n") + "\n")
}

const run = (input: string, output: string, n: number) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "score", input, "--output", output, "--attributes", attributes, "--workers", String(n)], {
      stdio: ["ignore", "inherit", "pipe"],
      env: { ...process.env, DECORUM_ENGINE: "local" }
    })
    let err = ""
    child.stderr.on("data", (c: Buffer) => (err += c.toString()))
    child.on("exit", (code) => (code === 0 ? resolve(err.trim().split("\n").pop()!) : reject(new Error(`decorum score exited with ${code}:\n${err}`))))
  })

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "decorum-bench-score-"))
  try {
    const input = join(dir, "comments.csv")
    generate(input)
    console.log(`${rows.toLocaleString("en-US")} generated comments, attributes ${attributes}.\n`)
    for (const n of [...new Set([1, workers])]) {
      const before = loadavg()[0]!.toFixed(1)
      const line = await run(input, join(dir, `scores-${n}.jsonl`), n)
      console.log(`--workers ${n}: ${line} [load average ${before} before, ${loadavg()[0]!.toFixed(1)} after]`)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
