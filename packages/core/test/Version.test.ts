import { ENGINE_VERSION } from "@decorum/core"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

describe("ENGINE_VERSION", () => {
  it("is the version of the root package and of every workspace (X-Engine-Version names the release)", () => {
    const root = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"))
    expect(ENGINE_VERSION).toBe(root.version)
    for (const dir of root.workspaces as Array<string>) {
      const pkg = JSON.parse(readFileSync(new URL(`../../../${dir}/package.json`, import.meta.url), "utf8"))
      expect(`${pkg.name}@${pkg.version}`).toBe(`${pkg.name}@${ENGINE_VERSION}`)
    }
  })
})
