#!/usr/bin/env node
import { isMainThread, parentPort, workerData } from "node:worker_threads"
import { unsupported } from "./NodeVersion.js"

// Checked before the command (and with it the SQLite driver) is loaded: an unsupported Node.js gets
// a sentence and exit 1, not a native crash halfway through a command.
const refused = unsupported(process.versions.node)
if (refused !== undefined) {
  process.stderr.write(`decorum: ${refused}\n`)
  process.exitCode = 1
} else if (!isMainThread && parentPort !== null && (workerData as Record<string, unknown> | null)?.["decorum-score-worker"] === true) {
  // A worker thread of `decorum score` (started on this same script): it scores, it runs no command.
  const { Archive } = await import("@decorum/engine")
  await Archive.runWorker(parentPort)
} else if (!isMainThread && parentPort !== null && (workerData as Record<string, unknown> | null)?.["decorum-refit-worker"] === true) {
  // A refit's worker thread (started by `decorum serve` on this same script): it fits, and ends.
  const { RefitWorker } = await import("@decorum/engine")
  await RefitWorker.runRefitWorker(parentPort, (workerData as { job: Parameters<typeof RefitWorker.runRefitWorker>[1] }).job)
} else {
  const { run } = await import("./Cli.js")
  run(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code
    },
    (error) => {
      process.stderr.write(`decorum: ${error instanceof Error ? error.stack : String(error)}\n`)
      process.exitCode = 1
    }
  )
}
