/**
 * The package's dependency rule (packages/local/README.md), checked on the import statements of
 * every source file:
 * - nothing under src/ imports training code (packages/training/) or anything else outside src/;
 * - internal/ imports only internal/ and the AttributeModel port;
 * - evaluators/ and relevance/ never import a model set (models/), and neither imports the other
 *   (evaluators and models meet at the ports, AttributeModel, FallacyModel, SpanModel, LanguageModels and Judge);
 * - models/ never imports evaluators/ or relevance/;
 * - the package barrel exports nothing from internal/.
 * And the package as npm packs it (`files`) carries the model directory the runtime reads.
 */
import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const src = join(pkg, "src")

const sources = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  )

/** Relative imports (static and dynamic, including `export ... from`) of a file, as paths under packages/local. */
const importsOf = (file: string): Array<string> => {
  const text = readFileSync(file, "utf8")
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => m[1]!)
  return specs.map((s) => relative(pkg, resolve(dirname(file), s)))
}

const area = (path: string): string => {
  const parts = path.split("/")
  if (parts[0] !== "src") return parts[0]!
  return parts.length === 2 ? parts[1]! : parts[1]!
}

const edges = sources(src).flatMap((file) => importsOf(file).map((to) => ({ from: relative(pkg, file), to })))

describe("packages/local layout", () => {
  it("finds the source tree and its imports", () => {
    assert.isAbove(edges.length, 50)
    for (const a of ["evaluators", "models", "relevance", "internal"]) assert.isTrue(edges.some((e) => area(e.from) === a))
  })

  it("keeps training code out of reach of the runtime", () => {
    assert.deepStrictEqual(edges.filter((e) => !e.to.startsWith("src/")), [])
  })

  it("keeps internal/ free of the public modules", () => {
    assert.deepStrictEqual(edges.filter((e) => area(e.from) === "internal" && !(area(e.to) === "internal" || e.to === "src/AttributeModel.js")), [])
  })

  it("keeps evaluators, models and relevance independent of each other", () => {
    const allowed: Record<string, ReadonlyArray<string>> = {
      evaluators: ["evaluators", "internal", "AttributeModel.js", "FallacyModel.js", "SpanModel.js", "DogWhistleModel.js", "AiTextModel.js", "LanguageModels.js", "Judge.js"],
      models: ["models", "internal", "AttributeModel.js", "FallacyModel.js", "SpanModel.js", "DogWhistleModel.js", "AiTextModel.js", "LanguageModels.js"],
      relevance: ["relevance", "internal"]
    }
    const broken = edges.filter((e) => {
      const rule = allowed[area(e.from)]
      return rule !== undefined && !rule.includes(area(e.to))
    })
    assert.deepStrictEqual(broken, [])
  })

  it("exports nothing from internal/ through the package barrels", () => {
    const barrels = ["src/index.ts", "src/evaluators/index.ts", "src/models/index.ts", "src/relevance/index.ts"]
    const leaks = barrels.flatMap((b) =>
      [...readFileSync(join(pkg, b), "utf8").matchAll(/export[^;\n]*from\s*"([^"]+)"/g)].map((m) => m[1]!).filter((s) => s.includes("internal/"))
    )
    assert.deepStrictEqual(leaks, [])
  })
})

describe("the package as npm packs it (npm run pack:embedded)", () => {
  it("ships the model directory the runtime reads by default, with every file the shipped set names", async () => {
    // A project outside the repository installs the packed tarball, which holds only what `files`
    // lists: the default model directory must be in it, or the trained models are missing there.
    const { defaultModelDirectory } = await import("../src/models/TrainedModel.js")
    const files: ReadonlyArray<string> = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).files
    const modelDir = relative(pkg, defaultModelDirectory())
    assert.isFalse(modelDir.startsWith(".."))
    assert.isTrue(files.some((entry) => modelDir === entry || modelDir.startsWith(`${entry}/`)))
    const shipped = readdirSync(defaultModelDirectory())
    for (const name of ["manifest.json", "toxicity.bin", "spans.json", "spans.bin", "fallacy.json", "fallacy.bin"]) assert.include(shipped, name)
  })
})
