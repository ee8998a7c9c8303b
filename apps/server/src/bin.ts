#!/usr/bin/env node
import { run } from "./Cli.js"

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    process.stderr.write(`decorum: ${error instanceof Error ? error.stack : String(error)}\n`)
    process.exitCode = 1
  }
)
