/**
 * The training workspace's dependency rule: it reads @decorum/local only through the package's
 * entry points (`@decorum/local` and the subpaths its package.json exports), never a file of its
 * `src/` (so `internal/` stays free to change). By a relative path it reaches only its own files,
 * packages/local's shared text fixtures (test/: the guardrail sentences, the comment corpus, the
 * golden texts, which its tests and the training scripts both read) and scripts/workspaces.mjs.
 */
import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const local = resolve(pkg, "../local")

const files = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name.startsWith(".") || e.name === "node_modules" ? [] :
      e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : []
  )

/** Every import specifier (static, dynamic and `export ... from`) of a file. */
const importsOf = (file: string): Array<string> =>
  [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!)

const edges = files(pkg).flatMap((file) => importsOf(file).map((spec) => ({ from: relative(pkg, file), spec })))

describe("packages/training layout", () => {
  it("finds the training code and its imports", () => {
    assert.isAbove(edges.filter((e) => e.spec.startsWith("@decorum/local")).length, 50)
  })

  it("imports @decorum/local only through its exported entry points", () => {
    const exported = Object.keys((JSON.parse(readFileSync(join(local, "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports)
      .map((key) => (key === "." ? "@decorum/local" : `@decorum/local/${key.slice(2)}`))
    assert.deepStrictEqual(edges.filter((e) => e.spec.startsWith("@decorum/local") && !exported.includes(e.spec)), [])
  })

  it("reaches no file of another workspace by a relative path, except packages/local's text fixtures", () => {
    const outside = edges.filter((e) => {
      if (!e.spec.startsWith(".")) return false
      const to = resolve(pkg, dirname(e.from), e.spec)
      if (to.startsWith(pkg + "/")) return false
      return !(to.startsWith(join(local, "test") + "/") || to === resolve(pkg, "../../scripts/workspaces.mjs"))
    })
    assert.deepStrictEqual(outside, [])
  })
})
