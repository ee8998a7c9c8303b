#!/usr/bin/env node
// The `decorum` command. A committed shim so npm can link the bin at install time, before the
// TypeScript build (the root `prepare` script) has produced dist/.
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
