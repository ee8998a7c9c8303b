// The workspaces' source entry points, derived from the root package.json, for the tools that run
// or bundle TypeScript sources directly (vitest, the Lambda bundle, the server's process tests).
import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

export const root = join(dirname(fileURLToPath(import.meta.url)), "..")

/**
 * `{ "@decorum/core": "/abs/packages/core/src/index.ts", ... }` for every workspace with a
 * `src/index.ts` (packages/training and apps/bench have none: nothing imports them).
 */
export const sourceAliases = () => {
  const { workspaces } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
  return Object.fromEntries(
    workspaces.filter((dir) => existsSync(join(root, dir, "src", "index.ts"))).map((dir) => {
      const { name } = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"))
      return [name, join(root, dir, "src", "index.ts")]
    })
  )
}

/**
 * The same, plus every subpath entry point a workspace exports, at the source file of its built
 * module (`"./testing"` -> `./dist/testing/index.js` -> `@decorum/core/testing` ->
 * `packages/core/src/testing/index.ts`; `@decorum/local/Featurizer` -> `packages/local/src/Featurizer.ts`), listed before the package
 * itself so that the longer name matches first (for vitest and the server's process tests, whose
 * bundle imports `@decorum/http/node`; the Lambda bundle imports no subpath).
 */
export const sourceAliasesWithSubpaths = () => {
  const sourceOf = (built) => built.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")
  const { workspaces } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
  const subpaths = workspaces.flatMap((dir) => {
    const { exports = {}, name } = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"))
    return Object.keys(exports)
      .filter((key) => key.startsWith("./") && key !== "./package.json")
      .map((key) => [`${name}/${key.slice(2)}`, join(root, dir, sourceOf(exports[key].default))])
  })
  return Object.fromEntries([...subpaths, ...Object.entries(sourceAliases())])
}

/**
 * An esbuild plugin that bundles every workspace (`@decorum/*` and its subpath entry points) from
 * its TypeScript sources and leaves every other bare specifier external, for Node to resolve at run
 * time (packages/training/run.mjs and the bundles it builds).
 */
export const workspaceSourcesPlugin = () => {
  const sources = sourceAliasesWithSubpaths()
  return {
    name: "workspace-sources",
    setup: (build) => {
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path in sources ? { path: sources[args.path] } : { path: args.path, external: true })
    }
  }
}
