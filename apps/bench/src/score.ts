/**
 * `npm run bench:score`: comments per second of `decorum score` on one file, with 1 worker and with
 * N (default: one per core), three attributes, as the command's own summary line reports them
 * (wall time and CPU time of every thread from the moment every worker had loaded its models),
 * with the one-minute load average before and after each run: the machine may be shared.
 *
 * The file is generated: BENCH_ROWS (default 100,000) comments of typical forum length, built
 * deterministically from sentence fragments (some polite, some rude), as CSV with an id column.
 * The judge (issue 27): each run is made under each `DECORUM_JUDGE` setting of BENCH_JUDGE
 * (default `linear,cascade,neural`; the judged settings on the first BENCH_JUDGE_ROWS rows only,
 * default 5,000, since the encoder scores a few hundred comments a second where the linear models
 * score tens of thousands).
 *
 * Options (env): BENCH_ROWS, BENCH_WORKERS (the N, default the number of cores),
 * BENCH_ATTRIBUTES (default TOXICITY,INSULT,PROFANITY), BENCH_JUDGE, BENCH_JUDGE_ROWS.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { availableParallelism, loadavg, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { benchComments } from "./comments.js"

const rows = Number(process.env["BENCH_ROWS"] ?? 100_000)
const workers = Number(process.env["BENCH_WORKERS"] ?? availableParallelism())
const attributes = process.env["BENCH_ATTRIBUTES"] ?? "TOXICITY,INSULT,PROFANITY"
// The command as users run it: the shim, which runs the bundle (and so do the workers it starts).
const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "server", "bin", "decorum.mjs")

const judgeModes = (process.env["BENCH_JUDGE"] ?? "linear,cascade,neural").split(",").map((m) => m.trim()).filter((m) => m !== "")
const judgeRows = Number(process.env["BENCH_JUDGE_ROWS"] ?? 5_000)

const generate = (path: string, count: number) => {
  const lines = ["id,text", ...benchComments(count).map((text, i) => `${i},"${text.replace(/"/g, "\"\"")}"`)]
  writeFileSync(path, lines.join("\n") + "\n")
}

const run = (input: string, output: string, n: number, judge: string) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "score", input, "--output", output, "--attributes", attributes, "--workers", String(n)], {
      stdio: ["ignore", "inherit", "pipe"],
      env: { ...process.env, DECORUM_ENGINE: "local", DECORUM_JUDGE: judge }
    })
    let err = ""
    child.stderr.on("data", (c: Buffer) => (err += c.toString()))
    child.on("exit", (code) => (code === 0 ? resolve(err.trim().split("\n").pop()!) : reject(new Error(`decorum score exited with ${code}:\n${err}`))))
  })

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "decorum-bench-score-"))
  try {
    for (const judge of judgeModes) {
      const count = judge === "linear" ? rows : Math.min(rows, judgeRows)
      const input = join(dir, `comments-${count}.csv`)
      generate(input, count)
      console.log(`DECORUM_JUDGE=${judge}: ${count.toLocaleString("en-US")} generated comments, attributes ${attributes}.`)
      for (const n of [...new Set([1, workers])]) {
        const before = loadavg()[0]!.toFixed(1)
        const line = await run(input, join(dir, `scores-${judge}-${n}.jsonl`), n, judge)
        const judged = readFileSync(join(dir, `scores-${judge}-${n}.jsonl`), "utf8").split("\n").filter((l) => l.includes("+judge")).length
        console.log(`  --workers ${n}: ${line} [${judged.toLocaleString("en-US")} rows judged; load average ${before} before, ${loadavg()[0]!.toFixed(1)} after]`)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
