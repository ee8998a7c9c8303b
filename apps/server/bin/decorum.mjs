#!/usr/bin/env node
// The `decorum` command. A committed shim so npm can link the bin at install time, before the
// build (the root `prepare` script) has produced dist/. On a Node.js older than 22 it runs itself
// again under a Node.js 24 fetched once from the npm registry (./node-runtime.mjs).
//
// It runs the bundled command (dist/bundle/, scripts/bundle-cli.mjs: a few files instead of thousands
// of modules to resolve) with V8's compile cache on, so `decorum --version` or `decorum keys list`
// answers in a fraction of a second; without the bundle, the TypeScript build (dist/bin.js).
import module from "node:module"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { reexecIfUnsupported } from "./node-runtime.mjs"

if (!reexecIfUnsupported([fileURLToPath(import.meta.url), ...process.argv.slice(2)])) {
  // Compiled code is cached under the system's temporary directory (NODE_COMPILE_CACHE moves it,
  // NODE_DISABLE_COMPILE_CACHE=1 turns it off); a changed bundle is compiled afresh.
  module.enableCompileCache?.()
  const bundled = new URL("../dist/bundle/decorum.js", import.meta.url)
  try {
    await import(existsSync(bundled) ? bundled.href : "../dist/bin.js")
  } catch (error) {
    if (error && error.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/bin.js")) {
      process.stderr.write("decorum: the build is missing; run `npm run build` in the repository first.\n")
      process.exitCode = 1
    } else {
      throw error
    }
  }
}
