#!/usr/bin/env node
/**
 * Bundles the `decorum` command (apps/server/src/bin.ts and everything it imports, npm packages
 * included) with esbuild into apps/server/dist/bundle/, one entry plus lazily loaded chunks, so a
 * command resolves a few files instead of the thousands of modules of effect, @effect/* and the
 * workspaces (issue 26: `decorum --version` spent most of its time in Node's module resolution).
 * Run by the root `prepare` script after `tsc -b`; the shim (apps/server/bin/decorum.mjs) prefers
 * the bundle and falls back to dist/bin.js.
 *
 * Left external: native addons and what only they load (better-sqlite3, pg-native). A source file
 * that finds files beside itself through `import.meta.url` (the shipped model directory) is
 * rewritten to find them from the chunk's place, so the bundle reads the same files as the sources.
 */
import { build } from "esbuild"
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { lazyScalar } from "./bundle-plugins.mjs"
import { sourceAliasesWithSubpaths } from "./workspaces.mjs"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
// `--outdir DIR` bundles elsewhere (the test of the bundle does); default apps/server/dist/bundle.
const at = process.argv.indexOf("--outdir")
const outdir = at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : join(root, "apps/server/dist/bundle")

/** `import.meta.url` in a workspace source means that source's own place, not the chunk's. */
const ownUrl = {
  name: "own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /[\\/](packages|apps)[\\/][^\\/]+[\\/]src[\\/].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8")
      if (!source.includes("import.meta.url")) return undefined
      const fromChunk = relative(outdir, args.path).split("\\").join("/")
      return {
        contents: source.replaceAll("import.meta.url", `new URL(${JSON.stringify(fromChunk)}, import.meta.url).href`),
        loader: "ts"
      }
    })
  }
}

rmSync(outdir, { recursive: true, force: true })
const started = performance.now()
await build({
  entryPoints: { decorum: join(root, "apps/server/src/bin.ts") },
  outdir,
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node22",
  external: ["better-sqlite3", "pg-native"],
  alias: sourceAliasesWithSubpaths(),
  plugins: [ownUrl, lazyScalar],
  // Less source to read and decode on every start; names kept for stack traces and spans.
  minify: true,
  keepNames: true,
  legalComments: "linked",
  // CommonJS dependencies bundled into an ES module still call `require` for Node's built-ins.
  banner: { js: `import { createRequire as __decorumCreateRequire } from "node:module"; const require = __decorumCreateRequire(import.meta.url);` },
  logLevel: "warning"
})
const bytes = readdirSync(outdir).reduce((sum, f) => sum + statSync(join(outdir, f)).size, 0)
console.log(`bundle-cli: ${relative(root, outdir)} ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${Math.round(performance.now() - started)} ms`)
