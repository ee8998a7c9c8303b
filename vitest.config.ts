import { defineConfig } from "vitest/config"
import { sourceAliasesWithSubpaths } from "./scripts/workspaces.mjs"

// Tests run against the TypeScript sources of every workspace, so `npm test` needs no build.
export default defineConfig({
  resolve: { alias: sourceAliasesWithSubpaths() },
  test: {
    include: ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["scripts/require-node.ts"]
  }
})
