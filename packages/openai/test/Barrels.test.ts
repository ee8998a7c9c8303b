/**
 * Test doubles stay out of the production barrels: they are reached through each package's
 * `testing` entry point, which the package's `exports` declare.
 */
import * as Core from "@decorum/core"
import * as CoreTesting from "@decorum/core/testing"
import * as OpenAi from "@decorum/openai"
import * as OpenAiTesting from "@decorum/openai/testing"
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const exportsOf = (pkg: string) => Object.keys(JSON.parse(readFileSync(join(root, pkg, "package.json"), "utf8")).exports)

describe("test doubles", () => {
  it("are not in the production barrels", () => {
    assert.notProperty(Core, "TestProviders")
    assert.notProperty(OpenAi, "FakeChatServer")
    assert.notProperty(OpenAi, "LocalStub")
  })

  it("are in each package's testing entry point, declared in its exports", () => {
    assert.property(CoreTesting, "TestProviders")
    assert.property(OpenAiTesting, "FakeChatServer")
    assert.property(OpenAiTesting, "LocalStub")
    assert.deepStrictEqual(exportsOf("packages/core"), [".", "./testing"])
    assert.deepStrictEqual(exportsOf("packages/openai"), [".", "./testing"])
  })
})
