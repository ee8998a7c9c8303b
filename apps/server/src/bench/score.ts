/**
 * `npm run bench:score`: comments per second of `decorum score` on one file, with 1 worker and with
 * N (default: one per core), three attributes, as the command's own summary line reports them
 * (wall time from the start of scoring, worker start-up included).
 *
 * The file is generated: BENCH_ROWS (default 100,000) comments of typical forum length, built
 * deterministically from sentence fragments (some polite, some rude), as CSV with an id column.
 * Options (env): BENCH_ROWS, BENCH_WORKERS (the N, default the number of cores),
 * BENCH_ATTRIBUTES (default TOXICITY,INSULT,PROFANITY).
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { availableParallelism, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const rows = Number(process.env["BENCH_ROWS"] ?? 100_000)
const workers = Number(process.env["BENCH_WORKERS"] ?? availableParallelism())
const attributes = process.env["BENCH_ATTRIBUTES"] ?? "TOXICITY,INSULT,PROFANITY"
const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "bin.js")

const OPENINGS = [
  "I think the council is wrong about the library budget",
  "Thanks for writing this, it was really helpful",
  "This is the dumbest thing I have read all week",
  "Has anyone checked the numbers in the second table",
  "My neighbour said the same thing at the meeting",
  "You clearly have no idea what you are talking about",
  "Great photos, the bridge looks amazing at night",
  "Honestly the referee ruined the whole match"
]
const MIDDLES = [
  "and frankly the plan is a stupid waste of money",
  "because the report leaves out the cost of maintenance",
  "so I would like to see the sources before I believe it",
  "but the comments here are full of idiots as usual",
  "which is why I stopped reading this paper years ago",
  "and I hope the mayor reads it before the vote",
  "although the article could have been shorter",
  "and whoever wrote this should be ashamed of themselves"
]
const ENDINGS = [".", "!", "?", "... just saying.", ". Shut up already.", ". Well done!", ". What a joke.", ". Cheers."]

/** A deterministic pseudo-random sequence, so every run scores the same file. */
const lcg = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648

const generate = (path: string) => {
  const next = lcg(13)
  const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(next() * xs.length)]!
  const lines = ["id,text"]
  for (let i = 0; i < rows; i++) {
    const sentences = 1 + Math.floor(next() * 3)
    const text = Array.from({ length: sentences }, () => `${pick(OPENINGS)} ${pick(MIDDLES)}${pick(ENDINGS)}`).join(" ")
    lines.push(`${i},"${text.replace(/"/g, "\"\"")} (#${i})"`)
  }
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
      const line = await run(input, join(dir, `scores-${n}.jsonl`), n)
      console.log(`--workers ${n}: ${line}`)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
