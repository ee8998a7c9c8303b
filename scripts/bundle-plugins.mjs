// esbuild plugins shared by the bundles of the `decorum` command (scripts/bundle-cli.mjs) and the
// Lambda handler (apps/lambda/scripts/bundle.mjs).
import { readFileSync } from "node:fs"

/**
 * `@effect/platform`'s index re-exports `HttpApiScalar`, whose module holds the 3.3 MB script of
 * the `/docs` page. Through that re-export the script is reachable from every entry point, so code
 * splitting puts it in a chunk loaded at start-up even though only `/docs` (which imports
 * `@effect/platform/HttpApiScalar` on its first request, `packages/http/src/HttpApp.ts`) uses it.
 * Without the re-export it lands in a chunk of its own, read when `/docs` is first asked for.
 */
export const lazyScalar = {
  name: "lazy-scalar",
  setup(b) {
    b.onLoad({ filter: /[\\/]@effect[\\/]platform[\\/]dist[\\/]esm[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8")
      const line = /^export \* as HttpApiScalar from "\.\/HttpApiScalar\.js";$/m
      if (!line.test(source)) throw new Error(`lazy-scalar: ${args.path} no longer re-exports HttpApiScalar as expected`)
      return { contents: source.replace(line, ""), loader: "js" }
    })
  }
}
