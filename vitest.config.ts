import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const src = (dir: string) => fileURLToPath(new URL(`./${dir}/src/index.ts`, import.meta.url))

// Tests run against the TypeScript sources of every workspace, so `npm test` needs no build.
export default defineConfig({
  resolve: {
    alias: {
      "@decorum/domain": src("packages/domain"),
      "@decorum/core": src("packages/core"),
      "@decorum/local": src("packages/local"),
      "@decorum/openai": src("packages/openai"),
      "@decorum/store-sql": src("packages/store-sql"),
      "@decorum/http": src("packages/http"),
      "@decorum/embedded": src("apps/embedded"),
      "@decorum/lambda": src("apps/lambda"),
      "@decorum/server": src("apps/server")
    }
  },
  test: {
    include: ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: process.env.CI ? ["default"] : ["default"]
  }
})
