// `npm test`: vitest run, on a supported Node.js. On an older one (many machines still carry Node
// 20) it runs again under the Node.js 24 that `decorum` fetches once from the npm registry
// (apps/server/bin/node-runtime.mjs), so the README's test command works on a fresh machine.
// Arguments pass through: `npm test -- packages/core`.
import { join } from "node:path"
import { REPO_DIR, reexecIfUnsupported } from "../apps/server/bin/node-runtime.mjs"

const vitest = join(REPO_DIR, "node_modules", "vitest", "vitest.mjs")
const args = ["run", ...process.argv.slice(2)]
if (!reexecIfUnsupported([vitest, ...args])) {
  process.argv = [process.argv[0], vitest, ...args]
  await import(vitest)
}
