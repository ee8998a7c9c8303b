/** The `decorum` command's Node.js check: the supported lines run, older ones get a sentence. */
import { assert, describe, it } from "@effect/vitest"
import { MINIMUM_MAJOR, SUPPORTED_LINES, majorOf, unsupported } from "../src/NodeVersion.js"

describe("NodeVersion", () => {
  it("accepts the supported LTS lines and newer ones", () => {
    assert.deepStrictEqual<unknown>(SUPPORTED_LINES, [22, 24])
    for (const v of ["22.0.0", "22.23.3", "v24.21.0", "24.0.0", "26.1.0"]) assert.isUndefined(unsupported(v))
  })

  it("refuses Node.js 20 and older with the supported lines and the version it saw", () => {
    assert.strictEqual(unsupported("20.20.2"), "Decorum needs Node.js 22 or 24 (LTS); this is Node.js v20.20.2. Install a supported Node.js (https://nodejs.org), then run `npm ci` again so the native modules match it.")
    assert.include(unsupported("v18.19.0")!, "this is Node.js v18.19.0")
    assert.isDefined(unsupported("21.7.3"))
    assert.isDefined(unsupported("garbage"))
  })

  it("the running Node.js is one the suite supports", () => {
    // CI runs the suite on each supported line; a run on an older Node.js fails here by name.
    assert.isAtLeast(majorOf(process.versions.node), MINIMUM_MAJOR)
  })
})
