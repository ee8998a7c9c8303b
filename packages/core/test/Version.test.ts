import { ENGINE_VERSION } from "@decorum/core"
import { readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"

describe("ENGINE_VERSION", () => {
  it("is the version of the root package and of every workspace (X-Engine-Version names the release)", () => {
    const root = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"))
    assert.strictEqual(ENGINE_VERSION, root.version)
    for (const dir of root.workspaces as Array<string>) {
      const pkg = JSON.parse(readFileSync(new URL(`../../../${dir}/package.json`, import.meta.url), "utf8"))
      assert.strictEqual(`${pkg.name}@${pkg.version}`, `${pkg.name}@${ENGINE_VERSION}`)
    }
  })
})
