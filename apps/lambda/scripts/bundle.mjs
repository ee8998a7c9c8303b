#!/usr/bin/env node
/**
 * `npm run bundle:lambda`: bundles the Lambda handler (apps/lambda/src/main.ts) and everything it
 * imports, from the TypeScript sources, into apps/lambda/dist/: handler.mjs, which exports `handler`,
 * and the chunks it imports on demand (what a cold start does not need, such as the 3.3 MB script
 * of the `/docs` page, is neither read nor parsed until a request asks for it). The model files (packages/local/models/, when present) are copied beside it
 * into dist/models/, where the handler finds them (DECORUM_MODEL_DIR).
 *
 * onnxruntime-node (a native addon, the judge's runtime) is not bundled either: the judge resolves it
 * at run time (`createRequire`, on its worker thread), so the bundle builds without it and a
 * function deployed without it serves the linear models (`/readyz` says the judge is unavailable).
 *
 * better-sqlite3 (a native addon) is not bundled: the Lambda store is PostgreSQL. A stub takes its
 * place and says so if anything ever tries to open a SQLite file. pg's optional native binding
 * (pg-native) is left out the same way node-postgres itself allows.
 */
import { build } from "esbuild"
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { lazyScalar } from "../../../scripts/bundle-plugins.mjs"
import { sourceAliases } from "../../../scripts/workspaces.mjs"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const args = process.argv.slice(2)
// --outdir DIR: build elsewhere than apps/lambda/dist (tests); --link-models: link models/ to the
// repository's instead of copying 100 MB (a test's bundle, never one to deploy)
const outDir = args.includes("--outdir") ? args[args.indexOf("--outdir") + 1] : join(root, "apps/lambda/dist")
const linkModels = args.includes("--link-models")
const outfile = join(outDir, "handler.mjs")
const js = () => readdirSync(outDir).filter((f) => f.endsWith(".mjs"))

const noSqlite = {
  name: "no-sqlite",
  setup(b) {
    b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: "better-sqlite3", namespace: "no-sqlite" }))
    b.onLoad({ filter: /.*/, namespace: "no-sqlite" }, () => ({
      contents: `export default function Database() {
  throw new Error("SQLite is not part of the Lambda bundle: set DECORUM_DB (or DATABASE_URL) to a postgres:// URL")
}`,
      loader: "js"
    }))
  }
}

// dist/ holds only what is deployed (the TypeScript output of this workspace goes to lib/).
rmSync(outDir, { recursive: true, force: true })
mkdirSync(outDir, { recursive: true })

const started = performance.now()
await build({
  entryPoints: { handler: join(root, "apps/lambda/src/main.ts") },
  outdir: outDir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node22",
  minify: true,
  keepNames: true,
  legalComments: "linked",
  external: ["pg-native", "onnxruntime-node"],
  plugins: [noSqlite, lazyScalar],
  alias: sourceAliases(),
  // CommonJS dependencies bundled into an ES module still call `require` for Node's built-ins.
  banner: { js: `import { createRequire as __decorumCreateRequire } from "node:module"; const require = __decorumCreateRequire(import.meta.url);` },
  logLevel: "warning"
})

const models = join(root, "packages/local/models")
const copied = existsSync(models)
// models/encoder/ (the judge's sentence encoder and heads, 14 MB) is copied too: the judge runs when
// onnxruntime-node is present beside the bundle (a layer, or node_modules in the zip), and without
// it the function serves the linear models and /readyz says why (docs/deploy-lambda.md).
if (copied && linkModels) symlinkSync(models, join(outDir, "models"))
else if (copied) cpSync(models, join(outDir, "models"), { recursive: true })

const kib = (n) => `${(n / 1024).toFixed(0)} KiB`
const modelBytes = copied
  ? readdirSync(join(outDir, "models"), { recursive: true })
    .map((f) => join(outDir, "models", String(f)))
    .filter((f) => statSync(f).isFile())
    .reduce((sum, f) => sum + statSync(f).size, 0)
  : 0
console.log(
  `bundle: ${relative(root, outfile)} ${kib(statSync(outfile).size)} (${js().length} files, ${kib(js().reduce((sum, f) => sum + statSync(join(outDir, f)).size, 0))}) in ${Math.round(performance.now() - started)} ms` +
    (copied ? `; models: ${relative(root, join(outDir, "models"))} ${kib(modelBytes)}` : "; no packages/local/models to copy (the lexicon model needs none)")
)
