// The workspaces' source entry points, derived from the root package.json, for the tools that run
// or bundle TypeScript sources directly (vitest, the Lambda bundle, the server's process tests).
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

export const root = join(dirname(fileURLToPath(import.meta.url)), "..")

/** `{ "@decorum/core": "/abs/packages/core/src/index.ts", ... }` for every workspace. */
export const sourceAliases = () => {
  const { workspaces } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
  return Object.fromEntries(
    workspaces.map((dir) => {
      const { name } = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"))
      return [name, join(root, dir, "src", "index.ts")]
    })
  )
}

/**
 * The same, plus every subpath entry point a workspace exports (`"./testing"` ->
 * `@decorum/core/testing` -> `packages/core/src/testing/index.ts`), listed before the package
 * itself so that the longer name matches first (for vitest and the server's process tests, whose
 * bundle imports `@decorum/http/node`; the Lambda bundle imports no subpath).
 */
export const sourceAliasesWithSubpaths = () => {
  const { workspaces } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
  const subpaths = workspaces.flatMap((dir) => {
    const { exports = {}, name } = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"))
    return Object.keys(exports)
      .filter((key) => key.startsWith("./") && key !== "./package.json")
      .map((key) => [`${name}/${key.slice(2)}`, join(root, dir, "src", key.slice(2), "index.ts")])
  })
  return Object.fromEntries([...subpaths, ...Object.entries(sourceAliases())])
}
