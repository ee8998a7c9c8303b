#!/usr/bin/env node
// The `decorum` command. A committed shim so npm can link the bin at install time, before the
// TypeScript build (the root `prepare` script) has produced dist/. On a Node.js older than 22 it
// runs itself again under a Node.js 24 fetched once from the npm registry (./node-runtime.mjs).
import { fileURLToPath } from "node:url"
import { reexecIfUnsupported } from "./node-runtime.mjs"

if (!reexecIfUnsupported([fileURLToPath(import.meta.url), ...process.argv.slice(2)])) {
  try {
    await import("../dist/bin.js")
  } catch (error) {
    if (error && error.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/bin.js")) {
      process.stderr.write("decorum: the build is missing; run `npm run build` in the repository first.\n")
      process.exitCode = 1
    } else {
      throw error
    }
  }
}
